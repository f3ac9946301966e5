// What `npm test` runs: type check, lint, formatting, layers and the whole test suite, ending in one
// summary line. Why a script and not `oxlint && oxfmt --check && vitest run`: every step always runs, so
// one command shows every kind of failure at once; and the last line printed is always `N passed, M
// failed`, which CI (.ci/run) and people read without scrolling. N counts passing tests; M counts
// failing tests, plus one for each of the type check, the lint, the format check and the layer check
// that failed, plus one for a test file that could not load, plus one if vitest failed without a
// failing test (unhandled error, crash, zero tests).
// Why concurrent: the held steps and vitest are independent, and one after the other left a core of
// a 2-core machine idle; so they start together. The held steps' output is kept and printed whole
// once each ends (vitest's streams live), so the logs never interleave.
// Narrowed runs: extra arguments go to vitest only (`npm test -- test/core`, `npm test --
// --project unit`), and a run with any argument SKIPS the held steps (it says so): a narrowed run
// is for the tests at hand; `npm run lint`, `format:check` and `layers` check the whole program, and
// the full `npm test` (what CI runs) always does them all.
// The held steps are package.json's own scripts, read from it (so `npm run lint` and npm test never
// differ), each run on this Node without npm's start. What each costs cold, on this 2-core machine:
// - type check and lint: `npm run lint`, ONE oxlint process (.oxlintrc.json) with its typed rules
//   and TypeScript's diagnostics (`--type-aware --type-check`: one TypeScript 7 program, built by
//   oxlint-tsgolint, for both; docs/decisions/tooling.md): 10-15 CPU s, against 47 for the tsc 6 +
//   ESLint program it replaced. A TypeScript error (`typescript(TS…)`) counts as the type check
//   failing, any other finding as the lint failing.
// - formatting: `npm run format:check`, oxfmt (.oxfmtrc.json, 120 columns, Prettier's style): 0.5 CPU
//   s, against 12 for Prettier; `npm run format` rewrites the tree.
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
import { k6SkipReason } from '../test/fixtures/k6-binary.ts';

const root = join(import.meta.dirname, '..');

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
  /** What a held step printed (empty for a streamed one). */
  readonly output: string;
}

/** A held step: package.json's script `name`, as its tool and arguments (plain words, no quoting). */
function scriptCommand(name: string): { bin: string; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [bin, ...args] = (scripts[name] ?? '').split(' ').filter((word) => word !== '');
  if (bin === undefined || /['"$*?]/.test(scripts[name] ?? ''))
    throw new Error(`package.json's "${name}" is not plain words`);
  return { bin, args };
}

/** A tool of node_modules/.bin (each a Node script), run on this Node. */
function toolPath(bin: string): string {
  return join(root, 'node_modules', '.bin', bin);
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
      resolve({ ok: status === 0, seconds, status, output: held ? Buffer.concat(output).toString('utf8') : '' });
    });
  });
}

/**
 * `npm run lint`'s outcome, as the two checks it stands for: a finding named `typescript(TS…)` is
 * TypeScript's diagnostic (the type check failed), any other finding (a rule's, an unused disable
 * directive) is the lint's. A failure with neither in the output (a crash, a bad config) fails both.
 */
function splitTypecheckLint(step: Step): { typecheck: boolean; lint: boolean } {
  if (step.ok) return { typecheck: true, lint: true };
  const typeErrors = /\btypescript\(TS\d+\)/.test(step.output);
  // Any other finding (`x plugin(rule): …`, `x Unused oxlint-disable directive …`) is the lint's.
  const lintErrors = /^\s*[×x] (?!typescript\(TS\d+\))\S/m.test(step.output);
  if (!typeErrors && !lintErrors) return { typecheck: false, lint: false };
  return { typecheck: !typeErrors, lint: !lintErrors };
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
  const skipped: Step = { ok: true, seconds: 0, status: 0, output: '' };
  const outputDir = mkdtempSync(join(tmpdir(), 'afp-test-'));
  try {
    const reportFile = join(outputDir, 'vitest.json');
    const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile=${reportFile}`];
    const vitest = run('vitest', [...vitestArgs, ...process.argv.slice(2)], false);
    const held = (name: string): Promise<Step> => {
      if (narrowed) return Promise.resolve(skipped);
      const { bin, args } = scriptCommand(name);
      return run(bin, args, true);
    };
    const steps = await Promise.all([held('lint'), held('format:check'), held('layers'), vitest]);
    const [lintStep, formatStep, layersStep, vitestStep] = steps;
    const checked = splitTypecheckLint(lintStep);
    const tally = tallyVitest(vitestStep.ok, readReport(reportFile));
    const keep = process.env['AFP_TEST_REPORT'];
    if (keep !== undefined && keep !== '' && existsSync(reportFile)) copyFileSync(reportFile, keep);
    const heldOk = [checked.typecheck, checked.lint, formatStep.ok, layersStep.ok];
    const failed = tally.failed + heldOk.filter((ok) => !ok).length;
    if (narrowed)
      console.log(
        'type check, lint, format check and layers skipped: a narrowed run (npm run lint, format:check and layers check the whole program)',
      );
    if (!checked.typecheck) console.error('type check failed (npm run lint: its typescript(TS…) findings)');
    if (!checked.lint) console.error('lint failed (npm run lint)');
    if (!formatStep.ok) console.error('format check failed: run `npm run format`');
    if (!layersStep.ok) console.error('depcruise failed: an import breaks the layers (npm run layers; docs/layout.md)');
    const skipReason = chromiumSkipReason();
    if (skipReason !== undefined) console.log(`browser checks of the HTML reports skipped: ${skipReason}`);
    const k6Skip = k6SkipReason();
    if (k6Skip !== undefined) console.log(`k6 tests skipped: ${k6Skip}`);
    console.log(`${tally.passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
