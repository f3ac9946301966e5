// The load recorder: latency from the intended start (a stalled request shows its whole wait),
// per-endpoint and per-second tallies, iterations and checks, and snapshots that merge exactly.
import { describe, expect, test } from 'vitest';
import {
  decodeHistogram,
  encodeHistogram,
  LoadRecorder,
  mergeSnapshots,
  overallHistogram,
  percentilesOf,
  STAGED_SECONDS,
  newHistogram,
  type Histogram,
  type LoadSample,
  type LoadSnapshot,
} from '../../src/load/load-recorder.ts';

describe('LoadRecorder', () => {
  test('keeps the first request without an answer: its error, in the snapshot and the merge (first shard first)', () => {
    const recorder = new LoadRecorder(0);
    const sample = { endpoint: 'GET /a', intendedStartMs: 0, endMs: 1, status: 0, failed: true };
    recorder.record({ ...sample, endpoint: 'GET /ok', status: 200, failed: false });
    expect(recorder.snapshot().firstError).toBeUndefined();
    recorder.record({ ...sample, error: 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate' });
    recorder.record({ ...sample, error: 'ECONNRESET: socket hang up' });
    const first = recorder.snapshot();
    expect(first.firstError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate');
    const other = new LoadRecorder(0);
    other.record({ ...sample, error: 'x'.repeat(1_000) });
    expect(other.snapshot().firstError).toHaveLength(300);
    expect(mergeSnapshots([new LoadRecorder(0).snapshot(), first, other.snapshot()]).firstError).toBe(first.firstError);
  });

  test('latency runs from the intended start; per endpoint, per second, statuses and failures', () => {
    const recorder = new LoadRecorder(1_000);
    for (let index = 0; index < 98; index++)
      recorder.record({
        endpoint: 'GET /a',
        intendedStartMs: 1_000 + index * 10,
        endMs: 1_000 + index * 10 + 2,
        status: 200,
        failed: false,
      });
    // Sent 1 s late (the generator stalled) and answered in 2 ms: 1,002 ms, not 2.
    recorder.record({ endpoint: 'GET /a', intendedStartMs: 2_500, endMs: 3_502, status: 200, failed: false });
    recorder.record({ endpoint: 'POST /b', intendedStartMs: 2_600, endMs: 2_650, status: 500, failed: true });
    recorder.iterationStarted();
    recorder.iterationCompleted();
    recorder.iterationDropped();
    recorder.check('status is 200', true);
    recorder.check('status is 200', false);
    const snapshot = recorder.snapshot();
    expect(snapshot.endpoints.map((row) => [row.endpoint, row.requests, row.failed, row.statuses])).toEqual([
      ['GET /a', 99, 0, { '200': 99 }],
      ['POST /b', 1, 1, { '500': 1 }],
    ]);
    const a = percentilesOf(decodeHistogram(snapshot.endpoints[0]!.latency));
    expect(a.p50Ms).toBeCloseTo(2, 1);
    expect(a.maxMs).toBeGreaterThanOrEqual(1_000);
    expect(snapshot.seconds.map((row) => [row.second, row.requests, row.failed])).toEqual([
      [0, 98, 0],
      [1, 2, 1],
    ]);
    expect(snapshot.iterations).toEqual({ started: 1, completed: 1, dropped: 1 });
    expect(snapshot.checks).toEqual({ 'status is 200': { passes: 1, fails: 1 } });
    expect(snapshot.endMs).toBe(3_502);
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  test('per-second rows hold exactly what was recorded, late answers to old seconds and snapshots mid-run included', () => {
    const recorder = new LoadRecorder(0);
    const bySecond = new Map<number, number[]>();
    const record = (sample: LoadSample): void => {
      recorder.record(sample);
      const second = Math.floor(sample.intendedStartMs / 1000);
      bySecond.set(second, [
        ...(bySecond.get(second) ?? []),
        Math.round((sample.endMs - sample.intendedStartMs) * 1000),
      ]);
    };
    const rowsOf = (snapshot: LoadSnapshot): [number, number, number, number, number][] =>
      snapshot.seconds.map((row) => {
        const histogram = decodeHistogram(row.latency);
        return [row.second, row.requests, histogram.totalCount, histogram.minNonZeroValue, histogram.maxValue];
      });
    // What recording each value straight into a packed histogram gives, through a snapshot's encoding.
    const direct = (values: readonly number[]): Histogram => {
      const histogram = newHistogram();
      for (const value of values) histogram.recordValue(value);
      return decodeHistogram(encodeHistogram(histogram));
    };
    const expected = (): [number, number, number, number, number][] =>
      [...bySecond.entries()]
        .sort(([a], [b]) => a - b)
        .map(([second, values]) => {
          const histogram = direct(values);
          return [second, values.length, histogram.totalCount, histogram.minNonZeroValue, histogram.maxValue];
        });
    const seconds = STAGED_SECONDS + 5;
    for (let second = 0; second < seconds; second++) {
      for (let index = 0; index < 40; index++)
        record({
          endpoint: 'x',
          intendedStartMs: second * 1000 + index * 25,
          endMs: second * 1000 + index * 25 + 1 + index,
          status: 200,
          failed: false,
        });
      // An answer to a request meant for a second that has left the staging window (a stalled target).
      if (second > STAGED_SECONDS)
        record({ endpoint: 'x', intendedStartMs: 10, endMs: second * 1000 + 999, status: 200, failed: false });
      if (second === 2) expect(rowsOf(recorder.snapshot())).toEqual(expected());
    }
    const snapshot = recorder.snapshot();
    expect(rowsOf(snapshot)).toEqual(expected());
    expect(snapshot.seconds[0]?.requests).toBe(40 + seconds - STAGED_SECONDS - 1);
    // Every row's histogram is the exact one: the same percentiles as recording each value directly.
    for (const row of snapshot.seconds)
      expect(percentilesOf(decodeHistogram(row.latency))).toEqual(
        percentilesOf(direct(bySecond.get(row.second) ?? [])),
      );
    // A snapshot taken twice is the same (folding staged rows changes nothing of what they hold).
    expect(recorder.snapshot()).toEqual(snapshot);
  });

  test('snapshots of workers merge exactly: counts add, histograms add, seconds re-base on the earliest start', () => {
    const one = new LoadRecorder(0);
    const two = new LoadRecorder(2_000);
    for (let index = 0; index < 50; index++)
      one.record({ endpoint: 'x', intendedStartMs: index * 20, endMs: index * 20 + 5, status: 200, failed: false });
    for (let index = 0; index < 50; index++)
      two.record({
        endpoint: 'x',
        intendedStartMs: 2_000 + index * 20,
        endMs: 2_000 + index * 20 + 50,
        status: 429,
        failed: true,
      });
    const merged = mergeSnapshots([one.snapshot(), two.snapshot()]);
    expect(merged.endpoints).toHaveLength(1);
    expect(merged.endpoints[0]).toMatchObject({
      endpoint: 'x',
      requests: 100,
      failed: 50,
      statuses: { '200': 50, '429': 50 },
    });
    expect(merged.seconds.map((row) => [row.second, row.requests])).toEqual([
      [0, 50],
      [2, 50],
    ]);
    const overall = percentilesOf(overallHistogram(merged));
    expect(overall.count).toBe(100);
    expect(overall.p50Ms).toBeCloseTo(5, 1);
    expect(overall.p99Ms).toBeCloseTo(50, 0);
    expect(mergeSnapshots([merged])).toEqual(merged);
  });
});
