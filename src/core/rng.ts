/**
 * Rng: the only door through which chance enters afp.
 *
 * Built on Alea (alea.ts: seedrandom's generator, the same draws, its state in one small object).
 * Every stream is derived from a seed text; `fork(label)`
 * derives a child from the parent's seed and the label only, without consuming the parent's
 * state, so adding an agent (a new fork) never changes what any other stream draws.
 * Integers are drawn without modulo bias (rejection sampling over 32-bit draws).
 * No floats leave this file except `unit()`, which is for presentation-only uses (faker seeds).
 */
import { Alea, type AleaState } from './alea.ts';
import { assert } from './assert.ts';

const TWO_POW_32 = 0x1_0000_0000;

/** An Alea stream's position (its three 32-bit fractions and carry), plain numbers. */
export type RngState = AleaState;

export class Rng {
  readonly seed: string;
  private readonly source: Alea;

  /** `state`: resume a stream where `state()` left it (afp serve's snapshots); absent = its start. */
  constructor(seed: string | number, state?: RngState) {
    this.seed = String(seed);
    this.source = new Alea(this.seed, state);
  }

  /** The stream's position: with the seed, all a copy needs to draw exactly what this one would. */
  state(): RngState {
    return this.source.state();
  }

  fork(label: string): Rng {
    return new Rng(`${this.seed}/${label}`);
  }

  /** Uniform 32-bit unsigned integer. */
  uint32(): number {
    return this.source.int32() >>> 0;
  }

  /** Uniform integer in [0, maxExclusive), maxExclusive in [1, 2^32]. */
  int(maxExclusive: number): number {
    assert(
      Number.isSafeInteger(maxExclusive) && maxExclusive >= 1 && maxExclusive <= TWO_POW_32,
      'int bound in [1, 2^32]',
    );
    const limit = TWO_POW_32 - (TWO_POW_32 % maxExclusive);
    for (;;) {
      const draw = this.uint32();
      if (draw < limit) return draw % maxExclusive;
    }
  }

  /** Uniform integer in [min, max] inclusive. */
  between(min: number, max: number): number {
    assert(max >= min, 'between: max >= min');
    return min + this.int(max - min + 1);
  }

  /** True with probability numerator/denominator (integers, exact). */
  chance(numerator: number, denominator: number): boolean {
    assert(denominator >= 1 && numerator >= 0 && numerator <= denominator, 'chance is a ratio in [0, 1]');
    return this.int(denominator) < numerator;
  }

  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T {
    assert(items.length > 0, 'pick from a non-empty list');
    return items[this.int(items.length)] as T;
  }

  /** Index drawn with integer weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const weight of weights) total += weight;
    assert(total > 0, 'weights sum to a positive number');
    let draw = this.int(total);
    for (let index = 0; index < weights.length; index++) {
      const weight = weights[index] ?? 0;
      if (draw < weight) return index;
      draw -= weight;
    }
    return weights.length - 1;
  }

  /** `byteCount` random bytes as lowercase hex. */
  hex(byteCount: number): string {
    let text = '';
    for (let index = 0; index < byteCount; index += 4) {
      text += this.uint32().toString(16).padStart(8, '0');
    }
    return text.slice(0, byteCount * 2);
  }

  /** A float in [0, 1) for presentation-only consumers (seeding faker); never for state. */
  unit(): number {
    return this.uint32() / TWO_POW_32;
  }
}
