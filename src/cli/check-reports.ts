/**
 * The findings reports of `afp check --out DIR` (findings.json, .csv, .junit.xml, .html), for every
 * check: through a target's dialects with its findings, and in-process or against an afp serve URL
 * checked against the documents' model, which raise none, so a CI step that reads
 * findings.junit.xml finds it whichever way the check ran. The model-based sequences are one
 * test case (pass, finding, or fail with the error and the reproduce command), and each command
 * left out of them a skipped one with the reason. A failed check (mismatch, could not run) is the
 * reports' verdict (findings-verdict.ts), with its reproduce command and request, whatever the findings.
 */
import type { CheckResult } from '../check.ts';
import type { Finding } from '../report/findings/finding.ts';
import type { ReportCheck, ReportFailure } from '../report/findings/findings-report.ts';
import { writeFindingsReports } from '../report/findings/write-findings.ts';
import type { FailOn } from '../report/findings/fail-on.ts';
import { failureCurl, nothingRanError, ranNothing, runsHeld } from './check-outcome.ts';

/** The report's checks: the sequences as one check, and one skipped check per command left out. */
export function reportChecks(
  result: CheckResult & { readonly commands?: readonly string[] },
  findings: readonly Pick<Finding, 'id'>[],
): ReportCheck[] {
  const findingIds = findings.map((finding) => finding.id);
  const name = `model-based sequences (${result.runs} runs, seed ${result.seed})`;
  const sequences: ReportCheck =
    result.failure !== undefined
      ? {
          name,
          group: 'check',
          status: 'fail',
          findingIds,
          detail: `${result.failure.error} — reproduce: ${result.failure.reproduce}${requestText(result.failure)}`,
        }
      : {
          name,
          group: 'check',
          status: ranNothing(result) ? 'fail' : findingIds.length > 0 ? 'finding' : 'pass',
          findingIds,
          detail:
            result.commands === undefined
              ? `${runsHeld(result.runs)} against ${result.target}`
              : `commands: ${result.commands.join(', ')}`,
        };
  const leftOut = result.notes
    .filter((note) => note.startsWith('command ') && note.includes(' left out'))
    .map((note): ReportCheck => ({
      name: note.slice('command '.length, note.indexOf(' left out')),
      group: 'check: commands left out',
      status: 'skipped',
      findingIds: [],
      detail: note,
    }));
  return [sequences, ...leftOut];
}

function requestText(failure: NonNullable<CheckResult['failure']>): string {
  const curl = failureCurl(failure);
  return curl === null ? '' : ` — request: ${curl}`;
}

/** What the check's failure (exit 3 mismatch, 4 unavailable, 1 error) puts first in the reports' verdict. */
export function reportFailure(result: CheckResult): ReportFailure | null {
  const failure = result.failure;
  if (ranNothing(result)) return { summary: `the check could not run: ${nothingRanError(result)}` };
  if (failure === undefined)
    return result.interrupted === true
      ? {
          summary: `interrupted: ${runsHeld(result.runs)} before the check was cut short, so it is not a pass`,
          ...(result.reproduce === undefined ? {} : { reproduce: result.reproduce }),
        }
      : null;
  const what =
    failure.kind === 'mismatch'
      ? 'an answer differs from the model'
      : failure.kind === 'unavailable'
        ? 'the check could not run'
        : 'afp failed (a bug)';
  const curl = failureCurl(failure);
  const first = failure.firstError === undefined ? '' : ` (first failure, before shrinking: ${failure.firstError})`;
  return {
    summary: `${what}: ${failure.error}${first}`,
    reproduce: failure.reproduce,
    ...(curl === null ? {} : { request: curl }),
  };
}

/** Writes the check's findings reports into `dir`; returns their paths. */
export function writeCheckReports(
  dir: string,
  check: {
    readonly target: { readonly name: string; readonly source: string };
    readonly result: CheckResult & { readonly commands?: readonly string[] };
    readonly failOn: FailOn;
    readonly findings: readonly Finding[];
    readonly dropped: number;
  },
): Promise<string[]> {
  const failure = reportFailure(check.result);
  return writeFindingsReports(dir, {
    command: 'check',
    target: check.target,
    seed: String(check.result.seed),
    failOn: check.failOn,
    findings: check.findings,
    dropped: check.dropped,
    checks: reportChecks(check.result, check.findings),
    ...(failure === null ? {} : { failure }),
  });
}
