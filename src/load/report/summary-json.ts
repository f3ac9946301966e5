/**
 * summary.json: a load run as data — the header (scenario, target, seed, engine, why it stopped),
 * totals, the run's latency percentiles, the Little's-law check of them (littles-law.ts), iterations, checks, every endpoint's percentiles and
 * statuses, and the thresholds with the values they were judged on. Pure: the text is a function
 * of the report alone.
 *
 * Invariants: keys in a fixed order (objects built in that order; the only integer-like keys are
 * HTTP statuses, which JSON objects keep in ascending order, the order wanted); 2-space indent,
 * trailing newline. Durations in ms rounded to 3 decimals (the recorder's microseconds), rates
 * to 6 decimals; a threshold's `value` is exactly the number judged. Absent optional header
 * fields are `null`, so every summary has the same keys. Endpoint names and check names are the
 * strings as recorded (JSON escapes whatever they hold).
 */
import type { JsonValue } from '../../core/errors.ts';
import { roundedOrNull } from '../../report/html/report-format.ts';
import type { Percentiles } from '../load-recorder.ts';
import type { ThresholdResult } from '../thresholds.ts';
import { LITTLE_TOLERANCE, littleCheck, type LittleCheck } from '../littles-law.ts';
import {
  assertLoadReportBounded,
  durationMsOf,
  endpointRows,
  failedRate,
  overallRow,
  requestsPerSecond,
  type LoadReport,
} from './load-report.ts';
import { jsonDocument } from '../../report/kit/summary.ts';

export const SUMMARY_FORMAT = 'afp-load-summary/1';

const ms = (value: number): JsonValue => roundedOrNull(value, 3);
const fraction = (value: number): JsonValue => roundedOrNull(value, 6);

export function latencyJson(latency: Percentiles): JsonValue {
  return {
    count: latency.count,
    min: ms(latency.minMs),
    mean: ms(latency.meanMs),
    p50: ms(latency.p50Ms),
    p90: ms(latency.p90Ms),
    p95: ms(latency.p95Ms),
    p99: ms(latency.p99Ms),
    p999: ms(latency.p999Ms),
    max: ms(latency.maxMs),
  };
}

function thresholdJson(result: ThresholdResult): JsonValue {
  return {
    metric: result.metric,
    expression: result.expression,
    value: Number.isFinite(result.value) ? result.value : null,
    ok: result.ok,
    noData: result.noData,
    abortOnFail: result.abortOnFail,
    delayAbortEvalMs: result.delayAbortEvalMs,
  };
}

/** The Little's-law check of the run's figures (littles-law.ts); null when it cannot be judged. */
function littleJson(check: LittleCheck | null): JsonValue {
  if (check === null) return null;
  return {
    requestsPerSecond: roundedOrNull(check.requestsPerSecond, 3),
    meanLatencyMs: ms(check.meanLatencyMs),
    inFlight: roundedOrNull(check.inFlight, 3),
    concurrency: roundedOrNull(check.concurrency, 3),
    concurrencySource: check.concurrencySource,
    ratio: roundedOrNull(check.ratio, 3),
    tolerance: LITTLE_TOLERANCE,
    ok: check.ok,
    waitBeforeWriteMs: check.waitBeforeWriteMs === null ? null : ms(check.waitBeforeWriteMs),
  };
}

export function renderLoadSummaryJson(report: LoadReport): string {
  assertLoadReportBounded(report);
  const overall = overallRow(report);
  const { snapshot } = report;
  const document: Record<string, JsonValue> = {
    format: SUMMARY_FORMAT,
    scenario: report.scenario,
    target: { name: report.target.name, source: report.target.source },
    seed: report.seed ?? null,
    engine: report.engine,
    afpVersion: report.afpVersion ?? null,
    stopReason: report.stopReason ?? null,
    durationMs: durationMsOf(report),
    thresholdsFailed: report.thresholds.filter((result) => !result.ok).length,
    totals: {
      requests: overall.requests,
      failed: overall.failed,
      failedRate: fraction(failedRate(overall)),
      requestsPerSecond: roundedOrNull(requestsPerSecond(report, overall.requests), 3),
      statuses: { ...overall.statuses },
      firstError: snapshot.firstError ?? null,
    },
    latencyMs: latencyJson(overall.latency),
    littlesLaw: littleJson(littleCheck(snapshot, report.concurrency ?? null)),
    iterations: {
      started: snapshot.iterations.started,
      completed: snapshot.iterations.completed,
      dropped: snapshot.iterations.dropped,
    },
    checks: Object.entries(snapshot.checks).map(([name, tally]) => ({
      name,
      passes: tally.passes,
      fails: tally.fails,
      rate: fraction(tally.passes + tally.fails === 0 ? 0 : tally.passes / (tally.passes + tally.fails)),
    })),
    endpoints: endpointRows(report).map((row) => ({
      endpoint: row.endpoint,
      requests: row.requests,
      failed: row.failed,
      failedRate: fraction(failedRate(row)),
      statuses: { ...row.statuses },
      latencyMs: latencyJson(row.latency),
    })),
    thresholds: report.thresholds.map(thresholdJson),
  };
  return jsonDocument(document);
}
