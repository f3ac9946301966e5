/**
 * k6 execution segments (`--execution-segment 0:1/2`) as afp's agent partition: a segment owns,
 * of each population of n agents, those with index in [floor(n·from), floor(n·to)). Adjacent
 * segments meet exactly (the same floor on both sides), so the segments of a sequence own every
 * agent once and share none, whatever the processes or machines.
 *
 * k6 writes a segment as `from:to`, each end a fraction (`1/2`), a decimal (`0.5`) or a percent
 * (`50%`); a lone value `x` means `0:x`. Exact: every end becomes a fraction of integers.
 */
export interface Fraction {
  readonly numerator: number;
  readonly denominator: number;
}

export interface Segment {
  readonly from: Fraction;
  readonly to: Fraction;
}

export const WHOLE_SEGMENT: Segment = { from: { numerator: 0, denominator: 1 }, to: { numerator: 1, denominator: 1 } };

const DENOMINATOR_MAX = 1_000_000_000;

/** The segment of `text` (k6's syntax), or why it is not one. */
export function parseSegment(text: string): Segment | string {
  const parts = text.trim().split(':');
  if (parts.length > 2) return `execution segment '${text}' has more than one ':'`;
  const ends = (parts.length === 1 ? ['0', parts[0] ?? ''] : parts).map(parseEnd);
  const [from, to] = ends;
  if (from === null || to === null || from === undefined || to === undefined)
    return `execution segment '${text}': each end must be a fraction (1/2), a decimal (0.5) or a percent (50%)`;
  if (compare(from, to) >= 0 || compare(to, { numerator: 1, denominator: 1 }) > 0)
    return `execution segment '${text}' must run from below to above, within 0 to 1`;
  return { from, to };
}

/** The agents of a population of `count` the segment owns: indexes [start, end). */
export function segmentSlice(count: number, segment: Segment): { readonly start: number; readonly end: number } {
  return { start: scaled(count, segment.from), end: scaled(count, segment.to) };
}

function scaled(count: number, fraction: Fraction): number {
  return Number((BigInt(count) * BigInt(fraction.numerator)) / BigInt(fraction.denominator));
}

function compare(left: Fraction, right: Fraction): number {
  const difference =
    BigInt(left.numerator) * BigInt(right.denominator) - BigInt(right.numerator) * BigInt(left.denominator);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

function parseEnd(text: string): Fraction | null {
  const value = text.trim();
  const fraction = /^(\d{1,9})\/(\d{1,9})$/.exec(value);
  if (fraction !== null) {
    const denominator = Number(fraction[2]);
    return denominator === 0 ? null : { numerator: Number(fraction[1]), denominator };
  }
  const decimal = /^(\d{1,9})(?:\.(\d{1,8}))?(%?)$/.exec(value);
  if (decimal === null) return null;
  const digits = decimal[2] ?? '';
  const denominator = 10 ** digits.length * (decimal[3] === '%' ? 100 : 1);
  if (denominator > DENOMINATOR_MAX) return null;
  return { numerator: Number(`${decimal[1] ?? '0'}${digits}`), denominator };
}
