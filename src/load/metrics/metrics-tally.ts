/**
 * MetricsTally: the run's cumulative figures per endpoint while it goes, fed one sample at a time
 * beside the LoadRecorder (as the live view is), so the metrics outputs read their series every few
 * seconds without encoding the recorder's histograms. The same samples as the recorder, so its
 * counts are the recorder's.
 * Bounded as the recorder: at most MAX_ENDPOINTS endpoint names (later ones under OTHER_ENDPOINT),
 * one 64-bit histogram and LATENCY_BUCKETS_SECONDS + 1 bucket counts each.
 */
import { emptyReadHistogram, MAX_ENDPOINTS, OTHER_ENDPOINT, sampleMicros, type LoadSample } from '../load-recorder.ts';
import { bucketOf, LATENCY_BUCKETS_SECONDS, type EndpointFigures } from './metric-series.ts';

/** Running sums of the per-bucket counts, +Inf's left out (it is the total). */
function cumulative(perBucket: readonly number[]): number[] {
  let running = 0;
  return perBucket.slice(0, -1).map((count) => (running += count));
}

interface Tallied {
  readonly statuses: Map<number, number>;
  failed: number;
  readonly latency: ReturnType<typeof emptyReadHistogram>;
  /** Samples per latency bucket (LATENCY_BUCKETS_SECONDS, then +Inf), counted exactly. */
  readonly perBucket: number[];
}

export class MetricsTally {
  private readonly endpoints = new Map<string, Tallied>();

  add(sample: LoadSample): void {
    const name =
      this.endpoints.has(sample.endpoint) || this.endpoints.size < MAX_ENDPOINTS ? sample.endpoint : OTHER_ENDPOINT;
    let tallied = this.endpoints.get(name);
    if (tallied === undefined) {
      tallied = {
        statuses: new Map(),
        failed: 0,
        latency: emptyReadHistogram(),
        perBucket: new Array<number>(LATENCY_BUCKETS_SECONDS.length + 1).fill(0),
      };
      this.endpoints.set(name, tallied);
    }
    tallied.statuses.set(sample.status, (tallied.statuses.get(sample.status) ?? 0) + 1);
    if (sample.failed) tallied.failed += 1;
    const micros = sampleMicros(sample);
    tallied.latency.recordValue(micros);
    const bucket = bucketOf(micros);
    tallied.perBucket[bucket] = (tallied.perBucket[bucket] ?? 0) + 1;
  }

  /** The endpoints' figures so far, names in code-unit order (the snapshot's). */
  figures(): EndpointFigures[] {
    return [...this.endpoints.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([endpoint, tallied]) => ({
        endpoint,
        statuses: tallied.statuses,
        failed: tallied.failed,
        latency: tallied.latency,
        buckets: cumulative(tallied.perBucket),
      }));
  }
}
