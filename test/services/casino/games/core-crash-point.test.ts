/**
 * The crash-point law (crash-point.ts): the exact integer formula at chosen draws, the cap, and
 * `probabilityCrashAtLeast` checked against an independent count — a binary search over the
 * monotone map k ↦ crash cents finds the first k reaching each boundary.
 */
import { describe, expect, it } from 'vitest';
import { ratio, ratioToNumber, type Ratio } from '../../../../src/core/ratio.ts';
import { DrawStream, FRACTION52_DENOMINATOR } from '../../../../src/services/casino/fair/draw-stream.ts';
import {
  CRASH_MAX_CENTS,
  centsText,
  crashCentsFromFraction,
  crashPointCents,
  probabilityCrashAtLeast,
  ratioToCents,
} from '../../../../src/services/casino/games/crash-point.ts';
import { crashCashOutWins, crashRoundCents } from '../../../../src/services/casino/games/crash.ts';

const N = FRACTION52_DENOMINATOR;

/** The first k in [0, 2^52] whose crash point is ≥ cents (2^52 when none is). */
function firstReaching(cents: number): bigint {
  let low = 0n;
  let high = N;
  while (low < high) {
    const middle = (low + high) / 2n;
    if (crashCentsFromFraction(middle) >= cents) high = middle;
    else low = middle + 1n;
  }
  return low;
}
const countedAtLeast = (cents: number): Ratio => ratio(N - firstReaching(cents), N);

describe('crash point law', () => {
  it('is floor_to_cents(0.995 / (1 − r)) at chosen draws', () => {
    expect(crashCentsFromFraction(0n)).toBe(99);
    expect(crashCentsFromFraction(N / 2n)).toBe(199);
    expect(crashCentsFromFraction(N - N / 10n)).toBe(995);
    expect(crashCentsFromFraction(N - (N * 995n) / 200_000n)).toBe(20_000);
    expect(crashCentsFromFraction(N - 1n)).toBe(CRASH_MAX_CENTS);
  });
  it('is non-decreasing in k and capped at 1,000,000.00x', () => {
    let previous = 0;
    for (let step = 0n; step <= 1000n; step++) {
      const cents = crashCentsFromFraction(((N - 1n) * step) / 1000n);
      expect(cents).toBeGreaterThanOrEqual(previous);
      expect(cents).toBeLessThanOrEqual(CRASH_MAX_CENTS);
      previous = cents;
    }
  });
  it('P(crash ≥ c) equals the counted share of draws, for boundary and ordinary c', () => {
    for (const cents of [
      0,
      1,
      99,
      100,
      101,
      102,
      150,
      199,
      200,
      201,
      333,
      1_000,
      1_001,
      10_000,
      100_000,
      100_001,
      12_345_678,
      CRASH_MAX_CENTS,
    ]) {
      expect(probabilityCrashAtLeast(cents), `c = ${cents}`).toEqual(countedAtLeast(cents));
    }
    expect(probabilityCrashAtLeast(CRASH_MAX_CENTS + 1)).toEqual(ratio(0n));
    expect(probabilityCrashAtLeast(99)).toEqual(ratio(1n));
    expect(ratioToNumber(probabilityCrashAtLeast(200))).toBeCloseTo(0.995 / 2, 14);
  });
  it('draws one fraction52 per bet or round', () => {
    const stream = new DrawStream('ab'.repeat(32), 'client', 3);
    const expected = crashCentsFromFraction(new DrawStream('ab'.repeat(32), 'client', 3).fraction52());
    expect(crashPointCents(stream)).toBe(expected);
    expect(crashRoundCents(new DrawStream('ab'.repeat(32), 'client', 3))).toBe(expected);
  });
  it('a cash-out pays when the crash point reaches it', () => {
    expect(crashCashOutWins(200, 200)).toBe(true);
    expect(crashCashOutWins(200, 199)).toBe(false);
    expect(crashCashOutWins(200, 201)).toBe(true);
  });
  it('converts multipliers to cents and back to short text', () => {
    expect(ratioToCents(ratio(101n, 100n))).toBe(101);
    expect(ratioToCents(ratio(1000n))).toBe(100_000);
    expect([101, 110, 150, 200, 1_000, 100_000, 105].map(centsText)).toEqual([
      '1.01',
      '1.1',
      '1.5',
      '2',
      '10',
      '1000',
      '1.05',
    ]);
  });
});
