/**
 * Shared checks for the table-game tests (table-*.test.ts): exact enumeration of every draw
 * sequence a play can consume, a seeded sampling law over provably fair streams, and small
 * parse helpers.
 *
 * `enumeratePlay` walks the whole tree of int() answers (an odometer over the recorded bounds),
 * weighting each leaf by 1 / Π bounds: the result is the exact law of `play`, to compare with
 * `distribution` for equality. `sampleLaw` plays nonces 0..N−1 of one fixed seed and asserts
 * each outcome's count within 5 standard deviations (+1) of N·p, and that nothing outside the
 * distribution's support occurs. Both are deterministic.
 */
import { expect } from 'vitest';
import type { Failure } from '../../../../src/core/errors.ts';
import {
  ONE,
  ZERO,
  add,
  expectation,
  ratio,
  ratioText,
  ratioToNumber,
  sub,
  type Ratio,
} from '../../../../src/core/ratio.ts';
import { DrawStream } from '../../../../src/services/casino/fair/draw-stream.ts';
import type { Chance, Draws, GameModule } from '../../../../src/services/casino/games/game.ts';

export const SEED_HEX = 'ab1e5eed'.padEnd(64, '0');

export const edgeOf = (chances: readonly Chance[]): Ratio => sub(ONE, expectation(chances));
export function totalOf(chances: readonly Chance[]): Ratio {
  let total = ZERO;
  for (const [probability] of chances) total = add(total, probability);
  return total;
}
/** A distribution as { multiplier text: probability text }, equal multipliers summed, for exact comparisons. */
export function lawOf(chances: readonly Chance[]): Record<string, string> {
  const sums = new Map<string, Ratio>();
  for (const [probability, multiplier] of chances) {
    const key = ratioText(multiplier);
    sums.set(key, add(sums.get(key) ?? ZERO, probability));
  }
  return Object.fromEntries([...sums.entries()].map(([key, probability]) => [key, ratioText(probability)]));
}

/** Draws answering from a recorded path of int() choices; new calls answer 0 and record their bound. */
export class ScriptedDraws implements Draws {
  readonly choices: number[];
  readonly bounds: number[] = [];
  private position = 0;
  constructor(choices: readonly number[] = []) {
    this.choices = [...choices];
  }
  int(n: number): number {
    if (this.position < this.bounds.length) {
      expect(this.bounds[this.position]).toBe(n);
    } else {
      this.bounds.push(n);
      if (this.choices.length < this.bounds.length) this.choices.push(0);
    }
    const choice = this.choices[this.position] ?? 0;
    this.position += 1;
    return choice;
  }
  /** The same partial Fisher–Yates as DrawStream.sample. */
  sample(n: number, k: number): number[] {
    const pool = Array.from({ length: n }, (_, index) => index);
    for (let index = 0; index < k; index++) {
      const pick = index + this.int(n - index);
      const chosen = pool[pick] as number;
      pool[pick] = pool[index] as number;
      pool[index] = chosen;
    }
    return pool.slice(0, k);
  }
  uint32(): number {
    throw new Error('table games draw through int() only');
  }
  fraction52(): bigint {
    throw new Error('table games draw through int() only');
  }
}

/** The exact law of `play` by walking every draw sequence (at most `leafLimit` of them). */
export function enumeratePlay(play: (draws: Draws) => Ratio, leafLimit: number): Record<string, string> {
  const countByKey = new Map<string, { multiplier: Ratio; weight: bigint; count: bigint }>();
  let prefix: number[] = [];
  for (let leaves = 1; ; leaves++) {
    expect(leaves).toBeLessThanOrEqual(leafLimit);
    const draws = new ScriptedDraws(prefix);
    const multiplier = play(draws);
    const weight = draws.bounds.reduce((product, bound) => product * BigInt(bound), 1n);
    const key = `${ratioText(multiplier)}@${weight}`;
    const entry = countByKey.get(key);
    if (entry === undefined) countByKey.set(key, { multiplier, weight, count: 1n });
    else entry.count += 1n;
    const next = [...draws.choices];
    while (next.length > 0 && (next[next.length - 1] as number) + 1 === draws.bounds[next.length - 1]) next.pop();
    if (next.length === 0) break;
    next[next.length - 1] = (next[next.length - 1] as number) + 1;
    prefix = next;
  }
  return lawOf(
    [...countByKey.values()].map(({ multiplier, weight, count }): Chance => [ratio(count, weight), multiplier]),
  );
}

/** Plays nonces 0..samples−1 and checks every outcome's frequency against the distribution. */
export function sampleLaw(play: (draws: Draws) => Ratio, distribution: readonly Chance[], samples: number): void {
  const counts = new Map<string, number>();
  for (let nonce = 0; nonce < samples; nonce++) {
    const key = ratioText(play(new DrawStream(SEED_HEX, 'client', nonce)));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const support = new Set(distribution.map(([, multiplier]) => ratioText(multiplier)));
  for (const key of counts.keys()) expect(support.has(key), `multiplier ${key} is in the distribution`).toBe(true);
  for (const [probability, multiplier] of distribution) {
    const p = ratioToNumber(probability);
    const expected = samples * p;
    const band = 5 * Math.sqrt(samples * p * (1 - p)) + 1;
    const seen = counts.get(ratioText(multiplier)) ?? 0;
    expect(
      Math.abs(seen - expected),
      `multiplier ${ratioText(multiplier)}: seen ${seen}, expected ${expected.toFixed(1)}`,
    ).toBeLessThanOrEqual(band);
  }
}

export function parsed<P>(module: GameModule<P>, params: Record<string, unknown>): P {
  const outcome = module.parse(params);
  if (!outcome.ok) throw new Error(`expected ${JSON.stringify(params)} to parse: ${outcome.message}`);
  return outcome.value;
}

/** Asserts a 400 BAD_REQUEST whose message names `field`. */
export function expectRefused<P>(module: GameModule<P>, params: Record<string, unknown>, field: string): Failure {
  const outcome = module.parse(params);
  if (outcome.ok) throw new Error(`expected ${JSON.stringify(params)} to be refused`);
  expect(outcome.status).toBe(400);
  expect(outcome.code).toBe('BAD_REQUEST');
  expect(outcome.message).toContain(field);
  return outcome;
}
