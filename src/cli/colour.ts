/**
 * Colour on a terminal: the words a reader scans for (a verdict, a threshold's pass or fail, a
 * finding's severity, the seed) are coloured where a line starts with them, and nothing else.
 * Why by line start, in one place: every command already writes its verdict lines in a fixed form
 * (`verdict: FAILED — …`, `  pass http_req_failed …`, `  critical edge:wheel: …`), so one table of
 * prefixes colours them all, and the words stay exactly as they are in files and pipes.
 * When: only to a terminal (isTTY), never when `NO_COLOR` is set to anything non-empty
 * (no-color.org), nor for TERM=dumb; `FORCE_COLOR` (non-empty, not 0) turns it on for a pipe.
 * Reports (files) are never coloured: only the process's stdout and stderr writers pass through here.
 */

export interface ColourEnv {
  readonly NO_COLOR?: string | undefined;
  readonly FORCE_COLOR?: string | undefined;
  readonly TERM?: string | undefined;
}

export function colourOn(isTty: boolean | undefined, env: ColourEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return isTty === true && env.TERM !== 'dumb';
}

const GREEN = 32;
const RED = 31;
const YELLOW = 33;
const BOLD = 1;

/** Line starts (after indentation) and their colour; the first that matches wins. */
const PREFIXES: ReadonlyArray<readonly [RegExp, number]> = [
  [/^verdict: FAILED\b/, RED],
  [/^verdict: passed\b/, GREEN],
  [/^verdict: not judged\b/, YELLOW],
  [/^FAILED\b/, RED],
  [/^invariant failed\b/, RED],
  [/^error:/, RED],
  [/^ok:/, GREEN],
  [/^pass\b/, GREEN],
  [/^fail\b/, RED],
  [/^PASS\b/, GREEN],
  [/^MISS\b/, YELLOW],
  [/^critical\b/, RED],
  [/^major\b/, RED],
  [/^minor\b/, YELLOW],
  [/^seed:/, BOLD],
];

function paintLine(line: string): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const rest = line.slice(indent.length);
  for (const [prefix, code] of PREFIXES) {
    const match = prefix.exec(rest);
    if (match === null) continue;
    const word = match[0];
    return `${indent}\x1b[${code}m${word}\x1b[0m${rest.slice(word.length)}`;
  }
  return line;
}

/** `text` with each line's leading verdict word coloured. */
export function paint(text: string): string {
  return text.split('\n').map(paintLine).join('\n');
}

/** A writer that colours what it writes when `on`, and passes it through otherwise. */
export function colouredWriter(write: (text: string) => unknown, on: boolean): (text: string) => void {
  return on ? (text) => void write(paint(text)) : (text) => void write(text);
}

/** The process's own writers (what every command's PROCESS_IO uses), coloured per colourOn. */
export const STDOUT = colouredWriter((text) => process.stdout.write(text), colourOn(process.stdout.isTTY, process.env));
export const STDERR = colouredWriter((text) => process.stderr.write(text), colourOn(process.stderr.isTTY, process.env));
