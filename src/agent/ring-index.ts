/**
 * The agent ring (agent-ring.ts: `interleave(agentSlots(…))`) without building it: the slot at any
 * position, computed from the populations' counts, in memory proportional to the number of
 * populations, not of agents. Why: a k6 VU laid out every slot of million.yaml's 1,000,000 agents
 * (and an [archetype, id] pair for each) to find its own 1 in V, ~1.7 GB a VU in goja; with this
 * it makes only the slots it owns or lists (src/export/k6/k6-agent-run.ts).
 * Layout: rounds r = 0, 1, … take the r-th member of each population that has one, in file order.
 * Between two consecutive distinct population sizes the same populations are active, so the ring
 * is a few bands of equal rounds; a position is found by a search over the bands, then a division.
 * Invariant (tested): `slotAt(p)` equals `interleave(agentSlots(…))[p]` field for field.
 */
import { assert } from '../core/assert.ts';
import type { AnyAgentDefinition } from './agent.ts';
import type { AgentSlot } from './agent-ring.ts';
import { firstArchetypeIndexes } from './agent-numbering.ts';
import type { Population } from '../scenario/scenario.ts';

interface Band {
  /** The ring position of the band's first slot. */
  readonly start: number;
  /** The band's first round. */
  readonly round: number;
  /** The populations with a member in each of the band's rounds, in file order. */
  readonly active: readonly number[];
}

export class RingIndex {
  readonly size: number;
  private readonly populations: readonly Population[];
  private readonly definitions: readonly AnyAgentDefinition[];
  private readonly firsts: readonly number[];
  /** Each population's first agent's position in file order (its simulated IP's index). */
  private readonly offsets: readonly number[];
  private readonly bands: readonly Band[];

  constructor(populations: readonly Population[], table: Readonly<Record<string, AnyAgentDefinition>>) {
    this.populations = populations;
    this.definitions = populations.map((population) => {
      const definition = table[population.agent];
      assert(definition !== undefined, `agent archetype '${population.agent}' is in the table`);
      return definition;
    });
    this.firsts = firstArchetypeIndexes(populations, (agent) => table[agent]?.name ?? agent);
    let offset = 0;
    this.offsets = populations.map((population) => {
      const start = offset;
      offset += population.count;
      return start;
    });
    const sizes = [...new Set(populations.map((population) => population.count).filter((count) => count > 0))].sort(
      (a, b) => a - b,
    );
    const bands: Band[] = [];
    let start = 0;
    let round = 0;
    for (const size of sizes) {
      const active = populations.flatMap((population, index) => (population.count > round ? [index] : []));
      bands.push({ start, round, active });
      start += (size - round) * active.length;
      round = size;
    }
    this.bands = bands;
    this.size = start;
  }

  /** The slot at ring position `position` (0 ≤ position < size). */
  slotAt(position: number): AgentSlot {
    const { population, member } = this.memberAt(position);
    return {
      population: this.populations[population] as Population,
      definition: this.definitions[population] as AnyAgentDefinition,
      archetypeIndex: (this.firsts[population] as number) + member,
      index: (this.offsets[population] as number) + member,
    };
  }

  /** Which population's which member sits at `position`. */
  memberAt(position: number): { readonly population: number; readonly member: number } {
    assert(Number.isSafeInteger(position) && position >= 0 && position < this.size, `a ring position: ${position}`);
    let low = 0;
    let high = this.bands.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((this.bands[middle] as Band).start <= position) low = middle;
      else high = middle - 1;
    }
    const band = this.bands[low] as Band;
    const offset = position - band.start;
    const population = band.active[offset % band.active.length] as number;
    return { population, member: band.round + Math.floor(offset / band.active.length) };
  }
}
