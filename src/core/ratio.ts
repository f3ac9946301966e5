/**
 * Ratio: an exact non-negative-denominator fraction of bigints, always in lowest terms.
 *
 * Why: payout multipliers (1.96x, 0.98/p, 0.975·C(25,r)/C(25−m,r)), win probabilities and the
 * theoretical house edges of the audit must be exact. Floats would let an audit "agree" with
 * itself through rounding; fractions make every theoretical edge a computed fact.
 * Conversion to a float happens only for presentation (`ratioToNumber`).
 */
import { assert } from './assert.ts';

export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function ratio(num: bigint | number, den: bigint | number = 1n): Ratio {
  let n = BigInt(num);
  let d = BigInt(den);
  assert(d !== 0n, 'ratio denominator is not zero');
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return g > 1n ? { num: n / g, den: d / g } : { num: n, den: d };
}

export const ZERO: Ratio = { num: 0n, den: 1n };
export const ONE: Ratio = { num: 1n, den: 1n };

export const add = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.num, a.den * b.den);
export function div(a: Ratio, b: Ratio): Ratio {
  assert(b.num !== 0n, 'ratio division by zero');
  return ratio(a.num * b.den, a.den * b.num);
}
export const compare = (a: Ratio, b: Ratio): number => {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
};
export const isZero = (a: Ratio): boolean => a.num === 0n;

/** Sum of probability-weighted values: Σ p_i · v_i. */
export function expectation(terms: ReadonlyArray<readonly [probability: Ratio, value: Ratio]>): Ratio {
  let total = ZERO;
  for (const [probability, value] of terms) total = add(total, mul(probability, value));
  return total;
}

/** Presentation only: the nearest float. Exact for every ratio a report prints to 10 digits. */
export function ratioToNumber(a: Ratio): number {
  const SCALE = 10n ** 18n;
  const scaled = (a.num * SCALE) / a.den;
  return Number(scaled) / 1e18;
}

/** Parses "1.96", "0.005", "34.3", "250000" exactly. */
export function ratioFromDecimal(text: string): Ratio {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  assert(match !== null, `decimal text: ${text}`);
  const [, whole = '0', fraction = ''] = match;
  return ratio(BigInt(whole + fraction), 10n ** BigInt(fraction.length));
}

/** amountMicro × r, rounded down to the micro (the house keeps fractions of a micro). */
export function applyToMicro(amountMicro: bigint, r: Ratio): bigint {
  return (amountMicro * r.num) / r.den;
}

export function ratioText(a: Ratio): string {
  return a.den === 1n ? `${a.num}` : `${a.num}/${a.den}`;
}
