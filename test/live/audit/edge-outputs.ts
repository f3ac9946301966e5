// Reading back the four outputs of the live house-edge audit as cells (edge-cells.ts): the
// terminal's table, edges.csv, and findings.html's edge table (edges.json is JSON.parse), so the
// tests can hold them equal cell by cell. Shared by the unit test and the in-process one.
import { expect } from 'vitest';
import { EDGE_CELL_KEYS } from '../../../src/audit/live/edge-cells.ts';

export const TERMINAL_KEYS = EDGE_CELL_KEYS.filter((key) => key !== 'word' && key !== 'detail');

/**
 * The terminal's rows as cells: columns are two spaces apart (no cell holds two spaces), and a
 * line that opens with spaces carries on the verdict of the row above.
 */
export function terminalRows(text: string): Array<Record<string, string>> {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]?.split(/ {2,}/)).toEqual(TERMINAL_KEYS);
  const rows: string[][] = [];
  for (const line of lines.slice(1, -1)) {
    const last = rows.at(-1);
    if (line.startsWith(' ') && last !== undefined) last.push(`${last.pop() ?? ''} ${line.trim()}`);
    else rows.push(line.split(/ {2,}/));
  }
  return rows.map((row) => Object.fromEntries(row.map((value, column) => [TERMINAL_KEYS[column], value])));
}

/** RFC 4180 as csv-stringify writes it: quoted fields with doubled quotes, "\n" between records. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] ?? '';
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') [field, index] = [`${field}"`, index + 1];
      else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') [fields, field] = [[...fields, field], ''];
    else if (character === '\n') [records[records.length], fields, field] = [[...fields, field], [], ''];
    else field += character;
  }
  const [header = [], ...rows] = records;
  return rows.map((row) => Object.fromEntries(row.map((value, column) => [header[column], value])));
}

export const unescape = (markup: string): string =>
  markup
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** findings.html's edge table (section "edges"), each row its cells as text. */
export function htmlEdgeRows(html: string): string[][] {
  const section = /<section id="edges">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => unescape(cell[1] ?? '')),
  );
}
