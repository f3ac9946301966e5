/**
 * The first tick at which a market's seeded path (price-path.ts) leaves a band of its log, found
 * by search instead of by stepping every tick: what lets a clock move of years cost time in
 * proportion to the fills, triggers and liquidations it crosses, not to its minutes.
 *
 * How: the log at a tick is a clamped sum of octaves; octave k interpolates between knots 2^k
 * ticks apart, so over a block of 2^j ticks aligned to 2^j every octave k ≥ j stays between its
 * two knots' values, and every octave k < j within its amplitude. Those bounds decide whether a
 * block can hold a tick outside the band; a block that can is split in two, down to single ticks,
 * which are evaluated exactly (logPpmAt). Blocks are visited in time order, so the first tick
 * found is the first tick there is: the answer is exactly the one stepping finds.
 * Limits: ranges of at most RANGE_TICKS_MAX ticks (the caller searches further in several calls);
 * the bounds only prune, so they never change an answer, only its cost.
 */
import { assert } from '../../core/assert.ts';
import type { Market } from './market-catalogue.ts';
import type { PathCursor } from './path-cursor.ts';
import { pathKeyOf } from './path-key.ts';
import { LOG_PPM_MAX, NOISE_MAX, OCTAVES, interpolated, octaveFactor, octavePpm, octaveShare } from './price-path.ts';

/** The longest range one search covers (2^24 one-minute ticks ≈ 32 years). */
export const RANGE_TICKS_MAX = 2 ** 24;
const TOP = OCTAVES - 1;
/** 2^k for k = 0..OCTAVES-1 (a table: `2 ** k` of a variable is a floating-point power at every call). */
const SPANS: readonly number[] = Array.from({ length: OCTAVES }, (_, k) => 2 ** k);
/** The largest block start whose knots are found by shifting (a non-negative int32). */
const SHIFT_MAX = 2 ** 31 - 1;

/** A band of the log (ppm): a tick is outside when its log is ≤ `lowPpm` or ≥ `highPpm`. */
export interface LogBand {
  readonly lowPpm: number;
  readonly highPpm: number;
}

/** The first tick in [fromTick, toTick] whose log lies outside `band`, or null. */
export function firstTickOutside(
  seedHash: number,
  market: Market,
  range: { fromTick: number; toTick: number },
  band: LogBand,
): number | null {
  const { fromTick, toTick } = range;
  assert(
    Number.isSafeInteger(fromTick) &&
      Number.isSafeInteger(toTick) &&
      fromTick >= 0 &&
      toTick - fromTick < RANGE_TICKS_MAX,
    'a search covers a bounded range of ticks',
  );
  if (toTick < fromTick || (band.lowPpm < -LOG_PPM_MAX && band.highPpm > LOG_PPM_MAX)) return null;
  const search = new BandSearch(seedHash, market, range, band);
  const topSpan = 2 ** TOP;
  for (let start = Math.floor(fromTick / topSpan) * topSpan; start <= toTick; start += topSpan) {
    const found = search.block(start, TOP);
    if (found !== null) return found;
  }
  return null;
}

/** One search: the market's constants and the band, visited block by block. */
class BandSearch {
  private readonly path: PathCursor;
  private readonly sigma: number;
  private readonly fromTick: number;
  private readonly toTick: number;
  private readonly band: LogBand;
  /** Per octave k: octaveFactor(σ, k) (mayLeave's shares). */
  private readonly factors: readonly number[];
  /** Sums of the octaves below j at their lowest and highest (index j). */
  private readonly slackLow: readonly number[];
  private readonly slackHigh: readonly number[];

  constructor(seedHash: number, market: Market, range: { fromTick: number; toTick: number }, band: LogBand) {
    this.path = pathKeyOf(seedHash, market).cursor;
    this.sigma = this.path.sigmaTickPpm;
    this.fromTick = range.fromTick;
    this.toTick = range.toTick;
    this.band = band;
    this.factors = SPANS.map((_, k) => octaveFactor(this.sigma, k));
    [this.slackLow, this.slackHigh] = slackOf(this.sigma);
  }

  /** The first tick outside the band in block [start, start + 2^j) ∩ the range, or null. */
  block(start: number, j: number): number | null {
    const span = SPANS[j] as number;
    if (start + span - 1 < this.fromTick || start > this.toTick || !this.mayLeave(start, j)) return null;
    if (j === 0) {
      const log = this.path.at(start);
      return log <= this.band.lowPpm || log >= this.band.highPpm ? start : null;
    }
    return this.block(start, j - 1) ?? this.block(start + span / 2, j - 1);
  }

  /**
   * Whether the bounds of block (start, 2^j) reach outside the band. An octave k ≥ j is linear
   * over the block (one knot interval holds it), so it lies between its values at the block's
   * first and last tick; an octave below j lies within its amplitude.
   */
  private mayLeave(start: number, j: number): boolean {
    let low = this.slackLow[j] as number;
    let high = this.slackHigh[j] as number;
    const end = start + (SPANS[j] as number) - 1;
    // Below 2^31 (every tick before the year 6,000) a knot is a shift.
    const small = start <= SHIFT_MAX;
    for (let k = j; k < OCTAVES; k++) {
      const span = SPANS[k] as number;
      const knot = small ? start >> k : Math.floor(start / span);
      const left = this.path.left(k, knot);
      const right = this.path.right(k, knot);
      const atStart = interpolated(left, right, span, start - knot * span);
      const atEnd = interpolated(left, right, span, end - knot * span);
      const factor = this.factors[k] as number;
      low += octaveShare(factor, Math.min(atStart, atEnd));
      high += octaveShare(factor, Math.max(atStart, atEnd));
    }
    return Math.max(-LOG_PPM_MAX, low) <= this.band.lowPpm || Math.min(LOG_PPM_MAX, high) >= this.band.highPpm;
  }
}

/** The octaves' amplitude sums of a volatility (a memo of a pure function; a few dozen volatilities exist). */
const SLACKS = new Map<number, readonly [readonly number[], readonly number[]]>();

function slackOf(sigma: number): readonly [readonly number[], readonly number[]] {
  let slack = SLACKS.get(sigma);
  if (slack === undefined) {
    const low = [0];
    const high = [0];
    for (let k = 0; k < OCTAVES; k++) {
      low.push((low[k] as number) + octavePpm(sigma, k, -NOISE_MAX));
      high.push((high[k] as number) + octavePpm(sigma, k, NOISE_MAX));
    }
    slack = [low, high];
    SLACKS.set(sigma, slack);
  }
  return slack;
}
