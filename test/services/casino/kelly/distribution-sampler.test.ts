/**
 * DistributionSampler: the fast path (head only) and the slow path (head + bigint rest) pick the
 * outcome that the full uniform integer picks, for denominators below and far above 2^32; draws
 * land within a generous band of the exact probabilities; same seed, same sequence.
 */
import { describe, expect, it } from 'vitest';
import { ratio, type Ratio } from '../../../../src/core/ratio.ts';
import { Rng } from '../../../../src/core/rng.ts';
import { DistributionSampler } from '../../../../src/services/casino/kelly/distribution-sampler.ts';

/** An Rng stand-in that replays fixed words, and records how many were consumed. */
class ScriptedWords {
  consumed = 0;
  private readonly words: readonly number[];
  constructor(words: readonly number[]) {
    this.words = words;
  }
  uint32(): number {
    const word = this.words[this.consumed];
    if (word === undefined) throw new Error('script exhausted');
    this.consumed += 1;
    return word;
  }
}
const asRng = (words: ScriptedWords): Rng => words as unknown as Rng;

/** The outcome of the full B-bit integer built from the words the way the sampler reads them. */
function oracle(probabilities: readonly Ratio[], words: readonly number[]): number | 'rejected' {
  let denominator = 1n;
  for (const p of probabilities) denominator = (denominator * p.den) / gcd(denominator, p.den);
  const bits = denominator.toString(2).length;
  const headBits = Math.min(32, bits);
  let value = BigInt((words[0] as number) >>> (32 - headBits));
  let remaining = bits - headBits;
  let at = 1;
  while (remaining > 0) {
    const take = remaining % 32 === 0 ? 32 : remaining % 32;
    value = (value << BigInt(take)) | BigInt((words[at] as number) >>> (32 - take));
    at += 1;
    remaining -= take;
  }
  if (value >= denominator) return 'rejected';
  let running = 0n;
  for (const [index, p] of probabilities.entries()) {
    running += p.num * (denominator / p.den);
    if (value < running) return index;
  }
  throw new Error('unreachable');
}
function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

const SMALL = [ratio(1n, 3n), ratio(1n, 6n), ratio(0n), ratio(1n, 2n)];
// Denominator 3 · 2^60 (62 bits): a boundary a hair above 0 and classes of every size.
const HUGE = [ratio(1n, 3n * 2n ** 60n), ratio(1n, 3n), ratio(2n ** 59n - 1n, 3n * 2n ** 60n), ratio(1n, 2n)];
const CRASH_LIKE = [ratio(2n ** 52n - 995n, 2n ** 52n), ratio(995n, 2n ** 52n)];

describe('DistributionSampler', () => {
  it.each([
    ['small (3 bits)', SMALL],
    ['huge (62 bits)', HUGE],
    ['crash-like (2^52)', CRASH_LIKE],
  ])('agrees with the full-integer oracle on %s', (_name, probabilities) => {
    const sampler = new DistributionSampler(probabilities);
    const source = new Rng('sampler-oracle');
    let checked = 0;
    for (let trial = 0; trial < 5_000; trial++) {
      const words = [source.uint32(), source.uint32(), source.uint32()];
      const expected = oracle(probabilities, words);
      if (expected === 'rejected') continue;
      expect(sampler.draw(asRng(new ScriptedWords(words)))).toBe(expected);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(2_000);
  });

  it('takes the fast path (one word) away from a boundary and the slow path on one', () => {
    const sampler = new DistributionSampler(HUGE);
    // 62 bits: a 32-bit head, then one 30-bit rest word (its top 30 bits).
    const fast = new ScriptedWords([0x5000_0000, 0]); // u ≈ 1.25 · 2^60: inside class 2, [2^60 + 1, 1.5 · 2^60)
    expect(sampler.draw(asRng(fast))).toBe(2);
    expect(fast.consumed).toBe(1);
    const boundary = new ScriptedWords([0, 0, 0]); // head 0 holds the boundary 1/(3·2^60)
    expect(sampler.draw(asRng(boundary))).toBe(0);
    expect(boundary.consumed).toBe(2);
    const justAbove = new ScriptedWords([0, 1 << 2]); // u = 1: the first integer of class 1
    expect(oracle(HUGE, [0, 1 << 2])).toBe(1);
    expect(sampler.draw(asRng(justAbove))).toBe(1);
  });

  it('rejects draws at or above the denominator and draws again', () => {
    const sampler = new DistributionSampler(SMALL); // denominator 6, 3 bits: heads 6 and 7 are rejected
    const words = new ScriptedWords([7 << 29, 6 << 29, 5 << 29]);
    expect(sampler.draw(asRng(words))).toBe(3);
    expect(words.consumed).toBe(3);
  });

  it('never draws a zero-probability outcome and lands near the exact frequencies', () => {
    const sampler = new DistributionSampler(SMALL);
    const rng = new Rng('sampler-law');
    const counts = [0, 0, 0, 0];
    const draws = 60_000;
    for (let index = 0; index < draws; index++) counts[sampler.draw(rng)]! += 1;
    expect(counts[2]).toBe(0);
    expect(counts[0]! / draws).toBeCloseTo(1 / 3, 1);
    expect(counts[1]! / draws).toBeCloseTo(1 / 6, 1);
    expect(counts[3]! / draws).toBeCloseTo(1 / 2, 1);
  });

  it('is deterministic for a seed', () => {
    const sampler = new DistributionSampler(HUGE);
    const sequence = (seed: string) => {
      const rng = new Rng(seed);
      return Array.from({ length: 200 }, () => sampler.draw(rng));
    };
    expect(sequence('a')).toEqual(sequence('a'));
    expect(sequence('a')).not.toEqual(sequence('b'));
  });

  it('asserts probabilities that do not sum to 1', () => {
    expect(() => new DistributionSampler([ratio(1n, 3n), ratio(1n, 3n)])).toThrow(/sum to exactly 1/);
  });
});
