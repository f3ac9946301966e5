/**
 * findings.html: a live command's findings report as one self-contained page (inline CSS, no
 * script, no external resource; a Content-Security-Policy forbids every network source). It opens
 * with the verdict (findings-verdict.ts: a few lines), then the summary table of the findings to
 * act on — per finding its severity, title and id, evidence with up to three examples, the curl
 * line that reproduces it, and count, most severe first — then the info findings folded in a
 * <details> (counted in its summary), the counts per severity and the checks (left out when the
 * command reported none: no empty sections).
 * Width: the page fits a laptop screen (1366 px): long cells wrap anywhere (ids, hashes, curl
 * lines), so no row is wider than the page.
 * Pure: the bytes are a function of the report (fixed order, fixed formatting, no clock).
 *
 * Invariants: every text is escaped by escapeHtml (src/report/html/html-text.ts, shared with
 * report.html) after boundedText has capped it and replaced control characters, so the page is
 * well-formed whatever a target answered; curl lines are capped at REPRODUCE_MAX_CHARS, and one
 * longer is not shown cut (a cut line reproduces nothing: findings.json holds it whole).
 */
import { boundedText, escapeHtml } from '../html/html-text.ts';
import { cell, tableRow, table } from '../kit/html-table.ts';
import { generatorOf, PAGE_CSS, renderPage, STATIC_PAGE_POLICY } from '../kit/page-shell.ts';
import { FINDINGS_MAX, type Finding, type Severity } from './finding.ts';
import { reachesFailOn } from './fail-on.ts';
import { findingsVerdict } from './findings-verdict.ts';
import {
  assertReportBounded,
  checkFails,
  indexFindings,
  reachingCount,
  severityCounts,
  SEVERITIES_DESCENDING,
  sortedFindings,
  FINDING_TEXT_MAX_CHARS,
  type FindingIndex,
  type FindingsReport,
  type ReportCheck,
  REPORT_TABLE_ROWS_MAX,
  type ReportTable,
} from './findings-report.ts';

const VALUE_MAX_CHARS = 300;
const REPRODUCE_MAX_CHARS = 20_000;

const STYLE = `${PAGE_CSS.body(1200)}
${PAGE_CSS.h1('1.5em')} ${PAGE_CSS.subtitle}
${PAGE_CSS.h2('32px')}
table { border-collapse: collapse; margin: 8px 0; font-size: 0.9em; width: 100%; }
${PAGE_CSS.caption}
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; } td.count { text-align: right; font-variant-numeric: tabular-nums; }
td, .verdict li { overflow-wrap: anywhere; } td.count, td.severity-critical, td.severity-major, td.severity-minor, td.severity-info { overflow-wrap: normal; }
code { white-space: pre-wrap; word-break: break-all; font-size: 0.9em; } .id, .note { color: #666; font-size: 0.9em; }
.verdict { border-left: 4px solid #2e7d32; padding: 4px 12px; margin: 12px 0; } .verdict.failed { border-color: #b00020; }
.verdict p { font-weight: 600; margin: 4px 0; } .verdict ul { margin: 4px 0; padding-left: 20px; }
details { margin: 16px 0; } summary { cursor: pointer; font-weight: 600; } ul.examples { margin: 4px 0; padding-left: 18px; }
.severity-critical { background: #b00020; color: #fff; } .severity-major { background: #e65100; color: #fff; }
.severity-minor { background: #f9a825; } .severity-info { background: #e3f2fd; }
.fails { font-weight: 600; color: #b00020; } ${PAGE_CSS.footer}`;

const text = (value: string, maxChars = FINDING_TEXT_MAX_CHARS): string => escapeHtml(boundedText(value, maxChars));
const json = (value: unknown): string => text(JSON.stringify(value), VALUE_MAX_CHARS);

function severityCell(severity: Severity): string {
  return `<td class="severity-${severity}">${severity}</td>`;
}

function reproduceCell(reproduce: string | undefined): string {
  if (reproduce === undefined) return '<td class="note">no single request reproduces it</td>';
  if (reproduce.length > REPRODUCE_MAX_CHARS)
    return `<td class="note">the request is too long to show (${reproduce.length} characters): see findings.json</td>`;
  return `<td><code>${text(reproduce, REPRODUCE_MAX_CHARS)}</code></td>`;
}

/** The evidence, the examples beyond it (a finding keeps up to three), and what was expected and seen. */
function evidenceCell(finding: Finding): string {
  const where = [finding.endpoint, finding.field === undefined ? undefined : `field ${finding.field}`].filter(
    (part) => part !== undefined,
  );
  const context = [
    ...where.map((part) => text(part)),
    `expected ${json(finding.expected)}`,
    `seen ${json(finding.seen)}`,
  ].join(' · ');
  const more = (finding.examples ?? []).filter((example) => example !== finding.evidence);
  const examples =
    more.length === 0 ? '' : `<ul class="examples">${more.map((example) => `<li>${text(example)}</li>`).join('')}</ul>`;
  return `<td>${text(finding.evidence)}${examples}<br><span class="note">${context}</span></td>`;
}

function findingRow(finding: Finding): string {
  return tableRow(
    [
      severityCell(finding.severity),
      `<td><span class="title">${text(finding.title)}</span><br><span class="id">${text(finding.id)}</span></td>`,
      evidenceCell(finding),
      reproduceCell(finding.reproduce),
      `<td class="count">${finding.count}</td>`,
    ],
    ` class="finding"`,
  );
}

const FINDING_HEAD = ['severity', 'finding', 'evidence', 'how to reproduce', 'count'];

function summaryTable(findings: readonly Finding[], info: number): string {
  const none = info === 0 ? 'No findings.' : 'No findings but info (below).';
  const rows = findings.length === 0 ? [`<tr><td colspan="5">${none}</td></tr>`] : findings.map(findingRow);
  return table('findings', 'Findings to act on, most severe first', FINDING_HEAD, rows);
}

/** Info findings (documented or harmless deviations), folded: counted in the summary line, listed when opened. */
function infoDetails(findings: readonly Finding[]): string {
  if (findings.length === 0) return '';
  const rows = findings.map(findingRow);
  return `<details id="info">\n<summary>${findings.length} info findings (documented or harmless deviations)</summary>\n${table('info-findings', 'Info findings', FINDING_HEAD, rows)}\n</details>`;
}

function verdictSection(report: FindingsReport, findings: readonly Finding[]): string {
  const verdict = findingsVerdict(findings, report.failOn, report.failure);
  const listed =
    verdict.listed.length === 0
      ? ''
      : `\n<ul>${verdict.listed.map((line) => `<li>${text(line.trim())}</li>`).join('')}</ul>`;
  return `<section id="verdict" class="verdict${verdict.failed ? ' failed' : ''}">\n<p>${text(verdict.headline)}</p>${listed}\n</section>`;
}

function countsTable(report: FindingsReport, findings: readonly Finding[]): string {
  const counts = severityCounts(findings);
  const rows = SEVERITIES_DESCENDING.map((severity) => {
    const fails = reachesFailOn({ severity }, report.failOn) ? 'fails the command' : '';
    return tableRow([
      severityCell(severity),
      `<td class="count">${counts[severity]}</td>`,
      `<td class="fails">${fails}</td>`,
    ]);
  });
  return table(
    'counts',
    `Findings by severity (--fail-on ${report.failOn})`,
    ['severity', 'findings', 'at or above --fail-on'],
    rows,
  );
}

function checkRow(check: ReportCheck, report: FindingsReport, index: FindingIndex): string {
  const fails = checkFails(check, index, report.failOn);
  return tableRow([
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
  const verdict =
    report.failOn === 'none'
      ? '--fail-on none: findings never fail the command'
      : `${reaching} at or above --fail-on ${report.failOn}${reaching > 0 ? ' (exit 3)' : ''}`;
  const parts = [
    `target ${report.target.source}`,
    ...(report.seed === undefined ? [] : [`seed ${report.seed}`]),
    `${findings.length} findings`,
    verdict,
  ];
  const dropped =
    report.dropped === 0
      ? ''
      : `\n${report.dropped} more findings were not kept (a report keeps at most ${FINDINGS_MAX}).`;
  return text(parts.join(' · ') + dropped);
}

/** A command's own table (house-edge's per-variant edges), each cell escaped, rows capped. */
function commandTable(own: ReportTable): string {
  const rows = own.rows
    .slice(0, REPORT_TABLE_ROWS_MAX)
    .map((cells) => tableRow(cells.map((value) => cell(escapeHtml(boundedText(value, FINDING_TEXT_MAX_CHARS))))));
  return `<section id="${own.id}">\n<h2>${escapeHtml(own.heading)}</h2>\n${table(`${own.id}-table`, own.caption, own.headers, rows)}\n</section>`;
}

export function renderFindingsHtml(report: FindingsReport): string {
  assertReportBounded(report);
  const findings = sortedFindings(report);
  const acting = findings.filter((finding) => finding.severity !== 'info');
  const title = `afp ${report.command} — ${report.target.name}`;
  const generator = generatorOf(report.afpVersion);
  return renderPage({
    policy: STATIC_PAGE_POLICY,
    generator,
    title: boundedText(title, FINDING_TEXT_MAX_CHARS),
    style: STYLE,
    subtitle: subtitle(report, findings),
    parts: [
      verdictSection(report, findings),
      summaryTable(acting, findings.length - acting.length),
      ...(report.tables ?? []).map(commandTable),
      infoDetails(findings.filter((finding) => finding.severity === 'info')),
      `<section id="severities">\n<h2>Counts</h2>\n${countsTable(report, findings)}\n</section>`,
      // No empty sections: a command that reported no checks gets no checks section.
      report.checks.length === 0
        ? ''
        : `<section id="checks-run">\n<h2>Checks</h2>\n${checksTable(report, indexFindings(report.findings))}\n</section>`,
      `<footer><p>Written by ${escapeHtml(generator)}. findings.json, findings.csv and findings.junit.xml hold the same findings.</p></footer>`,
    ],
  });
}
