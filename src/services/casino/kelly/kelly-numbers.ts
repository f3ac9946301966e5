/**
 * Fixed rounding of the Kelly records' presentation numbers (STYLE rule 9: byte-stable output).
 *
 * Every fraction, probability, percentage and rate is rendered as a JSON number rounded to
 * DECIMALS places, half away from zero: exactly (bigint) for Ratios, by one fixed float formula
 * for the few values that are floats by nature (log growth). Money is not rounded here: it is
 * exact micro-USDC rendered with `toNumber` (money.ts).
 */
import { assert } from '../../../core/assert.ts';
import type { Ratio } from '../../../core/ratio.ts';
import { DECIMALS } from '../../../core/money.ts';

const SCALE = 10n ** BigInt(DECIMALS);
const SCALE_NUMBER = 10 ** DECIMALS;
const EXACT_DOUBLE_LIMIT = 2n ** 53n;

/** r rounded to DECIMALS places, half away from zero, as the nearest double. */
export function fixedNumber(r: Ratio): number {
  assert(r.den > 0n, 'ratio denominator is positive');
  const negative = r.num < 0n;
  const magnitude = negative ? -r.num : r.num;
  const scaled = magnitude * SCALE;
  let units = scaled / r.den;
  if ((scaled % r.den) * 2n >= r.den) units += 1n;
  const signed = negative ? -units : units;
  if (units === 0n) return 0;
  // One IEEE division of two exact values is correctly rounded; beyond 2^53 read the text.
  if (units < EXACT_DOUBLE_LIMIT) return Number(signed) / SCALE_NUMBER;
  return Number(`${signed}e-${DECIMALS}`);
}

/** A float rounded to DECIMALS places, half away from zero; null for a non-finite value. */
export function fixedFloat(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const units = Math.round(Math.abs(value) * SCALE_NUMBER);
  if (units === 0) return 0;
  return (value < 0 ? -units : units) / SCALE_NUMBER;
}
