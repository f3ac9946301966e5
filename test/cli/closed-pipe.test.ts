// A reader that goes away (`afp run … | head -1`) ends afp's printing, not its work
// (src/cli/main.ts): the command goes on, writes its reports and exits with its own code, with no
// stack trace. Through a real shell pipe into `head`, as a user types it: head exits after the
// first line, which afp prints before the run, so every later line meets a closed pipe. Before the
// fix the first of them threw EPIPE: a stack trace and exit 1, the code for afp's own crash.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/core/exit-codes.ts';
import { CLI_MAIN } from '../fixtures/cli-child.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'afp-closed-pipe-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const REPORTS = ['agents.csv', 'endpoints.csv', 'escrows.csv', 'events.jsonl', 'summary.json'];
/** Faucet claims within a day: what the mint-on-claim defect needs to break conservation. */
const CLAIMING = join(work, 'claiming.yaml');
writeFileSync(
  CLAIMING,
  'name: closed-pipe\nseed: 5\nduration: 1d\npopulations:\n  - { agent: faucet-farmer, count: 10, style: mixed }\n',
);

interface Piped {
  /** What head printed. */
  readonly shown: string;
  /** afp's exit code, from the pipeline's PIPESTATUS. */
  readonly afpExit: number;
  /** afp's stderr (when it is not piped into head too). */
  readonly stderr: string;
}

/** `afp ARGS | head -1` in bash (`2>&1 |` with `bothStreams`); bounded at 120 s. */
function pipedIntoHead(args: readonly string[], bothStreams = false): Piped {
  const quoted = [process.execPath, CLI_MAIN, ...args].map((word) => `'${word}'`).join(' ');
  const script = `${quoted} ${bothStreams ? '2>&1 ' : ''}| head -1; echo "afp-exit:\${PIPESTATUS[0]}" >&2`;
  const result = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const exit = /afp-exit:(\d+)/.exec(result.stderr);
  if (exit?.[1] === undefined) throw new Error(`no exit code from the pipeline; stderr: ${result.stderr}`);
  return { shown: result.stdout, afpExit: Number(exit[1]), stderr: result.stderr };
}

describe('afp printing into a pipe whose reader went away', () => {
  test('afp run … | head -1: exit 0, every report written, no stack trace', () => {
    const out = join(work, 'run');
    const piped = pipedIntoHead(['run', 'scenarios/k6-smoke.yaml', '--out', out, '--quiet']);
    expect(piped.shown).toBe('seed: 7\n');
    expect(piped.stderr).not.toMatch(/EPIPE|crash|at .*\.ts:\d+/);
    expect(piped.afpExit).toBe(EXIT.ok);
    expect(readdirSync(out).sort()).toEqual(REPORTS);
  });

  test('a failing run keeps its own exit code (3) through the pipe, stderr piped too', () => {
    const out = join(work, 'defect');
    const piped = pipedIntoHead(['run', CLAIMING, '--out', out, '--defect', 'mint-on-claim', '--quiet'], true);
    expect(piped.shown).toBe('seed: 5\n');
    expect(piped.stderr).not.toMatch(/EPIPE|crash/);
    expect(piped.afpExit).toBe(EXIT.checkFailed);
    // A failed run adds the failure's timeline to its reports.
    expect(readdirSync(out).sort()).toEqual([...REPORTS, 'timeline.html']);
  });
});
