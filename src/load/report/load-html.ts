/**
 * load.html: a load run as one self-contained page — no script, no external resource (a
 * Content-Security-Policy forbids both), charts as inline SVG drawn when the page is written.
 * It opens with the summary table (requests, failures, throughput, latency percentiles,
 * iterations, thresholds passed), then the thresholds table with the values observed, the charts
 * (latency percentiles over time, throughput, error rate, the HDR percentile distribution), every
 * endpoint's percentiles and statuses, and the checks. No empty sections: thresholds, endpoints
 * and checks are left out when the run has none (the summary table says so).
 * Pure: the bytes are a function of the report (fixed order, fixed number formatting, no clock).
 *
 * Invariants: every text is escaped by escapeHtml after boundedText has capped it and replaced
 * control characters (src/report/html/html-text.ts, shared with report.html and findings.html), so
 * the page is well-formed whatever an endpoint or check is called; every number goes through
 * toFixed or countText, one format per column (counts apart from shares). Tables are bounded by
 * the snapshot's own limits.
 */
import { boundedText, escapeHtml } from '../../report/html/html-text.ts';
import { countText } from '../../report/html/report-format.ts';
import { cell, tableRow, table } from '../../report/kit/html-table.ts';
import { generatorOf, PAGE_CSS, renderPage, STATIC_PAGE_POLICY } from '../../report/kit/page-shell.ts';
import type { Percentiles } from '../load-recorder.ts';
import type { ThresholdResult } from '../thresholds.ts';
import { littleCheck, littleLine } from '../littles-law.ts';
import { loadCharts } from './load-charts.ts';
import {
  assertLoadReportBounded,
  durationMsOf,
  endpointRows,
  failedRate,
  observedText,
  overallRow,
  requestsPerSecond,
  statusesText,
  thresholdOutcome,
  type LoadReport,
} from './load-report.ts';
import { renderSvgChart } from '../../report/kit/chart.ts';

const TEXT_MAX_CHARS = 300;
const STYLE = `${PAGE_CSS.body(1200)}
${PAGE_CSS.h1('1.5em')} ${PAGE_CSS.subtitle}
${PAGE_CSS.h2('32px')}
table { border-collapse: collapse; margin: 8px 0; font-size: 0.9em; font-variant-numeric: tabular-nums; }
${PAGE_CSS.caption}
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; vertical-align: top; } th:first-child, td:first-child, td.text, #summary th { text-align: left; }
td.name { word-break: break-all; max-width: 420px; }
.pass { background: #e8f5e9; } .fail { background: #b00020; color: #fff; font-weight: 600; } .nodata { font-style: italic; }
svg.chart { display: block; max-width: 960px; margin: 8px 0 24px; }
${PAGE_CSS.note} ${PAGE_CSS.footer}`;

const text = (value: string): string => escapeHtml(boundedText(value, TEXT_MAX_CHARS));
const ms = (value: number): string => value.toFixed(3);
const percent = (fraction: number): string => `${(fraction * 100).toFixed(3)}%`;

function latencyText(latency: Percentiles): string {
  return `p50 ${ms(latency.p50Ms)} · p90 ${ms(latency.p90Ms)} · p95 ${ms(latency.p95Ms)} · p99 ${ms(latency.p99Ms)} · p99.9 ${ms(latency.p999Ms)} · max ${ms(latency.maxMs)} · mean ${ms(latency.meanMs)}`;
}

function checksSummary(report: LoadReport): string {
  const tallies = Object.values(report.snapshot.checks);
  if (tallies.length === 0) return 'none';
  const passes = tallies.reduce((sum, tally) => sum + tally.passes, 0);
  const fails = tallies.reduce((sum, tally) => sum + tally.fails, 0);
  return `${countText(tallies.length)} checks · ${countText(passes)} passes · ${countText(fails)} fails`;
}

function summaryTable(report: LoadReport): string {
  const overall = overallRow(report);
  const { iterations } = report.snapshot;
  const failedThresholds = report.thresholds.filter((result) => !result.ok).length;
  const rows: [string, string][] = [
    ['requests', countText(overall.requests)],
    ['failed', countText(overall.failed)],
    ['failed share', percent(failedRate(overall))],
    [
      'throughput',
      `${requestsPerSecond(report, overall.requests).toFixed(3)} requests a second over ${(durationMsOf(report) / 1000).toFixed(3)} s`,
    ],
    ['latency (ms, from the intended start)', latencyText(overall.latency)],
    [
      "Little's law",
      escapeHtml(littleLine(littleCheck(report.snapshot, report.concurrency ?? null)).replace(/^Little's law: /, '')),
    ],
    ['statuses', escapeHtml(statusesText(overall.statuses)) || '—'],
    [
      'iterations',
      `${countText(iterations.started)} started · ${countText(iterations.completed)} completed · ${countText(iterations.dropped)} dropped`,
    ],
    ['checks', checksSummary(report)],
    [
      'thresholds',
      report.thresholds.length === 0
        ? 'none'
        : `${report.thresholds.length - failedThresholds} of ${report.thresholds.length} passed${failedThresholds > 0 ? ' (exit 5)' : ''}`,
    ],
  ];
  return table(
    'summary',
    'Summary',
    ['figure', 'value'],
    rows.map(([name, value]) => tableRow([cell(escapeHtml(name), 'text'), cell(value, 'text')])),
  );
}

function thresholdRow(result: ThresholdResult): string {
  const abort = result.abortOnFail
    ? `yes${result.delayAbortEvalMs === null ? '' : `, after ${(result.delayAbortEvalMs / 1000).toFixed(3)} s`}`
    : 'no';
  return tableRow(
    [
      cell(text(result.metric), 'text name'),
      cell(text(result.expression), 'text'),
      cell(escapeHtml(observedText(result.value))),
      cell(escapeHtml(thresholdOutcome(result)), `${result.ok ? 'pass' : 'fail'}${result.noData ? ' nodata' : ''}`),
      cell(abort, 'text'),
    ],
    ' class="threshold"',
  );
}

function thresholdsTable(report: LoadReport): string {
  const rows = report.thresholds.map(thresholdRow);
  const noData = report.thresholds.some((result) => result.noData)
    ? '\n<p class="note">(no data): the metric recorded nothing; as k6 does, the empty metric was judged as 0.</p>'
    : '';
  return `${table('thresholds', 'Thresholds (any failure exits 5)', ['metric', 'threshold', 'observed', 'result', 'abortOnFail'], rows)}${noData}`;
}

function endpointsTable(report: LoadReport): string {
  const rows = endpointRows(report).map((endpoint) =>
    tableRow(
      [
        cell(text(endpoint.endpoint), 'text name'),
        cell(countText(endpoint.requests)),
        cell(countText(endpoint.failed)),
        cell(percent(failedRate(endpoint))),
        cell(escapeHtml(statusesText(endpoint.statuses)), 'text'),
        ...[
          endpoint.latency.p50Ms,
          endpoint.latency.p90Ms,
          endpoint.latency.p95Ms,
          endpoint.latency.p99Ms,
          endpoint.latency.p999Ms,
          endpoint.latency.maxMs,
          endpoint.latency.meanMs,
        ].map((value) => cell(ms(value))),
      ],
      ' class="endpoint"',
    ),
  );
  return table(
    'endpoints',
    'Latency by endpoint (ms, from the intended start)',
    ['endpoint', 'requests', 'failed', 'failed share', 'statuses', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'mean'],
    rows,
  );
}

function checksTable(report: LoadReport): string {
  const entries = Object.entries(report.snapshot.checks);
  const rows = entries.map(([name, tally]) =>
    tableRow([
      cell(text(name), 'text name'),
      cell(countText(tally.passes)),
      cell(countText(tally.fails)),
      cell(percent(tally.passes + tally.fails === 0 ? 0 : tally.passes / (tally.passes + tally.fails))),
    ]),
  );
  return table('checks', 'Checks', ['check', 'passes', 'fails', 'passed share'], rows);
}

function subtitle(report: LoadReport): string {
  const parts = [
    `target ${text(report.target.name)} (${text(report.target.source)})`,
    `engine ${text(report.engine)}`,
    ...(report.seed === undefined ? [] : [`seed ${text(report.seed)}`]),
  ];
  const stopped = report.stopReason === undefined ? '' : `\nstopped early: ${text(report.stopReason)}`;
  return parts.join(' · ') + stopped;
}

export function renderLoadHtml(report: LoadReport): string {
  assertLoadReportBounded(report);
  const title = `afp load ${report.scenario} — ${report.target.name}`;
  const generator = generatorOf(report.afpVersion);
  const charts = loadCharts(report).map(renderSvgChart).join('\n');
  return renderPage({
    policy: STATIC_PAGE_POLICY,
    generator,
    title: boundedText(title, TEXT_MAX_CHARS),
    style: STYLE,
    subtitle: subtitle(report),
    parts: [
      summaryTable(report),
      // No empty sections: thresholds, endpoints and checks appear only when the run has some (the summary says "none").
      report.thresholds.length === 0
        ? ''
        : `<section id="thresholds-judged">\n<h2>Thresholds</h2>\n${thresholdsTable(report)}\n</section>`,
      `<section id="charts">\n<h2>Over time and by percentile</h2>\n<p class="note">Latency runs from each request's intended start (no coordinated omission): a stalled target shows its stall.</p>\n${charts}\n</section>`,
      endpointRows(report).length === 0
        ? ''
        : `<section id="by-endpoint">\n<h2>Endpoints</h2>\n${endpointsTable(report)}\n</section>`,
      Object.keys(report.snapshot.checks).length === 0
        ? ''
        : `<section id="checks-run">\n<h2>Checks</h2>\n${checksTable(report)}\n</section>`,
      `<footer><p>Written by ${escapeHtml(generator)}. summary.json, latency.csv, timeseries.csv and load.junit.xml hold the same figures.</p></footer>`,
    ],
  });
}
