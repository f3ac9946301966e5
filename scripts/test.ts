// What `npm test` runs: type check, lint, formatting, layers and the whole test suite, ending in one
// summary line. Why a script and not `tsc && eslint . && vitest run`: every step always runs, so one
// command shows every kind of failure at once; and the last line printed is always `N passed, M failed`,
// which CI (.ci/run) and people read without scrolling. N counts passing tests; M counts failing
// tests, plus one for each of tsc, eslint, prettier and depcruise that failed, plus one for a test
// file that could not load, plus one if vitest failed without a failing test (unhandled error,
// crash, zero tests).
// Why concurrent: the held steps and vitest are independent, and one after the other left a core of
// a 2-core machine idle; so they start together. The held steps' output is kept and printed whole
// once each ends (vitest's streams live), so the logs never interleave.
// Narrowed runs: extra arguments go to vitest only (`npm test -- test/core`, `npm test --
// --project unit`), and a run with any argument SKIPS the held steps (it says so): a narrowed run
// is for the tests at hand; `npm run typecheck`, `lint`, `format:check` and `layers` check the whole
// program, and the full `npm test` (what CI runs) always does them all.
// The held steps, and what each costs cold (a fresh clone: no cache), in CPU seconds (user + sys)
// and wall seconds, one at a time on this 2-core machine at load average 5-6 (other work on it):
// - type check and lint: ONE process, scripts/typecheck-lint.ts, builds tsc's program once, reports
//   tsc's diagnostics, then runs eslint with that program for the typed rules: 45 CPU s, 42 s (tsc
//   and eslint as two processes: 21 + 56 CPU s, 21 + 57 s). It keeps eslint's cache in
//   node_modules/.cache/eslint; its caveat: a typed rule's finding caused by a change in *another*
//   file can be missed locally until the file itself changes; CI's fresh clone lints everything. It
//   keeps tsc's incremental state in node_modules/.cache/tsc (no such caveat: tsc re-checks the
//   dependents of a changed shape): with nothing changed, 6 CPU s instead of 20.
// - formatting: `prettier --check` (120 columns, .prettierrc.json, parsed by the Oxc plugin: 14 CPU
//   s, 16 s, against 23 CPU s, 39 s with Prettier's TypeScript parser) with a content cache in
//   node_modules/.cache/prettier like eslint's; `npm run format` rewrites the tree. It runs Prettier's
//   own newer CLI (`--experimental-cli`, shipped in the prettier package, the default of Prettier 4),
//   in one thread: the same 1,231 files (same globs, same .gitignore/.prettierignore), the same
//   formatter and plugin, 11.6 -> 10.3 CPU s cold (load 2-3) and 0.1 instead of 2.2 when its cache
//   (a sha1 of each file's content, under a key of Prettier's version and options) is warm.
// - layers: dependency-cruiser (.dependency-cruiser.cjs, `npm run layers`, 3 CPU s, 6 s): an import
//   from an inner layer to an outer one, or a cycle of value imports, fails the run and counts one.
// AFP_TEST_REPORT=FILE keeps a copy of vitest's JSON report (per-file durations: the slowest files).
// Invariants: exit code 0 only if every step run succeeded and at least one test ran; the tools
// run on this very Node (process.execPath), so the `node` dev dependency's Node 24 is used throughout.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumSkipReason } from '../test/report/chromium-presence.ts';

const root = join(import.meta.dirname, '..');
const FORMATTED = ['{src,agents,test,bench,scripts,bin}/**/*.{ts,js,mjs}', '*.{ts,js}'];
/** What `npm run layers` runs: the layer rules of .dependency-cruiser.cjs over src/ and agents/. */
const LAYERS_ARGS = ['src', 'agents', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'];
/** prettier --check's cache: files whose content it saw formatted are not parsed again. */
const PRETTIER_CACHE = join(root, 'node_modules', '.cache', 'prettier', 'experimental-cli.json');
/** Prettier's newer CLI in one thread: its workers would each load Prettier again (CPU, not speed, is short). */
const PRETTIER_ARGS = ['--experimental-cli', '--check', '--no-parallel', '--cache-location', PRETTIER_CACHE];

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: Array<{ name: string; status: string; assertionResults: Array<{ status: string }> }>;
}

interface Tally {
  passed: number;
  failed: number;
}

interface Step {
  readonly ok: boolean;
  readonly seconds: number;
  /** The exit code (null: ended by a signal). */
  readonly status: number | null;
}

/** A tool of node_modules/.bin, or this repository's script (a path under root), run on this Node. */
function toolPath(bin: string): string {
  return bin.startsWith('scripts/') ? join(root, bin) : join(root, 'node_modules', '.bin', bin);
}

/** Runs a tool on this Node; `held` keeps its output and prints it once it ends. */
function run(bin: string, args: readonly string[], held: boolean): Promise<Step> {
  const title = `== ${bin} ${args.join(' ')}`;
  if (!held) console.log(`\n${title}`);
  const startedMs = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [toolPath(bin), ...args], {
      cwd: root,
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => console.error(`${bin}: ${error.message}`));
    child.on('close', (status) => {
      const seconds = (performance.now() - startedMs) / 1000;
      if (held) process.stdout.write(`\n${title}\n${Buffer.concat(output).toString('utf8')}`);
      console.log(`== ${bin}: ${status === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(0)} s`);
      resolve({ ok: status === 0, seconds, status });
    });
  });
}

/**
 * scripts/typecheck-lint.ts's exit code, as the two checks it stands for: 0 both pass; 8 + 1 (type
 * check failed) + 2 (lint failed); any other code is a crash, which fails both.
 */
function splitTypecheckLint(step: Step): { tsc: boolean; eslint: boolean } {
  if (step.status === 0) return { tsc: true, eslint: true };
  if (step.status !== null && step.status >= 8 && step.status <= 11) {
    return { tsc: (step.status & 1) === 0, eslint: (step.status & 2) === 0 };
  }
  return { tsc: false, eslint: false };
}

function readReport(file: string): VitestJson | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as VitestJson;
  } catch {
    return undefined;
  }
}

// Turns vitest's exit status and JSON report into counts; every way of failing counts at least 1.
function tallyVitest(ok: boolean, report: VitestJson | undefined): Tally {
  if (report === undefined) {
    console.error('vitest wrote no JSON report');
    return { passed: 0, failed: 1 };
  }
  let failed = report.numFailedTests;
  for (const file of report.testResults) {
    const hasFailedTest = file.assertionResults.some((test) => test.status === 'failed');
    if (file.status === 'failed' && !hasFailedTest) failed += 1; // the file itself did not load
  }
  if (report.numTotalTests === 0) {
    console.error('vitest ran zero tests: counted as a failure');
    failed += 1;
  }
  if (!ok && failed === 0) failed = 1;
  return { passed: report.numPassedTests, failed };
}

async function main(): Promise<number> {
  const narrowed = process.argv.length > 2;
  const skipped: Step = { ok: true, seconds: 0, status: 0 };
  const outputDir = mkdtempSync(join(tmpdir(), 'afp-test-'));
  try {
    const reportFile = join(outputDir, 'vitest.json');
    const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile=${reportFile}`];
    const vitest = run('vitest', [...vitestArgs, ...process.argv.slice(2)], false);
    const typecheckLint = narrowed ? Promise.resolve(skipped) : run('scripts/typecheck-lint.ts', ['--cache'], true);
    const prettier = narrowed ? Promise.resolve(skipped) : run('prettier', [...PRETTIER_ARGS, ...FORMATTED], true);
    const layers = narrowed ? Promise.resolve(skipped) : run('depcruise', LAYERS_ARGS, true);
    const steps = await Promise.all([typecheckLint, prettier, layers, vitest]);
    const [typecheckLintStep, prettierStep, layersStep, vitestStep] = steps;
    const checked = splitTypecheckLint(typecheckLintStep);
    const tally = tallyVitest(vitestStep.ok, readReport(reportFile));
    const keep = process.env['AFP_TEST_REPORT'];
    if (keep !== undefined && keep !== '' && existsSync(reportFile)) copyFileSync(reportFile, keep);
    const heldOk = [checked.tsc, checked.eslint, prettierStep.ok, layersStep.ok];
    const failed = tally.failed + heldOk.filter((ok) => !ok).length;
    if (narrowed)
      console.log(
        'tsc, eslint, prettier and depcruise skipped: a narrowed run (npm run typecheck, lint, format:check, layers check the whole program)',
      );
    if (!checked.tsc) console.error('type check (tsc) failed');
    if (!checked.eslint) console.error('eslint failed');
    if (!prettierStep.ok) console.error('prettier --check failed: run `npm run format`');
    if (!layersStep.ok) console.error('depcruise failed: an import breaks the layers (npm run layers; docs/layout.md)');
    const skipReason = chromiumSkipReason();
    if (skipReason !== undefined) console.log(`browser checks of the HTML reports skipped: ${skipReason}`);
    console.log(`${tally.passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
