/**
 * findings.junit.xml: a live command's checks as JUnit XML, for CI (GitLab, Jenkins, GitHub
 * test reporters). Pure: the text is a function of the report alone (no timestamps, no durations,
 * no host name).
 *
 * One <testsuite> for the command, one <testcase> per check in the order run:
 * `pass` → an empty test case; `fail` → <failure type="fail">; `finding` → <failure
 * type="finding"> when one of its findings reaches --fail-on, else a passing test case whose
 * <system-out> lists the findings; `skipped` → <skipped message=…/>. Findings no check names get
 * one more test case, `findings outside the checks`, judged the same way, so the file fails
 * exactly when the findings fail the command and no finding is left out.
 * The suite's first property is the verdict (findings-verdict.ts), what a CI page shows first.
 * Invariants: every text escaped by xml-text.ts (the file is well-formed XML 1.0 whatever a
 * target answered); messages at most MESSAGE_MAX_CHARS, texts at most TEXT_MAX_CHARS.
 */
import { boundedText } from '../../report/html/html-text.ts';
import { FINDINGS_MAX, type Finding } from '../finding.ts';
import { reachesFailOn } from './fail-on.ts';
import {
  assertReportBounded,
  checkFails,
  indexFindings,
  sortedFindings,
  type FindingIndex,
  type FindingsReport,
  type ReportCheck,
} from './findings-report.ts';
import { xmlAttribute, xmlText } from './xml-text.ts';
import { findingsVerdict } from './findings-verdict.ts';

const MESSAGE_MAX_CHARS = 300;
const TEXT_MAX_CHARS = 2_000;
export const OUTSIDE_CHECKS_NAME = 'findings outside the checks';

const attribute = (text: string): string => xmlAttribute(boundedText(text, MESSAGE_MAX_CHARS));
const text = (value: string): string => xmlText(boundedText(value, TEXT_MAX_CHARS));

function findingBlock(id: string, index: FindingIndex): string {
  const finding = index.get(id);
  if (finding === undefined) return `- ${id}: not in this report (beyond the ${FINDINGS_MAX} findings kept)`;
  const lines = [`- [${finding.severity}] ${finding.title} (${finding.id}) ×${finding.count}`];
  if (finding.endpoint !== undefined)
    lines.push(`  endpoint: ${finding.endpoint}${finding.field === undefined ? '' : `, field ${finding.field}`}`);
  lines.push(
    `  expected: ${JSON.stringify(finding.expected)}`,
    `  seen: ${JSON.stringify(finding.seen)}`,
    `  evidence: ${finding.evidence}`,
  );
  for (const example of (finding.examples ?? []).filter((text) => text !== finding.evidence))
    lines.push(`  example: ${example}`);
  if (finding.reproduce !== undefined) lines.push(`  reproduce: ${finding.reproduce}`);
  return lines.map((line) => text(line)).join('\n');
}

function findingsText(check: ReportCheck, index: FindingIndex): string {
  return check.findingIds.map((id) => findingBlock(id, index)).join('\n');
}

function failingMessage(check: ReportCheck, report: FindingsReport, index: FindingIndex): string {
  const reaching = check.findingIds
    .map((id) => index.get(id))
    .filter((finding): finding is Finding => finding !== undefined && reachesFailOn(finding, report.failOn));
  return `${reaching.length} of ${check.findingIds.length} findings at or above ${report.failOn}: ${reaching[0]?.title ?? ''}`;
}

function testcase(check: ReportCheck, report: FindingsReport, index: FindingIndex): string {
  const classname = check.group === undefined ? `afp ${report.command}` : `afp ${report.command}.${check.group}`;
  const open = `    <testcase name="${attribute(check.name)}" classname="${attribute(classname)}"`;
  const detail = check.detail === undefined ? [] : [text(check.detail)];
  switch (check.status) {
    case 'pass':
      return `${open}/>`;
    case 'skipped':
      return `${open}>\n      <skipped message="${attribute(check.detail ?? 'skipped')}"/>\n    </testcase>`;
    case 'fail': {
      const body = [...detail, findingsText(check, index)].filter((part) => part !== '').join('\n');
      return `${open}>\n      <failure message="${attribute(check.detail ?? 'the check failed')}" type="fail">${body}</failure>\n    </testcase>`;
    }
    case 'finding': {
      const body = [...detail, findingsText(check, index)].filter((part) => part !== '').join('\n');
      if (checkFails(check, index, report.failOn)) {
        return `${open}>\n      <failure message="${attribute(failingMessage(check, report, index))}" type="finding">${body}</failure>\n    </testcase>`;
      }
      return `${open}>\n      <system-out>${body}</system-out>\n    </testcase>`;
    }
  }
}

/** The report's checks, and one more for the findings none of them names. */
function checksWithOutside(report: FindingsReport): ReportCheck[] {
  const named = new Set(report.checks.flatMap((check) => check.findingIds));
  const outside = sortedFindings(report).filter((finding) => !named.has(finding.id));
  if (outside.length === 0) return [...report.checks];
  return [
    ...report.checks,
    { name: OUTSIDE_CHECKS_NAME, status: 'finding', findingIds: outside.map((finding) => finding.id) },
  ];
}

function property(name: string, value: string): string {
  return `      <property name="${xmlAttribute(name)}" value="${attribute(value)}"/>`;
}

export function renderFindingsJunit(report: FindingsReport): string {
  assertReportBounded(report);
  const index = indexFindings(report.findings);
  const checks = checksWithOutside(report);
  const counts = `tests="${checks.length}" failures="${checks.filter((check) => checkFails(check, index, report.failOn)).length}" errors="0" skipped="${checks.filter((check) => check.status === 'skipped').length}"`;
  const properties = [
    property('verdict', findingsVerdict(report.findings, report.failOn).headline),
    property('target', report.target.name),
    property('source', report.target.source),
    ...(report.seed === undefined ? [] : [property('seed', report.seed)]),
    ...(report.afpVersion === undefined ? [] : [property('afp-version', report.afpVersion)]),
    property('fail-on', report.failOn),
    property('findings', String(report.findings.length)),
    property('dropped', String(report.dropped)),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="afp" ${counts}>`,
    `  <testsuite name="${attribute(`afp ${report.command}`)}" ${counts}>`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...checks.map((check) => testcase(check, report, index)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
