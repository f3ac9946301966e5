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
import { type CommandFailure, invalidInput } from '../core/command-failure.ts';

/** Where a validated record's header goes (what is wrong with a record is its failure's message). */
export interface RecordCheckIo {
  out(text: string): void;
}

export interface CheckedRecord {
  readonly header: RecordHeader;
  readonly references: ReferenceIndex;
  readonly firstAtMs: number | null;
  /** The mounts the recorded requests were sent to, sorted. */
  readonly mounts: readonly string[];
}

/**
 * First pass (the file is known readable): every line validated, provenance references collected.
 * Prints the header first; a record that is not valid is invalid input saying what is wrong.
 */
export async function validateRecord(file: string, io: RecordCheckIo): Promise<CheckedRecord | CommandFailure> {
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
        return invalidInput(
          `afp replay: ${file} is not a valid record:\n${parsed.errors.map((error) => `  ${error}`).join('\n')}`,
        );
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
    return invalidInput(`afp replay: ${file} is not a valid record:\n${shown.join('\n')}`);
  }
  return { header, references, firstAtMs, mounts: [...mounts].sort() };
}
