/**
 * The limits every command that talks to a target takes alike: the answer limit (`--max-body-mb`,
 * client/answer-limits.ts) and the total time budget (`--max-seconds`). Why a watchdog here: a
 * target that stalls (a proxy that announces seven mounts, then holds every socket) kept
 * `afp target probe` running 381 s before it exited 0; per-request timeouts bound each call, not
 * the sum. Once the budget (and its grace, for commands that wind up after their budget) is spent,
 * the command ends with exit 4 and one line naming the target, the budget and the calls that
 * never finished (with --json, stdout still gets its one object: verdict liveness, that line as
 * `error`). The timer is unref'd: it never keeps a finished command alive. Why the stop prints and
 * exits here (process-exit.ts's exitProcessNow) rather than returning an ending to the top like every
 * other failure: it fires from a timer while the command is still awaiting a call that never
 * answers, so there is no caller to return to, and the command's own promise may never settle.
 * Non-goals: saving a partial report (a command's own deadline does that within its budget).
 */
import { ANSWER_BYTES_MAX_DEFAULT, ANSWER_MB_LIMIT, MIB, setAnswerBytesMax } from '../client/answer-limits.ts';
import { SHARED_CONNECTIONS } from '../client/http-connections.ts';
import type { ParsedArgs } from './args.ts';
import { wholeFlagOf } from './audit-io.ts';
import { envelopeText, wantsJson } from './json-output.ts';
import { unsettled } from '../core/command-failure.ts';
import { exitProcessNow } from './process-exit.ts';

/** The largest --max-seconds of a command that takes it here (a day). */
export const BUDGET_SECONDS_LIMIT = 86_400;

/** --max-body-mb: sets the process's answer limit; an error text when the flag is wrong. */
export function applyAnswerLimitFlag(args: ParsedArgs, errors: string[]): void {
  const mib = wholeFlagOf(args, 'max-body-mb', ANSWER_BYTES_MAX_DEFAULT / MIB, 1, ANSWER_MB_LIMIT);
  if (typeof mib === 'string') errors.push(mib);
  else setAnswerBytesMax(mib * MIB);
}

/** --max-seconds, within 1 and BUDGET_SECONDS_LIMIT; null (with an error) when wrong. */
export function budgetSecondsOf(args: ParsedArgs, fallback: number, errors: string[]): number | null {
  const seconds = wholeFlagOf(args, 'max-seconds', fallback, 1, BUDGET_SECONDS_LIMIT);
  if (typeof seconds === 'string') {
    errors.push(seconds);
    return null;
  }
  return seconds;
}

/** The grace past a budget a command that winds up after it gets: 10% of it, 5 to 60 s. */
export function windUpGraceSeconds(budgetSeconds: number): number {
  return Math.min(60, Math.max(5, Math.ceil(budgetSeconds / 10)));
}

/** The plan's line for the budget. */
export function budgetLine(budgetSeconds: number, graceSeconds = 0): string {
  return graceSeconds === 0
    ? `time budget: ${budgetSeconds} s (--max-seconds); a target that stalls ends the run there with exit 4`
    : `time budget: ${budgetSeconds} s (--max-seconds), hard stop ${budgetSeconds + graceSeconds} s; a target that stalls ends the run there with exit 4`;
}

/** The watchdogs armed and not yet disarmed (a command run in-process, as tests and scripts do, disarms its own when it ends). */
const ARMED = new Set<ReturnType<typeof setTimeout>>();

/** Disarms every watchdog still armed: a command's end, whatever path it ended on. */
export function disarmTargetBudgets(): void {
  for (const timer of ARMED) clearTimeout(timer);
  ARMED.clear();
}

/**
 * Ends the process with exit 4 once `seconds` have passed, printing one line that names the
 * command, the target and the calls under way. Returns the disarm function; a command that ends
 * must disarm it (or disarmTargetBudgets), else a process that goes on (a test run's worker) is
 * ended by it later.
 */
export function armTargetBudget(options: {
  readonly command: string;
  readonly target: string;
  readonly seconds: number;
  readonly write?: (line: string) => void;
  /** The run's seed, named in the line when the command has one (it is printed with every failure). */
  readonly seed?: string | number;
}): () => void {
  const timer = setTimeout(() => {
    const unfinished = SHARED_CONNECTIONS.unfinished();
    const calls = unfinished.length === 0 ? 'none under way' : unfinished.join(', ');
    const failure = unsettled(
      `afp ${options.command}: the time budget of ${options.seconds} s against ${options.target} is spent (--max-seconds); calls that never finished: ${calls}${options.seed === undefined ? '' : `\nseed: ${options.seed}`}`,
    );
    exitProcessNow(failure, options.write ?? ((text: string) => process.stderr.write(text)), () => {
      if (wantsJson(process.argv.slice(2)))
        process.stdout.write(
          `${envelopeText(`afp ${options.command}`, { seed: options.seed, error: failure.message.trim() }, failure.exitCode)}\n`,
        );
    });
  }, options.seconds * 1_000);
  timer.unref();
  ARMED.add(timer);
  return () => {
    clearTimeout(timer);
    ARMED.delete(timer);
  };
}
