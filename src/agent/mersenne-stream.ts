/**
 * MersenneStream: the Mersenne Twister (MT19937) in a Uint32Array, drawing 53-bit floats exactly
 * as Faker's `generateMersenne53Randomizer(seed)` does for a whole-number seed below 2^32.
 *
 * Why our own: AgentFakers rebuilds an agent's stream from its seed whenever it is not among the
 * live streams kept, thousands of times in a quickstart seed. Faker's generator keeps its 624
 * words in a plain array of doubles (about 5 KB), made anew each time: rebuilding cost a fifth of
 * a quickstart seed, most of it garbage. Here the state is 2.5 KB and `reseed` rebuilds it in
 * place, so an evicted stream's buffer becomes the next one's and a rebuild allocates nothing.
 * Invariant: draw for draw what Faker's generator yields from the same seed
 * (test/sim/mersenne-stream.test.ts compares them), so names, memos, reports and digests are
 * unchanged.
 * Reference: M. Matsumoto and T. Nishimura, "Mersenne Twister", 1998 (init_genrand,
 * genrand_int32, genrand_res53).
 */

const WORDS = 624;
const SHIFT = 397;
const MATRIX_A = 0x9908_b0df;
const UPPER_BIT = 0x8000_0000;
const LOWER_BITS = 0x7fff_ffff;

export class MersenneStream {
  private readonly words = new Uint32Array(WORDS);
  private index = WORDS;

  constructor(seed: number) {
    this.reseed(seed);
  }

  /** Starts over from `seed` (a whole number in [0, 2^32)), as a new generator would. */
  reseed(seed: number): void {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff)
      throw new Error(`MersenneStream: seed ${seed} is not a whole number in [0, 2^32)`);
    const words = this.words;
    words[0] = seed;
    for (let i = 1; i < WORDS; i++) {
      const previous = words[i - 1] as number;
      words[i] = Math.imul(1_812_433_253, previous ^ (previous >>> 30)) + i;
    }
    this.twist();
    this.index = 0;
  }

  /** The next 32-bit draw (genrand_int32). */
  nextU32(): number {
    if (this.index >= WORDS) {
      this.twist();
      this.index = 0;
    }
    let y = this.words[this.index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** The next float in [0, 1) with 53 random bits (genrand_res53): what Faker's randomizer returns. */
  next(): number {
    const high = this.nextU32() >>> 5;
    const low = this.nextU32() >>> 6;
    return (high * 67_108_864 + low) / 9_007_199_254_740_992;
  }

  /** Draws and drops `count` floats: a rebuilt stream resumes where it was. */
  skip(count: number): void {
    for (let draw = 0; draw < count; draw++) {
      this.nextU32();
      this.nextU32();
    }
  }

  private twist(): void {
    const words = this.words;
    for (let i = 0; i < WORDS; i++) {
      const y = ((words[i] as number) & UPPER_BIT) | ((words[(i + 1) % WORDS] as number) & LOWER_BITS);
      words[i] = (words[(i + SHIFT) % WORDS] as number) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
  }
}
