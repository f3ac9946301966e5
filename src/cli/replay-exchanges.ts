/**
 * The exchanges `afp replay` sends, read a second time from the record (replay-record.ts validated
 * it first): counted on the progress line, with the record's admin-door exchanges left out unless
 * --with-admin and its origin headers dropped (src/replay/admin-doors.ts: a record is untrusted
 * data). Its own file: reading and filtering the record is one concept, sending it another.
 */
import { AdminDoorFilter } from '../replay/admin-doors.ts';
import { parseExchangeLine, READ_LINE_CHARS_MAX } from '../replay/record-reader.ts';
import { recordLines } from '../replay/record-lines.ts';
import type { RecordedExchange } from '../replay/record-format.ts';
import type { Progress } from './progress.ts';

/** The record's exchanges to send, and the filter that says what it held back. */
export function exchangesToSend(
  file: string,
  progress: Progress,
  withAdmin: boolean,
): { readonly doors: AdminDoorFilter; readonly exchanges: AsyncIterable<RecordedExchange> } {
  const doors = new AdminDoorFilter(withAdmin);
  return { doors, exchanges: doors.filter(counted(readExchanges(file), progress)) };
}

/** The exchanges as they are read, each counted on the progress line. */
async function* counted(
  exchanges: AsyncIterable<RecordedExchange>,
  progress: Progress,
): AsyncGenerator<RecordedExchange> {
  let done = 0;
  progress.update(done);
  for await (const exchange of exchanges) {
    yield exchange;
    progress.update((done += 1));
  }
}

/** Second pass: the exchanges, parsed again (the file was validated; a change since is a crash). */
async function* readExchanges(file: string): AsyncGenerator<RecordedExchange> {
  let lineNumber = 0;
  let seq = 0;
  let previousAtMs = 0;
  for await (const read of recordLines(file, READ_LINE_CHARS_MAX)) {
    lineNumber++;
    if ('tooLong' in read) throw new Error(`${file} changed during the replay: line ${read.tooLong} is too long`);
    const line = read.text;
    if (lineNumber === 1 || line === '') continue;
    seq++;
    const parsed = parseExchangeLine(line, { lineNumber, expectedSeq: seq, previousAtMs });
    if (!parsed.ok) throw new Error(`${file} changed during the replay: ${parsed.errors.join('; ')}`);
    previousAtMs = parsed.value.at_ms;
    yield parsed.value;
  }
}
