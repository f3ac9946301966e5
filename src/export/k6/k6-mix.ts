/**
 * Which population an iteration of the exported script belongs to: a fixed cycle of population
 * indices, weighted by the populations' counts, that iteration `i` reads at `i % cycle.length`.
 *
 * The counts are divided by their greatest common divisor, then spread by smooth weighted
 * round-robin (nginx's): populations interleave evenly instead of running in blocks, so a short
 * run still sees every population, and over any whole number of cycles each population gets
 * exactly its share. Ties go to the lower index, so the cycle is a pure function of the counts.
 * Limit: the reduced counts sum to at most CYCLE_MAX (the cycle is written into the script);
 * beyond it the caller refuses the export.
 */
import { assert } from '../../core/assert.ts';

export const CYCLE_MAX = 10_000;

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** The reduced weights (counts over their gcd); every count is a positive integer. */
export function reducedWeights(counts: readonly number[]): number[] {
  assert(
    counts.length > 0 && counts.every((count) => Number.isSafeInteger(count) && count > 0),
    'population counts are positive integers',
  );
  const divisor = counts.reduce(gcd);
  return counts.map((count) => count / divisor);
}

/** The cycle of population indices, or null when it would be longer than CYCLE_MAX. */
export function populationCycle(counts: readonly number[]): number[] | null {
  const weights = reducedWeights(counts);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total > CYCLE_MAX) return null;
  const current = weights.map(() => 0);
  const cycle: number[] = [];
  for (let slot = 0; slot < total; slot++) {
    let best = 0;
    for (let index = 0; index < weights.length; index++) {
      current[index] = (current[index] as number) + (weights[index] as number);
      if ((current[index] as number) > (current[best] as number)) best = index;
    }
    current[best] = (current[best] as number) - total;
    cycle.push(best);
  }
  return cycle;
}

/** How many of the first `iterations` iterations each population gets (tests and reports). */
export function iterationsPerPopulation(cycle: readonly number[], populations: number, iterations: number): number[] {
  const counts = Array.from({ length: populations }, () => 0);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const index = cycle[iteration % cycle.length] as number;
    counts[index] = (counts[index] as number) + 1;
  }
  return counts;
}
