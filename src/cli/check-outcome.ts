/**
 * How `afp check` ends on the terminal, for the documents' model and for the check through a
 * target's dialect alike: the lines given, then `ok: …`, or the failure with its shrunk command
 * sequence, seed, path and the exact command that replays it. Through a target's dialects a run
 * whose sequences held can still fail on its findings (`--fail-on`): the verdict then says so
 * (`FAILED: N findings at --fail-on …` naming the ones that failed it, the seed and the reproduce
 * command), never `ok:` beside an exit 3; --json's failure is then of kind `findings`. A live failure
 * that repeated names the failing step's last request (`request: METHOD URL`) and gives it as a curl
 * line (`curl: …`, the key as $AFP_KEY, never literal; --json: failure.request).
 */
import type { CheckFailure, CheckResult } from '../check.ts';
import { curlOf } from '../live.ts';
import { checkFailed, crashed, type Ending, unlessUnfinished, unsettled } from '../core/command-failure.ts';

/** The failing step's request as a curl line (the key as $AFP_KEY), or null (in-process, or a failure not repeated). */
export function failureCurl(failure: Pick<CheckFailure, 'request'>): string | null {
  return failure.request === undefined ? null : curlOf(failure.request);
}

/** The findings at or above --fail-on that fail a run whose sequences held (none: the run passes). */
export interface FailingFindings {
  readonly failOn: string;
  readonly failing: readonly { readonly id: string }[];
}

/** The failure line of findings that reached --fail-on (`error` in --json). */
function findingsError(verdict: FailingFindings): string {
  const count = verdict.failing.length;
  return `${count} finding${count === 1 ? '' : 's'} at --fail-on ${verdict.failOn} or above: ${verdict.failing.map((finding) => finding.id).join(', ')}`;
}

/** `N runs`, `1 run`. */
function runsText(runs: number): string {
  return `${runs} run${runs === 1 ? '' : 's'}`;
}

/** `N runs held`, `1 run held`. */
export function runsHeld(runs: number): string {
  return `${runsText(runs)} held`;
}

/**
 * How `afp check` ends, in both its forms: a failure by its kind (mismatch exit 3, unavailable 4,
 * error 1), runs that sent nothing 4 (ranNothing), else `held` (a pass, or the findings' verdict),
 * unless the check was cut short.
 */
export function checkEnding(result: CheckResult, held: Ending): Ending {
  const failure = result.failure;
  if (failure !== undefined)
    return failure.kind === 'mismatch' ? checkFailed() : failure.kind === 'unavailable' ? unsettled() : crashed();
  if (ranNothing(result)) return unsettled();
  return unlessUnfinished(held, result.interrupted === true);
}

/** Whether the findings fail a run whose sequences held. */
function failsOnFindings(result: CheckResult, verdict: FailingFindings | undefined): verdict is FailingFindings {
  return result.failure === undefined && verdict !== undefined && verdict.failing.length > 0;
}

/**
 * Whether runs that held sent no command at all: every drawn command waited on an agent, an account
 * or room in the limits that no earlier command made (fast-check skips a command whose
 * precondition fails, and may draw an empty sequence). Nothing was checked, so it is no pass: a
 * target answering junk to everything held two such runs. Exit 4, as a run that could not be set up.
 */
export function ranNothing(result: CheckResult): boolean {
  return result.failure === undefined && result.interrupted !== true && result.commandsRun === 0;
}

/** The line of a check whose runs sent nothing (`error` in --json, the reports' summary). */
export function nothingRanError(result: CheckResult): string {
  return `no command was sent in ${runsText(result.runs)}, so nothing was checked (the runs drew no command whose precondition held: none at all, or only commands that wait on an agent, an account or room in the limits that no earlier command made); run more --runs or another --seed`;
}

/** --json's failure of a check whose runs sent nothing (kind `nothing-sent`), else null. */
function nothingSentFailure(result: CheckResult): Readonly<Record<string, unknown>> | null {
  return ranNothing(result) ? { kind: 'nothing-sent', error: nothingRanError(result), commands: [], path: null } : null;
}

/** What `--json` records of a check's outcome, in-process or through a target's dialects alike. */
export function checkRecordFields(result: CheckResult, verdict?: FailingFindings): Readonly<Record<string, unknown>> {
  const failure = result.failure;
  const findingsFailure = failsOnFindings(result, verdict)
    ? {
        kind: 'findings',
        error: findingsError(verdict),
        commands: [],
        path: null,
        findings: verdict.failing.map((finding) => finding.id),
      }
    : null;
  return {
    runs: result.runs,
    commands_run: result.commandsRun,
    shrinks: result.shrinks,
    target: result.target,
    notes: result.notes,
    ...(result.interrupted === true ? { interrupted: true } : {}),
    failure:
      failure === undefined
        ? (findingsFailure ?? nothingSentFailure(result))
        : {
            kind: failure.kind,
            error: failure.error,
            commands: failure.commands,
            path: failure.path,
            request: failureCurl(failure),
            first_error: failure.firstError ?? null,
          },
    reproduce: failure === undefined ? (result.reproduce ?? null) : failure.reproduce,
  };
}

/** `lines`, then `ok: …` or the failure with its shrunk sequence, seed, path and reproduce command. */
export function formatOutcome(
  head: readonly string[],
  result: CheckResult,
  maxCommands: number,
  verdict?: FailingFindings,
): string {
  const lines = [...head];
  const failure = result.failure;
  const atMost = `at most ${maxCommands} command${maxCommands === 1 ? '' : 's'} each`;
  if (failsOnFindings(result, verdict)) {
    lines.push(
      `FAILED: ${findingsError(verdict)} (${runsHeld(result.runs)} the model, ${atMost})`,
      `seed: ${result.seed}`,
      ...(result.reproduce === undefined ? [] : [`reproduce: ${result.reproduce}`]),
    );
    if (result.interrupted === true) lines.push('interrupted: the check was cut short before its runs were done');
    return `${lines.join('\n')}\n`;
  }
  if (ranNothing(result)) {
    lines.push(`FAILED: ${nothingRanError(result)}`, `seed: ${result.seed}`);
    return `${lines.join('\n')}\n`;
  }
  if (failure === undefined) {
    const sent = `${result.commandsRun} sent`;
    lines.push(
      result.interrupted === true
        ? `interrupted: ${runsHeld(result.runs)} (${atMost}, ${sent}) before the check was cut short, so it is not a pass`
        : `ok: ${runsHeld(result.runs)} (${atMost}, ${sent})`,
    );
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `FAILED: ${failure.kind === 'mismatch' ? 'an answer differs from the model' : 'the check could not run'} (run ${result.runs}, ${result.shrinks} shrinks)`,
    `error: ${failure.error}`,
    ...(failure.request === undefined
      ? []
      : [`request: ${failure.request.method} ${failure.request.url}`, `curl: ${failureCurl(failure)}`]),
    `shrunk command sequence (${failure.commands.length} commands; the last one failed):`,
    ...failure.commands.map((command, index) => `  ${index + 1}. ${command}`),
    ...(failure.firstError === undefined
      ? []
      : [
          `first failure, before shrinking (the target's state outlives a run, so the shrunk sequence may fail on what it left behind): ${failure.firstError}`,
        ]),
    `counterexample: ${failure.counterexample}`,
    `seed: ${failure.seed}`,
    `path: ${failure.path}`,
    `reproduce: ${failure.reproduce}`,
  );
  if (result.interrupted === true)
    lines.push('interrupted while shrinking: the sequence above may not be the shortest that fails');
  return `${lines.join('\n')}\n`;
}
