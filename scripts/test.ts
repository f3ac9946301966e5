// What `npm test` runs: type check, lint, then the test suite, ending in one summary line.
// Why a script and not `tsc && eslint . && vitest run`: all three always run, so one command
// shows every kind of failure at once; and the last line printed is always `N passed, M failed`,
// which CI (.ci/run) and people read without scrolling. N counts passing tests; M counts failing
// tests, plus one for each of tsc and eslint that failed, plus one for a test file that could not
// load, plus one if vitest failed without a failing test (unhandled error, crash, zero tests).
// Invariants: exit code 0 only if all three succeeded and at least one test ran; the tools run
// on this very Node (process.execPath), so the `node` dev dependency's Node 24 is used throughout.
// Extra arguments go to vitest only: `npm test -- test/core` narrows the tests, not the checks.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumSkipReason } from '../test/report/chromium-presence.ts';

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

function run(bin: string, args: readonly string[]): boolean {
  console.log(`\n== ${bin} ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [join(root, 'node_modules', '.bin', bin), ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.error !== undefined) console.error(`${bin}: ${result.error.message}`);
  return result.status === 0;
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

function main(): number {
  const tscOk = run('tsc', ['--noEmit', '-p', '.']);
  const eslintOk = run('eslint', ['.']);
  const outputDir = mkdtempSync(join(tmpdir(), 'afp-test-'));
  try {
    const reportFile = join(outputDir, 'vitest.json');
    const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile=${reportFile}`];
    const vitestOk = run('vitest', [...vitestArgs, ...process.argv.slice(2)]);
    const tally = tallyVitest(vitestOk, readReport(reportFile));
    const failed = tally.failed + (tscOk ? 0 : 1) + (eslintOk ? 0 : 1);
    if (!tscOk) console.error('tsc failed');
    if (!eslintOk) console.error('eslint failed');
    const skipReason = chromiumSkipReason();
    if (skipReason !== undefined) console.log(`browser checks of the HTML reports skipped: ${skipReason}`);
    console.log(`${tally.passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

process.exitCode = main();
