/**
 * findings.html: a live command's findings report as one self-contained page (inline CSS, no
 * script, no external resource; a Content-Security-Policy forbids every network source). It opens
 * with the summary table — per finding its severity, title and id, evidence, the curl line that
 * reproduces it, and count, most severe first — then the counts per severity and the checks (left
 * out when the command reported none: no empty sections).
 * Pure: the bytes are a function of the report (fixed order, fixed formatting, no clock).
 *
 * Invariants: every text is escaped by escapeHtml (src/report/html/html-text.ts, shared with
 * report.html) after boundedText has capped it and replaced control characters, so the page is
 * well-formed whatever a target answered; curl lines are capped at REPRODUCE_MAX_CHARS, and one
 * longer is not shown cut (a cut line reproduces nothing: findings.json holds it whole).
 */
import { boundedText, escapeHtml } from '../../report/html/html-text.ts';
import { FINDINGS_MAX, type Finding, type Severity } from '../finding.ts';
import { reachesFailOn } from './fail-on.ts';
import {
  assertReportBounded, checkFails, indexFindings, reachingCount, severityCounts, SEVERITIES_DESCENDING, sortedFindings,
  type FindingIndex, type FindingsReport, type ReportCheck,
} from './findings-report.ts';

const TEXT_MAX_CHARS = 2_000;
const VALUE_MAX_CHARS = 300;
const REPRODUCE_MAX_CHARS = 20_000;

const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

const STYLE = `body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0 auto; max-width: 1200px; padding: 16px 24px; color: #1d1d1f; }
h1 { font-size: 1.5em; margin-bottom: 4px; } .subtitle { color: #555; margin-top: 0; white-space: pre-wrap; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 32px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.9em; width: 100%; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; } td.count { text-align: right; font-variant-numeric: tabular-nums; }
code { white-space: pre-wrap; word-break: break-all; font-size: 0.9em; } .id, .note { color: #666; font-size: 0.9em; }
.severity-critical { background: #b00020; color: #fff; } .severity-major { background: #e65100; color: #fff; }
.severity-minor { background: #f9a825; } .severity-info { background: #e3f2fd; }
.fails { font-weight: 600; color: #b00020; } footer { margin-top: 32px; color: #777; font-size: 0.85em; }`;

const text = (value: string, maxChars = TEXT_MAX_CHARS): string => escapeHtml(boundedText(value, maxChars));
const json = (value: unknown): string => text(JSON.stringify(value), VALUE_MAX_CHARS);

function row(cells: readonly string[], attributes = ''): string {
  return `<tr${attributes}>${cells.join('')}</tr>`;
}

function table(id: string, caption: string, head: readonly string[], rows: readonly string[]): string {
  return [
    `<table id="${id}"><caption>${escapeHtml(caption)}</caption>`,
    `<thead>${row(head.map((cell) => `<th>${escapeHtml(cell)}</th>`))}</thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody></table>`,
  ].join('\n');
}

function severityCell(severity: Severity): string {
  return `<td class="severity-${severity}">${severity}</td>`;
}

function reproduceCell(reproduce: string | undefined): string {
  if (reproduce === undefined) return '<td class="note">no single request reproduces it</td>';
  if (reproduce.length > REPRODUCE_MAX_CHARS) return `<td class="note">the request is too long to show (${reproduce.length} characters): see findings.json</td>`;
  return `<td><code>${text(reproduce, REPRODUCE_MAX_CHARS)}</code></td>`;
}

function findingRow(finding: Finding): string {
  const where = [finding.endpoint, finding.field === undefined ? undefined : `field ${finding.field}`].filter((part) => part !== undefined);
  const context = [...where.map((part) => text(part)), `expected ${json(finding.expected)}`, `seen ${json(finding.seen)}`].join(' · ');
  return row(
    [
      severityCell(finding.severity),
      `<td><span class="title">${text(finding.title)}</span><br><span class="id">${text(finding.id)}</span></td>`,
      `<td>${text(finding.evidence)}<br><span class="note">${context}</span></td>`,
      reproduceCell(finding.reproduce),
      `<td class="count">${finding.count}</td>`,
    ],
    ` class="finding"`,
  );
}

function summaryTable(findings: readonly Finding[]): string {
  const rows = findings.length === 0 ? ['<tr><td colspan="5">No findings.</td></tr>'] : findings.map(findingRow);
  return table('findings', 'Findings, most severe first', ['severity', 'finding', 'evidence', 'how to reproduce', 'count'], rows);
}

function countsTable(report: FindingsReport, findings: readonly Finding[]): string {
  const counts = severityCounts(findings);
  const rows = SEVERITIES_DESCENDING.map((severity) => {
    const fails = reachesFailOn({ severity }, report.failOn) ? 'fails the command' : '';
    return row([severityCell(severity), `<td class="count">${counts[severity]}</td>`, `<td class="fails">${fails}</td>`]);
  });
  return table('counts', `Findings by severity (--fail-on ${report.failOn})`, ['severity', 'findings', 'at or above --fail-on'], rows);
}

function checkRow(check: ReportCheck, report: FindingsReport, index: FindingIndex): string {
  const fails = checkFails(check, index, report.failOn);
  return row([
    `<td>${text(check.name)}</td>`,
    `<td>${text(check.group ?? '')}</td>`,
    `<td${fails ? ' class="fails"' : ''}>${check.status}${fails ? ' (fails)' : ''}</td>`,
    `<td>${check.findingIds.map((id) => `<span class="id">${text(id)}</span>`).join('<br>')}</td>`,
    `<td>${text(check.detail ?? '')}</td>`,
  ]);
}

function checksTable(report: FindingsReport, index: FindingIndex): string {
  const rows = report.checks.map((check) => checkRow(check, report, index));
  return table('checks', 'Checks, in the order run', ['check', 'group', 'status', 'findings', 'detail'], rows);
}

function subtitle(report: FindingsReport, findings: readonly Finding[]): string {
  const reaching = reachingCount(report);
  const verdict = report.failOn === 'none' ? '--fail-on none: findings never fail the command' : `${reaching} at or above --fail-on ${report.failOn}${reaching > 0 ? ' (exit 3)' : ''}`;
  const parts = [`target ${report.target.source}`, ...(report.seed === undefined ? [] : [`seed ${report.seed}`]), `${findings.length} findings`, verdict];
  const dropped = report.dropped === 0 ? '' : `\n${report.dropped} more findings were not kept (a report keeps at most ${FINDINGS_MAX}).`;
  return text(parts.join(' · ') + dropped);
}

export function renderFindingsHtml(report: FindingsReport): string {
  assertReportBounded(report);
  const findings = sortedFindings(report);
  const title = `afp ${report.command} — ${report.target.name}`;
  const generator = report.afpVersion === undefined ? 'afp' : `afp ${report.afpVersion}`;
  return `${[
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="${escapeHtml(generator)}">`,
    `<title>${text(title)}</title>`,
    `<style>\n${STYLE}\n</style>`,
    '</head>',
    '<body>',
    `<header>\n<h1>${text(title)}</h1>\n<p class="subtitle">${subtitle(report, findings)}</p>\n</header>`,
    summaryTable(findings),
    `<section id="severities">\n<h2>Counts</h2>\n${countsTable(report, findings)}\n</section>`,
    // No empty sections: a command that reported no checks gets no checks section.
    report.checks.length === 0 ? '' : `<section id="checks-run">\n<h2>Checks</h2>\n${checksTable(report, indexFindings(report.findings))}\n</section>`,
    `<footer><p>Written by ${escapeHtml(generator)}. findings.json, findings.csv and findings.junit.xml hold the same findings.</p></footer>`,
    '</body>',
    '</html>',
  ]
    .filter((part) => part !== '')
    .join('\n')}\n`;
}
