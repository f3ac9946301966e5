/**
 * LiveAmount: an amount of money exactly as a live target writes it — an integer count of units of
 * 10^-places, so `101.49949999999998` (a deployment's JS double) is 10149949999999998 × 10^-14,
 * held without loss. Why: afp's own money is micro-USDC (core/money.ts), but a target keeps money
 * as it likes (spec/DEPLOYED.md §2.2: doubles with float noise, display fields rounded to 2 dp);
 * reading that through a 6-decimal parser either fails ("not an amount") or loses digits, and a
 * comparison of what it wrote must not be decided by afp's resolution.
 *
 * A JSON number is read through its shortest decimal text (`String(n)`: what the target's JSON
 * encoder wrote, exponent forms such as `1e-7` included); a decimal string through the same
 * grammar. Arithmetic (add, subtract, multiply) is exact; a division is only by a Ratio and names
 * its rounding. Comparison of two amounts "within a rounding" (a display field to `places`
 * decimals: half a unit of its last place, plus float noise) is `withinRounding`.
 * Invariants: `units / 10^places` in lowest form (no trailing zero unit digit unless places = 0);
 * places ≤ PLACES_MAX; never NaN. Limits: text of at most TEXT_MAX characters.
 */
import { assert } from './assert.ts';
import type { Micro } from './money.ts';
import type { Ratio } from './ratio.ts';

export interface LiveAmount {
  /** The value is units × 10^-places. */
  readonly units: bigint;
  readonly places: number;
}

export type LiveAmountFailure = 'not-a-number' | 'too-long';

/** Decimal places a live amount may have: a double's shortest text reaches 10^-324 (5e-324). */
export const PLACES_MAX = 400;
/** Characters of amount text read (a double's shortest text is at most 24). */
export const TEXT_MAX = 64;
const AMOUNT_PATTERN = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,4}))?$/;
const ZERO_AMOUNT: LiveAmount = { units: 0n, places: 0 };

/** units × 10^-places with trailing zeros of units folded into fewer places. */
export function liveAmount(units: bigint, places: number): LiveAmount {
  let value = units;
  let scale = places;
  if (value === 0n) return ZERO_AMOUNT;
  while (scale < 0) {
    value *= 10n;
    scale += 1;
  }
  while (scale > 0 && value % 10n === 0n) {
    value /= 10n;
    scale -= 1;
  }
  return { units: value, places: scale };
}

/** A JSON number or decimal string, exactly as written; a failure names why it is not an amount. */
export function parseLiveAmount(value: unknown): LiveAmount | LiveAmountFailure {
  if (typeof value === 'number') return Number.isFinite(value) ? parseAmountText(String(value)) : 'not-a-number';
  if (typeof value === 'string') return value.length > TEXT_MAX ? 'too-long' : parseAmountText(value);
  return 'not-a-number';
}

function parseAmountText(text: string): LiveAmount | LiveAmountFailure {
  const match = AMOUNT_PATTERN.exec(text);
  if (match === null) return 'not-a-number';
  const [, sign = '', whole = '0', fraction = '', exponentText = '0'] = match;
  const places = fraction.length - Number(exponentText);
  if (places > PLACES_MAX || places < -PLACES_MAX) return 'too-long';
  const magnitude = BigInt(whole + fraction);
  return liveAmount(sign === '-' ? -magnitude : magnitude, places);
}

export const isLiveAmount = (value: LiveAmount | LiveAmountFailure): value is LiveAmount => typeof value === 'object';

export function fromMicro(amount: Micro): LiveAmount {
  return liveAmount(amount, 6);
}

/** Both amounts over the larger count of places. */
function aligned(a: LiveAmount, b: LiveAmount): [bigint, bigint, number] {
  const places = Math.max(a.places, b.places);
  return [a.units * 10n ** BigInt(places - a.places), b.units * 10n ** BigInt(places - b.places), places];
}

export function addAmounts(a: LiveAmount, b: LiveAmount): LiveAmount {
  const [left, right, places] = aligned(a, b);
  return liveAmount(left + right, places);
}

export function subtractAmounts(a: LiveAmount, b: LiveAmount): LiveAmount {
  const [left, right, places] = aligned(a, b);
  return liveAmount(left - right, places);
}

export function multiplyAmounts(a: LiveAmount, b: LiveAmount): LiveAmount {
  return liveAmount(a.units * b.units, a.places + b.places);
}

/** amount × ratio, to `places` decimals, rounded in the named direction (toward −∞ for 'down'). */
export function multiplyByRatio(
  amount: LiveAmount,
  factor: Ratio,
  places: number,
  rounding: 'down' | 'up' | 'nearest',
): LiveAmount {
  assert(factor.den > 0n, 'a ratio has a positive denominator');
  const numerator = amount.units * factor.num * 10n ** BigInt(Math.max(0, places - amount.places));
  const denominator = factor.den * 10n ** BigInt(Math.max(0, amount.places - places));
  return liveAmount(divide(numerator, denominator, rounding), places);
}

/** numerator / denominator (denominator > 0) rounded down (floor), up (ceiling) or to nearest (ties away from zero). */
function divide(numerator: bigint, denominator: bigint, rounding: 'down' | 'up' | 'nearest'): bigint {
  const floor = numerator >= 0n ? numerator / denominator : -((-numerator + denominator - 1n) / denominator);
  const remainder = numerator - floor * denominator;
  if (remainder === 0n || rounding === 'down') return floor;
  if (rounding === 'up') return floor + 1n;
  const twice = 2n * remainder;
  return twice > denominator || (twice === denominator && numerator > 0n) ? floor + 1n : floor;
}

export function compareAmounts(a: LiveAmount, b: LiveAmount): -1 | 0 | 1 {
  const [left, right] = aligned(a, b);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function absoluteAmount(a: LiveAmount): LiveAmount {
  return a.units < 0n ? { units: -a.units, places: a.places } : a;
}

/** The amount rounded to `places` decimals (nearest, ties away from zero, as `Math.round` on cents). */
export function roundAmount(amount: LiveAmount, places: number): LiveAmount {
  return multiplyByRatio(amount, { num: 1n, den: 1n }, places, 'nearest');
}

/** The amount in micro-USDC, rounded in the named direction; `exact` says whether nothing was dropped. */
export function toMicro(
  amount: LiveAmount,
  rounding: 'down' | 'up' | 'nearest' = 'nearest',
): { micro: Micro; exact: boolean } {
  const micro = multiplyByRatio(amount, { num: 1n, den: 1n }, 6, rounding);
  return { micro: micro.units * 10n ** BigInt(6 - micro.places), exact: compareAmounts(micro, amount) === 0 };
}

/**
 * Float noise allowed between two amounts of about `magnitude`: 2^16 half-ulps of a double, the
 * drift of 65 536 double additions (a balance's whole history on a deployment that keeps doubles),
 * and never less than 10^-12. Below afp's micro by orders of magnitude at every balance under 10^4.
 */
export function floatNoise(magnitude: LiveAmount): LiveAmount {
  const scaled = multiplyByRatio(absoluteAmount(magnitude), { num: 1n, den: 2n ** 37n }, 18, 'up');
  const floor = liveAmount(1n, 12);
  return compareAmounts(scaled, floor) > 0 ? scaled : floor;
}

/**
 * Whether `shown` agrees with `exact` within a rounding to `places` decimals (half a unit of that
 * place) plus float noise; `places` null: within float noise only (a field the target does not round).
 * `places` is what the documents publish; a target that rounds to fewer shows no more than it
 * rounds to, so the rounding is taken at the places `shown` itself has where those are fewer
 * (`shownPlaces`): a deployment that shows `amount_won` 0 for a won 0.0199 is not called wrong by
 * a rule it does not have. Measured per value, never recited.
 */
export function withinRounding(shown: LiveAmount, exact: LiveAmount, places: number | null): boolean {
  const larger = compareAmounts(absoluteAmount(shown), absoluteAmount(exact)) > 0 ? shown : exact;
  let tolerance = floatNoise(larger);
  if (places !== null) tolerance = addAmounts(tolerance, liveAmount(5n, Math.min(places, shownPlaces(shown)) + 1));
  return compareAmounts(absoluteAmount(subtractAmounts(shown, exact)), tolerance) <= 0;
}

/**
 * Whether `shown` is `exact` rounded to fewer places than `publishedPlaces`: it shows fewer, and it
 * is farther from `exact` than the published places' half unit (plus float noise) allows.
 */
export function roundedToFewerPlaces(shown: LiveAmount, exact: LiveAmount, publishedPlaces: number): boolean {
  if (shownPlaces(shown) >= publishedPlaces) return false;
  const halfUnit = addAmounts(liveAmount(5n, publishedPlaces + 1), floatNoise(exact));
  return compareAmounts(absoluteAmount(subtractAmounts(shown, exact)), halfUnit) > 0;
}

/** The decimals `amount` shows: its places without trailing zeros (50.10 → 1, 50 → 0). */
export function shownPlaces(amount: LiveAmount): number {
  let { units, places } = amount;
  while (places > 0 && units % 10n === 0n) {
    units /= 10n;
    places -= 1;
  }
  return places;
}

/**
 * Half a unit of the last place a display figure was rounded to, in micro: `publishedPlaces` (the
 * documents' 2 for the deployment's display fields), or the fewer places `shownMicro` shows
 * (as `withinRounding`); 0 where the field is not rounded (null) or rounded below the micro. A
 * shown 0 says nothing of the places: it is taken at `zeroPlaces` (what the caller measured of the
 * other figures of the same answer; 0, the loosest, when it knows none).
 */
export function displayRoundingMicro(shownMicro: Micro, publishedPlaces: number | null, zeroPlaces = 0): Micro {
  if (publishedPlaces === null) return 0n;
  const shown = shownMicro === 0n ? zeroPlaces : shownPlaces(fromMicro(shownMicro));
  const places = Math.min(publishedPlaces, shown);
  return places >= 6 ? 0n : 5n * 10n ** BigInt(5 - places);
}

/**
 * Plain decimal text, no exponent: "101.49949999999998", "0.0000001", "-3", "0"; with `placesMin`,
 * at least that many decimals ("50.00" for 50 with 2), never fewer than the amount has.
 */
export function formatAmount(amount: LiveAmount, placesMin = 0): string {
  const places = Math.max(amount.places, placesMin);
  const units = amount.units * 10n ** BigInt(places - amount.places);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  if (places === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(places + 1, '0');
  const pointAt = padded.length - places;
  return `${negative ? '-' : ''}${padded.slice(0, pointAt)}.${padded.slice(pointAt)}`;
}

/** Presentation only: the nearest double. */
export function amountToNumber(amount: LiveAmount): number {
  return Number(formatAmount(amount));
}
