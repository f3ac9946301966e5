/**
 * The one place in afp's command line that turns an ending into an exit code and prints it
 * (src/core/command-failure.ts: a failure carries its code from where it arose): a failure's
 * message and hint go to stderr, and its code becomes the process's. Also afp's crash (an error
 * nothing returned: exit 1 with its stack) and a spent time budget's hard stop. test/tooling/
 * exit-codes.test.ts keeps every other file of src/cli from naming an exit code or ending the process.
 */
import { EXIT } from '../core/exit-codes.ts';
import { CommandFailure, type Ending } from '../core/command-failure.ts';

/** The exit code an ending carries; a failure's message and hint are printed through `write` first. */
export function exitCodeOf(ending: Ending, write: (text: string) => void): number {
  if (ending instanceof CommandFailure) {
    if (ending.message !== '') write(`${ending.message}\n`);
    if (ending.hint !== undefined) write(`${ending.hint}\n`);
  }
  return ending.exitCode;
}

/** The failure an error thrown out of a command stands for, else null (a bug: the caller crashes). */
export function failureOf(error: unknown): CommandFailure | null {
  return error instanceof CommandFailure ? error : null;
}

/** Sets the process's exit code from what the command line returned (the process then ends by itself). */
export function setProcessExit(code: number): void {
  process.exitCode = code;
}

/** An error nothing returned: printed with its stack, and the process exits 1 (afp's own bug). */
export function crashProcess(error: unknown): void {
  process.stderr.write(`afp: crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = EXIT.crash;
}

/** Ends the process at once with the failure's code (a hard stop from a timer: nothing is left to return to). */
export function exitProcessNow(failure: CommandFailure): never {
  process.exitCode = failure.exitCode;
  process.exit(failure.exitCode);
}
