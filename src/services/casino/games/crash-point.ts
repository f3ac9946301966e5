/**
 * The crash-point law shared by crash and multiplier (NOTES.md "Crash and multiplier").
 *
 * From k = draws.fraction52(), uniform in [0, 2^52), r = k / 2^52 and the crash point is
 * floor_to_cents((1 − 0.005) / (1 − r)), computed exactly in integers:
 *   crash cents = min(floor(995 · 2^52 / (10 · (2^52 − k))), CRASH_MAX_CENTS).
 * The smallest crash point is 0.99x (k = 0): a round may crash before 1.00x.
 *
 * Invariant: `probabilityCrashAtLeast(c)` is the exact share of the 2^52 values of k whose crash
 * point is ≥ c cents; a test pins it against `crashCentsFromFraction` at the boundaries.
 * floor(X) ≥ c ⟺ X ≥ c ⟺ 2^52 − k ≤ 995·2^52 / (10c), so min(2^52, floor(995·2^52 / (10c)))
 * values of k qualify (c at most the cap; none above it).
 * Non-goals: the clock-driven rounds of the short-style crash (the casino service runs them).
 */
import { assert } from '../../../core/assert.ts';
import { ratio, type Ratio } from '../../../core/ratio.ts';
import { FRACTION52_DENOMINATOR } from '../fair/draw-stream.ts';
import type { Draws } from './game.ts';

/** 1,000,000.00x: the crash point of a draw never exceeds it. */
export const CRASH_MAX_CENTS = 100_000_000;
/** 1 − edge = 995/1000, in the integer form the law uses: 995 / 10 cents per unit of 1/(1 − r). */
const NUMERATOR = 995n * FRACTION52_DENOMINATOR;

/** The crash point, in cents, of one fraction52 draw k in [0, 2^52). */
export function crashCentsFromFraction(k: bigint): number {
  assert(k >= 0n && k < FRACTION52_DENOMINATOR, 'fraction52 draw in [0, 2^52)');
  const cents = NUMERATOR / (10n * (FRACTION52_DENOMINATOR - k));
  return cents > BigInt(CRASH_MAX_CENTS) ? CRASH_MAX_CENTS : Number(cents);
}

/** The crash point of a bet or a round, in cents (one fraction52 draw: two words). */
export function crashPointCents(draws: Draws): number {
  return crashCentsFromFraction(draws.fraction52());
}

/** Exact P(crash point ≥ cents), cents ≥ 0. */
export function probabilityCrashAtLeast(cents: number): Ratio {
  assert(Number.isSafeInteger(cents) && cents >= 0, 'crash cents are a non-negative integer');
  if (cents === 0) return ratio(1n);
  if (cents > CRASH_MAX_CENTS) return ratio(0n);
  const qualifying = NUMERATOR / (10n * BigInt(cents));
  const count = qualifying < FRACTION52_DENOMINATOR ? qualifying : FRACTION52_DENOMINATOR;
  return ratio(count, FRACTION52_DENOMINATOR);
}

/** Cents as the shortest decimal text: 200 → "2", 150 → "1.5", 101 → "1.01" (variant keys). */
export function centsText(cents: number): string {
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  if (fraction === 0) return String(whole);
  return `${whole}.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
}

/** Exact cents of a multiplier with at most two decimals (as `decimalParam` returns it). */
export function ratioToCents(multiplier: Ratio): number {
  const scaled = multiplier.num * 100n;
  assert(scaled % multiplier.den === 0n, 'a multiplier with at most two decimals');
  return Number(scaled / multiplier.den);
}

/** Presentation: cents as a JSON number (2.5 for 250). */
export const centsToNumber = (cents: number): number => cents / 100;
