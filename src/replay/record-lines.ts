/**
 * The lines of a record file, read in pieces, each line at most `maxChars` long. Why not readline:
 * it keeps a line in memory until its newline comes, so a file that is not line-delimited (a
 * binary, `/dev/zero`, a record whose newlines were lost) grew one string until the process died.
 * Here the first line past the limit ends the reading with `{ tooLong: lineNumber }`, an expected
 * failure the caller reports as bad input; nothing after it is read.
 * Lines are split on \n, a \r before it dropped (readline's `crlfDelay: Infinity`); a last line
 * without a newline is a line. Memory: one piece of READ_CHARS plus at most one line.
 */
import { createReadStream } from 'node:fs';

/** Characters per piece read. */
const READ_CHARS = 1 << 20;

export type RecordLine = { readonly text: string } | { readonly tooLong: number };

export async function* recordLines(file: string, maxChars: number): AsyncGenerator<RecordLine> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: READ_CHARS });
  let pending = '';
  let lineNumber = 0;
  try {
    for await (const piece of stream as AsyncIterable<string>) {
      pending += piece;
      let start = 0;
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
        lineNumber += 1;
        if (end - start > maxChars + 1) {
          yield { tooLong: lineNumber };
          return;
        }
        yield { text: withoutCarriageReturn(pending.slice(start, end)) };
        start = end + 1;
      }
      pending = pending.slice(start);
      if (pending.length > maxChars + 1) {
        yield { tooLong: lineNumber + 1 };
        return;
      }
    }
    if (pending !== '') yield { text: withoutCarriageReturn(pending) };
  } finally {
    stream.destroy();
  }
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
