/**
 * findings.csv: one row per finding, for a spreadsheet or a script. Pure: the text is a function of
 * the report alone.
 *
 * Invariants: a header row always (also with no findings); rows in the findings' total order;
 * `\n` line endings and a final newline; quoting by csv-stringify wherever a field needs it
 * (comma, quote, line break), as the run reports do (src/report/csv-tables.ts). `expected`,
 * `seen` and `examples` (up to three, the first is `evidence`) are JSON text (so `"1"` and `1`
 * stay apart); an absent optional field is empty.
 * The free-text cells carry what a target answered, and a target may be hostile: in them control
 * characters other than tab, LF and CR and lone surrogates become U+FFFD (as in report.html), and
 * a cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, CR first, or their
 * full-width forms) gets a leading `'` (OWASP "CSV injection"). JSON cells need neither: JSON text
 * escapes control characters and never starts with one of those but `-`, and then it is a number.
 */
import { stringify } from 'csv-stringify/sync';
import type { Finding } from './finding.ts';
import { assertReportBounded, sortedFindings, type FindingsReport } from './findings-report.ts';

const COLUMNS = [
  'severity',
  'kind',
  'id',
  'title',
  'endpoint',
  'field',
  'expected',
  'seen',
  'evidence',
  'reproduce',
  'count',
  'examples',
] as const;

const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
// oxlint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A text cell a spreadsheet shows as text, never evaluates. */
export function spreadsheetText(text: string): string {
  const clean = text.toWellFormed().replace(CONTROL_CHARACTERS, '\ufffd');
  return FORMULA_START.test(clean) ? `'${clean}` : clean;
}

function row(finding: Finding): (string | number)[] {
  return [
    finding.severity,
    finding.kind,
    spreadsheetText(finding.id),
    spreadsheetText(finding.title),
    spreadsheetText(finding.endpoint ?? ''),
    spreadsheetText(finding.field ?? ''),
    JSON.stringify(finding.expected),
    JSON.stringify(finding.seen),
    spreadsheetText(finding.evidence),
    spreadsheetText(finding.reproduce ?? ''),
    finding.count,
    JSON.stringify(finding.examples ?? [finding.evidence]),
  ];
}

export function renderFindingsCsv(report: FindingsReport): string {
  assertReportBounded(report);
  return stringify(sortedFindings(report).map(row), { header: true, columns: [...COLUMNS], record_delimiter: '\n' });
}
