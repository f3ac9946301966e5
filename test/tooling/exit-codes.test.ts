// Exit codes are decided where a failure arises, never by the command files (docs/design.md, "Exit
// codes"): a failure carries its code (src/core/command-failure.ts) and one file of the command
// line, src/cli/process-exit.ts, turns an ending into the process's exit. This scans src/cli and
// fails on any other file that names a code from the table (`EXIT.`) or ends the process itself
// (`process.exit`, `process.exitCode`), so the code of a cause ("an unanswered probe exits 4")
// cannot be picked again, command by command. The scan is shown to bite on planted lines.
// Every command's main returns its ending, and only the top turns it into the exit and prints it:
// a third scan fails on any file of src/cli but process-exit.ts (where it is defined) and
// dispatch.ts (the top) that names `exitCodeOf`, and on any but json-output.ts (--json's failure,
// printed before its document) that names `printEnding`; it too is shown to bite on planted calls.
// A failure also carries its own message (and hint), so that one place prints it: a second scan
// fails on a failure built with nothing to say in src/cli (its message printed where it arose
// instead), but for the cases named below, each with the reason it has nothing to add.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const CLI = 'src/cli';
/** The one place that maps an ending to the process's exit. */
const MAPPING_PLACE = 'src/cli/process-exit.ts';
const PICKING = /\bEXIT\.|\bprocess\.exit(Code)?\b/g;
/** The top: the one file that turns a command's ending into the exit (process-exit.ts's exitCodeOf), once. */
const TOP = 'src/cli/dispatch.ts';
/** The ways to print an ending and the one file besides the mapping place allowed each, with why. */
const PRINTING: Readonly<Record<string, { readonly file: string; readonly why: string }>> = {
  exitCodeOf: { file: TOP, why: 'the top maps the ending a command returned to the exit and prints it' },
  printEnding: {
    file: 'src/cli/json-output.ts',
    why: "--json's failure is printed before its document on stdout and returned already printed",
  },
};
/**
 * A failure built with an empty message: a maker called with nothing (not to read the code of a
 * cause, `crashed().exitCode`), a target or account maker or a CommandFailure given only its kind or
 * code, or any of them given an empty text.
 */
const SILENT =
  /\b(?:invalidInput|checkFailed|unsettled|thresholdFailed|crashed)\(\)(?!\.exitCode)|\b(?:unresolvedTarget|accountRefused|new CommandFailure)\([^,()]*\)|\b(?:invalidInput|checkFailed|unsettled|thresholdFailed|crashed|unresolvedTarget|accountRefused|new CommandFailure)\((?:[^,()]*,\s*)?(?:''|""|``)/g;

const VERDICT_ON_STDOUT = 'the verdict is the report the command prints on stdout; the failure adds no line to stderr';
/** The failures in src/cli with nothing to say, as `file: line`, each with why. */
const SILENT_ALLOWED: Readonly<Record<string, string>> = {
  'src/cli/audit-house-edge.ts: return check.failed ? checkFailed() : PASSED;':
    "the model check's lines are the report, printed whether it holds or not (on stdout for a table)",
  "src/cli/check-outcome.ts: return failure.kind === 'mismatch' ? checkFailed() : failure.kind === 'unavailable' ? unsettled() : crashed();": `${VERDICT_ON_STDOUT} (FAILED: the error, the shrunk commands, seed, path and reproduce line)`,
  'src/cli/check-outcome.ts: if (ranNothing(result)) return unsettled();': `${VERDICT_ON_STDOUT} (FAILED: no command was sent in N runs)`,
  'src/cli/load-merge.ts: return thresholdFailed();': `${VERDICT_ON_STDOUT} (FAILED: n of m thresholds)`,
  'src/cli/load-view.ts: return thresholdFailed();': `${VERDICT_ON_STDOUT} (FAILED: n of m thresholds, or mostly refused)`,
  'src/cli/process-exit.ts: return new CommandFailure(ending.exitCode);':
    "an ending already printed (--json's failure, before its document): the top maps its code and prints nothing more",
  'src/cli/replay-conclusion.ts: if (report.stop !== null) return unsettled();': `${VERDICT_ON_STDOUT} (the summary says where it stopped)`,
  'src/cli/replay-conclusion.ts: return checkFailed();': `${VERDICT_ON_STDOUT} (the differences and the reproduce line)`,
  'src/cli/replay-dialect.ts: return unsettled();': `${VERDICT_ON_STDOUT} (STOPPED at seq N and the reproduce line)`,
  'src/cli/run-scenario.ts: return checkFailed();': `${VERDICT_ON_STDOUT} (invariant failed, seed and reproduce)`,
  'src/cli/run-scenario.ts: return unsettled();': `${VERDICT_ON_STDOUT} (limit reached, seed and reproduce)`,
  'src/cli/serve.ts: return crashed();':
    'a failed --data commit is said before the close, which may wait for requests under way: the operator sees why serving stops while it stops',
  'src/cli/shrink.ts: return unsettled();': `${VERDICT_ON_STDOUT} (limit reached: nothing shrunk)`,
  "src/cli/shrink.ts: return result.failed === 'liveness' ? unsettled() : checkFailed();": `${VERDICT_ON_STDOUT} (the shrunk run and its files)`,
  'src/cli/sweep-run.ts: if (counts.crashed > 0) return crashed();': `${VERDICT_ON_STDOUT} (the sweep's summary counts each row)`,
  'src/cli/sweep-run.ts: if (counts.invariantFailed > 0) return checkFailed();': `${VERDICT_ON_STDOUT} (the sweep's summary counts each row)`,
  'src/cli/sweep-run.ts: if (counts.limitReached > 0) return unsettled();': `${VERDICT_ON_STDOUT} (the sweep's summary counts each row)`,
};

/** The lines of `text` that `test` holds of, as `line: text` (numbered from 1). */
function numberedLines(text: string, test: (line: string) => boolean): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => test(line))
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

/** The lines of `text` that pick an exit code or end the process, as `line: text`. */
function pickingLines(text: string): string[] {
  return numberedLines(text, (line) => line.match(PICKING) !== null);
}

/** The lines of the files given (path to text) that print an ending outside the place allowed, as `file:line: text`. */
function printingOffenders(files: Readonly<Record<string, string>>): string[] {
  return Object.entries(files)
    .filter(([file]) => file !== MAPPING_PLACE)
    .flatMap(([file, text]) =>
      numberedLines(text, (line) =>
        Object.entries(PRINTING).some(
          ([name, allowed]) => allowed.file !== file && new RegExp(`\\b${name}\\b`).test(line),
        ),
      ).map((line) => `${file}:${line}`),
    );
}

/** The lines of `text` that build a failure with nothing to say, as `line: text`. */
function silentLines(text: string): string[] {
  return numberedLines(text, (line) => line.match(SILENT) !== null);
}

/** Every .ts file under `folder`, its path from the repository's root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name))
    .sort();
}

describe('exit codes are decided in one place', () => {
  test('no file of src/cli but process-exit.ts names an exit code or ends the process', () => {
    const files = sourceFiles(CLI);
    expect(files).toContain(MAPPING_PLACE);
    const offenders = files
      .filter((file) => file !== MAPPING_PLACE)
      .flatMap((file) => pickingLines(readFileSync(file, 'utf8')).map((line) => `${file}:${line}`));
    expect(offenders).toEqual([]);
  });

  test('the mapping place does map: it sets the exit code and reads it from the ending', () => {
    const text = readFileSync(MAPPING_PLACE, 'utf8');
    expect(text).toContain('process.exitCode = ');
    expect(text).toContain('return printEnding(ending, write).exitCode;');
  });

  test('only the top maps an ending to the exit, once; only json-output.ts prints one besides', () => {
    const files = Object.fromEntries(sourceFiles(CLI).map((file) => [file, readFileSync(file, 'utf8')]));
    expect(printingOffenders(files)).toEqual([]);
    expect(files[TOP]?.match(/\bexitCodeOf\(/g)).toHaveLength(1);
    for (const allowed of Object.values(PRINTING)) expect(Object.keys(files), allowed.why).toContain(allowed.file);
  });

  test('the printing scan bites on a planted call or import, and passes the places allowed', () => {
    expect(
      printingOffenders({
        'src/cli/audit-money.ts': 'x\n  if (run instanceof CommandFailure) return exitCodeOf(run, io.err);',
      }),
    ).toEqual(['src/cli/audit-money.ts:2: if (run instanceof CommandFailure) return exitCodeOf(run, io.err);']);
    expect(printingOffenders({ 'src/cli/agents.ts': "import { exitCodeOf } from './process-exit.ts';" })).toHaveLength(
      1,
    );
    expect(printingOffenders({ 'src/cli/audit.ts': '  const printed = printEnding(ending, io.err);' })).toHaveLength(1);
    expect(printingOffenders({ 'src/cli/json-output.ts': '  return exitCodeOf(ending, io.err);' })).toHaveLength(1);
    expect(printingOffenders({ [TOP]: '  return exitCodeOf(ended, write);' })).toEqual([]);
    expect(
      printingOffenders({ 'src/cli/json-output.ts': '  const printed = printEnding(ending, human.err);' }),
    ).toEqual([]);
    expect(printingOffenders({ [MAPPING_PLACE]: 'export function exitCodeOf(ending: Ending): number {' })).toEqual([]);
    expect(printingOffenders({ 'src/cli/audit.ts': '  return run(rest, io);' })).toEqual([]);
  });

  test('the scan bites on each way of picking a code, and passes the endings that carry one', () => {
    expect(pickingLines('  return EXIT.liveness;')).toEqual(['1: return EXIT.liveness;']);
    expect(pickingLines('x\n    process.exitCode = 4;')).toEqual(['2: process.exitCode = 4;']);
    expect(pickingLines('process.exit(2);')).toHaveLength(1);
    expect(pickingLines('  return unsettled(`afp load: ${message}`);')).toEqual([]);
    expect(pickingLines('  return findingsEnding(findings, failOn).exitCode;')).toEqual([]);
    expect(pickingLines("const exits: readonly ExitName[] = ['crash', 'invalidInput'];")).toEqual([]);
  });
});

describe('a failure carries its own message', () => {
  /** Each silent failure of src/cli, as `file: line` (without its line number, so the allowed list keeps across edits). */
  function silentFailures(): string[] {
    return sourceFiles(CLI).flatMap((file) =>
      silentLines(readFileSync(file, 'utf8')).map((line) => `${file}: ${line.replace(/^\d+: /, '')}`),
    );
  }

  test('no failure in src/cli is built with an empty message, but the named cases', () => {
    const offenders = silentFailures().filter((line) => SILENT_ALLOWED[line] === undefined);
    expect(offenders).toEqual([]);
  });

  test('each named case is still there: the list names no failure that has since got its message', () => {
    const found = new Set(silentFailures());
    expect(Object.keys(SILENT_ALLOWED).filter((line) => !found.has(line))).toEqual([]);
  });

  test('the scan bites on each way of building a silent failure, and passes failures that say why', () => {
    expect(silentLines('x\n    return invalidInput();')).toEqual(['2: return invalidInput();']);
    expect(silentLines('  return notServe === null ? unsettled() : invalidInput();')).toHaveLength(1);
    expect(silentLines('    return accountRefused(account.kind);')).toHaveLength(1);
    expect(silentLines('  exit: unresolvedTarget(resolved.kind),')).toHaveLength(1);
    expect(silentLines('  return new CommandFailure(EXIT.crash);')).toHaveLength(1);
    expect(silentLines("  return invalidInput('');")).toHaveLength(1);
    expect(silentLines("  return unresolvedTarget(kind, '');")).toHaveLength(1);
    expect(silentLines('  return thresholdFailed(``);')).toHaveLength(1);
    expect(silentLines('  return unsettled(`afp load: ${message}`);')).toEqual([]);
    expect(silentLines('  return unresolvedTarget(resolved.kind, `afp load: ${resolved.message}`);')).toEqual([]);
    expect(silentLines('    return invalidInput(')).toEqual([]);
    expect(silentLines("  return accountRefused(account.kind, 'the faucet said no');")).toEqual([]);
    expect(silentLines('    io.out(`${jsonText(envelope(command, fields, crashed().exitCode))}\\n`);')).toEqual([]);
    expect(
      silentLines('  const failure = new CommandFailure(failure.exitCode, `${command}: ${failure.message}`);'),
    ).toEqual([]);
  });
});
