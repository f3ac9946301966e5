/**
 * The money audit's report checks: one per probe, skipped, a finding, or a pass. Why a file of its
 * own: the audit's run and its resumed run (audit-money-resume.ts) write the same checks.
 */
import type { ProbeResult } from '../audit/probes.ts';
import type { ReportCheck } from '../report/findings/findings-report.ts';

export /** One check per probe: skipped, a finding, or a pass. */
function checksOfProbes(results: readonly ProbeResult[]): ReportCheck[] {
  return results.map((result) => ({
    name: result.name,
    group: 'money',
    status:
      result.status === 'skipped'
        ? ('skipped' as const)
        : result.findingIds.length > 0
          ? ('finding' as const)
          : ('pass' as const),
    findingIds: result.findingIds,
    detail: result.note,
  }));
}
