// The live view's window: the last complete second's rate, p99 (from the intended start) and error
// rate, and the run's totals, from samples fed one at a time; a second with no answers reads 0.
import { describe, expect, test } from 'vitest';
import { LiveWindow } from '../../src/load/load-run-view.ts';

const sample = (endMs: number, latencyMs: number, failed = false) => ({
  endpoint: 'escrow.B.create',
  intendedStartMs: endMs - latencyMs,
  endMs,
  status: failed ? 503 : 201,
  failed,
});

describe('LiveWindow', () => {
  test('the last complete second: its rate, p99 and error rate; totals over the run', () => {
    const window = new LiveWindow(10_000);
    for (let index = 0; index < 99; index++) window.add(sample(10_000 + index * 10, 2));
    window.add(sample(10_995, 500, true));
    window.add(sample(11_200, 3));
    const view = window.view(11_500);
    expect(view).toMatchObject({ elapsedMs: 1500, requestsPerSecond: 100, errorRate: 0.01, requests: 101, failed: 1 });
    expect(view.p99Ms).toBeCloseTo(2, 1);
    expect(window.view(11_999).requestsPerSecond).toBe(100);
    expect(window.view(12_100)).toMatchObject({ requestsPerSecond: 1, errorRate: 0 });
  });

  test('a second without answers reads 0 (a stalled target shows as a drop, not as the last busy second)', () => {
    const window = new LiveWindow(0);
    window.add(sample(500, 1));
    expect(window.view(1_500).requestsPerSecond).toBe(1);
    expect(window.view(3_500)).toMatchObject({ requestsPerSecond: 0, p99Ms: 0, errorRate: 0, requests: 1 });
  });
});
