/**
 * LoadReport: what `afp load` hands to the report writers — which scenario ran against which
 * target with which engine and seed, the run's LoadSnapshot (every engine, worker and shard ends in
 * one) and its thresholds judged — and the figures every format derives from it the same way:
 * percentiles per endpoint and overall, one row per second of the run, the run's duration.
 *
 * Invariants: every format is a pure function of the report (no clock: the run's duration comes
 * from the snapshot, never a wall time); endpoints in the snapshot's order (code-unit order of
 * their names), seconds dense from 0 to the run's last second (a second without a request is a
 * row of zeros: a stalled target shows as a gap, not as nothing); at most the recorder's limits of
 * endpoints and seconds and LOAD_REPORT_THRESHOLDS_MAX thresholds (more is a bug in the caller).
 * Non-goals: rendering (one file per format), judging the thresholds (thresholds.ts).
 */
import { assert } from '../../core/assert.ts';
import {
  decodeHistogram,
  MAX_ENDPOINTS,
  MAX_SECONDS,
  percentilesOf,
  sumHistograms,
  type Histogram,
  type HistogramSnapshot,
  type LoadSnapshot,
  type Percentiles,
} from '../load-recorder.ts';
import { LOAD_LIMITS } from '../../scenario/load-limits.ts';
import type { Concurrency } from '../littles-law.ts';
import type { ThresholdResult } from '../thresholds.ts';

export interface LoadReport {
  /** The scenario's name. */
  readonly scenario: string;
  readonly target: { readonly name: string; readonly source: string };
  readonly seed?: string;
  /** The engine that made the load: `afp` (the open-model generator) or `autocannon`. */
  readonly engine: string;
  /** afp's version; writeLoadReports fills it from package.json when absent. */
  readonly afpVersion?: string;
  readonly snapshot: LoadSnapshot;
  /** evaluateThresholds at the end of the run, in the scenario's order. */
  readonly thresholds: readonly ThresholdResult[];
  /** Why the run ended before its schedule did (an abortOnFail threshold, Ctrl-C); absent when it ran out. */
  readonly stopReason?: string;
  /** A closed loop's configured concurrency (connections, VUs), for the Little's-law check; absent: the concurrency measured on the wire. */
  readonly concurrency?: Concurrency;
}

export const LOAD_REPORT_THRESHOLDS_MAX = LOAD_LIMITS.thresholdKeys * LOAD_LIMITS.thresholdsPerMetric;

export interface LatencyRow {
  readonly requests: number;
  readonly failed: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly latency: Percentiles;
}

interface EndpointRow extends LatencyRow {
  readonly endpoint: string;
}

export interface SecondRow extends LatencyRow {
  readonly second: number;
}

export function assertLoadReportBounded(report: LoadReport): void {
  assert(
    report.snapshot.format === 'afp-load/1',
    `a load report reads afp-load/1 snapshots, got ${String(report.snapshot.format)}`,
  );
  assert(
    report.snapshot.endpoints.length <= MAX_ENDPOINTS + 1,
    `a load snapshot holds at most ${MAX_ENDPOINTS + 1} endpoints, got ${report.snapshot.endpoints.length}`,
  );
  assert(
    report.snapshot.seconds.length <= MAX_SECONDS,
    `a load snapshot holds at most ${MAX_SECONDS} seconds, got ${report.snapshot.seconds.length}`,
  );
  assert(report.snapshot.endMs >= report.snapshot.startMs, 'a load run ends after it starts');
  assert(
    report.thresholds.length <= LOAD_REPORT_THRESHOLDS_MAX,
    `a load report holds at most ${LOAD_REPORT_THRESHOLDS_MAX} thresholds, got ${report.thresholds.length}`,
  );
}

export function durationMsOf(report: LoadReport): number {
  return report.snapshot.endMs - report.snapshot.startMs;
}

/** Failed over requests; 0 without requests. */
export function failedRate(row: { readonly requests: number; readonly failed: number }): number {
  return row.requests === 0 ? 0 : row.failed / row.requests;
}

/** Requests a second over the whole run; 0 for a run of no length. */
export function requestsPerSecond(report: LoadReport, requests: number): number {
  const durationMs = durationMsOf(report);
  return durationMs <= 0 ? 0 : requests / (durationMs / 1000);
}

export function endpointRows(report: LoadReport): EndpointRow[] {
  return report.snapshot.endpoints.map((row) => ({
    endpoint: row.endpoint,
    requests: row.requests,
    failed: row.failed,
    statuses: row.statuses,
    latency: percentilesOf(decodeHistogram(row.latency)),
  }));
}

function addStatuses(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [status, count] of Object.entries(from)) into[status] = (into[status] ?? 0) + count;
}

/** Statuses in ascending numeric order (integer-like keys keep that order in JSON too). */
function sortedStatuses(statuses: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Every endpoint's histogram added: the run's latency. */
export function overallHistogramOf(report: LoadReport): Histogram {
  return sumHistograms(report.snapshot.endpoints.map((row) => row.latency));
}

export function overallRow(report: LoadReport): LatencyRow {
  const statuses: Record<string, number> = {};
  for (const row of report.snapshot.endpoints) addStatuses(statuses, row.statuses);
  return {
    requests: report.snapshot.endpoints.reduce((sum, row) => sum + row.requests, 0),
    failed: report.snapshot.endpoints.reduce((sum, row) => sum + row.failed, 0),
    statuses: sortedStatuses(statuses),
    latency: percentilesOf(overallHistogramOf(report)),
  };
}

/**
 * How many per-second rows the run has: through its last recorded second and every whole second of
 * its duration. Not the part-second after the schedule's end, where the run only waits for its
 * last answers (seconds are keyed by intended start): counted, a 2.005-s run ended in a row of
 * zeros, a false drop to nothing.
 */
export function secondCount(report: LoadReport): number {
  const lastRecorded = report.snapshot.seconds.at(-1)?.second ?? -1;
  return Math.min(MAX_SECONDS, Math.max(lastRecorded + 1, Math.floor(durationMsOf(report) / 1000)));
}

/**
 * Seconds grouped `width` at a time (width 1: one row a second), dense: the group starting at
 * second k·width covers [k·width, (k+1)·width), up to secondCount. Counts add and histograms
 * merge, so a group's percentiles are exact for its requests. Groups are built one at a time
 * (the snapshot's seconds are in order), so only one group's histogram is held at once.
 */
export function secondGroups(report: LoadReport, width: number): SecondRow[] {
  assert(Number.isSafeInteger(width) && width >= 1, 'a group of seconds is at least one second wide');
  const rows = report.snapshot.seconds;
  const groups: SecondRow[] = [];
  let next = 0;
  for (let start = 0; start < secondCount(report); start += width) {
    let requests = 0;
    let failed = 0;
    const statuses: Record<string, number> = {};
    const latencies: HistogramSnapshot[] = [];
    for (; next < rows.length && (rows[next]?.second ?? Infinity) < start + width; next++) {
      const row = rows[next];
      assert(row !== undefined && row.second >= start, 'a snapshot keeps its seconds in ascending order');
      requests += row.requests;
      failed += row.failed;
      addStatuses(statuses, row.statuses);
      latencies.push(row.latency);
    }
    groups.push({
      second: start,
      requests,
      failed,
      statuses: sortedStatuses(statuses),
      latency: percentilesOf(sumHistograms(latencies)),
    });
  }
  return groups;
}

export function secondRows(report: LoadReport): SecondRow[] {
  return secondGroups(report, 1);
}

/** `200:95 500:5`: a row's statuses as one text cell. */
export function statusesText(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
}

/** A threshold's observed value as text: at most 6 decimals, no exponent for the values reports meet. */
export function observedText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Number(value.toFixed(6));
  return String(rounded === 0 ? 0 : rounded);
}

/** A threshold's outcome as shown: `pass` or `fail`, and `(no data)` when k6's 0 for an empty metric was judged. */
export function thresholdOutcome(result: ThresholdResult): string {
  return `${result.ok ? 'pass' : 'fail'}${result.noData ? ' (no data)' : ''}`;
}
