/**
 * The runs of `afp check` once its flags are valid (check.ts parses them with light imports, then
 * loads this): in-process or through a target's dialects, how they ended, the findings reports and
 * the exit code. Why apart from check.ts: the runs import fast-check, the model and the platform, and
 * a typo in a flag should not pay for them; each kind of run import()s its own code (a check of a
 * URL loads no in-process platform, a check of the model no dialects). Output and exit codes are check.ts's contract.
 */
import type { CheckResult, CheckStop } from '../check.ts';
import { MAX_COMMANDS } from '../check/options.ts';
import { DEFAULT_FAIL_ON } from '../report/findings/fail-on.ts';
import type { Target } from '../live.ts';
import { SYSTEM_LIVE_CLOCK } from './audit-io.ts';
import { checkEnding, checkRecordFields, formatOutcome } from './check-outcome.ts';
import type { RecordFields } from './json-output.ts';
import type { Progress } from './progress.ts';
import type { InterruptIo } from './process-interrupt.ts';
import type { Clock } from '../core/clock.ts';
import type { CheckOptions } from '../check/options.ts';
import type { FailOn } from '../report/findings/fail-on.ts';
import { crashed, type Ending, invalidInput, PASSED, unsettled } from '../core/command-failure.ts';

/** The time budget of a check through a target's dialects (pacing and 429 waits stop there). */
const DIALECT_CHECK_MAX_SECONDS = 900;

export interface CheckIo extends InterruptIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty?: boolean;
  readonly clock?: Clock;
}

/** The flags that apply to a check through a target's dialects. */
export interface CheckCliOptions extends CheckOptions {
  readonly failOn?: FailOn;
  readonly out?: string;
  /** --quiet or --json: no progress lines. */
  readonly quiet?: boolean;
  /** --max-seconds: the total time budget against a target. */
  readonly budgetSeconds?: number;
}

/** What the check's runs are given: the options, the target (or none), the progress line and the stop. */
interface CheckRunsInput {
  readonly parsed: CheckCliOptions;
  /** Why a URL that answered is no afp serve (the set-up failure then means the wrong URL), or null. */
  readonly notServe: string | null;
  /** The target to check through its dialects; null for the documents' model. */
  readonly dialectTarget: Target | null;
  readonly progress: Progress;
  readonly onRun: () => void;
  readonly stop: CheckStop;
}

/**
 * Loads the code of the runs to come (the model's check, or the check through dialects), which
 * check.ts awaits before the seed line: a signal sent once the seed is printed finds the check set
 * up. Why not the check face: it loads both kinds of run and the property archetype's actions (zod).
 */
export async function loadRunsCode(throughDialects: boolean): Promise<void> {
  await (throughDialects ? import('./check-dialect.ts') : import('../check/run-check.ts'));
}

/** The check's runs, in-process or through the target's dialects, and how they ended. */
export async function checkRuns(check: CheckRunsInput, io: CheckIo, record: RecordFields): Promise<Ending> {
  const { parsed, dialectTarget } = check;
  if (dialectTarget !== null && parsed.target !== undefined)
    return checkThroughDialectRuns(check, { target: dialectTarget, spec: parsed.target }, io, record);
  return checkModelRuns(check, io, record);
}

/** The runs through the target's dialects (check-dialect.ts, loaded only then). */
async function checkThroughDialectRuns(
  check: CheckRunsInput,
  dialect: { target: Target; spec: string },
  io: CheckIo,
  record: RecordFields,
): Promise<Ending> {
  const { parsed, progress, onRun, stop } = check;
  const dialectTarget = dialect.target;
  try {
    // A check through dialects loads their code here (an in-process check's start pays for none of it).
    const [{ checkThroughDialect }, { Deadline }, { waitClockOf }] = await Promise.all([
      import('./check-dialect.ts'),
      import('../core/deadline.ts'),
      import('../live/remote-serve-clock.ts'),
    ]);
    // Paces and 429 waits on the clock the target's windows run on (a manual serve's own, remote-serve-clock.ts); the budget on the wall's.
    const clock = await waitClockOf(dialectTarget, SYSTEM_LIVE_CLOCK);
    return await checkThroughDialect(
      {
        onRun,
        target: dialectTarget,
        targetSpec: dialect.spec,
        seed: parsed.seed,
        runs: parsed.runs,
        failOn: parsed.failOn ?? DEFAULT_FAIL_ON,
        clock,
        deadline: new Deadline(SYSTEM_LIVE_CLOCK, DIALECT_CHECK_MAX_SECONDS),
        stop,
        ...(parsed.maxCommands === undefined || parsed.maxCommands === MAX_COMMANDS
          ? {}
          : { maxCommands: parsed.maxCommands }),
        ...(parsed.path === undefined ? {} : { path: parsed.path }),
        ...(parsed.out === undefined ? {} : { out: parsed.out }),
      },
      (text) => {
        progress.finish();
        io.out(text);
      },
      record,
    );
  } catch (error) {
    progress.finish();
    return crashed(`afp check: ${error instanceof Error ? error.message : String(error)}\nseed: ${parsed.seed}`);
  }
}

/** The runs against the documents' model (in process, or over a URL): the result printed, the reports written. */
async function checkModelRuns(check: CheckRunsInput, io: CheckIo, record: RecordFields): Promise<Ending> {
  const { parsed, notServe, progress, onRun, stop } = check;
  const [{ runCheck }, { CheckUnavailable }] = await Promise.all([
    import('../check/run-check.ts'),
    import('../check/check-unavailable.ts'),
  ]);
  let result: CheckResult;
  try {
    result = await runCheck({ ...parsed, onRun, stop });
  } catch (error) {
    progress.finish();
    const message = error instanceof Error ? error.message : String(error);
    // fast-check could not follow the path's choices: it is no case of this seed's runs.
    if (parsed.path !== undefined && /replayPath/i.test(message)) {
      return invalidInput(
        `afp check: --path '${parsed.path}' is no case of --seed ${parsed.seed}'s runs (${message}): give the seed and path a failure printed together\nseed: ${parsed.seed}`,
      );
    }
    if (!(error instanceof CheckUnavailable)) {
      return crashed(`afp check: ${message}\nseed: ${parsed.seed}`);
    }
    // The run could not be set up. A URL that answered, but is no afp serve and did not answer the
    // platform's way either, is the wrong URL (exit 2, as every live command says it); else 4.
    const said = `afp check: ${message}${notServe === null ? '' : `\nafp check: ${notServe}`}\nseed: ${parsed.seed}`;
    return notServe === null ? unsettled(said) : invalidInput(said);
  }
  progress.finish();
  io.out(formatResult(result, parsed.maxCommands ?? MAX_COMMANDS));
  record(checkRecordFields(result));
  if (parsed.out !== undefined) {
    // The same findings reports as through a target's dialects (none raised here): CI reads the JUnit file either way.
    const { writeCheckReports } = await import('./check-reports.ts');
    const paths = await writeCheckReports(parsed.out, {
      target: { name: result.target, source: parsed.target ?? 'in-process' },
      result,
      failOn: parsed.failOn ?? DEFAULT_FAIL_ON,
      findings: [],
      dropped: 0,
    });
    io.out(`reports: ${paths.join(', ')}\n`);
    record({ files: paths });
  }
  return checkEnding(result, PASSED);
}

export function formatResult(result: CheckResult, maxCommands = MAX_COMMANDS): string {
  return formatOutcome(
    [`target: ${result.target}`, ...result.notes.map((note) => `note: ${note}`)],
    result,
    maxCommands,
  );
}
