/**
 * MetricsTally: the run's cumulative figures per endpoint while it goes, fed one sample at a time
 * beside the LoadRecorder (as the live view is), so the metrics outputs read their series every few
 * seconds without encoding the recorder's histograms. The same samples as the recorder, so its
 * counts are the recorder's.
 * Bounded as the recorder: at most MAX_ENDPOINTS endpoint names (later ones under OTHER_ENDPOINT),
 * one 64-bit histogram each.
 */
import { emptyReadHistogram, MAX_ENDPOINTS, OTHER_ENDPOINT, sampleMicros, type LoadSample } from '../load-recorder.ts';
import type { EndpointFigures } from './metric-series.ts';

interface Tallied {
  readonly statuses: Map<number, number>;
  failed: number;
  readonly latency: ReturnType<typeof emptyReadHistogram>;
}

export class MetricsTally {
  private readonly endpoints = new Map<string, Tallied>();

  add(sample: LoadSample): void {
    const name =
      this.endpoints.has(sample.endpoint) || this.endpoints.size < MAX_ENDPOINTS ? sample.endpoint : OTHER_ENDPOINT;
    let tallied = this.endpoints.get(name);
    if (tallied === undefined) {
      tallied = { statuses: new Map(), failed: 0, latency: emptyReadHistogram() };
      this.endpoints.set(name, tallied);
    }
    tallied.statuses.set(sample.status, (tallied.statuses.get(sample.status) ?? 0) + 1);
    if (sample.failed) tallied.failed += 1;
    tallied.latency.recordValue(sampleMicros(sample));
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
      }));
  }
}
