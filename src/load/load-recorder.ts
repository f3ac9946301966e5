/**
 * LoadRecorder: what a load run measures, in one place, for every engine (afp's open-model
 * generator, autocannon) and every worker or shard: HDR histograms of latency per endpoint and
 * overall, per-second rows (requests, failures, statuses, a latency histogram each), iterations
 * started, completed and dropped, and named checks.
 *
 * Honest latency: a request's latency runs from its INTENDED start (when the arrival schedule said
 * it should go), not from when the generator got round to sending it — a stalled target then shows
 * its stall in the percentiles instead of hiding it (coordinated omission, as wrk2 corrects it).
 * Values are recorded in microseconds, 3 significant digits, up to an hour.
 * A snapshot is plain JSON (histograms as compressed base64), so worker threads and `--shard`
 * machines merge into one report (`mergeSnapshots`); merging is exact for counts and histograms.
 * Recording cost (a sample is two histogram records, on every request the generator sends): the
 * per-endpoint histograms use plain 64-bit counts (a few hundred thousand records a second; 188 KB
 * each, so MAX_ENDPOINTS of them is at most 94 MB); the per-second ones are packed (small, as a
 * long run has many), but a packed record is several times slower, so the newest STAGED_SECONDS
 * rows, where answers land, record into 32-bit staging histograms, folded into the packed one
 * (exactly: counts add) when their second leaves the window; a snapshot encodes a staged row's
 * staging histogram (walking a packed one to encode it is slow).
 * Limits: at most MAX_ENDPOINTS endpoint names (later ones count under OTHER_ENDPOINT), at most
 * MAX_SECONDS per-second rows, at most MAX_CHECKS check names.
 */
import * as hdr from 'hdr-histogram-js';
import { assert } from '../core/assert.ts';

export const MAX_ENDPOINTS = 500;
export const MAX_SECONDS = 86_400;
export const MAX_CHECKS = 200;
export const OTHER_ENDPOINT = '(other)';
/** Per-second rows recorded through a staging histogram: the newest ones (late answers to older seconds go to the packed row). */
export const STAGED_SECONDS = 3;
/** The longest latency a histogram holds: one hour, in microseconds. */
export const HIGHEST_MICROS = 3_600_000_000;

/** A request's error text kept in a snapshot, at most (a message can hold a whole answer). */
const ERROR_CHARS_MAX = 300;

export interface LoadSample {
  /** The endpoint's name in reports, e.g. a route id `escrow.B.create` or `GET /api/v1/games`. */
  readonly endpoint: string;
  /** When the schedule meant the request to start (ms on the run's clock). */
  readonly intendedStartMs: number;
  /** When it was actually written (at or after its intended start); absent when the engine does not say. */
  readonly sentMs?: number;
  /** When its answer (or failure) was complete. */
  readonly endMs: number;
  /** The HTTP status; 0 when no answer came (connection refused, timeout). */
  readonly status: number;
  /** A failed request by k6's `http_req_failed`: no answer, or a status the run does not expect. */
  readonly failed: boolean;
  /** Why no answer came (status 0): the client's error code and message, e.g. `ECONNREFUSED: …`. */
  readonly error?: string;
}

export interface HistogramSnapshot {
  readonly count: number;
  /** hdr-histogram-js `encodeIntoCompressedBase64` of a packed histogram; '' when empty. */
  readonly encoded: string;
}

export interface EndpointSnapshot {
  readonly endpoint: string;
  readonly requests: number;
  readonly failed: number;
  /** Status (as text, '0' for no answer) → count. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly latency: HistogramSnapshot;
}

export interface SecondSnapshot {
  /** Whole seconds since the run's start, by intended start. */
  readonly second: number;
  readonly requests: number;
  readonly failed: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly latency: HistogramSnapshot;
}

export interface LoadSnapshot {
  readonly format: 'afp-load/1';
  readonly startMs: number;
  readonly endMs: number;
  readonly endpoints: readonly EndpointSnapshot[];
  readonly seconds: readonly SecondSnapshot[];
  readonly iterations: { readonly started: number; readonly completed: number; readonly dropped: number };
  readonly checks: Readonly<Record<string, { readonly passes: number; readonly fails: number }>>;
  /**
   * The area under the requests-in-flight curve, ms: the sum over requests of the time each spent
   * on the wire (written to answered). Divided by the run's length it is the mean number of requests
   * in flight, measured apart from the latency figures (Little's law checks them: littles-law.ts).
   * Absent when a request's send time was not known (an engine that does not say, an older file).
   */
  readonly wireMsTotal?: number;
  /**
   * The first request that got no answer: why, as the client said it (`DEPTH_ZERO_SELF_SIGNED_CERT:
   * self-signed certificate`). A run whose requests all failed before reaching the target names
   * the cause, not only the target. Absent when every request got an answer.
   */
  readonly firstError?: string;
}

export interface Percentiles {
  readonly count: number;
  readonly minMs: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
}

export type Histogram = hdr.Histogram;

export function newHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 'packed',
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_MICROS,
    numberOfSignificantValueDigits: 3,
  });
}

/** 32-bit counts: records several times faster than a packed histogram, 94 KB whatever it holds (for a second's worth of samples). */
export function newStagingHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_MICROS,
    numberOfSignificantValueDigits: 3,
  });
}

function micros(ms: number): number {
  return Math.min(HIGHEST_MICROS, Math.max(1, Math.round(ms * 1000)));
}

/** A sample's latency as the histograms hold it: microseconds from its intended start, within [1, HIGHEST_MICROS]. */
export function sampleMicros(sample: LoadSample): number {
  return micros(sample.endMs - sample.intendedStartMs);
}

export function encodeHistogram(histogram: Histogram): HistogramSnapshot {
  return {
    count: histogram.totalCount,
    encoded: histogram.totalCount === 0 ? '' : hdr.encodeIntoCompressedBase64(histogram),
  };
}

/**
 * Histograms read back for reading and summing (thresholds, reports, merges) use plain 64-bit
 * counts: adding into a packed histogram walks its ~23,500 buckets through the packed array (about
 * 3 ms each), ten times slower. Recording stays packed (small: a histogram per endpoint and second).
 */
export function emptyReadHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 64,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_MICROS,
    numberOfSignificantValueDigits: 3,
  });
}

export function decodeHistogram(snapshot: HistogramSnapshot): Histogram {
  return snapshot.encoded === '' ? emptyReadHistogram() : hdr.decodeFromCompressedBase64(snapshot.encoded, 64);
}

/** The exact sum of snapshot histograms (endpoints of a filter, seconds of a group, workers of a run). */
export function sumHistograms(snapshots: readonly HistogramSnapshot[]): Histogram {
  if (snapshots.length === 1 && snapshots[0] !== undefined) return decodeHistogram(snapshots[0]);
  const sum = emptyReadHistogram();
  for (const snapshot of snapshots) if (snapshot.encoded !== '') sum.add(decodeHistogram(snapshot));
  return sum;
}

const ms = (value: number): number => value / 1000;

export function percentilesOf(histogram: Histogram): Percentiles {
  if (histogram.totalCount === 0)
    return { count: 0, minMs: 0, meanMs: 0, p50Ms: 0, p90Ms: 0, p95Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0 };
  return {
    count: histogram.totalCount,
    minMs: ms(histogram.minNonZeroValue),
    meanMs: ms(histogram.mean),
    p50Ms: ms(histogram.getValueAtPercentile(50)),
    p90Ms: ms(histogram.getValueAtPercentile(90)),
    p95Ms: ms(histogram.getValueAtPercentile(95)),
    p99Ms: ms(histogram.getValueAtPercentile(99)),
    p999Ms: ms(histogram.getValueAtPercentile(99.9)),
    maxMs: ms(histogram.maxValue),
  };
}

class Tally {
  requests = 0;
  failed = 0;
  /** Status → count, by number (named as text in the snapshot). */
  readonly statuses = new Map<number, number>();
  readonly latency: Histogram;
  /** While set, latencies are recorded here instead, and added to `latency` by `unstage`. */
  private staged: Histogram | null = null;

  constructor(latency: Histogram) {
    this.latency = latency;
  }

  add(sample: LoadSample, latencyMicros: number): void {
    this.requests += 1;
    if (sample.failed) this.failed += 1;
    this.statuses.set(sample.status, (this.statuses.get(sample.status) ?? 0) + 1);
    (this.staged ?? this.latency).recordValue(latencyMicros);
  }

  /** From the row's first sample (so `latency` stays empty until `unstage`). */
  stage(staging: Histogram): void {
    assert(
      this.staged === null && this.requests === 0 && staging.totalCount === 0,
      'a new row stages into one empty histogram',
    );
    this.staged = staging;
  }

  /** Adds the staged counts to `latency`; hands the staging histogram back, empty. */
  unstage(): Histogram | null {
    const staged = this.staged;
    if (staged === null) return null;
    this.latency.add(staged);
    staged.reset();
    this.staged = null;
    return staged;
  }

  /** The latency encoded: while staged, the staging histogram holds it all (a row is staged from its first sample and never again once folded). */
  encodedLatency(): HistogramSnapshot {
    if (this.staged === null) return encodeHistogram(this.latency);
    assert(this.latency.totalCount === 0, 'a staged row has folded nothing yet');
    return encodeHistogram(this.staged);
  }

  statusRecord(): Record<string, number> {
    return Object.fromEntries(
      [...this.statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => [String(status), count]),
    );
  }
}

export class LoadRecorder {
  readonly startMs: number;
  private endMs = 0;
  private readonly endpoints = new Map<string, Tally>();
  private readonly seconds = new Map<number, Tally>();
  /** The per-second rows now staged (at most STAGED_SECONDS), by second; emptied staging histograms for reuse. */
  private readonly stagedRows = new Map<number, Tally>();
  private readonly spareStaging: Histogram[] = [];
  private newestSecond = -1;
  private firstError: string | null = null;
  private readonly checks = new Map<string, { passes: number; fails: number }>();
  private started = 0;
  private completed = 0;
  private dropped = 0;
  /** Σ (end − sent) of the requests with a send time; null once one came without. */
  private wireMsTotal: number | null = 0;

  constructor(startMs: number) {
    this.startMs = startMs;
    this.endMs = startMs;
  }

  record(sample: LoadSample): void {
    assert(sample.endMs >= sample.intendedStartMs, 'a request ends after its intended start');
    if (sample.error !== undefined && this.firstError === null)
      this.firstError = sample.error.slice(0, ERROR_CHARS_MAX);
    const latency = micros(sample.endMs - sample.intendedStartMs);
    const name =
      this.endpoints.has(sample.endpoint) || this.endpoints.size < MAX_ENDPOINTS ? sample.endpoint : OTHER_ENDPOINT;
    let endpoint = this.endpoints.get(name);
    if (endpoint === undefined) {
      endpoint = new Tally(emptyReadHistogram());
      this.endpoints.set(name, endpoint);
    }
    endpoint.add(sample, latency);
    const second = Math.min(MAX_SECONDS - 1, Math.max(0, Math.floor((sample.intendedStartMs - this.startMs) / 1000)));
    this.rowOf(second).add(sample, latency);
    this.endMs = Math.max(this.endMs, sample.endMs);
    if (this.wireMsTotal !== null)
      this.wireMsTotal =
        sample.sentMs === undefined ? null : this.wireMsTotal + Math.max(0, sample.endMs - sample.sentMs);
  }

  /** Iterations so far, without encoding a snapshot (the metrics outputs read it every few seconds). */
  iterationCounts(): { readonly started: number; readonly completed: number; readonly dropped: number } {
    return { started: this.started, completed: this.completed, dropped: this.dropped };
  }

  /** Checks so far, by name (the metrics outputs' live k6_checks_rate). */
  checkCounts(): Readonly<Record<string, { readonly passes: number; readonly fails: number }>> {
    return Object.fromEntries([...this.checks.entries()].map(([name, tally]) => [name, { ...tally }]));
  }

  /** The row of `second`; a row made among the newest STAGED_SECONDS is staged (older staged rows are folded first). */
  private rowOf(second: number): Tally {
    if (second > this.newestSecond) {
      this.newestSecond = second;
      this.unstage((staged) => staged <= second - STAGED_SECONDS);
    }
    let row = this.seconds.get(second);
    if (row === undefined) {
      row = new Tally(newHistogram());
      this.seconds.set(second, row);
      if (second > this.newestSecond - STAGED_SECONDS) {
        row.stage(this.spareStaging.pop() ?? newStagingHistogram());
        this.stagedRows.set(second, row);
      }
    }
    return row;
  }

  private unstage(which: (second: number) => boolean): void {
    for (const [second, row] of this.stagedRows) {
      if (!which(second)) continue;
      const staging = row.unstage();
      if (staging !== null) this.spareStaging.push(staging);
      this.stagedRows.delete(second);
    }
  }

  iterationStarted(): void {
    this.started += 1;
  }

  iterationCompleted(): void {
    this.completed += 1;
  }

  /** Iterations the generator could not start on time (no free slot under the in-flight cap), as k6 counts them. */
  iterationDropped(count = 1): void {
    assert(Number.isSafeInteger(count) && count >= 0, 'iterations are dropped by whole numbers');
    this.dropped += count;
  }

  check(name: string, ok: boolean): void {
    let tally = this.checks.get(name);
    if (tally === undefined) {
      if (this.checks.size >= MAX_CHECKS) return;
      tally = { passes: 0, fails: 0 };
      this.checks.set(name, tally);
    }
    if (ok) tally.passes += 1;
    else tally.fails += 1;
  }

  /** Marks the end of the run (the last answer may have come earlier). */
  finish(atMs: number): void {
    this.endMs = Math.max(this.endMs, atMs);
  }

  snapshot(): LoadSnapshot {
    const tallyOf = (tally: Tally): Omit<EndpointSnapshot, 'endpoint'> => ({
      requests: tally.requests,
      failed: tally.failed,
      statuses: tally.statusRecord(),
      latency: tally.encodedLatency(),
    });
    return {
      format: 'afp-load/1',
      startMs: this.startMs,
      endMs: this.endMs,
      endpoints: [...this.endpoints.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([endpoint, tally]) => ({ endpoint, ...tallyOf(tally) })),
      seconds: [...this.seconds.entries()]
        .sort(([a], [b]) => a - b)
        .map(([second, tally]) => ({ second, ...tallyOf(tally) })),
      iterations: { started: this.started, completed: this.completed, dropped: this.dropped },
      checks: Object.fromEntries(
        [...this.checks.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, tally]) => [name, { ...tally }]),
      ),
      ...(this.wireMsTotal === null ? {} : { wireMsTotal: this.wireMsTotal }),
      ...(this.firstError === null ? {} : { firstError: this.firstError }),
    };
  }
}

function addStatuses(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [status, count] of Object.entries(from)) into[status] = (into[status] ?? 0) + count;
}

function mergeRows<
  R extends {
    requests: number;
    failed: number;
    statuses: Readonly<Record<string, number>>;
    latency: HistogramSnapshot;
  },
>(
  rows: readonly R[],
  keyOf: (row: R) => string | number,
): Map<string | number, { requests: number; failed: number; statuses: Record<string, number>; latency: Histogram }> {
  const merged = new Map<
    string | number,
    { requests: number; failed: number; statuses: Record<string, number>; latency: Histogram }
  >();
  for (const row of rows) {
    const key = keyOf(row);
    let into = merged.get(key);
    if (into === undefined) {
      into = { requests: 0, failed: 0, statuses: {}, latency: emptyReadHistogram() };
      merged.set(key, into);
    }
    into.requests += row.requests;
    into.failed += row.failed;
    addStatuses(into.statuses, row.statuses);
    into.latency.add(decodeHistogram(row.latency));
  }
  return merged;
}

const sortedStatuses = (statuses: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b)));

/**
 * One snapshot of several (workers of one run, or shards on several machines): counts and
 * histograms add exactly; seconds are re-based on the earliest start.
 */
export function mergeSnapshots(snapshots: readonly LoadSnapshot[]): LoadSnapshot {
  assert(snapshots.length > 0, 'at least one snapshot to merge');
  const startMs = Math.min(...snapshots.map((snapshot) => snapshot.startMs));
  const endMs = Math.max(...snapshots.map((snapshot) => snapshot.endMs));
  const endpoints = mergeRows(
    snapshots.flatMap((snapshot) => snapshot.endpoints),
    (row) => row.endpoint,
  );
  const seconds = mergeRows(
    snapshots.flatMap((snapshot) =>
      snapshot.seconds.map((row) => ({
        ...row,
        second: Math.min(MAX_SECONDS - 1, row.second + Math.floor((snapshot.startMs - startMs) / 1000)),
      })),
    ),
    (row) => row.second,
  );
  const checks: Record<string, { passes: number; fails: number }> = {};
  for (const snapshot of snapshots) {
    for (const [name, tally] of Object.entries(snapshot.checks)) {
      const into = (checks[name] ??= { passes: 0, fails: 0 });
      into.passes += tally.passes;
      into.fails += tally.fails;
    }
  }
  const sum = (pick: (snapshot: LoadSnapshot) => number): number =>
    snapshots.reduce((total, snapshot) => total + pick(snapshot), 0);
  return {
    format: 'afp-load/1',
    startMs,
    endMs,
    endpoints: [...endpoints.entries()]
      .sort(([a], [b]) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0))
      .map(([endpoint, row]) => ({
        endpoint: String(endpoint),
        requests: row.requests,
        failed: row.failed,
        statuses: sortedStatuses(row.statuses),
        latency: encodeHistogram(row.latency),
      })),
    seconds: [...seconds.entries()]
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([second, row]) => ({
        second: Number(second),
        requests: row.requests,
        failed: row.failed,
        statuses: sortedStatuses(row.statuses),
        latency: encodeHistogram(row.latency),
      })),
    iterations: {
      started: sum((s) => s.iterations.started),
      completed: sum((s) => s.iterations.completed),
      dropped: sum((s) => s.iterations.dropped),
    },
    checks: Object.fromEntries(Object.entries(checks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(snapshots.every((snapshot) => snapshot.wireMsTotal !== undefined)
      ? { wireMsTotal: sum((s) => s.wireMsTotal ?? 0) }
      : {}),
    ...firstErrorOf(snapshots),
  };
}

/** The first of the snapshots' first errors (in the order given: shard 1 first), if any. */
function firstErrorOf(snapshots: readonly LoadSnapshot[]): { readonly firstError?: string } {
  const firstError = snapshots.find((snapshot) => snapshot.firstError !== undefined)?.firstError;
  return firstError === undefined ? {} : { firstError };
}

/** The overall latency histogram of a snapshot (every endpoint's added). */
export function overallHistogram(snapshot: LoadSnapshot): Histogram {
  return sumHistograms(snapshot.endpoints.map((endpoint) => endpoint.latency));
}
