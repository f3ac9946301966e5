/**
 * The run's metrics as Prometheus-style series: one value per name and label set, cumulative from
 * the run's start (counters, and a summary's quantiles, sum and count), with afp's endpoint names
 * as labels (`endpoint="POST /api/v1/games/coin-flip"`, or a route id such as `escrow.B.create`
 * in a scenario run). The same series go to every output (remote write, JSON lines), built the same
 * way from the live tally while the run goes and from the final snapshot at the end, so the last
 * values sent are the figures of summary.json.
 *
 *   afp_http_reqs_total{endpoint,status}            requests answered with that status (0: no answer)
 *   afp_http_req_failed_total{endpoint}             failed requests (k6's http_req_failed)
 *   afp_http_req_duration_seconds{endpoint,quantile} latency from the intended start, quantiles
 *     0.5 0.9 0.95 0.99 (a summary: _sum and _count beside it)
 *   afp_iterations_started_total, afp_iterations_total (completed), afp_dropped_iterations_total
 *
 * Every series also carries the run's own labels (job, run_id). Order is fixed (endpoints as given,
 * statuses ascending) so what is written is stable.
 */
import { decodeHistogram, type Histogram, type LoadSnapshot } from '../load-recorder.ts';

export interface MetricSeries {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export const QUANTILES = [0.5, 0.9, 0.95, 0.99] as const;

/** One endpoint's cumulative figures, from the tally or a snapshot. */
export interface EndpointFigures {
  readonly endpoint: string;
  readonly statuses: ReadonlyMap<number, number> | Readonly<Record<string, number>>;
  readonly failed: number;
  /** Latency in microseconds (the recorder's unit). */
  readonly latency: Histogram;
}

export interface IterationFigures {
  readonly started: number;
  readonly completed: number;
  readonly dropped: number;
}

const statusEntries = (statuses: EndpointFigures['statuses']): [string, number][] =>
  (statuses instanceof Map
    ? [...statuses.entries()].map(([status, count]) => [String(status), count] as [string, number])
    : Object.entries(statuses)
  ).sort(([a], [b]) => Number(a) - Number(b));

export function seriesOf(
  endpoints: readonly EndpointFigures[],
  iterations: IterationFigures,
  runLabels: Readonly<Record<string, string>>,
): MetricSeries[] {
  const series: MetricSeries[] = [];
  const push = (name: string, labels: Record<string, string>, value: number): void =>
    void series.push({ name, labels: { ...runLabels, ...labels }, value });
  for (const figures of endpoints) {
    const endpoint = figures.endpoint;
    for (const [status, count] of statusEntries(figures.statuses))
      push('afp_http_reqs_total', { endpoint, status }, count);
    push('afp_http_req_failed_total', { endpoint }, figures.failed);
    const count = figures.latency.totalCount;
    for (const quantile of QUANTILES)
      push(
        'afp_http_req_duration_seconds',
        { endpoint, quantile: String(quantile) },
        count === 0 ? 0 : figures.latency.getValueAtPercentile(quantile * 100) / 1e6,
      );
    push('afp_http_req_duration_seconds_sum', { endpoint }, count === 0 ? 0 : (figures.latency.mean * count) / 1e6);
    push('afp_http_req_duration_seconds_count', { endpoint }, count);
  }
  push('afp_iterations_started_total', {}, iterations.started);
  push('afp_iterations_total', {}, iterations.completed);
  push('afp_dropped_iterations_total', {}, iterations.dropped);
  return series;
}

/** The series of a finished run: its snapshot's figures. */
export function seriesOfSnapshot(snapshot: LoadSnapshot, runLabels: Readonly<Record<string, string>>): MetricSeries[] {
  const endpoints = snapshot.endpoints.map((row) => ({
    endpoint: row.endpoint,
    statuses: row.statuses,
    failed: row.failed,
    latency: decodeHistogram(row.latency),
  }));
  return seriesOf(endpoints, snapshot.iterations, runLabels);
}
