/**
 * FindingsReport: what a live command hands to the report writers — who ran what against which
 * target, the checks it ran and the findings it collected — and the few facts every format derives
 * from it the same way (findings in their total order, counts per severity, which checks fail).
 *
 * Invariants: findings are shown in compareFindings order whatever order they come in, checks in
 * the order the command ran them (that order is an input), so every format is byte-stable;
 * at most FINDINGS_MAX findings and REPORT_CHECKS_MAX checks (more is a bug in the command).
 * A check of status `finding` fails the run only when one of its findings reaches --fail-on; a
 * finding id the report does not hold (dropped beyond FINDINGS_MAX) reaches nothing.
 * Non-goals: rendering (one file per format), deciding severities (the commands do).
 */
import { assert } from '../../core/assert.ts';
import { compareFindings, FINDINGS_MAX, SEVERITIES, type Finding, type Severity } from './finding.ts';
import { reachesFailOn, type FailOn } from './fail-on.ts';

export const CHECK_STATUSES = ['pass', 'fail', 'finding', 'skipped'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** One check a command ran: a JUnit test case, a row of the HTML checks table. */
export interface ReportCheck {
  readonly name: string;
  /** A family of checks (`money`, `casino.bet`); JUnit's classname carries it. */
  readonly group?: string;
  /** `fail`: the check itself failed; `finding`: it raised the findings named in `findingIds`. */
  readonly status: CheckStatus;
  readonly findingIds: readonly string[];
  /** Why it failed or was skipped, or what it saw. */
  readonly detail?: string;
}

/**
 * How the command failed other than by its findings (a check's answer that broke the model, a
 * target that stopped answering, a time budget spent): its exit code is not the findings' (3 from
 * a mismatch, 4 liveness), and the verdict says so first (findings-verdict.ts).
 */
export interface ReportFailure {
  /** One line: what failed (`an answer differs from the model: …`). */
  readonly summary: string;
  /** The command that runs it again. */
  readonly reproduce?: string;
  /** The failing step's request as a curl line (the key as $AFP_KEY, never literal). */
  readonly request?: string;
}

export interface FindingsReport {
  /** The command as typed after `afp`, e.g. `audit house-edge`. */
  readonly command: string;
  readonly target: { readonly name: string; readonly source: string };
  readonly seed?: string;
  /** afp's version; writeFindingsReports fills it from package.json when absent. */
  readonly afpVersion?: string;
  readonly failOn: FailOn;
  readonly findings: readonly Finding[];
  /** Findings not kept because FINDINGS_MAX distinct ones were (FindingsCollector.dropped). */
  readonly dropped: number;
  readonly checks: readonly ReportCheck[];
  /** A failure beside the findings (absent: the findings alone decide the verdict). */
  readonly failure?: ReportFailure;
  /** Tables of the command's own beside its findings (house-edge: one row per variant); the HTML shows them, the JSON and CSV files of the command hold them. */
  readonly tables?: readonly ReportTable[];
}

/** A command's table in the findings page: plain text cells (escaped when rendered), at most REPORT_TABLE_ROWS_MAX rows. */
export interface ReportTable {
  readonly id: string;
  readonly heading: string;
  readonly caption: string;
  readonly headers: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
}

export const REPORT_TABLE_ROWS_MAX = 10_000;

export const REPORT_CHECKS_MAX = 10_000;
/** The most characters of one text (a title, evidence) the findings renderers show. */
export const FINDING_TEXT_MAX_CHARS = 2_000;

/** Most severe first: the order of the counts in every format. */
export const SEVERITIES_DESCENDING: readonly Severity[] = [...SEVERITIES].reverse();

export function assertReportBounded(report: FindingsReport): void {
  assert(
    report.findings.length <= FINDINGS_MAX,
    `a findings report holds at most ${FINDINGS_MAX} findings, got ${report.findings.length}`,
  );
  assert(
    report.checks.length <= REPORT_CHECKS_MAX,
    `a findings report holds at most ${REPORT_CHECKS_MAX} checks, got ${report.checks.length}`,
  );
  assert(Number.isSafeInteger(report.dropped) && report.dropped >= 0, `dropped must be a count, got ${report.dropped}`);
}

export function sortedFindings(report: FindingsReport): Finding[] {
  return [...report.findings].sort(compareFindings);
}

export function severityCounts(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, major: 0, minor: 0, info: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** How many findings reach --fail-on: the ones that make the command exit 3. */
export function reachingCount(report: FindingsReport): number {
  return report.findings.filter((finding) => reachesFailOn(finding, report.failOn)).length;
}

export type FindingIndex = ReadonlyMap<string, Finding>;

export function indexFindings(findings: readonly Finding[]): FindingIndex {
  return new Map(findings.map((finding) => [finding.id, finding]));
}

/** Whether a check fails the run: `fail` always, `finding` when one of its findings reaches --fail-on. */
export function checkFails(check: ReportCheck, index: FindingIndex, failOn: FailOn): boolean {
  switch (check.status) {
    case 'fail':
      return true;
    case 'finding':
      return check.findingIds.some((id) => {
        const finding = index.get(id);
        return finding !== undefined && reachesFailOn(finding, failOn);
      });
    case 'pass':
    case 'skipped':
      return false;
  }
}
