/**
 * load.junit.xml: a load run's thresholds as JUnit XML, for CI test reporters — one <testcase> per
 * threshold in the scenario's order, named `metric: expression`; a failed threshold carries a
 * <failure type="threshold"> with the value observed; a threshold judged without data (k6 reads an
 * empty trend or counter as 0 and passes an empty rate) says so in <system-out>, whether it passed or failed. The suite fails exactly
 * when `afp load` exits 5. Pure: no timestamps, no durations of our own, no host name.
 * Written by the report kit (src/report/kit/junit.ts: well-formed XML 1.0 whatever an endpoint or
 * check is called; attribute values bounded).
 */
import { renderJunit, type JunitCase } from '../../report/kit/junit.ts';
import type { ThresholdResult } from '../thresholds.ts';
import { assertLoadReportBounded, durationMsOf, observedText, overallRow, type LoadReport } from './load-report.ts';

const NO_DATA_NOTE =
  'no data: the metric recorded nothing; k6 judges an empty trend or counter as 0, and passes an empty rate';

function testcase(result: ThresholdResult): JunitCase {
  const name = `${result.metric}: ${result.expression}`;
  const metricName = result.metric.split('{')[0] ?? result.metric;
  const observed = `observed ${observedText(result.value)}`;
  const abort = result.abortOnFail
    ? `; abortOnFail${result.delayAbortEvalMs === null ? '' : ` after ${result.delayAbortEvalMs} ms`}`
    : '';
  const body = `${name}, ${observed}${abort}${result.noData ? `\n${NO_DATA_NOTE}` : ''}`;
  const outcome = !result.ok
    ? { kind: 'failure' as const, message: `${observed}, threshold ${result.expression}`, type: 'threshold', body }
    : result.noData
      ? { kind: 'system-out' as const, body }
      : { kind: 'pass' as const };
  return { name, classname: `afp load.${metricName}`, outcome };
}

export function renderLoadJunit(report: LoadReport): string {
  assertLoadReportBounded(report);
  const overall = overallRow(report);
  return renderJunit({
    suitesName: 'afp',
    suiteName: `afp load ${report.scenario}`,
    counts: {
      tests: report.thresholds.length,
      failures: report.thresholds.filter((result) => !result.ok).length,
      errors: 0,
      skipped: 0,
    },
    properties: [
      ['scenario', report.scenario],
      ['target', report.target.name],
      ['source', report.target.source],
      ...(report.seed === undefined ? [] : [['seed', report.seed] as const]),
      ['engine', report.engine],
      ...(report.afpVersion === undefined ? [] : [['afp-version', report.afpVersion] as const]),
      ['duration-ms', String(durationMsOf(report))],
      ['requests', String(overall.requests)],
      ['failed', String(overall.failed)],
      ...(report.stopReason === undefined ? [] : [['stop-reason', report.stopReason] as const]),
    ],
    cases: report.thresholds.map(testcase),
  });
}
