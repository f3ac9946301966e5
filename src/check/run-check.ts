/**
 * runCheck: model-based property checks of faucet, escrow, casino, domains and trading with fast-check. Each run draws a
 * sequence of at most MAX_COMMANDS commands (a prelude of registrations, then drawn commands), runs
 * it against a fresh (model, system) pair, and on the first difference fast-check shrinks the
 * sequence to a short one that still fails.
 *
 * Outcome as data: ok, or the failure with the shrunk sequence, the seed, the path and the exact
 * reproduce command. The path printed is fast-check's path plus the commands' replayPath joined
 * by '@' (both are needed to replay the shrunk case); `path` in the options replays that one case.
 * Failure kinds: 'mismatch' (an answer differs from the model: exit 3), 'unavailable' (a live
 * target did not answer, or answered what could not be read: exit 4) and 'error' (a bug: exit 1);
 * each carries the reproduce command.
 */
import fc from 'fast-check';
import { checkProperty, splitPath } from './replay-path.ts';
import { SystemClock } from '../core/clock.ts';
import { commandLine } from '../core/shell-words.ts';
import type { CheckTarget } from './check-target.ts';
import { liveTarget } from './live-target.ts';
import { checkInput, MAX_COMMANDS, type CheckInput } from './command-table.ts';
import { CheckMismatch } from './check-mismatch.ts';
import { CheckUnavailable, unrepeatedFailureText } from './check-unavailable.ts';
import type { SentRequest } from '../live.ts';

import { checkOptionErrors, REQUEST_TIMEOUT_MS_DEFAULT, type CheckOptions } from './check-options.ts';

export interface CheckFailure {
  /** mismatch: a model rule broken (exit 3); unavailable: the target could not be worked with (exit 4); error: a bug (exit 1). */
  readonly kind: 'mismatch' | 'unavailable' | 'error';
  /** The counterexample in fast-check's format: the commands that ran (prelude first), then the replayPath comment. */
  readonly counterexample: string;
  /** The shrunk sequence, one command per entry; the last one is the command that failed. */
  readonly commands: readonly string[];
  readonly seed: number;
  readonly path: string;
  readonly error: string;
  readonly reproduce: string;
  /**
   * Through a target's dialects: the first failure seen, before shrinking, where it said something
   * else (a target's state outlives a run, so shrinking may end on what the first failure left behind).
   */
  readonly firstError?: string;
  /** Live: the last request the failing step sent (the CLI writes it as a curl line, the key as $AFP_KEY). */
  readonly request?: SentRequest;
}

export interface CheckResult {
  /** No run failed. Runs that sent no command (commandsRun 0) hold vacuously: the CLI fails them (exit 4). */
  readonly ok: boolean;
  readonly seed: number;
  /** Runs executed up to and including the first failure (all of them when ok). */
  readonly runs: number;
  /** Commands sent over those runs, shrinking's aside; 0 when every drawn command waited on one that never came. */
  readonly commandsRun: number;
  readonly shrinks: number;
  readonly target: string;
  readonly notes: readonly string[];
  readonly failure?: CheckFailure;
  /** Stopped by `stop` (Ctrl-C) before its runs (or its shrinking) were done. */
  readonly interrupted?: boolean;
  /** A pass: the command that runs the same check again (a failure carries its own, with the path). */
  readonly reproduce?: string;
}

export async function runCheck(options: CheckOptions): Promise<CheckResult> {
  const errors = checkOptionErrors(options);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const target = await openTarget(options);
  const replay = options.path === undefined ? null : splitPath(options.path);
  const maxCommands = options.maxCommands ?? MAX_COMMANDS;
  const input = checkInput({
    maxCommands,
    ...(replay === null || replay.replayPath === '' ? {} : { replayPath: replay.replayPath }),
  });
  let commandsRun = 0;
  const property = fc.asyncProperty(input, async ([commands, prelude]) => {
    const run = await target.newRun();
    try {
      await fc.asyncModelRun(() => run, [...prelude, ...commands]);
    } finally {
      commandsRun += run.model.commandsRun;
    }
    options.onRun?.();
  });
  const details = await checkProperty(property, options.seed, options.runs, replay, options.stop);
  const base = {
    seed: options.seed,
    runs: details.numRuns,
    commandsRun,
    shrinks: details.numShrinks,
    target: target.description,
    ...(details.interrupted && options.stop?.signal.aborted === true ? { interrupted: true } : {}),
  };
  const closing = (): readonly string[] => [...target.notes, ...(target.closingNotes?.() ?? [])];
  if (!details.failed)
    return {
      ok: true,
      ...base,
      notes: closing(),
      reproduce: checkCommand(options, maxCommands, ['--runs', `${options.runs}`]),
    };
  const failure = await describeFailure(details, target, options, maxCommands);
  return { ok: false, ...base, notes: closing(), failure };
}

async function openTarget(options: CheckOptions): Promise<CheckTarget> {
  // The in-process platform (the services, the routes) loads only for a check without a target.
  if (options.target === undefined)
    return (await import('./in-process-target.ts')).inProcessTarget({
      seed: options.seed,
      ...(options.defects === undefined ? {} : { defects: options.defects }),
    });
  const wallClock = options.wallClock ?? new SystemClock();
  const session = options.session ?? (wallClock.nowMs() >>> 0).toString(16).padStart(8, '0');
  return liveTarget({
    url: options.target,
    session,
    wallClock,
    timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS_DEFAULT,
  });
}

async function describeFailure(
  details: fc.RunDetails<[CheckInput]>,
  target: CheckTarget,
  options: CheckOptions,
  maxCommands: number,
): Promise<CheckFailure> {
  const input = details.counterexample?.[0];
  const replayPath = input === undefined ? '' : (/\/\*replayPath="([^"]*)"\*\//.exec(String(input[0]))?.[1] ?? '');
  const confirmed = input === undefined ? { ran: [], error: undefined } : await confirm(target, input);
  const error = confirmed.error ?? details.errorInstance;
  const path = `${details.counterexamplePath ?? ''}@${replayPath}`;
  const message = error instanceof Error ? error.message : String(error);
  // Only a replay that failed again ends at the failing step's request.
  const request = confirmed.error === undefined ? null : (target.lastRequest?.() ?? null);
  return {
    kind: error instanceof CheckMismatch ? 'mismatch' : error instanceof CheckUnavailable ? 'unavailable' : 'error',
    counterexample:
      input === undefined
        ? '(no counterexample: the run was interrupted)'
        : `${confirmed.ran.join(',')} /*replayPath=${JSON.stringify(replayPath)}*/`,
    commands: confirmed.ran,
    seed: options.seed,
    path,
    error: confirmed.error === undefined ? unrepeatedFailureText(error, message) : message,
    reproduce: checkCommand(options, maxCommands, ['--path', path]),
    ...(request === null ? {} : { request }),
  };
}

/** The `afp check` line that runs this check again: the same seed and options, then `selection` (a path, or the runs). */
function checkCommand(options: CheckOptions, maxCommands: number, selection: readonly string[]): string {
  const words = ['npx', 'afp', 'check', '--seed', `${options.seed}`, ...selection];
  if (maxCommands !== MAX_COMMANDS) words.push('--max-commands', `${maxCommands}`);
  if (options.defects !== undefined && options.defects.length > 0) words.push('--defect', options.defects.join(','));
  if (options.target !== undefined) words.push('--target', options.target);
  return commandLine(words);
}

/**
 * Runs the shrunk input once more on a fresh run, as fast-check's model run does (a command runs
 * when its precondition holds), recording what ran: the printed sequence is exactly what failed.
 */
async function confirm(target: CheckTarget, input: CheckInput): Promise<{ ran: string[]; error: unknown }> {
  const run = await target.newRun();
  const ran: string[] = [];
  try {
    for (const command of [...input[1], ...input[0]]) {
      if (!command.check(run.model)) continue;
      ran.push(String(command));
      await command.run(run.model, run.real);
    }
  } catch (error) {
    return { ran, error };
  }
  return { ran, error: undefined };
}
