/**
 * The tables of the static HTML reports (load.html, findings.html): a captioned table with an id,
 * a header row and body rows, each row a list of cells already escaped by the caller.
 * Invariants: pure; one row a line, so a diff of two reports reads row by row; the caption and
 * the header cells are escaped here (plain text in).
 */
import { escapeHtml } from '../html/html-text.ts';

export function tableRow(cells: readonly string[], attributes = ''): string {
  return `<tr${attributes}>${cells.join('')}</tr>`;
}

export function table(id: string, caption: string, head: readonly string[], rows: readonly string[]): string {
  return [
    `<table id="${id}"><caption>${escapeHtml(caption)}</caption>`,
    `<thead>${tableRow(head.map((cell) => `<th>${escapeHtml(cell)}</th>`))}</thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody></table>`,
  ].join('\n');
}

/** A data cell; `value` is markup the caller escaped. */
export function cell(value: string, className?: string): string {
  return `<td${className === undefined ? '' : ` class="${className}"`}>${value}</td>`;
}
