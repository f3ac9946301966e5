/**
 * The agent ring of a live run (`afp load`, the k6 export): every agent of the scenario as a slot
 * (its population, archetype, index per archetype, position in the run), the populations
 * interleaved round-robin (the first agent of each population, then the second of each…), so
 * every population gets its share of the iterations from the first second on.
 *
 * Slots are cheap descriptions, not agents: a k6 VU builds only the agents it owns, yet every VU
 * knows every agent's id (agentName + the run tag) to list counterparties.
 * Numbering as in the simulator: indexes per archetype count across populations, in file order.
 */
import { assert } from '../core/assert.ts';
import type { AnyAgentDefinition } from './agent.ts';
import { firstArchetypeIndexes } from './agent-numbering.ts';
import type { Population } from '../scenario/scenario.ts';

export interface AgentSlot {
  readonly population: Population;
  readonly definition: AnyAgentDefinition;
  /** k in `${archetype}-${k}`. */
  readonly archetypeIndex: number;
  /** Position in the run, all populations in file order: the agent's simulated IP. */
  readonly index: number;
}

/** The slots of every population, in file order. */
export function agentSlots(
  populations: readonly Population[],
  table: Readonly<Record<string, AnyAgentDefinition>>,
): AgentSlot[][] {
  let index = 0;
  const firsts = firstArchetypeIndexes(populations, (agent) => table[agent]?.name ?? agent);
  return populations.map((population, position) => {
    const definition = table[population.agent];
    assert(
      definition !== undefined,
      `agent archetype '${population.agent}' is in the table (the scenario parser checked it)`,
    );
    const first = firsts[position] as number;
    const slots: AgentSlot[] = [];
    for (let count = 0; count < population.count; count++)
      slots.push({ population, definition, archetypeIndex: first + count, index: index++ });
    return slots;
  });
}

/** The populations interleaved: round r takes the r-th member of every group that has one. */
export function interleave<T>(groups: readonly (readonly T[])[]): T[] {
  const ring: T[] = [];
  const longest = Math.max(0, ...groups.map((group) => group.length));
  for (let round = 0; round < longest; round++)
    for (const group of groups) if (round < group.length) ring.push(group[round] as T);
  return ring;
}
