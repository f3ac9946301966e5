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
 * Written by the report kit (src/report/kit/junit.ts: well-formed XML 1.0 whatever a target
 * answered; attribute values bounded); texts at most FINDING_TEXT_MAX_CHARS a line.
 */
import { boundedText } from '../html/html-text.ts';
import { renderJunit, type JunitCase, type JunitOutcome } from '../kit/junit.ts';
import { FINDINGS_MAX, type Finding } from './finding.ts';
import { reachesFailOn } from './fail-on.ts';
import {
  assertReportBounded,
  checkFails,
  indexFindings,
  sortedFindings,
  FINDING_TEXT_MAX_CHARS,
  type FindingIndex,
  type FindingsReport,
  type ReportCheck,
} from './findings-report.ts';
import { findingsVerdict } from './findings-verdict.ts';

export const OUTSIDE_CHECKS_NAME = 'findings outside the checks';

const text = (value: string): string => boundedText(value, FINDING_TEXT_MAX_CHARS);

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

function outcomeOf(check: ReportCheck, report: FindingsReport, index: FindingIndex): JunitOutcome {
  const body = () =>
    [...(check.detail === undefined ? [] : [text(check.detail)]), findingsText(check, index)]
      .filter((part) => part !== '')
      .join('\n');
  switch (check.status) {
    case 'pass':
      return { kind: 'pass' };
    case 'skipped':
      return { kind: 'skipped', message: check.detail ?? 'skipped' };
    case 'fail':
      return { kind: 'failure', message: check.detail ?? 'the check failed', type: 'fail', body: body() };
    case 'finding':
      return checkFails(check, index, report.failOn)
        ? { kind: 'failure', message: failingMessage(check, report, index), type: 'finding', body: body() }
        : { kind: 'system-out', body: body() };
  }
}

function testcase(check: ReportCheck, report: FindingsReport, index: FindingIndex): JunitCase {
  const classname = check.group === undefined ? `afp ${report.command}` : `afp ${report.command}.${check.group}`;
  return { name: check.name, classname, outcome: outcomeOf(check, report, index) };
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

export function renderFindingsJunit(report: FindingsReport): string {
  assertReportBounded(report);
  const index = indexFindings(report.findings);
  const checks = checksWithOutside(report);
  return renderJunit({
    suitesName: 'afp',
    suiteName: `afp ${report.command}`,
    counts: {
      tests: checks.length,
      failures: checks.filter((check) => checkFails(check, index, report.failOn)).length,
      errors: 0,
      skipped: checks.filter((check) => check.status === 'skipped').length,
    },
    properties: [
      ['verdict', findingsVerdict(report.findings, report.failOn, report.failure).headline],
      ['target', report.target.name],
      ['source', report.target.source],
      ...(report.seed === undefined ? [] : [['seed', report.seed] as const]),
      ...(report.afpVersion === undefined ? [] : [['afp-version', report.afpVersion] as const]),
      ['fail-on', report.failOn],
      ['findings', String(report.findings.length)],
      ['dropped', String(report.dropped)],
    ],
    cases: checks.map((check) => testcase(check, report, index)),
  });
}
