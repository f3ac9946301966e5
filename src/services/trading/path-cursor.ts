/**
 * PathCursor: `logPpmAt` (price-path.ts) of one market under one seed, remembering each octave's
 * stream word and two knot values. Why: octave k's knots change only every 2^k ticks, so from one
 * tick to the next about two change (the check model steps every one-minute tick while a position
 * is open), and from one funding instant to the next (480 ticks) the four slowest octaves keep
 * theirs; the stream words (the first half of every knot's hash) never change.
 * Invariant: `at(tick)` equals `logPpmAt(seedHash, market, tick)` for every tick, in any order
 * (a knot is recomputed whenever its index differs from the remembered one; a right knot only
 * when the tick is not on the left one); memory is fixed (four numbers per octave).
 */
import { assert } from '../../core/assert.ts';
import { nameHash, type Market } from './market-catalogue.ts';
import {
  OCTAVES,
  clampLog,
  interpolated,
  knotNoise,
  octaveFactor,
  octavePpm,
  octaveShare,
  sigmaTickPpmOf,
  streamWord,
} from './price-path.ts';

/** No knot remembered: knots are at least 0, so neither it nor the knot after it is ever met. */
const NONE = -2;
/** A right knot value not computed yet (knot values lie in ±NOISE_MAX). */
const UNKNOWN = 2 ** 31;
/**
 * Octave k's knot spacing, 2^k ticks. A table because `2 ** k` of a variable k is a floating-point
 * power at every call: looked up, `at` costs 180 instead of 410 ns a tick (1M ticks, Node 24), and
 * the check model calls it at every tick while a position is open.
 */
const SPANS: readonly number[] = Array.from({ length: OCTAVES }, (_, k) => 2 ** k);
/** The largest tick whose knots are found by shifting (a non-negative int32). */
const SHIFT_MAX = 2 ** 31 - 1;
/** The last tick `atEvery` may reach (SHIFT_MAX: beyond it, read tick by tick with `at`). */
export const TICK_SHIFT_MAX = SHIFT_MAX;

export class PathCursor {
  /** Per octave k: streamWord(seed, asset, k). */
  readonly words: readonly number[];
  readonly sigmaTickPpm: number;
  /** Per octave: the index of the left knot remembered (NONE: none yet), and the knots' values. */
  private readonly knots: number[] = Array.from({ length: OCTAVES }, () => NONE);
  private readonly lefts: number[] = Array.from({ length: OCTAVES }, () => 0);
  private readonly rights: number[] = Array.from({ length: OCTAVES }, () => 0);

  constructor(seedHash: number, market: Market) {
    const assetHash = nameHash(market.base);
    this.words = Array.from({ length: OCTAVES }, (_, k) => streamWord(seedHash, assetHash, k));
    this.sigmaTickPpm = sigmaTickPpmOf(market);
  }

  /** Log of price over reference at `tick`, in parts per million: exactly `logPpmAt`'s. */
  at(tick: number): number {
    if (!(tick >= 0 && tick <= SHIFT_MAX && Number.isInteger(tick)))
      assert(Number.isSafeInteger(tick) && tick >= 0, 'ticks are whole and non-negative');
    // Below 2^31 (every tick before the year 6,000) a knot and its offset are a shift and a mask.
    const small = tick <= SHIFT_MAX;
    let total = 0;
    for (let k = 0; k < OCTAVES; k++) {
      const span = SPANS[k] as number;
      const knot = small ? tick >> k : Math.floor(tick / span);
      const offset = small ? tick & (span - 1) : tick - knot * span;
      // On a knot the right value weighs nothing (funding instants, every 480 ticks, are on the knots of six octaves).
      const value =
        offset === 0 ? this.left(k, knot) : interpolated(this.left(k, knot), this.right(k, knot), span, offset);
      total += octavePpm(this.sigmaTickPpm, k, value);
    }
    return clampLog(total);
  }

  /**
   * `at` at the ticks `first`, `first + stride`, … into `logs` (one per element), octave by octave:
   * the same logs (each octave's share is a whole number, so their sum does not depend on the
   * order), with each octave's knots carried from one tick to the next in locals. A funding window
   * reads 512 instants this way. Leaves the cursor's remembered knots as they were.
   */
  atEvery(first: number, stride: number, logs: Float64Array): void {
    const last = first + stride * (logs.length - 1);
    assert(Number.isSafeInteger(first) && first >= 0 && stride > 0 && last <= SHIFT_MAX, 'ticks are whole, in int32');
    logs.fill(0);
    for (let k = 0; k < OCTAVES; k++) this.addOctave(k, first, stride, logs);
    for (let index = 0; index < logs.length; index++) logs[index] = clampLog(logs[index] as number);
  }

  /** Octave `k`'s share at each tick of `atEvery`, added to `logs`. */
  private addOctave(k: number, first: number, stride: number, logs: Float64Array): void {
    const span = SPANS[k] as number;
    const word = this.words[k] as number;
    const factor = octaveFactor(this.sigmaTickPpm, k);
    const inverse = 1 / span;
    let knot = NONE;
    let left = 0;
    let right = UNKNOWN;
    for (let index = 0, tick = first; index < logs.length; index++, tick += stride) {
      const at = tick >> k;
      if (at !== knot) {
        left = at === knot + 1 && right !== UNKNOWN ? right : knotNoise(word, at);
        right = UNKNOWN;
        knot = at;
      }
      const offset = tick & (span - 1);
      if (offset !== 0 && right === UNKNOWN) right = knotNoise(word, at + 1);
      const value = offset === 0 ? left : Math.trunc((left * (span - offset) + right * offset) * inverse);
      logs[index] = (logs[index] as number) + octaveShare(factor, value);
    }
  }

  /** The value of octave `k`'s knot `knot` (price-search.ts bounds blocks with it). */
  left(k: number, knot: number): number {
    const remembered = this.knots[k] as number;
    if (remembered !== knot) {
      // The next knot's left value is the remembered right one (stepping forward), when it was needed.
      const right = this.rights[k] as number;
      this.lefts[k] = remembered + 1 === knot && right !== UNKNOWN ? right : knotNoise(this.words[k] as number, knot);
      this.rights[k] = UNKNOWN;
      this.knots[k] = knot;
    }
    return this.lefts[k] as number;
  }

  /** The value of octave `k`'s knot `knot + 1`. */
  right(k: number, knot: number): number {
    if (this.knots[k] !== knot) this.left(k, knot);
    let right = this.rights[k] as number;
    if (right === UNKNOWN) {
      right = knotNoise(this.words[k] as number, knot + 1);
      this.rights[k] = right;
    }
    return right;
  }
}
