// recordLines (src/replay/record-lines.ts): a record's lines read in pieces, each bounded. The
// same lines as readline gives (CRLF, a last line without a newline, lines across pieces), and a
// line past the bound ends the reading with its number instead of a string that grows without end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { recordLines, type RecordLine } from '../../src/replay/record-lines.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-record-lines-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function all(file: string, maxChars: number): Promise<RecordLine[]> {
  const lines: RecordLine[] = [];
  for await (const line of recordLines(file, maxChars)) lines.push(line);
  return lines;
}

describe('recordLines', () => {
  test('lines as readline gives them: CRLF, blank lines, a last line without a newline', async () => {
    const file = join(work, 'small.jsonl');
    writeFileSync(file, '{"a":1}\r\n\n{"b":2}\n{"c":3}');
    expect(await all(file, 100)).toEqual([{ text: '{"a":1}' }, { text: '' }, { text: '{"b":2}' }, { text: '{"c":3}' }]);
  });

  test('lines that cross the 1 MiB pieces come whole and in order', async () => {
    const file = join(work, 'large.jsonl');
    const lines = Array.from({ length: 30_000 }, (_, index) => `{"seq":${index},"pad":"${'x'.repeat(index % 200)}"}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(await all(file, 1_000)).toEqual(lines.map((text) => ({ text })));
  });

  test('a line past the bound ends the reading with its number, whether or not its newline came', async () => {
    const file = join(work, 'long.jsonl');
    writeFileSync(file, `short\n${'y'.repeat(50)}\nnever read\n`);
    expect(await all(file, 20)).toEqual([{ text: 'short' }, { tooLong: 2 }]);
    writeFileSync(file, `short\n${'y'.repeat(3_000_000)}`);
    expect(await all(file, 1_000)).toEqual([{ text: 'short' }, { tooLong: 2 }]);
  });
});
