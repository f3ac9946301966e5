/**
 * `--json` for every command that prints a verdict: stdout gets exactly one JSON object — the
 * command, its seed, the verdict, the exit code, then the key figures the command recorded — and
 * the human lines the command would have printed on stdout go to stderr instead. The object is
 * printed whatever the ending (invalid flags and crashes too), so a CI step can always parse it.
 * Non-goals: streaming; a schema per command (each definition in commands.ts names its fields).
 */
import { EXIT } from '../core/exit-codes.ts';

export interface OutputIo {
  out(text: string): void;
  err(text: string): void;
}

/** The fields a command records for its JSON object (merged, later ones win). */
export type RecordFields = (fields: Readonly<Record<string, unknown>>) => void;

const VERDICTS: Readonly<Record<number, string>> = {
  [EXIT.ok]: 'ok',
  [EXIT.crash]: 'crash',
  [EXIT.invalidInput]: 'invalid-input',
  [EXIT.checkFailed]: 'failed',
  [EXIT.liveness]: 'liveness',
  [EXIT.loadThreshold]: 'threshold-failed',
};

/** Whether argv asks for `--json` (before any `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** JSON text of a value with bigints as decimal strings (money is bigint micro-USDC). */
export function jsonText(value: unknown): string {
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
  body: (io: Io, record: RecordFields) => Promise<number>,
): Promise<number> {
  if (!wantsJson(argv)) return body(io, () => undefined);
  const fields: Record<string, unknown> = {};
  const human: Io = { ...io, out: (text: string) => io.err(text) };
  let code: number;
  try {
    code = await body(human, (more) => Object.assign(fields, more));
  } catch (error) {
    fields['error'] = error instanceof Error ? error.message : String(error);
    io.out(`${jsonText(envelope(command, fields, EXIT.crash))}\n`);
    throw error;
  }
  io.out(`${jsonText(envelope(command, fields, code))}\n`);
  return code;
}

function envelope(command: string, fields: Readonly<Record<string, unknown>>, code: number): Record<string, unknown> {
  const { seed, ...rest } = fields;
  return { command, seed: seed ?? null, verdict: VERDICTS[code] ?? 'unknown', exit_code: code, ...rest };
}
