/**
 * Errors that carry their exit code, as k6's `errext` does: a failure gets its code once, where it
 * arises (a flag afp refuses, a target that does not answer, a finding at `--fail-on`, a load
 * threshold), and travels up as a value to each command's `main`, which returns it; one place at
 * the top (src/cli/dispatch.ts, through src/cli/process-exit.ts) turns it into the process's exit
 * and prints its message. Why: when each command picked its own codes, the same cause ("an
 * unanswered probe exits 4") had to be fixed in every command that met it.
 * Expected failures are returned (`Ending`); a writer deep under a command throws one
 * (OutputWriteError), and the top catches it the same way. The codes are docs/design.md's table
 * (exit-codes.ts).
 */
import { EXIT, type ExitCode } from './exit-codes.ts';

/**
 * A command's failure: its exit code, the message to print and a hint. Empty only where the verdict
 * is the report the command printed on stdout (test/tooling/exit-codes.test.ts names each case).
 */
export class CommandFailure extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(exitCode: ExitCode, message = '', hint?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CommandFailure';
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/**
 * The message of text written as it would be printed (lines ending in newlines): its one last newline
 * dropped, since the top adds it back (process-exit.ts), so the bytes on stderr stay the same.
 */
export function printedMessage(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** A command that ended with every check held. */
export interface Passed {
  readonly exitCode: typeof EXIT.ok;
}

export const PASSED: Passed = { exitCode: EXIT.ok };

/** How a command ends: passed, or a failure carrying its code. */
export type Ending = Passed | CommandFailure;

/** Input afp refuses: flags, a scenario, record or target file, an output path (exit 2). */
export function invalidInput(message = '', hint?: string): CommandFailure {
  return new CommandFailure(EXIT.invalidInput, message, hint);
}

/** An invariant, conformance or replay check failed, or a live finding reached `--fail-on` (exit 3). */
export function checkFailed(message = ''): CommandFailure {
  return new CommandFailure(EXIT.checkFailed, message);
}

/**
 * Liveness (exit 4): work did not settle within its limit, or a target did not answer, would not
 * set up the run, or was interrupted before it settled.
 */
export function unsettled(message = ''): CommandFailure {
  return new CommandFailure(EXIT.liveness, message);
}

/** A load threshold failed (exit 5). */
export function thresholdFailed(message = ''): CommandFailure {
  return new CommandFailure(EXIT.loadThreshold, message);
}

/** afp's own bug, or a durable log that could not commit (exit 1). */
export function crashed(message = ''): CommandFailure {
  return new CommandFailure(EXIT.crash, message);
}

/**
 * A target that could not be resolved, the same in every live command: a wrong file or URL is
 * invalid input; a target that did not answer is liveness, never a crash.
 */
export function unresolvedTarget(kind: 'invalid' | 'trouble', message = ''): CommandFailure {
  return kind === 'invalid' ? invalidInput(message) : unsettled(message);
}

/**
 * A live run's account that could not be opened: bad flags, file or key are invalid input; a
 * target that refused to set it up (a faucet's daily limit), did not answer, or ran out of time is
 * liveness (exit 1 is for afp's own bugs only).
 */
export function accountRefused(kind: 'invalid' | 'trouble' | 'deadline' | 'unreachable', message = ''): CommandFailure {
  return kind === 'invalid' ? invalidInput(message) : unsettled(message);
}

/** Whether an ending (or an exit code) is invalid input: nothing ran, so there is no seed to print. */
export function isInvalidInput(ending: Ending | number): boolean {
  return (typeof ending === 'number' ? ending : ending.exitCode) === EXIT.invalidInput;
}

/** Whether an ending passed. */
export function passed(ending: Ending): ending is Passed {
  return ending.exitCode === EXIT.ok;
}

/**
 * A run whose own verdict passed but that did not finish (Ctrl-C, a spent time budget, a probe
 * that was not answered) is not a pass: liveness. Any other verdict stands.
 */
export function unlessUnfinished(ending: Ending, unfinished: boolean): Ending {
  return passed(ending) && unfinished ? unsettled() : ending;
}
