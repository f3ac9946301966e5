/**
 * The flags of `afp replay` (replay.ts): parsed and checked with light imports, every error at once,
 * and the command line that repeats a replay (its reproduce line). Why apart from the replay
 * (replay-record.ts: the record reader, the clients, the diff reports): a misspelt flag should not
 * pay for them.
 */
import { applyAnswerLimitFlag, budgetSecondsOf } from './target-budget.ts';
import { targetUrlError } from '../client/target.ts';
import { parseSpeed, type Speed } from '../replay/pacing.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { DEFAULT_FAIL_ON, parseFailOn, type FailOn } from '../report/findings/fail-on.ts';
import { commandLine } from '../core/shell-words.ts';

export const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

const DEFINITION = definitionOf('replay');
export const USAGE = `usage: ${usageLine(DEFINITION)}`;
const DEFAULT_OUT = 'reports/replay';
const DEFAULT_TIMEOUT_MS = 10_000;

export interface ReplayFlags {
  readonly file: string;
  readonly target: string;
  readonly speedText: string;
  readonly speed: Speed;
  readonly out: string;
  readonly sync: 'auto' | 'on' | 'off';
  readonly timeoutMs: number;
  /** Only for a replay through a target's dialect (its findings report). */
  readonly failOn: FailOn;
  /** --quiet or --json: no progress lines. */
  readonly quiet: boolean;
  /** --max-seconds: the total time budget against the target. */
  readonly budgetSeconds: number;
  /** --with-admin: the record's /_afp/* exchanges are sent too (admin-doors.ts); else skipped and listed. */
  readonly withAdmin: boolean;
}

/** --max-seconds of a replay (a record's own pace may take long). */
const REPLAY_BUDGET_SECONDS = 3_600;

export function parseReplayArgs(argv: readonly string[]): ReplayFlags | { errors: string[] } {
  const args = parseCommand(argv, DEFINITION);
  const errors = [...args.errors];
  if (args.positionals.length !== 1) errors.push(`expected one record FILE, got ${args.positionals.length}`);
  const target = stringFlag(args, 'target');
  if (target === undefined) errors.push('--target URL is required');
  else if (URL_PATTERN.test(target)) {
    const problem = targetUrlError(target);
    if (problem !== null) errors.push(problem);
  }
  const failOn = parseFailOn(stringFlag(args, 'fail-on'));
  if (!failOn.ok) errors.push(failOn.message);
  const speedText = stringFlag(args, 'speed') ?? '1';
  const speed = parseSpeed(speedText);
  if (typeof speed === 'string' && speed !== 'max') errors.push(speed);
  const sync = stringFlag(args, 'sync-clock') ?? 'auto';
  if (sync !== 'auto' && sync !== 'on' && sync !== 'off')
    errors.push(`--sync-clock must be auto, on or off, got '${sync}'`);
  const concurrency = stringFlag(args, 'concurrency') ?? '1';
  if (concurrency !== '1')
    errors.push(`--concurrency must be 1 (replay keeps the recorded order), got '${concurrency}'`);
  const timeoutText = stringFlag(args, 'timeout-ms') ?? String(DEFAULT_TIMEOUT_MS);
  const timeoutMs = /^\d{1,7}$/.test(timeoutText) ? Number(timeoutText) : 0;
  if (timeoutMs < 100)
    errors.push(`--timeout-ms must be a whole number of milliseconds from 100 to 9999999, got '${timeoutText}'`);
  applyAnswerLimitFlag(args, errors);
  const budgetSeconds = budgetSecondsOf(args, REPLAY_BUDGET_SECONDS, errors);
  if (errors.length > 0 || !failOn.ok || budgetSeconds === null) return { errors };
  return {
    file: args.positionals[0] as string,
    target: target as string,
    speedText,
    speed: speed as Speed,
    out: stringFlag(args, 'out') ?? DEFAULT_OUT,
    sync: sync as ReplayFlags['sync'],
    timeoutMs,
    failOn: failOn.value,
    quiet: args.flags['quiet'] === true || args.flags['json'] === true,
    budgetSeconds,
    withAdmin: args.flags['with-admin'] === true,
  };
}

/** The `afp replay` line that repeats this run, shell-quoted where needed so it pastes as is (a path with a space). */
export function reproduceReplayCommand(
  flags: Pick<ReplayFlags, 'file' | 'target' | 'speedText' | 'sync' | 'out' | 'failOn'> & { withAdmin?: boolean },
): string {
  const words = ['npx', 'afp', 'replay', flags.file, '--target', flags.target, '--speed', flags.speedText];
  words.push('--sync-clock', flags.sync);
  if (flags.out !== DEFAULT_OUT) words.push('--out', flags.out);
  if (flags.failOn !== DEFAULT_FAIL_ON) words.push('--fail-on', flags.failOn);
  if (flags.withAdmin === true) words.push('--with-admin');
  return commandLine(words);
}
