/**
 * `afp check --target FILE` (and `--target URL` of an afp serve speaking another dialect than the
 * documents' style A): the model-based check through the target's dialects
 * (src/check/dialect/run-dialect-check.ts), its output and its findings report.
 *
 * Output contract, after the `seed: N` line check.ts prints: `target:`, one `note:` per command
 * or operation left out (with its reason), `commands:` the rows drawn from, the findings (count by
 * severity, then one line each, most severe first), then `ok: …` or the failure as runCheck's
 * (error, shrunk sequence, counterexample, seed, path, reproduce), or, when the sequences held but
 * findings reach --fail-on, `FAILED:` with those findings, the seed and the reproduce command (which
 * carries --fail-on); then the report files with --out (check-reports.ts).
 * Exit codes: 3 a model rule broken, or a finding at --fail-on or above (default major) · 4 the
 * check could not run against the target (no account, no answer, the time budget spent) · 1 any
 * other error (a bug) · 0 otherwise.
 */
import { DIALECT_MAX_COMMANDS, runDialectCheck, type DialectCheckOptions, type DialectCheckResult } from '../check.ts';
import { curlOf } from '../live.ts';
import { SEVERITIES, type Finding } from '../report/findings/finding.ts';
import { findingsEnding, reachesFailOn, type FailOn } from '../report/findings/fail-on.ts';
import { checkEnding, checkRecordFields, formatOutcome, type FailingFindings } from './check-outcome.ts';
import { writeCheckReports } from './check-reports.ts';
import type { RecordFields } from './json-output.ts';
import type { Ending } from '../core/command-failure.ts';

/** Findings listed one per line; the rest are counted (the report files hold them all). */
const FINDINGS_LISTED_MAX = 40;

/** The check's own options (the CLI adds the curl lines), the severity that fails the run and the reports folder. */
export interface DialectCheckRequest extends Pick<
  DialectCheckOptions,
  'target' | 'targetSpec' | 'seed' | 'runs' | 'maxCommands' | 'path' | 'clock' | 'deadline' | 'onRun' | 'stop'
> {
  readonly failOn: FailOn;
  readonly out?: string;
}

export async function checkThroughDialect(
  request: DialectCheckRequest,
  out: (text: string) => void,
  record: RecordFields = () => undefined,
): Promise<Ending> {
  const { out: _reportsDir, ...options } = request;
  const result = await runDialectCheck({ ...options, curlOf });
  const findings = result.findings.list();
  const verdict = failingFindings(findings, request.failOn);
  out(formatDialectResult(result, request.maxCommands, verdict));
  record(checkRecordFields(result, verdict));
  if (request.out !== undefined) {
    const paths = await writeCheckReports(request.out, {
      target: { name: request.target.name, source: request.target.source },
      result,
      failOn: request.failOn,
      findings,
      dropped: result.findings.dropped,
    });
    out(`reports: ${paths.join(', ')}\n`);
    record({ files: paths });
  }
  return checkEnding(result, findingsEnding(findings, request.failOn));
}

/** The findings that reach --fail-on, most severe first (the collector's order): they fail the run. */
function failingFindings(findings: readonly Finding[], failOn: FailOn): FailingFindings {
  return { failOn, failing: findings.filter((finding) => reachesFailOn(finding, failOn)) };
}

export function formatDialectResult(
  result: DialectCheckResult,
  maxCommands: number | undefined,
  verdict?: FailingFindings,
): string {
  const findings = result.findings.list();
  const counts = [...SEVERITIES]
    .reverse()
    .map((severity) => `${findings.filter((finding) => finding.severity === severity).length} ${severity}`);
  const lines = [
    `target: ${result.target}`,
    ...result.notes.map((note) => `note: ${note}`),
    `commands: ${result.commands.join(', ')}`,
    `findings: ${findings.length} (${counts.join(', ')})${result.findings.dropped > 0 ? `, ${result.findings.dropped} more dropped` : ''}`,
  ];
  for (const finding of findings.slice(0, FINDINGS_LISTED_MAX))
    lines.push(
      `  ${finding.severity} ${finding.id}: ${finding.title}${finding.count > 1 ? ` (×${finding.count})` : ''}`,
    );
  if (findings.length > FINDINGS_LISTED_MAX)
    lines.push(`  … and ${findings.length - FINDINGS_LISTED_MAX} more (see --out)`);
  return formatOutcome(lines, result, maxCommands ?? DIALECT_MAX_COMMANDS, verdict);
}
