/**
 * A snapshot's latency histograms read for reading only (thresholds, reports): decoded into plain
 * 64-bit counts instead of the recorder's packed arrays, and added into a 64-bit sum.
 *
 * Why: adding one packed histogram into another walks all ~23,500 buckets through the packed
 * array (about 3 ms each on this machine), so a report of an hour's seconds, or thresholds judged
 * every 2 s over 500 endpoints, took seconds; with flat counts the same walk is about ten times
 * faster (one benchmark line: test/load/report.test.ts "a run longer than the chart holds").
 * Counts are exact either way; the histograms written into snapshots stay packed (small).
 * Invariant: same lowest value, highest value and significant digits as the recorder's, so
 * percentiles read here equal the recorder's percentilesOf on its own histograms.
 */
import * as hdr from 'hdr-histogram-js';
import { HIGHEST_MICROS, type HistogramSnapshot } from './load-recorder.ts';

export type Histogram = hdr.Histogram;

export function emptyHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_MICROS, numberOfSignificantValueDigits: 3 });
}

/** One snapshot histogram, decoded (an empty one when it holds nothing). */
export function readHistogram(snapshot: HistogramSnapshot): Histogram {
  return snapshot.encoded === '' ? emptyHistogram() : hdr.decodeFromCompressedBase64(snapshot.encoded, 64);
}

/** The sum of snapshot histograms (endpoints of a filter, seconds of a group). */
export function sumHistograms(snapshots: readonly HistogramSnapshot[]): Histogram {
  if (snapshots.length === 1 && snapshots[0] !== undefined) return readHistogram(snapshots[0]);
  const sum = emptyHistogram();
  for (const snapshot of snapshots) if (snapshot.encoded !== '') sum.add(readHistogram(snapshot));
  return sum;
}
