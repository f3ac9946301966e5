/**
 * load.junit.xml: a load run's thresholds as JUnit XML, for CI test reporters — one <testcase> per
 * threshold in the scenario's order, named `metric: expression`; a failed threshold carries a
 * <failure type="threshold"> with the value observed; a threshold judged without data (k6 reads an
 * empty metric as 0) says so in <system-out>, whether it passed or failed. The suite fails exactly
 * when `afp load` exits 5. Pure: no timestamps, no durations of our own, no host name.
 * Invariants: every text escaped by src/live/report/xml-text.ts (well-formed XML 1.0 whatever an
 * endpoint or check is called); messages at most MESSAGE_MAX_CHARS characters.
 */
import { xmlAttribute, xmlText } from '../../live/report/xml-text.ts';
import { boundedText } from '../../report/html/html-text.ts';
import type { ThresholdResult } from '../thresholds.ts';
import { assertLoadReportBounded, durationMsOf, observedText, overallRow, type LoadReport } from './load-report.ts';

const MESSAGE_MAX_CHARS = 300;
const NO_DATA_NOTE = 'no data: the metric recorded nothing, and k6 judges an empty metric as 0';

const attribute = (text: string): string => xmlAttribute(boundedText(text, MESSAGE_MAX_CHARS));

function testcase(result: ThresholdResult): string {
  const name = `${result.metric}: ${result.expression}`;
  const metricName = result.metric.split('{')[0] ?? result.metric;
  const open = `    <testcase name="${attribute(name)}" classname="${attribute(`afp load.${metricName}`)}"`;
  const observed = `observed ${observedText(result.value)}`;
  const abort = result.abortOnFail
    ? `; abortOnFail${result.delayAbortEvalMs === null ? '' : ` after ${result.delayAbortEvalMs} ms`}`
    : '';
  const body = xmlText(
    `${result.metric}: ${result.expression}, ${observed}${abort}${result.noData ? `\n${NO_DATA_NOTE}` : ''}`,
  );
  if (!result.ok)
    return `${open}>\n      <failure message="${attribute(`${observed}, threshold ${result.expression}`)}" type="threshold">${body}</failure>\n    </testcase>`;
  if (result.noData) return `${open}>\n      <system-out>${body}</system-out>\n    </testcase>`;
  return `${open}/>`;
}

function property(name: string, value: string): string {
  return `      <property name="${xmlAttribute(name)}" value="${attribute(value)}"/>`;
}

export function renderLoadJunit(report: LoadReport): string {
  assertLoadReportBounded(report);
  const overall = overallRow(report);
  const counts = `tests="${report.thresholds.length}" failures="${report.thresholds.filter((result) => !result.ok).length}" errors="0" skipped="0"`;
  const properties = [
    property('scenario', report.scenario),
    property('target', report.target.name),
    property('source', report.target.source),
    ...(report.seed === undefined ? [] : [property('seed', report.seed)]),
    property('engine', report.engine),
    ...(report.afpVersion === undefined ? [] : [property('afp-version', report.afpVersion)]),
    property('duration-ms', String(durationMsOf(report))),
    property('requests', String(overall.requests)),
    property('failed', String(overall.failed)),
    ...(report.stopReason === undefined ? [] : [property('stop-reason', report.stopReason)]),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="afp" ${counts}>`,
    `  <testsuite name="${attribute(`afp load ${report.scenario}`)}" ${counts}>`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...report.thresholds.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
