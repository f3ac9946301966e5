/**
 * `--json` for every command that prints a verdict: stdout gets exactly one JSON object — the
 * command, its seed, the verdict, the exit code, then the key figures the command recorded — and
 * the human lines the command would have printed on stdout go to stderr instead. The object is
 * printed whatever the ending (invalid flags and crashes too), so a CI step can always parse it.
 * Invalid input always carries `errors`: what the command recorded, else the lines it printed on
 * stderr (a scenario file's errors, a missing flag), so no command needs its own copy of that.
 * `seed` is text (a seed is text: `afp run --seed abc`; a check's whole number as its digits), and
 * null for invalid input, where no run took place under it.
 * The body returns its ending (src/core/command-failure.ts), and so does this: without --json the
 * top (dispatch.ts, through process-exit.ts) prints a failure's message and gives its code. With
 * --json the failure is printed here (process-exit.ts's printEnding), before the object, since the
 * object's `errors` are read from it and a reader of both streams sees the message, then the
 * object, as before; the ending returned is marked already printed (its code, no message), so the
 * top prints nothing more (docs/decisions/tooling.md, "One place maps an ending to the exit").
 * A failure thrown from deep under the command (a report that cannot be written: OutputWriteError,
 * exit 2 naming the path) ends it here the same way, with or without --json.
 * Non-goals: streaming; a schema per command (each definition in commands.ts names its fields).
 */
import { EXIT_VERDICTS } from '../core/exit-codes.ts';
import { CommandFailure, crashed, type Ending, isInvalidInput } from '../core/command-failure.ts';
import { failureOf, printEnding } from './process-exit.ts';

export interface OutputIo {
  out(text: string): void;
  err(text: string): void;
}

/** The fields a command records for its JSON object (merged, later ones win). */
export type RecordFields = (fields: Readonly<Record<string, unknown>>) => void;

/** Whether argv asks for `--json` (before any `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** JSON text of a value with bigints as decimal strings (money is bigint micro-USDC). */
function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

/**
 * Runs `body` with the io it should print through and a `record` for its figures. Without --json
 * that is `io` itself and nothing more is printed; with it, stdout's lines go to stderr and the
 * object is printed last, on stdout, on one line.
 */
export async function withJsonOutput<Io extends OutputIo>(
  command: string,
  argv: readonly string[],
  io: Io,
  body: (io: Io, record: RecordFields) => Promise<Ending>,
): Promise<Ending> {
  if (!wantsJson(argv))
    return thrownFailure(
      command,
      body(io, () => undefined),
    );
  const fields: Record<string, unknown> = {};
  /** What the command printed on stderr (not its human stdout lines): its errors, when it recorded none. */
  let printedErrors = '';
  const human: Io = {
    ...io,
    out: (text: string) => io.err(text),
    err: (text: string) => {
      printedErrors += text;
      io.err(text);
    },
  };
  let ending: Ending;
  try {
    ending = await body(human, (more) => Object.assign(fields, more));
  } catch (error) {
    const failure = failureOf(error);
    if (failure !== null) {
      const printed = printEnding(new CommandFailure(failure.exitCode, `${command}: ${failure.message}`), io.err);
      fields['errors'] = [failure.message];
      io.out(`${jsonText(envelope(command, fields, printed.exitCode))}\n`);
      return printed;
    }
    fields['error'] = error instanceof Error ? error.message : String(error);
    io.out(`${jsonText(envelope(command, fields, crashed().exitCode))}\n`);
    throw error;
  }
  const printed = printEnding(ending, human.err);
  if (isInvalidInput(printed) && fields['errors'] === undefined)
    fields['errors'] = printedErrorLines(command, printedErrors);
  io.out(`${jsonText(envelope(command, fields, printed.exitCode))}\n`);
  return printed;
}

/** A failure thrown from under the command (OutputWriteError), returned as its ending, named by the command. */
async function thrownFailure(command: string, body: Promise<Ending>): Promise<Ending> {
  try {
    return await body;
  } catch (error) {
    const failure = failureOf(error);
    if (failure === null) throw error;
    return new CommandFailure(failure.exitCode, `${command}: ${failure.message}`, failure.hint);
  }
}

/**
 * The errors in what a command printed on stderr before exiting 2: one per line, its own prefix
 * (`afp sweep: `) taken off, up to the usage line that follows flag errors; no seed line.
 */
export function printedErrorLines(command: string, text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('usage: ')) break;
    if (line.trim() === '' || line.startsWith('seed: ')) continue;
    lines.push(line.startsWith(`${command}: `) ? line.slice(command.length + 2) : line);
  }
  return lines;
}

/** The one JSON object of a command that ends outside its body (a spent time budget: target-budget.ts). */
export function envelopeText(command: string, fields: Readonly<Record<string, unknown>>, code: number): string {
  return jsonText(envelope(command, fields, code));
}

function envelope(command: string, fields: Readonly<Record<string, unknown>>, code: number): Record<string, unknown> {
  const { seed, ...rest } = fields;
  const text = isInvalidInput(code) || seed === undefined || seed === null ? null : String(seed as string | number);
  return { command, seed: text, verdict: EXIT_VERDICTS[code] ?? 'unknown', exit_code: code, ...rest };
}
