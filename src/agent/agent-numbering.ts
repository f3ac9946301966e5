/**
 * Which archetype index each population's agents get: `escrow-buyer-0`, `-1`, … counting across
 * the populations of one archetype, in file order. A population's optional `first` skips that many
 * indexes before its first agent. Why: an agent's name is its identity — its rng stream, its
 * registration — so `afp shrink` can drop the agents before a failing one (agent 281 of 500)
 * and keep that agent exactly as it was, by writing `first: 281, count: 1`.
 * Invariant: indexes never repeat within an archetype (each population starts past the previous
 * one's end); with every `first` 0 the numbering is what it always was.
 */
import type { Population } from '../scenario/scenario.ts';

/** The first archetype index of each population, in the populations' order. */
export function firstArchetypeIndexes(
  populations: readonly Pick<Population, 'agent' | 'count' | 'first'>[],
  archetypeOf: (agent: string) => string = (agent) => agent,
): number[] {
  const next = new Map<string, number>();
  return populations.map((population) => {
    const archetype = archetypeOf(population.agent);
    const start = (next.get(archetype) ?? 0) + (population.first ?? 0);
    next.set(archetype, start + population.count);
    return start;
  });
}
