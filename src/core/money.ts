/**
 * Money: integer micro-USDC (6 decimals) as bigint.
 *
 * Converted from and to decimal strings (style B) or JSON numbers (style A) only at the HTTP
 * edge, never through floating-point arithmetic: a JSON number is read through its shortest
 * decimal text (`String(n)`), which is exact for every value a client can type with 6 decimals.
 * Every division names its rounding direction.
 */
import { assert } from './assert.ts';

export type Micro = bigint;

export const MICRO_PER_USDC = 1_000_000n;
export const DECIMALS = 6;
/** Largest amount any request may carry: 10^12 USDC. Larger is "huge" and refused at the edge. */
export const MAX_AMOUNT_MICRO: Micro = 1_000_000_000_000n * MICRO_PER_USDC;

export type Rounding = 'down' | 'up';

export function usdc(whole: number | bigint): Micro {
  return BigInt(whole) * MICRO_PER_USDC;
}

const DECIMAL_PATTERN = /^(-?)(\d{1,18})(?:\.(\d{1,18}))?$/;

export type ParseFailure = 'not-a-number' | 'too-many-decimals' | 'too-large';

/**
 * Parses "12", "0.1", "-3.250000". At most 6 decimals; no exponent, no leading "+".
 * Request bodies carry amounts on most escrow requests, so the usual text (at most 9 whole digits
 * and 6 decimals) is read by `parseShortDecimal` in exact integer arithmetic; anything else,
 * every error included, takes `parseDecimalPlain`, the definition (tested equal).
 */
export function parseDecimal(text: string): Micro | ParseFailure {
  const micro = parseShortDecimal(text);
  return micro < 0 ? parseDecimalPlain(text) : BigInt(text.charCodeAt(0) === MINUS ? -micro : micro);
}

const MINUS = 0x2d;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
/** Whole digits `parseShortDecimal` reads: below 10^9 USDC, the micro count stays below 2^53. */
const SHORT_WHOLE_DIGITS_MAX = 9;

/**
 * |amount| in micro for `-?\d{1,9}(\.\d{1,6})?` (what DECIMAL_PATTERN accepts, within those
 * widths), else -1: the caller reads the sign, and everything else goes to the definition.
 */
function parseShortDecimal(text: string): number {
  const length = text.length;
  let index = length > 0 && text.charCodeAt(0) === MINUS ? 1 : 0;
  const wholeStart = index;
  let whole = 0;
  while (index < length) {
    const digit = text.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) break;
    whole = whole * 10 + digit;
    index++;
  }
  const wholeDigits = index - wholeStart;
  if (wholeDigits === 0 || wholeDigits > SHORT_WHOLE_DIGITS_MAX) return -1;
  if (index === length) return whole * 1e6;
  if (text.charCodeAt(index) !== DOT) return -1;
  index++;
  const fractionStart = index;
  let fraction = 0;
  while (index < length) {
    const digit = text.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    fraction = fraction * 10 + digit;
    index++;
  }
  const fractionDigits = index - fractionStart;
  if (fractionDigits === 0 || fractionDigits > DECIMALS) return -1;
  return whole * 1e6 + fraction * (POWERS_OF_TEN[DECIMALS - fractionDigits] as number);
}

const POWERS_OF_TEN: readonly number[] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/** The definition of `parseDecimal`, for any text. */
export function parseDecimalPlain(text: string): Micro | ParseFailure {
  const match = DECIMAL_PATTERN.exec(text);
  if (match === null) return 'not-a-number';
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > DECIMALS) {
    if (/[1-9]/.test(fraction.slice(DECIMALS))) return 'too-many-decimals';
  }
  const fractionMicro = BigInt(fraction.slice(0, DECIMALS).padEnd(DECIMALS, '0'));
  const magnitude = BigInt(whole as string) * MICRO_PER_USDC + fractionMicro;
  if (magnitude > MAX_AMOUNT_MICRO) return 'too-large';
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * Reads a JSON number exactly (through its shortest decimal text), as `parseNumberPlain`, the
 * definition (tested equal). Fast path, below 2^32 in magnitude: m = round(value × 10^6) is the
 * answer exactly when m / 10^6 (one correctly rounded division of exact integers) gives back
 * `value`. Then the decimal m / 10^6 rounds to `value`, and it is the shortest text's value: a
 * double there is less than 10^-6 wide (ulp <= 2^-21), so no other decimal of at most 6 places,
 * and no shorter one, rounds to it. Otherwise (more decimals, larger values) the text path.
 */
export function parseNumber(value: number): Micro | ParseFailure {
  if (value < FAST_NUMBER_LIMIT && value > -FAST_NUMBER_LIMIT) {
    const micro = Math.round(value * 1e6);
    if (micro / 1e6 === value) return BigInt(micro);
  }
  return parseNumberPlain(value);
}

const FAST_NUMBER_LIMIT = 2 ** 32;

/** The definition of `parseNumber`: the number's shortest decimal text, parsed. */
export function parseNumberPlain(value: number): Micro | ParseFailure {
  if (!Number.isFinite(value)) return 'not-a-number';
  if (Math.abs(value) > 1e12) return 'too-large';
  return parseDecimal(plainDecimalText(value));
}

/** `String(n)` without exponent notation ("1e-7" becomes "0.0000001"). */
function plainDecimalText(value: number): string {
  const text = String(value);
  const exponentAt = text.indexOf('e');
  if (exponentAt < 0) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, exponentAt);
  const exponent = Number(text.slice(exponentAt + 1));
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const pointAt = whole.length + exponent;
  let plain: string;
  if (pointAt <= 0) plain = `0.${'0'.repeat(-pointAt)}${digits}`;
  else if (pointAt >= digits.length) plain = digits + '0'.repeat(pointAt - digits.length);
  else plain = `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  return (negative ? '-' : '') + plain;
}

/**
 * Renders micro-USDC as a decimal string with at least 2 and at most 6 decimals: "10.00", "0.995".
 * It runs for every style-B amount rendered, so below 2^53 (every amount a run holds) it splits
 * the amount with exact integer arithmetic on its double and reads the decimals from tables of
 * three-digit groups, instead of dividing bigints and trimming text; byte-identical to
 * `formatDecimalPlain`, the definition (tested equal), which takes every other amount.
 */
export function formatDecimal(amount: Micro): string {
  if (amount >= EXACT_DOUBLE_LIMIT || amount <= EXACT_DOUBLE_FLOOR) return formatDecimalPlain(amount);
  const value = exactDouble(amount);
  const magnitude = value < 0 ? -value : value;
  let whole = Math.floor(magnitude / 1e6);
  let fraction = magnitude - whole * 1e6; // exact: integers below 2^53
  // The rounded quotient may reach the next integer when the fraction is nearly 1: step back.
  if (fraction < 0) {
    whole -= 1;
    fraction += 1e6;
  }
  const high = Math.floor(fraction / 1000);
  const low = fraction - high * 1000;
  const decimals =
    low === 0
      ? (HIGH_GROUP_TRIMMED[high] as string)
      : (THREE_DIGITS[high] as string) + (LOW_GROUP_TRIMMED[low] as string);
  const wholeText = whole < WHOLE_DOT_TEXTS_MAX ? wholeDotText(whole) : `${whole}.`;
  return value < 0 ? '-' + wholeText + decimals : wholeText + decimals;
}

/**
 * `<whole>.` for the whole parts below WHOLE_DOT_TEXTS_MAX, made on first use: most amounts a run
 * renders are below 10,000 USDC, and a remembered text spares the number's conversion and one of
 * the joins on every rendering.
 */
const WHOLE_DOT_TEXTS_MAX = 10_000;
const wholeDotTexts: string[] = Array.from({ length: WHOLE_DOT_TEXTS_MAX }, () => '');

function wholeDotText(whole: number): string {
  let text = wholeDotTexts[whole] as string;
  if (text === '') {
    text = `${whole}.`;
    wholeDotTexts[whole] = text;
  }
  return text;
}

/** The definition of `formatDecimal`, for any bigint. */
export function formatDecimalPlain(amount: Micro): string {
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const whole = magnitude / MICRO_PER_USDC;
  let fraction = (magnitude % MICRO_PER_USDC).toString().padStart(DECIMALS, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** `000`..`999`: the first three decimals when more follow. */
const THREE_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, group) => String(group).padStart(3, '0'));
/** The first three decimals when the last three are zero: trailing zeros dropped, two kept at least. */
const HIGH_GROUP_TRIMMED: readonly string[] = THREE_DIGITS.map((digits) => trimZeros(digits, 2));
/** The last three decimals (not all zero): trailing zeros dropped. */
const LOW_GROUP_TRIMMED: readonly string[] = THREE_DIGITS.map((digits) => trimZeros(digits, 1));

function trimZeros(digits: string, keep: number): string {
  let text = digits;
  while (text.length > keep && text.endsWith('0')) text = text.slice(0, -1);
  return text;
}

/** |amount| below 2^53: `Number(amount)` is exact there. */
const EXACT_DOUBLE_LIMIT = 2n ** 53n;
/**
 * -2^53, kept as its own constant: the optimizing compiler does not fold `-EXACT_DOUBLE_LIMIT`,
 * so writing it in the checks negated (allocated) a bigint on every rendered amount.
 */
const EXACT_DOUBLE_FLOOR = -EXACT_DOUBLE_LIMIT;

/**
 * `Number(amount)` for |amount| < 2^53, without the runtime call `Number` makes on a bigint (a
 * call into C++ on every rendered amount): the bigint is stored as a 64-bit word and read back as
 * its two 32-bit halves, high (signed) × 2^32 + low (unsigned), exact below 2^53. The halves'
 * order follows the platform's byte order.
 */
const WORD = new BigInt64Array(1);
const HALVES = new Int32Array(WORD.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LOW_HALF = LITTLE_ENDIAN ? 0 : 1;
const HIGH_HALF = 1 - LOW_HALF;

function exactDouble(amount: Micro): number {
  WORD[0] = amount;
  return (HALVES[HIGH_HALF] as number) * 4_294_967_296 + ((HALVES[LOW_HALF] as number) >>> 0);
}

/**
 * Renders micro-USDC as a JSON number for style A: the double nearest amount / 10^6, which is
 * what `Number(formatDecimal(amount))` reads. Below 2^53 the bigint converts exactly and one IEEE
 * division rounds the same rational correctly (ties to even, as decimal parsing does), so
 * `Number(amount) / 1e6` is the same double without building text; beyond, the text path.
 */
export function toNumber(amount: Micro): number {
  if (amount < EXACT_DOUBLE_LIMIT && amount > EXACT_DOUBLE_FLOOR) return exactDouble(amount) / 1e6;
  return Number(formatDecimal(amount));
}

/** amount × numerator / denominator, rounded in the named direction (amounts are non-negative). */
export function mulDiv(amount: Micro, numerator: bigint, denominator: bigint, rounding: Rounding): Micro {
  assert(denominator > 0n, 'mulDiv denominator is positive');
  assert(amount >= 0n && numerator >= 0n, 'mulDiv operands are non-negative');
  const product = amount * numerator;
  const quotient = product / denominator;
  if (rounding === 'up' && quotient * denominator !== product) return quotient + 1n;
  return quotient;
}

/** Share in basis points (1 bp = 0.01%), rounded in the named direction. */
export function basisPoints(amount: Micro, points: bigint, rounding: Rounding): Micro {
  return mulDiv(amount, points, 10_000n, rounding);
}
