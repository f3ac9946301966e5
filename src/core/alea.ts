/**
 * Alea: Johannes Baagøe's generator, as seedrandom 3.0.5 implements it (lib/alea.js), drawing
 * exactly the same numbers for the same seed text and state.
 *
 * Why our own copy: seedrandom keeps each stream's position in closures (a function object per
 * method plus their contexts, ~400 B a stream), and every simulated agent owns a stream; this is
 * four numbers in one object (issue 19: a million agents in 4 GB). The state is plain data, so a
 * snapshot copies it like any other field.
 * Invariants: `s0`, `s1`, `s2` are fractions in [0, 1) of 32-bit precision, `c` the carry; the
 * seeding is Baagøe's Mash over ' ' three times, then over the seed three times.
 */

const TWO_POW_MINUS_32 = 2.3283064365386963e-10;

/** An Alea stream's position (its three 32-bit fractions and carry), plain numbers. */
export interface AleaState {
  c: number;
  s0: number;
  s1: number;
  s2: number;
}

export class Alea implements AleaState {
  c = 1;
  s0 = 0;
  s1 = 0;
  s2 = 0;

  constructor(seed: string, state?: AleaState) {
    const mash = new Mash();
    this.s0 = mash.next(' ');
    this.s1 = mash.next(' ');
    this.s2 = mash.next(' ');
    this.s0 -= mash.next(seed);
    if (this.s0 < 0) this.s0 += 1;
    this.s1 -= mash.next(seed);
    if (this.s1 < 0) this.s1 += 1;
    this.s2 -= mash.next(seed);
    if (this.s2 < 0) this.s2 += 1;
    if (state !== undefined) {
      this.c = state.c;
      this.s0 = state.s0;
      this.s1 = state.s1;
      this.s2 = state.s2;
    }
  }

  /** A fraction in [0, 1) with 32 bits of randomness. */
  next(): number {
    const t = 2091639 * this.s0 + this.c * TWO_POW_MINUS_32;
    this.s0 = this.s1;
    this.s1 = this.s2;
    this.c = t | 0;
    this.s2 = t - this.c;
    return this.s2;
  }

  /** A signed 32-bit integer (seedrandom's `int32()`). */
  int32(): number {
    return (this.next() * 0x1_0000_0000) | 0;
  }

  /** A copy of the position, keys in seedrandom's order (c, s0, s1, s2). */
  state(): AleaState {
    return { c: this.c, s0: this.s0, s1: this.s1, s2: this.s2 };
  }
}

/** Baagøe's Mash hash: each call folds more text into one running 32-bit value. */
class Mash {
  private n = 0xefc8249d;

  next(data: string): number {
    let n = this.n;
    for (let index = 0; index < data.length; index++) {
      n += data.charCodeAt(index);
      let h = 0.02519603282416938 * n;
      n = h >>> 0;
      h -= n;
      h *= n;
      n = h >>> 0;
      h -= n;
      n += h * 0x1_0000_0000;
    }
    this.n = n;
    return (n >>> 0) * TWO_POW_MINUS_32;
  }
}
