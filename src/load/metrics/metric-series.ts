/**
 * The run's metrics as Prometheus series named as k6's remote-write output names them
 * (experimental-prometheus-rw: the `k6_` namespace, the base unit and `_total` suffixes), so a
 * dashboard and the queries a k6 user already has read afp's runs too. One value per name and label
 * set, cumulative from the run's start, built the same way from the live tally while the run goes
 * and from the final snapshot at the end, so the last values sent are the figures of summary.json.
 *
 *   k6_http_reqs_total{method,name,status}            requests answered with that status (0: no answer)
 *   k6_http_req_failed_rate{method,name}              failed / sent (k6's Rate http_req_failed)
 *   k6_http_req_duration_seconds_bucket{method,name,le}, _sum, _count
 *                                                     latency from the intended start, a histogram
 *                                                     with the fixed bounds LATENCY_BUCKETS_SECONDS:
 *                                                     buckets add up across shards and workers
 *                                                     (histogram_quantile over sum by (le))
 *   k6_http_req_duration_p99, _p95, _p90, _med{method,name}
 *                                                     the run's own quantiles, seconds (k6's trend
 *                                                     stats gauges: K6_PROMETHEUS_RW_TREND_STATS)
 *   k6_iterations_total, k6_dropped_iterations_total  completed and dropped iterations
 *   k6_afp_iterations_started_total                   started (afp's own, as a k6 custom metric is named)
 *   k6_checks_rate{check}                             passes / (passes + fails), per check
 *
 * `name` is the endpoint as afp names it (`GET /api/v1/games`, or a route id such as
 * `escrow.B.create` in a scenario run), `method` its HTTP method (from the name, or the route
 * table's row); every series also carries the run's labels: `scenario` (the scenario's name, or
 * `default` for a URL run, as k6 names an unnamed one), `testid` (--tag testid=…, else the run's id)
 * and any other --tag. Order is fixed (endpoints as given, statuses ascending) so what is written is
 * stable. Bucket counts are exact for the live tally and within the recorder's precision (3
 * significant digits) for a snapshot.
 */
import { decodeHistogram, type Histogram, type LoadSnapshot } from '../load-recorder.ts';
import { methodOf } from './endpoint-method.ts';

export interface MetricSeries {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The trend stats written as gauges, with k6's suffixes (`med` is p(50)). */
export const TREND_STATS = [
  { suffix: 'p99', quantile: 0.99 },
  { suffix: 'p95', quantile: 0.95 },
  { suffix: 'p90', quantile: 0.9 },
  { suffix: 'med', quantile: 0.5 },
] as const;

/** The latency histogram's upper bounds, seconds (+Inf after the last). */
export const LATENCY_BUCKETS_SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
] as const;

/** One endpoint's cumulative figures, from the tally or a snapshot. */
export interface EndpointFigures {
  readonly endpoint: string;
  readonly statuses: ReadonlyMap<number, number> | Readonly<Record<string, number>>;
  readonly failed: number;
  /** Latency in microseconds (the recorder's unit). */
  readonly latency: Histogram;
  /** Cumulative counts at LATENCY_BUCKETS_SECONDS (then +Inf), when counted exactly; else read from `latency`. */
  readonly buckets?: readonly number[];
}

export interface IterationFigures {
  readonly started: number;
  readonly completed: number;
  readonly dropped: number;
}

export type CheckFigures = Readonly<Record<string, { readonly passes: number; readonly fails: number }>>;

const statusEntries = (statuses: EndpointFigures['statuses']): [string, number][] =>
  (statuses instanceof Map
    ? [...statuses.entries()].map(([status, count]) => [String(status), count] as [string, number])
    : Object.entries(statuses)
  ).sort(([a], [b]) => Number(a) - Number(b));

export function seriesOf(
  endpoints: readonly EndpointFigures[],
  iterations: IterationFigures,
  runLabels: Readonly<Record<string, string>>,
  checks: CheckFigures = {},
): MetricSeries[] {
  const series: MetricSeries[] = [];
  const push = (name: string, labels: Record<string, string>, value: number): void =>
    void series.push({ name, labels: { ...runLabels, ...labels }, value });
  for (const figures of endpoints) endpointSeries(figures, push);
  push('k6_iterations_total', {}, iterations.completed);
  push('k6_dropped_iterations_total', {}, iterations.dropped);
  push('k6_afp_iterations_started_total', {}, iterations.started);
  for (const [check, { passes, fails }] of Object.entries(checks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    push('k6_checks_rate', { check }, passes + fails === 0 ? 0 : passes / (passes + fails));
  return series;
}

type Push = (name: string, labels: Record<string, string>, value: number) => void;

function endpointSeries(figures: EndpointFigures, push: Push): void {
  const labels = { method: methodOf(figures.endpoint), name: figures.endpoint };
  let sent = 0;
  for (const [status, count] of statusEntries(figures.statuses)) {
    push('k6_http_reqs_total', { ...labels, status }, count);
    sent += count;
  }
  push('k6_http_req_failed_rate', labels, sent === 0 ? 0 : figures.failed / sent);
  const latency = figures.latency;
  const count = latency.totalCount;
  const buckets = figures.buckets ?? bucketCounts(latency);
  LATENCY_BUCKETS_SECONDS.forEach((bound, index) =>
    push('k6_http_req_duration_seconds_bucket', { ...labels, le: String(bound) }, buckets[index] ?? 0),
  );
  push('k6_http_req_duration_seconds_bucket', { ...labels, le: '+Inf' }, count);
  push('k6_http_req_duration_seconds_sum', labels, count === 0 ? 0 : (latency.mean * count) / 1e6);
  push('k6_http_req_duration_seconds_count', labels, count);
  for (const { suffix, quantile } of TREND_STATS)
    push(
      `k6_http_req_duration_${suffix}`,
      labels,
      count === 0 ? 0 : latency.getValueAtPercentile(quantile * 100) / 1e6,
    );
}

/** The bucket (index into LATENCY_BUCKETS_SECONDS, or its length for +Inf) of a latency in microseconds. */
export function bucketOf(latencyMicros: number): number {
  const seconds = latencyMicros / 1e6;
  let index = 0;
  while (index < LATENCY_BUCKETS_SECONDS.length && seconds > (LATENCY_BUCKETS_SECONDS[index] ?? 0)) index += 1;
  return index;
}

/** A recorder histogram's hdr-histogram-js internals that walk its counts (every JsHistogram has them). */
interface CountsWalk {
  readonly countsArrayLength: number;
  getCountAtIndex(index: number): number;
  valueFromIndex(index: number): number;
}

const walkable = (histogram: Histogram): histogram is Histogram & CountsWalk =>
  typeof (histogram as Partial<CountsWalk>).getCountAtIndex === 'function' &&
  typeof (histogram as Partial<CountsWalk>).valueFromIndex === 'function';

/** Cumulative counts of a histogram at LATENCY_BUCKETS_SECONDS, each value read as its index's lowest equivalent. */
function bucketCounts(histogram: Histogram): number[] {
  const perBucket = new Array<number>(LATENCY_BUCKETS_SECONDS.length + 1).fill(0);
  if (histogram.totalCount > 0 && walkable(histogram)) {
    for (let index = 0; index < histogram.countsArrayLength; index += 1) {
      const count = histogram.getCountAtIndex(index);
      if (count === 0) continue;
      const bucket = bucketOf(histogram.valueFromIndex(index));
      perBucket[bucket] = (perBucket[bucket] ?? 0) + count;
    }
  }
  let running = 0;
  return perBucket.slice(0, -1).map((count) => (running += count));
}

/** The series of a finished run: its snapshot's figures. */
export function seriesOfSnapshot(snapshot: LoadSnapshot, runLabels: Readonly<Record<string, string>>): MetricSeries[] {
  const endpoints = snapshot.endpoints.map((row) => ({
    endpoint: row.endpoint,
    statuses: row.statuses,
    failed: row.failed,
    latency: decodeHistogram(row.latency),
  }));
  return seriesOf(endpoints, snapshot.iterations, runLabels, snapshot.checks);
}
