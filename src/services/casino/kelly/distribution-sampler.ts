/**
 * DistributionSampler: draws outcome indexes of an exact distribution from a seeded Rng, exactly
 * (no float anywhere in the draw).
 *
 * The probabilities are put over their common denominator D (the lcm of their denominators), so
 * outcome i owns the integers [C(i−1), C(i)) of [0, D), C the cumulative numerators. A draw is a
 * uniform integer u in [0, D) by rejection: u has B = bitLength(D) bits, drawn as a 32-bit head
 * (its top bits) then the rest; u ≥ D is rejected and drawn again (probability < 1/2).
 * Fast path: the head alone fixes u to [head·2^R, (head+1)·2^R) (R the rest's bit count); when
 * that interval lies inside one outcome's range and below D, the rest cannot change the outcome,
 * so it is not drawn. Only heads on a boundary (about outcomes / 2^31 of them) draw the rest as
 * a bigint. Either way the outcome has exactly the probability of the distribution.
 *
 * Invariants: the probabilities are non-negative and sum to exactly 1; D has at most
 * MAX_DENOMINATOR_BITS bits (a limit on work; crash's 2^52 and keno's C(80,20) are far below);
 * the same Rng state gives the same index sequence (determinism).
 */
import { assert } from '../../../core/assert.ts';
import type { Ratio } from '../../../core/ratio.ts';
import type { Rng } from '../../../core/rng.ts';

export const MAX_DENOMINATOR_BITS = 4_096;
const HEAD_BITS_MAX = 32;
/** Rejections in a row before calling it a bug: each happens with probability below 1/2. */
const DRAW_ATTEMPTS_MAX = 1_000;

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

const bitLength = (value: bigint): number => value.toString(2).length;

export class DistributionSampler {
  readonly size: number;
  private readonly denominator: bigint;
  private readonly headShift: number;
  private readonly restBits: number;
  /** Heads at or above it may reach past D: they take the slow path. */
  private readonly headLimit: number;
  private readonly lowHead: readonly number[];
  private readonly highHead: readonly number[];
  private readonly cumulative: readonly bigint[];

  constructor(probabilities: readonly Ratio[]) {
    assert(probabilities.length > 0, 'a distribution has outcomes');
    let denominator = 1n;
    for (const p of probabilities) {
      assert(p.num >= 0n && p.den > 0n, 'probabilities are non-negative');
      denominator = (denominator / gcd(denominator, p.den)) * p.den;
    }
    const bits = bitLength(denominator);
    assert(bits <= MAX_DENOMINATOR_BITS, 'common denominator within the bound');
    const headBits = Math.min(HEAD_BITS_MAX, bits);
    const rest = BigInt(bits - headBits);
    const cumulative: bigint[] = [];
    const lowHead: number[] = [];
    const highHead: number[] = [];
    let running = 0n;
    for (const p of probabilities) {
      lowHead.push(Number((running + (1n << rest) - 1n) >> rest)); // ceil(C(i−1) / 2^R)
      running += p.num * (denominator / p.den);
      cumulative.push(running);
      highHead.push(Number(running >> rest)); // floor(C(i) / 2^R)
    }
    assert(running === denominator, 'probabilities sum to exactly 1');
    this.size = probabilities.length;
    this.denominator = denominator;
    this.headShift = HEAD_BITS_MAX - headBits;
    this.restBits = bits - headBits;
    this.headLimit = Number(denominator >> rest);
    this.cumulative = cumulative;
    this.lowHead = lowHead;
    this.highHead = highHead;
  }

  /** One outcome index, with the distribution's exact probabilities. */
  draw(rng: Rng): number {
    for (let attempt = 0; attempt < DRAW_ATTEMPTS_MAX; attempt++) {
      const word = rng.uint32();
      const head = this.headShift === 0 ? word : word >>> this.headShift;
      if (head < this.headLimit) {
        const index = firstAbove(this.highHead, head);
        if ((this.lowHead[index] as number) <= head) return index;
      }
      const value = (BigInt(head) << BigInt(this.restBits)) | this.drawRest(rng);
      if (value < this.denominator) return firstAbove(this.cumulative, value);
    }
    assert(false, 'a uniform draw below the denominator within the attempt bound');
  }

  private drawRest(rng: Rng): bigint {
    let remaining = this.restBits;
    let value = 0n;
    while (remaining > 0) {
      const take = remaining % 32 === 0 ? 32 : remaining % 32;
      const word = rng.uint32();
      value = (value << BigInt(take)) | BigInt(take === 32 ? word : word >>> (32 - take));
      remaining -= take;
    }
    return value;
  }
}

/** The first index whose (non-decreasing) bound exceeds the value. */
function firstAbove<T extends number | bigint>(bounds: readonly T[], value: T): number {
  let low = 0;
  let high = bounds.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((bounds[middle] as T) > value) high = middle;
    else low = middle + 1;
  }
  return low;
}
