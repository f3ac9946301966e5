// An interrupted record (issue 69 part 5). `afp run --record FILE` writes FILE whole or not at all:
// a kill -9 mid-run leaves the previous FILE byte for byte, and a Ctrl-C mid-run writes a record
// that says `complete: false` with the count of the exchanges it holds (before, the partial record
// said `complete: true`). The million-agent scenario runs for minutes, so the signals land mid-run.
// Real child processes of the CLI.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { interruptCliChild, runCliChild } from '../fixtures/cli-child.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-record-interrupt-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const ROOT = join(import.meta.dirname, '..', '..');
const scenario = (name: string): string => join(ROOT, 'scenarios', `${name}.yaml`);

async function previousRecord(file: string): Promise<string> {
  const made = await runCliChild(
    ['run', scenario('tiers-and-faults'), '--out', join(DIR, 'before'), '--record', file, '--quiet'],
    {
      timeoutMs: 120_000,
    },
  );
  expect(made.code, made.stderr).toBe(0);
  return readFileSync(file, 'utf8');
}

describe('afp run --record, interrupted', () => {
  test('kill -9 mid-run: the previous record is left byte for byte', async () => {
    const file = join(DIR, 'killed.afprec');
    const before = await previousRecord(file);
    const killed = await interruptCliChild(
      ['run', scenario('million'), '--out', join(DIR, 'killed'), '--record', file, '--quiet'],
      { ready: () => true, afterMs: 3_000, signal: 'SIGKILL' },
    );
    expect(killed.code).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  test('Ctrl-C mid-run: complete: false, and the exchanges it counts are the lines it holds', async () => {
    const file = join(DIR, 'interrupted.afprec');
    await previousRecord(file);
    const stopped = await interruptCliChild(
      ['run', scenario('million'), '--out', join(DIR, 'interrupted'), '--record', file, '--quiet'],
      { ready: () => true, afterMs: 4_000, signal: 'SIGINT' },
    );
    expect(stopped.stderr).toContain('afp run: interrupted: stopping and writing the reports so far');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '') as { scenario: string; complete: boolean; exchanges: number };
    expect(header.scenario).toBe('million');
    expect(header.complete).toBe(false);
    expect(header.exchanges).toBe(lines.length - 1);
    expect(header.exchanges).toBeGreaterThan(0);
  });
});
