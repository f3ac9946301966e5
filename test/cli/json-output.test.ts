// `--json` on the commands that print a verdict: stdout is exactly one JSON object (the command,
// seed, verdict, exit code and the figures the human output prints), the human lines go to
// stderr. In-process, through each command's own `main` with a collecting io.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as auditMain } from '../../src/cli/audit.ts';
import { main as checkMain } from '../../src/cli/check.ts';
import { main as runMain } from '../../src/cli/run.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-json-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Collected {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function collect(
  run: (io: { out(text: string): void; err(text: string): void; errIsTty: boolean }) => Promise<number>,
): Promise<Collected> {
  let out = '';
  let err = '';
  const code = await run({ out: (text) => void (out += text), err: (text) => void (err += text), errIsTty: false });
  return { code, out, err };
}

/** The one JSON object of stdout (one line, nothing else). */
function only(out: string): Record<string, unknown> {
  expect(out.endsWith('\n')).toBe(true);
  expect(out.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(out) as Record<string, unknown>;
}

const SMALL = `name: json-small
seed: 21
duration: 6h
populations:
  - { agent: faucet-farmer, count: 3 }
  - { agent: escrow-seller, count: 2 }
  - { agent: escrow-buyer, count: 3, params: { expires_in: 2h, escrow_every: 2h } }
`;

describe('--json', () => {
  test('afp run: the seed, verdict, exit code, digest and report files; the summary on stderr', async () => {
    const file = join(work, 'small.yaml');
    writeFileSync(file, SMALL);
    const out = join(work, 'run');
    const ran = await collect((io) => runMain([file, '--out', out, '--json'], io));
    expect(ran.code).toBe(0);
    const object = only(ran.out);
    expect(object).toMatchObject({
      command: 'afp run',
      seed: '21',
      verdict: 'ok',
      exit_code: 0,
      scenario: 'json-small',
      failure: null,
      limit: null,
      out,
    });
    expect(Object.keys(object).slice(0, 4)).toEqual(['command', 'seed', 'verdict', 'exit_code']);
    expect(object['digest']).toMatch(/^[0-9a-f]{64}$/);
    expect(ran.err).toContain('seed: 21\n');
    expect(ran.err).toContain(`digest: ${String(object['digest'])}\n`);
    const plain = await collect((io) => runMain([file, '--out', join(work, 'run-plain')], io));
    expect(plain.out).toContain(`digest: ${String(object['digest'])}\n`);
  });

  test('afp run: invalid input still prints its object, with every error', async () => {
    const ran = await collect((io) => runMain([join(work, 'none.yaml'), '--sed', '1', '--json'], io));
    expect(ran.code).toBe(2);
    expect(only(ran.out)).toMatchObject({
      command: 'afp run',
      seed: null,
      verdict: 'invalid-input',
      exit_code: 2,
      errors: ['unknown flag --sed (did you mean --seed?)', 'expected one scenario FILE, got 2'],
    });
  });

  test('afp check (in-process): the runs held; a deliberate defect fails with the shrunk failure and the reproduce command', async () => {
    const ok = await collect((io) => checkMain(['--seed', '7', '--runs', '5', '--json'], io));
    expect(ok.code).toBe(0);
    expect(only(ok.out)).toMatchObject({
      command: 'afp check',
      seed: 7,
      verdict: 'ok',
      exit_code: 0,
      runs: 5,
      failure: null,
      reproduce: 'npx afp check --seed 7 --runs 5',
    });
    expect(ok.err).toContain('ok: 5 runs held');
    const failed = await collect((io) =>
      checkMain(['--seed', '7', '--runs', '50', '--defect', 'mint-on-claim', '--json'], io),
    );
    expect(failed.code, failed.err).toBe(3);
    const object = only(failed.out);
    expect(object).toMatchObject({
      command: 'afp check',
      seed: 7,
      verdict: 'failed',
      exit_code: 3,
      failure: { kind: 'mismatch' },
    });
    expect(String(object['reproduce'])).toContain('npx afp check --seed 7 --path');
  });

  test("afp audit house-edge (in-process, small --bets): the model check's figures and the rows", async () => {
    const ran = await collect((io) =>
      auditMain(
        [
          'house-edge',
          '--games',
          'dice',
          '--bets',
          '2000',
          '--seed',
          '9',
          '--workers',
          '1',
          '--out',
          join(work, 'edge'),
          '--json',
        ],
        io,
      ),
    );
    expect(ran.code).toBe(0);
    const object = only(ran.out);
    expect(object).toMatchObject({
      command: 'afp audit house-edge',
      seed: '9',
      verdict: 'ok',
      exit_code: 0,
      bets_per_game: 2000,
      model_misses: 0,
    });
    expect(object['files']).toEqual(['edges.csv', 'edges.json', 'report.html'].map((name) => join(work, 'edge', name)));
    expect((object['edges'] as { rows: unknown[] }).rows).toHaveLength(object['rows'] as number);
    expect(ran.err.split('\n')[0]).toBe('seed: 9');
  });
});
