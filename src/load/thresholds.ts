/**
 * Thresholds judged against a LoadSnapshot, as k6 judges them (metrics/thresholds.go,
 * metrics/engine/engine.go): pure functions of the parsed thresholds and the snapshot; any failure
 * at the end exits 5 (EXIT.loadThreshold).
 *
 * Values: durations in ms from the HDR histograms (3 significant digits: the recorder's
 * resolution); a rate metric's `rate` is the share of trues (failed requests, passed checks); a
 * counter's `rate` is its count per second of the run so far (`atMs` − the snapshot's start, at
 * least 1 ms). `iterations` counts completed iterations, as k6's metric does.
 * No data: k6's empty trend and counter sinks read 0 (count 0, every duration 0), and at the end
 * k6 judges them so — `p(99)<200` on an endpoint that never answered passes, `http_reqs: count>0`
 * fails. An empty rate sink has no value at all, and k6 1.3 passes every threshold on it, whatever
 * the expression (`checks: rate>0.99` without a check passes; run against the real k6 1.3.0, see
 * k6 issue #4283). afp does the same and marks such a result `noData` so every report shows it.
 * While the run goes k6 skips metrics without data; `abortNow` does too.
 * Abort: a failed abortOnFail threshold stops the run once the run has lasted longer than its
 * delayAbortEval (k6: `AbortGracePeriod < timeSpentInTest`), at once when it has none.
 */
import { AssertionFailure, unreachable } from '../core/assert.ts';
import { sumHistograms, type EndpointSnapshot, type Histogram, type LoadSnapshot } from './load-recorder.ts';
import { endpointMethod, type Threshold, type ThresholdOperator } from './threshold-parser.ts';

export {
  endpointMethod,
  parseThresholds,
  type Threshold,
  type ThresholdFilter,
  type ThresholdsParse,
} from './threshold-parser.ts';

export interface ThresholdResult {
  /** The key as written, e.g. `http_req_duration{endpoint:escrow.B.create}`. */
  readonly metric: string;
  /** The expression as written, e.g. `p(99)<200`. */
  readonly expression: string;
  /** What the expression's left side came to: ms for durations, a fraction for rates, per second for counter rates. */
  readonly value: number;
  readonly ok: boolean;
  /** The metric (with its filter) had no data: the value is k6's 0 for an empty sink. */
  readonly noData: boolean;
  readonly abortOnFail: boolean;
  readonly delayAbortEvalMs: number | null;
}

export interface EvaluateOptions {
  /** The instant (on the snapshot's clock) the thresholds are judged at; default the snapshot's end. */
  readonly atMs?: number;
}

function compare(value: number, operator: ThresholdOperator, bound: number): boolean {
  switch (operator) {
    case '<':
      return value < bound;
    case '<=':
      return value <= bound;
    case '>':
      return value > bound;
    case '>=':
      return value >= bound;
    case '==':
    case '===':
      return value === bound;
    case '!=':
      return value !== bound;
    default:
      return unreachable(operator, 'threshold operator');
  }
}

function selectedEndpoints(threshold: Threshold, snapshot: LoadSnapshot): EndpointSnapshot[] {
  const { endpoint, method } = threshold.filter;
  return snapshot.endpoints.filter(
    (row) =>
      (endpoint === undefined || row.endpoint === endpoint) &&
      (method === undefined || endpointMethod(row.endpoint) === method),
  );
}

/** Histograms of one evaluation, by the endpoint filter that selected them, decoded once. */
type HistogramCache = Map<string, Histogram>;

function durationOf(
  threshold: Threshold,
  snapshot: LoadSnapshot,
  cache: HistogramCache,
): { value: number; count: number } {
  const cacheKey = JSON.stringify([threshold.filter.endpoint ?? null, threshold.filter.method ?? null]);
  let histogram = cache.get(cacheKey);
  if (histogram === undefined) {
    histogram = sumHistograms(selectedEndpoints(threshold, snapshot).map((row) => row.latency));
    cache.set(cacheKey, histogram);
  }
  const count = histogram.totalCount;
  if (count === 0) return { value: 0, count };
  const micros = ((): number => {
    switch (threshold.aggregation) {
      case 'avg':
        return histogram.mean;
      case 'min':
        return histogram.minNonZeroValue;
      case 'max':
        return histogram.maxValue;
      case 'med':
        return histogram.getValueAtPercentile(50);
      case 'percentile':
        return histogram.getValueAtPercentile(threshold.percentile ?? 100);
      case 'count':
      case 'rate':
        throw new AssertionFailure(
          `${threshold.metric}: ${threshold.aggregation} is not a trend aggregation (the parser lets none through)`,
        );
      default:
        return unreachable(threshold.aggregation, 'threshold aggregation');
    }
  })();
  return { value: micros / 1000, count };
}

function counterOf(threshold: Threshold, snapshot: LoadSnapshot): number {
  switch (threshold.name) {
    case 'http_reqs': {
      const status = threshold.filter.status;
      return selectedEndpoints(threshold, snapshot).reduce(
        (sum, row) => sum + (status === undefined ? row.requests : (row.statuses[String(status)] ?? 0)),
        0,
      );
    }
    case 'iterations':
      return snapshot.iterations.completed;
    case 'dropped_iterations':
      return snapshot.iterations.dropped;
    // The k6 script's count of agents stepped later than afp load's ring: afp load steps an agent
    // when its ring reaches it or drops the arrival (dropped_iterations), so never late.
    case 'afp_late_agent_steps':
      return 0;
    case 'http_req_duration':
    case 'http_req_failed':
    case 'checks':
    case 'iteration_duration':
      throw new AssertionFailure(`${threshold.metric} is not a counter (the parser lets none through)`);
    default:
      return unreachable(threshold.name, 'threshold metric');
  }
}

function rateOf(threshold: Threshold, snapshot: LoadSnapshot): { trues: number; total: number } {
  if (threshold.name === 'checks') {
    const name = threshold.filter.check;
    const tallies = Object.entries(snapshot.checks).filter(([check]) => name === undefined || check === name);
    return tallies.reduce(
      (sum, [, tally]) => ({ trues: sum.trues + tally.passes, total: sum.total + tally.passes + tally.fails }),
      { trues: 0, total: 0 },
    );
  }
  const rows = selectedEndpoints(threshold, snapshot);
  return {
    trues: rows.reduce((sum, row) => sum + row.failed, 0),
    total: rows.reduce((sum, row) => sum + row.requests, 0),
  };
}

function observe(
  threshold: Threshold,
  snapshot: LoadSnapshot,
  elapsedMs: number,
  cache: HistogramCache,
): { value: number; noData: boolean } {
  switch (threshold.kind) {
    case 'trend': {
      const { value, count } = durationOf(threshold, snapshot, cache);
      return { value, noData: count === 0 };
    }
    case 'rate': {
      const { trues, total } = rateOf(threshold, snapshot);
      return { value: total === 0 ? 0 : trues / total, noData: total === 0 };
    }
    case 'counter': {
      const count = counterOf(threshold, snapshot);
      return { value: threshold.aggregation === 'rate' ? count / (elapsedMs / 1000) : count, noData: count === 0 };
    }
    default:
      return unreachable(threshold.kind, 'threshold kind');
  }
}

/** Every threshold judged against the snapshot, in the thresholds' order. */
export function evaluateThresholds(
  thresholds: readonly Threshold[],
  snapshot: LoadSnapshot,
  options: EvaluateOptions = {},
): ThresholdResult[] {
  const elapsedMs = Math.max(1, (options.atMs ?? snapshot.endMs) - snapshot.startMs);
  const cache: HistogramCache = new Map();
  return thresholds.map((threshold) => {
    const { value, noData } = observe(threshold, snapshot, elapsedMs, cache);
    return {
      metric: threshold.metric,
      expression: threshold.expression,
      value,
      ok: (noData && threshold.kind === 'rate') || compare(value, threshold.operator, threshold.bound),
      noData,
      abortOnFail: threshold.abortOnFail,
      delayAbortEvalMs: threshold.delayAbortEvalMs,
    };
  });
}

/**
 * The failed abortOnFail thresholds that stop the run now, `elapsedMs` into it (empty: go on).
 * Results without data are passed over, as k6 does while a run goes.
 */
export function abortNow(results: readonly ThresholdResult[], elapsedMs: number): ThresholdResult[] {
  return results.filter(
    (result) =>
      result.abortOnFail &&
      !result.ok &&
      !result.noData &&
      (result.delayAbortEvalMs === null || result.delayAbortEvalMs < elapsedMs),
  );
}

/** The thresholds that failed: any makes `afp load` exit 5. */
export function failedThresholds(results: readonly ThresholdResult[]): ThresholdResult[] {
  return results.filter((result) => !result.ok);
}
