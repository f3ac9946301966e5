/**
 * Chance lists from counted outcomes: the exact distributions of the table games (plinko, slots,
 * keno, wheel, scratch card, mines) are "this many of that many equally likely draws pay m", so
 * they are built from integer counts over one total and merged by multiplier; `binomial` gives
 * the exact counts of the combinatorial ones, `weightedIndex` maps one uniform draw onto a weight
 * table (the published "first entry whose running total exceeds the draw" rule).
 *
 * Invariants: the result has one entry per distinct multiplier, highest multiplier first, no
 * zero-probability entry, and its probabilities sum to exactly 1 (asserted: the counts must
 * cover the total). `hitOrMiss` is the law of the one-outcome games (coin flip, dice, roulette…):
 * one multiplier with the winning chance, nothing otherwise.
 */
import { assert } from '../../../core/assert.ts';
import { ONE, ZERO, compare, ratio, ratioText, sub, type Ratio } from '../../../core/ratio.ts';
import type { Chance } from './game.ts';

/** One outcome class: `count` of the `total` equally likely draws pay `multiplier`. */
export type CountedOutcome = readonly [count: bigint, multiplier: Ratio];

export function chancesFromCounts(outcomes: Iterable<CountedOutcome>, total: bigint): Chance[] {
  assert(total > 0n, 'chance total is positive');
  const countByMultiplier = new Map<string, { count: bigint; multiplier: Ratio }>();
  let covered = 0n;
  for (const [count, multiplier] of outcomes) {
    assert(count >= 0n, 'outcome count is non-negative');
    covered += count;
    if (count === 0n) continue;
    const key = ratioText(multiplier);
    const entry = countByMultiplier.get(key);
    if (entry === undefined) countByMultiplier.set(key, { count, multiplier });
    else entry.count += count;
  }
  assert(covered === total, `outcome counts cover the total (${covered} of ${total})`);
  return [...countByMultiplier.values()]
    .sort((left, right) => compare(right.multiplier, left.multiplier))
    .map(({ count, multiplier }): Chance => [ratio(count, total), multiplier]);
}

/** Pays `multiplier` with probability `winChance`, nothing otherwise (that entry first). */
export function hitOrMiss(winChance: Ratio, multiplier: Ratio): Chance[] {
  return [
    [winChance, multiplier],
    [sub(ONE, winChance), ZERO],
  ];
}

/** C(n, k) exactly; 0 outside 0 ≤ k ≤ n. */
export function binomial(n: number, k: number): bigint {
  assert(Number.isSafeInteger(n) && Number.isSafeInteger(k) && n >= 0 && n <= 1024, 'binomial of a small n');
  if (k < 0 || k > n) return 0n;
  const smaller = Math.min(k, n - k);
  let value = 1n;
  for (let index = 0; index < smaller; index++) value = (value * BigInt(n - index)) / BigInt(index + 1);
  return value;
}

/** The index of the first weight whose running total exceeds `value` (a draw of int(Σ weights)). */
export function weightedIndex(weights: readonly number[], value: number): number {
  let runningTotal = 0;
  for (const [index, weight] of weights.entries()) {
    runningTotal += weight;
    if (value < runningTotal) return index;
  }
  assert(false, `draw ${value} below the weight total ${runningTotal}`);
}

export const weightTotal = (weights: readonly number[]): number => weights.reduce((sum, weight) => sum + weight, 0);
