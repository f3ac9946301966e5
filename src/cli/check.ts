/**
 * `afp check [--target URL|FILE] [--seed N] [--runs N] [--path P] [--max-commands N] [--defect NAME]
 * [--fail-on SEVERITY] [--out DIR]`: model-based property checks of faucet, escrow, casino, domains and trading
 * (src/check/run-check.ts), in-process by default, against a live target with --target.
 * Which model: a URL whose services speak the documents' style A (an afp serve, or any target
 * addressed through its style-B api) is checked against the documents' whole model, as before; a
 * target file, or an afp serve announcing another dialect, is checked through its dialects
 * (check-dialect.ts), which is where --fail-on applies (findings are raised there only). --out
 * writes the findings reports of every check (check-reports.ts), so findings.junit.xml is there
 * for CI whichever way the check ran.
 *
 * Output contract: `seed: N` is the first line; against a target, `time budget: …` (--max-seconds)
 * next; then the target and one `note:` line per skipped
 * assertion or disabled command (each with its reason); then `ok: ...`, or on failure the error,
 * the shrunk command sequence, fast-check's counterexample, the seed, the path and the exact
 * reproduce command; with --out, `reports: …`. Exit codes: 0 every run held · 1 crash · 4 unreachable target · 2 invalid
 * flags · 3 an answer differed from the model.
 * Progress (runs done, rate, ETA) goes to stderr (progress.ts), none with --quiet or --json; with
 * --json stdout is one JSON object (json-output.ts) and the human lines go to stderr.
 * Without --seed a seed is drawn here (the CLI is a door for randomness) and printed first.
 * `--defect` is for tests and demos only: it switches on a deliberate in-process platform defect.
 * This file checks the flags with light imports; the runs (check-runs.ts: fast-check, the model,
 * the platform) are loaded once the flags are valid.
 */
import {
  applyAnswerLimitFlag,
  armTargetBudget,
  budgetLine,
  budgetSecondsOf,
  disarmTargetBudgets,
} from './target-budget.ts';
import { inProcessDefects } from './defect-flag.ts';
import { STDERR, STDOUT } from './colour.ts';
import { randomBytes, randomInt } from 'node:crypto';
import { targetUrlError } from '../client/target.ts';
import { SystemClock } from '../core/clock.ts';
import { checkOptionErrors, MAX_COMMANDS, RUNS_DEFAULT } from '../check/options.ts';
import { parseFailOn } from '../report/findings/fail-on.ts';
import type { ResolveResult } from '../live/options.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import type { CheckCliOptions, CheckIo } from './check-runs.ts';

export type { CheckCliOptions, CheckIo };
import { Progress, WALL_PROGRESS_CLOCK } from './progress.ts';
import { hostTurn, onProcessInterrupt, whileInterruptible } from './process-interrupt.ts';
import { type Ending, invalidInput, unresolvedTarget } from '../core/command-failure.ts';

const DEFINITION = definitionOf('check');
const USAGE = `usage: ${usageLine(DEFINITION)}`;
const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

const PROCESS_IO: CheckIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
};

function wholeNumber(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

/** The options of the flags, or every error found. */

/** --max-seconds of a check against a target. */
const CHECK_BUDGET_SECONDS = 1_800;

export function parseCheckArgs(
  argv: readonly string[],
  drawSeed: () => number,
  drawSession: () => string,
): CheckCliOptions | { errors: string[] } {
  const args = parseCommand(argv, DEFINITION);
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const target = stringFlag(args, 'target');
  // A target that is not a URL is a target file, read (and its errors reported) when the check starts.
  const targetError = target === undefined || !URL_PATTERN.test(target) ? null : targetUrlError(target);
  if (targetError !== null) errors.push(targetError);
  const failOn = parseFailOn(stringFlag(args, 'fail-on'));
  if (!failOn.ok) errors.push(failOn.message);
  applyAnswerLimitFlag(args, errors);
  const budgetSeconds = budgetSecondsOf(args, CHECK_BUDGET_SECONDS, errors);
  const out = stringFlag(args, 'out');
  const defects = inProcessDefects(stringFlag(args, 'defect'), 'the in-process check', errors);
  const path = stringFlag(args, 'path');
  // A path is one case of one seed's runs: with another seed it names nothing (fast-check threw).
  if (path !== undefined && stringFlag(args, 'seed') === undefined)
    errors.push('--path replays a case of the runs of the seed it was reported with: give that --seed too');
  const options: CheckCliOptions = {
    seed: wholeNumber(stringFlag(args, 'seed'), Number.NaN),
    runs: wholeNumber(stringFlag(args, 'runs'), RUNS_DEFAULT),
    maxCommands: wholeNumber(stringFlag(args, 'max-commands'), MAX_COMMANDS),
    ...(target === undefined ? {} : { target, session: drawSession(), wallClock: new SystemClock() }),
    ...(path === undefined ? {} : { path }),
    ...(defects.length === 0 ? {} : { defects }),
    ...(failOn.ok ? { failOn: failOn.value } : {}),
    ...(out === undefined ? {} : { out }),
    ...(budgetSeconds === null ? {} : { budgetSeconds }),
    ...(args.flags['quiet'] === true || args.flags['json'] === true ? { quiet: true } : {}),
  };
  const seeded: CheckCliOptions =
    Number.isNaN(options.seed) && stringFlag(args, 'seed') === undefined ? { ...options, seed: drawSeed() } : options;
  errors.push(
    ...checkOptionErrors(seeded).map((error) =>
      error
        .replace(/^seed/, '--seed')
        .replace(/^runs/, '--runs')
        .replace(/^max commands/, '--max-commands')
        .replace(/^path/, '--path'),
    ),
  );
  return errors.length > 0 ? { errors } : seeded;
}

export async function main(argv: string[], io: CheckIo = PROCESS_IO): Promise<Ending> {
  // The hard stop a check against a target arms ends with the check, whatever path it ended on.
  try {
    return await withJsonOutput('afp check', argv, io, (human, record) => checkCommand(argv, human, record));
  } finally {
    disarmTargetBudgets();
  }
}

async function checkCommand(argv: readonly string[], io: CheckIo, record: RecordFields): Promise<Ending> {
  const parsed = parseCheckArgs(
    argv,
    () => randomInt(0, 0x7fffffff),
    () => randomBytes(4).toString('hex'),
  );
  if ('errors' in parsed) {
    record({ errors: parsed.errors });
    return invalidInput(`${parsed.errors.map((error) => `afp check: ${error}`).join('\n')}\n${USAGE}`);
  }
  // The target is resolved first, so one refused (a missing file, a port that does not answer) does
  // not load the runs. The runs' code (fast-check, the model) is loaded before the seed line: a
  // signal sent once it is printed finds the check set up, as when this was a static import.
  if (parsed.target !== undefined) {
    const seconds = parsed.budgetSeconds ?? CHECK_BUDGET_SECONDS;
    armTargetBudget({ command: 'check', target: parsed.target, seconds, write: io.err, seed: parsed.seed });
  }
  const resolved = parsed.target === undefined ? null : await targetOfDialects(parsed.target);
  const dialectTarget = resolved?.dialects ?? null;
  const started = (): void => {
    io.out(`seed: ${parsed.seed}\n`);
    if (parsed.target !== undefined) io.out(`${budgetLine(parsed.budgetSeconds ?? CHECK_BUDGET_SECONDS)}\n`);
    record({ seed: parsed.seed, runs: parsed.runs, target: parsed.target ?? 'in-process' });
  };
  if (dialectTarget !== null && !dialectTarget.ok) {
    started();
    return unresolvedTarget(dialectTarget.kind, `afp check: ${dialectTarget.message}\nseed: ${parsed.seed}`);
  }
  const { checkRuns, loadRunsCode } = await import('./check-runs.ts');
  await loadRunsCode(dialectTarget?.ok === true);
  started();
  const progress = new Progress({
    label: 'check',
    unit: 'runs',
    total: parsed.runs,
    write: (text) => io.err(text),
    isTty: io.errIsTty ?? false,
    quiet: parsed.quiet === true,
    clock: io.clock ?? WALL_PROGRESS_CLOCK,
  });
  let runsDone = 0;
  const onRun = (): void => progress.update(Math.min((runsDone += 1), parsed.runs));
  // Ctrl-C (or SIGTERM): no new run starts, the one in flight finishes, the runs so far are reported.
  const checked = {
    parsed,
    notServe: resolved?.notServe ?? null,
    dialectTarget: dialectTarget?.ok === true ? dialectTarget.value : null,
    progress,
    onRun,
  };
  return whileInterruptible(
    io,
    'afp check: interrupted: finishing the run in flight, then reporting the runs so far',
    (signal) => checkRuns({ ...checked, stop: { signal, pause: hostTurn } }, io, record),
  );
}

/**
 * The Target to check through its dialects, or null for the documents' model: a target file always
 * goes through its dialects; a URL only when it is an afp serve announcing a dialect other than
 * the documents' style A (any other answering URL keeps the documents' model). A URL that does not
 * answer is returned as the failure it is: the caller exits 4, as every live command does.
 */
async function targetOfDialects(spec: string): Promise<{ dialects: ResolveResult | null; notServe: string | null }> {
  const { resolveTarget } = await import('../live/options.ts');
  const resolved = await resolveTarget(spec);
  if (!URL_PATTERN.test(spec)) return { dialects: resolved, notServe: null };
  if (!resolved.ok)
    return resolved.kind === 'trouble'
      ? { dialects: resolved, notServe: null }
      : { dialects: null, notServe: resolved.message };
  const documents = Object.values(resolved.value.services).every((service) => service.dialect === 'A');
  return { dialects: documents ? null : resolved, notServe: null };
}
