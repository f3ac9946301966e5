// An interrupted record (issue 69 part 5). `afp run --record FILE` writes FILE whole or not at all:
// a kill -9 mid-run leaves the previous FILE byte for byte, and a Ctrl-C (or SIGTERM) mid-run
// writes a record that says `complete: false` with the count of the exchanges it holds (before,
// the partial record said `complete: true`), which `afp replay` reads as the prefix it is. The
// shipped quickstart scenario stretched from 7 days to a year runs for minutes, so the signals
// land mid-run, and its reports are small enough to be written at once. Real child processes of
// the CLI.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI_MAIN, interruptCliChild, runCliChild } from '../fixtures/cli-child.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-record-interrupt-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const ROOT = join(import.meta.dirname, '..', '..');
const YEAR = join(DIR, 'quickstart-year.yaml');
const PREVIOUS = join(DIR, 'previous.afprec');
/**
 * Long enough after the seed's line (printed once the CLI has loaded and read the scenario) for the
 * run to be under way. Counted from that line, not from the spawn: at load 8 on a slow machine the
 * CLI's loading alone took more than 4.5 s, and every try's signal came before the run listened.
 */
const MID_RUN_MS = 1_500;
/** How long the CLI may take to print the seed's line. */
const SEED_WAIT_MAX_MS = 60_000;
const seedShown = (output: { readonly stdout: string }): boolean => output.stdout.includes('seed: ');
/** How long a Ctrl-C'd run may take to begin writing its record, polled every POLL_MS. */
const WRITE_WAIT_MAX_MS = 30_000;
const POLL_MS = 2;
/** Tries of a run whose signal came before it listened (interruptedRun). */
const UNDER_WAY_TRIES = 3;

beforeAll(async () => {
  const quickstart = readFileSync(join(ROOT, 'scenarios', 'quickstart.yaml'), 'utf8');
  const year = quickstart.replace(/^duration: 7d$/m, 'duration: 365d').replace(/^name: quickstart$/m, 'name: year');
  expect(year).toContain('duration: 365d');
  writeFileSync(YEAR, year);
  const scenario = join(ROOT, 'scenarios', 'tiers-and-faults.yaml');
  const made = await runCliChild(['run', scenario, '--out', join(DIR, 'before'), '--record', PREVIOUS, '--quiet'], {
    timeoutMs: 120_000,
  });
  expect(made.code, made.stderr).toBe(0);
}, 130_000);

/**
 * FILE holding a previous run's whole record, and the year-long run recording into it, sent `signal`
 * mid-run. A Ctrl-C or SIGTERM that ends the child by the signal itself came before the run listened
 * for it (the CLI still loading, on a busy machine): the run was not under way, so it is tried again
 * later, at most UNDER_WAY_TRIES times.
 */
async function interruptedRun(name: string, signal: NodeJS.Signals): Promise<{ file: string; stderr: string }> {
  const file = join(DIR, `${name}.afprec`);
  for (let attempt = 1; ; attempt++) {
    copyFileSync(PREVIOUS, file);
    const stopped = await interruptCliChild(['run', YEAR, '--out', join(DIR, name), '--record', file, '--quiet'], {
      ready: seedShown,
      afterMs: MID_RUN_MS * attempt,
      signal,
    });
    if (signal === 'SIGKILL') expect(stopped.code).toBeNull();
    else if (stopped.code === null && attempt < UNDER_WAY_TRIES) continue;
    else expect(stopped.code, stopped.stderr).toBe(4);
    return { file, stderr: stopped.stderr };
  }
}

/** The header of the record in `file` and the number of exchange lines it holds. */
function readRecord(file: string): {
  header: { scenario: string; complete: boolean; exchanges: number };
  lines: number;
} {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  return { header: JSON.parse(lines[0] ?? '') as never, lines: lines.length - 1 };
}

/**
 * The year-long run recording into FILE (a previous record's copy), Ctrl-C'd mid-run and caught
 * writing its record (a temporary file of FILE shows, or FILE itself changes). A child the Ctrl-C
 * ended by itself was not under way yet (see interruptedRun): tried again later.
 */
async function writingAfterCtrlC(file: string): Promise<{ child: ChildProcess; closed: Promise<string | null> }> {
  for (let attempt = 1; ; attempt++) {
    copyFileSync(PREVIOUS, file);
    const child = spawn(process.execPath, [CLI_MAIN, 'run', YEAR, '--out', join(DIR, 'cut-write'), '--record', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const output = { stdout: '' };
    child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
    let ended = false;
    const closed = new Promise<string | null>((resolve) =>
      child.on('close', (_code, signal) => {
        ended = true;
        resolve(signal);
      }),
    );
    for (let waited = 0; !seedShown(output) && !ended && waited < SEED_WAIT_MAX_MS; waited += 50) await sleep(50);
    await sleep(MID_RUN_MS * attempt);
    child.kill('SIGINT');
    const writing = (): boolean =>
      readdirSync(DIR).some((entry) => entry.startsWith('.cut-write.afprec.')) ||
      statSync(file).size !== statSync(PREVIOUS).size;
    for (let waited = 0; !writing() && !ended && waited < WRITE_WAIT_MAX_MS; waited += POLL_MS) await sleep(POLL_MS);
    if (!ended || attempt >= UNDER_WAY_TRIES || (await closed) !== 'SIGINT') return { child, closed };
  }
}

describe('afp run --record, interrupted', () => {
  test('kill -9 mid-run: the previous record is left byte for byte, and nothing else named as a record', async () => {
    const { file } = await interruptedRun('killed', 'SIGKILL');
    expect(readFileSync(file)).toStrictEqual(readFileSync(PREVIOUS));
    expect(readdirSync(DIR).filter((entry) => entry.includes('killed.afprec'))).toEqual(['killed.afprec']);
  });

  test('kill -9 while the record is written (after a Ctrl-C): the previous record is left byte for byte', async () => {
    const file = join(DIR, 'cut-write.afprec');
    const { child, closed } = await writingAfterCtrlC(file);
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    expect(readFileSync(file)).toStrictEqual(readFileSync(PREVIOUS));
    // At most the killed writer's hidden temporary file beside it, which no reader takes for a record.
    const beside = readdirSync(DIR).filter(
      (entry) => entry.includes('cut-write.afprec') && entry !== 'cut-write.afprec',
    );
    expect(beside).toHaveLength(1);
    expect(beside[0]).toMatch(new RegExp(`^\\.cut-write\\.afprec\\.afp-${String(child.pid)}-\\d+\\.tmp$`));
  });

  test('Ctrl-C mid-run: complete: false, the exchanges it counts are the lines it holds, and afp replay reads it', async () => {
    const { file, stderr } = await interruptedRun('interrupted', 'SIGINT');
    expect(stderr).toContain('afp run: interrupted: stopping and writing the reports so far');
    const { header, lines } = readRecord(file);
    expect(header.scenario).toBe('year');
    expect(header.complete).toBe(false);
    expect(header.exchanges).toBe(lines);
    expect(lines).toBeGreaterThan(0);
    // The replay validates the whole record (every line, the count) before it looks for the target:
    // nothing listens on port 9, so it stops there, after saying what the record is.
    const replay = await runCliChild(['replay', file, '--target', 'http://127.0.0.1:9', '--out', join(DIR, 'replay')], {
      timeoutMs: 60_000,
    });
    expect(replay.stderr).not.toContain('is not a valid record');
    expect(replay.stdout).toContain(`record: ${lines} exchanges from 2026-01-01T00:00:00.000Z to `);
    expect(replay.stdout).toContain('INCOMPLETE (a prefix: the run was cut short');
  });

  test('SIGTERM mid-run: the same prefix, complete: false', async () => {
    const { file } = await interruptedRun('terminated', 'SIGTERM');
    const { header, lines } = readRecord(file);
    expect(header.complete).toBe(false);
    expect(header.exchanges).toBe(lines);
    expect(lines).toBeGreaterThan(0);
  });

  test('a record cut after it was written (its lines fewer than it counts) is refused by afp replay', async () => {
    const file = join(DIR, 'cut.afprec');
    const whole = readFileSync(PREVIOUS, 'utf8').split('\n');
    writeFileSync(file, `${whole.slice(0, 20).join('\n')}\n`);
    const replay = await runCliChild(['replay', file, '--target', 'http://127.0.0.1:9', '--out', join(DIR, 'cut')], {
      timeoutMs: 60_000,
    });
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('is not a valid record');
    expect(replay.stderr).toMatch(/the header announces \d+ exchanges, the file has 19 \(cut short\?\)/);
  });
});
