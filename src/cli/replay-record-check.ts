/**
 * `afp replay`'s first pass over a record (the file is known readable): every line validated, the
 * header printed, the provenance references and the mounts sent to collected, before anything is
 * sent. Its own file: replay-record.ts sends the exchanges; this decides whether there is a record.
 */
import { headerLines } from '../replay/diff-report.ts';
import { ERRORS_MAX, parseExchangeLine, parseRecordHeader, READ_LINE_CHARS_MAX } from '../replay/record-reader.ts';
import { recordLines } from '../replay/record-lines.ts';
import type { RecordHeader } from '../replay/record-format.ts';
import { ReferenceIndex } from '../replay/replay-session.ts';

/** Where a validated record's text goes: its header to `out`, what is wrong with it to `err`. */
export interface RecordCheckIo {
  out(text: string): void;
  err(text: string): void;
}

export interface CheckedRecord {
  readonly header: RecordHeader;
  readonly references: ReferenceIndex;
  readonly firstAtMs: number | null;
  /** The mounts the recorded requests were sent to, sorted. */
  readonly mounts: readonly string[];
}

/** First pass (the file is known readable): every line validated, provenance references collected. Prints the header first. */
export async function validateRecord(file: string, io: RecordCheckIo): Promise<CheckedRecord | null> {
  const errors: string[] = [];
  let header: RecordHeader | null = null;
  const references = new ReferenceIndex();
  let lineNumber = 0;
  let previousAtMs = 0;
  let firstAtMs: number | null = null;
  let count = 0;
  const mounts = new Set<string>();
  /** A line too long ends the reading: the rest of the file is not counted. */
  let readWhole = true;
  for await (const read of recordLines(file, READ_LINE_CHARS_MAX)) {
    lineNumber++;
    if ('tooLong' in read) {
      readWhole = false;
      errors.push(
        `line ${read.tooLong}: longer than ${READ_LINE_CHARS_MAX} characters, so not read (a record holds one JSON object per line)`,
      );
      break;
    }
    const line = read.text;
    if (lineNumber === 1) {
      const parsed = parseRecordHeader(line);
      if (!parsed.ok) {
        io.err(
          `afp replay: ${file} is not a valid record:\n${parsed.errors.map((error) => `  ${error}`).join('\n')}\n`,
        );
        return null;
      }
      header = parsed.value;
      previousAtMs = header.start_ms;
      io.out(`${headerLines(file, header).join('\n')}\n`);
      continue;
    }
    if (line === '') continue;
    count++;
    const parsed = parseExchangeLine(line, { lineNumber, expectedSeq: count, previousAtMs });
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      continue;
    }
    previousAtMs = parsed.value.at_ms;
    firstAtMs ??= parsed.value.at_ms;
    mounts.add(parsed.value.request.mount);
    references.add(parsed.value);
  }
  if (header === null) {
    if (readWhole) errors.push('line 1: the file is empty (no header)');
  } else if (readWhole && count !== header.exchanges)
    errors.push(
      `line ${lineNumber}: the header announces ${header.exchanges} exchanges, the file has ${count} (cut short?)`,
    );
  if (errors.length > 0 || header === null) {
    const shown = errors.slice(0, ERRORS_MAX).map((error) => `  ${error}`);
    if (errors.length > ERRORS_MAX) shown.push(`  … and ${errors.length - ERRORS_MAX} more`);
    io.err(`afp replay: ${file} is not a valid record:\n${shown.join('\n')}\n`);
    return null;
  }
  return { header, references, firstAtMs, mounts: [...mounts].sort() };
}
