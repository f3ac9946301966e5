// Little's law as a check of a run's figures, on snapshots a real LoadRecorder made: a closed loop
// whose latency fits its connections agrees; the autocannon bug's figures (65k requests/s, p50 5 ms
// on 10 connections) disagree; with no configured concurrency the wire's own measure is the
// reference, and a generator behind its schedule shows as the wait before each write.
import { describe, expect, test } from 'vitest';
import { littleCheck, littleLine, measuredConcurrency } from '../../src/load/littles-law.ts';
import { LoadRecorder, type LoadSnapshot } from '../../src/load/load-recorder.ts';

/** `count` requests over 1 s, each `latencyMs` from its intended start, written `lateMs` after it. */
function run(count: number, latencyMs: number, lateMs = 0): LoadSnapshot {
  const recorder = new LoadRecorder(0);
  for (let index = 0; index < count; index++) {
    const intendedStartMs = (index * 1_000) / count;
    recorder.record({
      endpoint: 'GET /',
      intendedStartMs,
      sentMs: intendedStartMs + lateMs,
      endMs: intendedStartMs + latencyMs,
      status: 200,
      failed: false,
    });
  }
  recorder.finish(1_000);
  return recorder.snapshot();
}

describe('littleCheck', () => {
  test('500 requests/s at 20 ms on 10 connections: 10 in flight, agree', () => {
    const check = littleCheck(run(500, 20), { value: 10, source: 'configured connections' });
    expect(check).toMatchObject({
      concurrency: 10,
      concurrencySource: 'configured connections',
      ok: true,
      waitBeforeWriteMs: null,
    });
    expect(check?.inFlight).toBeCloseTo(10, 0);
    expect(littleLine(check)).toContain('agree');
  });

  test('65k requests/s with 5 ms on 10 connections cannot be true: 325 in flight, flagged', () => {
    const check = littleCheck(run(65_000, 5), { value: 10, source: 'configured connections' });
    expect(check?.ok).toBe(false);
    expect(check?.inFlight).toBeCloseTo(325, -1);
    expect(littleLine(check)).toContain('DISAGREE by more than 20%: a latency figure this far');
  });

  test("no configured concurrency: the wire's measure; a generator 10 ms behind shows as the wait before each write", () => {
    const onTime = run(300, 20);
    expect(measuredConcurrency(onTime)?.value).toBeCloseTo(6, 0);
    expect(littleCheck(onTime, null)).toMatchObject({ concurrencySource: 'measured on the wire', ok: true });
    // 300/s at 20 ms, 10 of them before the write: 3 in flight on the wire (judged: above 1.5), 6 implied.
    const late = littleCheck(run(300, 20, 10), null);
    expect(late?.ok).toBe(false);
    expect(late?.waitBeforeWriteMs).toBeCloseTo(10, 1);
    expect(littleLine(late)).toContain('includes 10.01 ms (mean) before each write');
  });

  test("too few in flight on the wire to measure: not judged, never 'the generator ran behind'", () => {
    // 5/s at 0.4 ms on the wire (0.002 in flight), each written 1 ms late by a timer: ratio 3.5.
    const idle = littleCheck(run(5, 1.4, 1), null);
    expect(idle?.ok).toBeNull();
    expect(idle?.ratio).toBeGreaterThan(3);
    expect(littleLine(idle)).toContain('not judged: under 0.025 in flight');
    expect(littleLine(idle)).not.toContain('DISAGREE');
    // The floor scales with the rate: 300/s needs 1.5 in flight; a configured concurrency has none.
    expect(littleCheck(run(300, 4, 3), null)?.ok).toBeNull();
    expect(littleCheck(run(5, 1.4, 1), { value: 1, source: 'configured VUs' })?.ok).toBe(false);
  });

  test('nothing to judge: no request, or no send times and nothing configured', () => {
    expect(littleCheck(new LoadRecorder(0).snapshot(), { value: 10, source: 'configured VUs' })).toBeNull();
    const recorder = new LoadRecorder(0);
    recorder.record({ endpoint: 'GET /', intendedStartMs: 0, endMs: 5, status: 200, failed: false });
    recorder.finish(1_000);
    expect(littleCheck(recorder.snapshot(), null)).toBeNull();
    expect(littleLine(null)).toContain('not judged');
  });
});
