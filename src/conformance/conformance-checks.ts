/**
 * Conformance results as the findings report's checks (src/report/findings/): one check per case, in
 * the suite's order — one JUnit test case each. The group names the kind of case (the documents'
 * rejections and scripts, or the operations through the target's dialects); the detail says why a
 * case failed or was skipped. A case's findings are named by id; the report holds the findings.
 */
import { assert } from '../core/assert.ts';
import type { ReportCheck } from '../report/findings/findings-report.ts';
import type { CaseResult } from './conformance-case.ts';
import type { SuiteCase } from './target-conformance.ts';

/** How many problems of a failed case the detail names (a case can list hundreds). */
const PROBLEMS_SHOWN_MAX = 8;

const GROUPS: Readonly<Record<SuiteCase['kind'], string>> = {
  rejection: 'conformance: documents (rejections)',
  script: 'conformance: documents (happy paths)',
  operations: 'conformance: operations',
};

export function conformanceChecks(cases: readonly SuiteCase[], results: readonly CaseResult[]): ReportCheck[] {
  assert(cases.length === results.length, `one result per case (${cases.length} cases, ${results.length} results)`);
  return results.map((result, index) => {
    const kase = cases[index] as SuiteCase;
    assert(kase.name === result.name, `results in the cases' order (${kase.name} vs ${result.name})`);
    const group = GROUPS[kase.kind];
    switch (result.outcome) {
      case 'passed':
        return { name: result.name, group, status: 'pass', findingIds: [] };
      case 'finding':
        return { name: result.name, group, status: 'finding', findingIds: result.findingIds };
      case 'failed': {
        const shown =
          result.problems.length > PROBLEMS_SHOWN_MAX
            ? [
                ...result.problems.slice(0, PROBLEMS_SHOWN_MAX),
                `… and ${result.problems.length - PROBLEMS_SHOWN_MAX} more`,
              ]
            : result.problems;
        return {
          name: result.name,
          group,
          status: 'fail',
          findingIds: result.findingIds ?? [],
          detail: shown.join('; '),
        };
      }
      case 'skipped':
        return { name: result.name, group, status: 'skipped', findingIds: [], detail: result.reason };
    }
  });
}
