/**
 * The one place in afp's command line that turns an ending into an exit code and prints it
 * (src/core/command-failure.ts: a failure carries its code from where it arose): every command's
 * `main` returns its ending, and dispatch.ts, the top, hands it to `exitCodeOf` once: a failure's
 * message and hint go to stderr, and its code becomes the process's. Two failures are printed
 * before the top, both through `printEnding` here: `--json`'s, whose message must precede the JSON
 * document on stdout (json-output.ts; it returns the failure already printed, its code with no
 * message, so the top prints nothing more), and a spent time budget's hard stop from a timer, which
 * ends the process at once (`exitProcessNow`: no command is left to return to). Also afp's crash
 * (an error nothing returned: exit 1 with its stack). test/tooling/exit-codes.test.ts keeps every
 * other file of src/cli from naming an exit code, ending the process, or calling `exitCodeOf` (but
 * dispatch.ts) or `printEnding` (but json-output.ts).
 */
import { EXIT } from '../core/exit-codes.ts';
import { CommandFailure, type Ending } from '../core/command-failure.ts';

/** The exit code an ending carries; a failure's message and hint are printed through `write` first. */
export function exitCodeOf(ending: Ending, write: (text: string) => void): number {
  return printEnding(ending, write).exitCode;
}

/**
 * Prints a failure's message and hint through `write` (nothing for a pass or a silent failure) and
 * returns the ending as printed: the same code, nothing left to print.
 */
export function printEnding(ending: Ending, write: (text: string) => void): Ending {
  if (!(ending instanceof CommandFailure) || (ending.message === '' && ending.hint === undefined)) return ending;
  if (ending.message !== '') write(`${ending.message}\n`);
  if (ending.hint !== undefined) write(`${ending.hint}\n`);
  return new CommandFailure(ending.exitCode);
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

/**
 * A hard stop from a timer (a spent time budget, target-budget.ts): nothing is left to return an
 * ending to, so the failure is printed here through `write`, `then` prints what must follow it (the
 * --json document), and the process ends at once with the failure's code.
 */
export function exitProcessNow(failure: CommandFailure, write: (text: string) => void, then: () => void): never {
  printEnding(failure, write);
  then();
  process.exitCode = failure.exitCode;
  process.exit(failure.exitCode);
}
