/**
 * AgentPool: the scenario's agents as the load generator's iteration source. Agents are created
 * as their populations say (file order, indexes per archetype as in the simulator) and queued in a
 * ring that interleaves the populations round-robin (the first agent of each population, then the
 * second of each…), so every population gets its share from the first second on. An iteration
 * goes to the next agent in the ring that is free; when none is (every agent busy or done), the
 * generator counts a dropped iteration — the agents are the VUs.
 *
 * One iteration = the agent's setup (its first) or one step. After it, a k6-style check
 * `agent rules: <archetype>` passes when the agent saw no broken rule during it (context.report),
 * so `checks: ['rate>0.99']` thresholds what the agents observe. Reports are kept: the count and
 * the first MAX_KEPT, with the agent and the message.
 * An iteration that throws (no answer: the transport rejects) records no check; the generator
 * counts it as a failed iteration.
 */
import { assert } from '../core/assert.ts';
import type { AnyAgentDefinition } from '../sim/agent.ts';
import { firstArchetypeIndexes } from '../sim/agent-numbering.ts';
import type { Population } from '../sim/scenario.ts';
import type { IterationEnd, IterationSource } from './generator.ts';
import { LoadAgent, type LoadAgentHost } from './load-run-agent.ts';
import type { LoadRecorder } from './load-recorder.ts';

export const MAX_KEPT = 20;

export interface KeptReport {
  readonly agentId: string;
  readonly message: string;
}

export function rulesCheckName(archetype: string): string {
  return `agent rules: ${archetype}`;
}

/** Agents of every population, in file order (indexes per archetype count across populations). */
export function createAgents(options: {
  populations: readonly Population[];
  table: Readonly<Record<string, AnyAgentDefinition>>;
  seed: string;
  runTag: string;
  host: LoadAgentHost;
}): LoadAgent[][] {
  let index = 0;
  const firsts = firstArchetypeIndexes(options.populations, (agent) => options.table[agent]?.name ?? agent);
  return options.populations.map((population, position) => {
    const definition = options.table[population.agent];
    assert(
      definition !== undefined,
      `agent archetype '${population.agent}' is in the table (the scenario parser checked it)`,
    );
    const agents: LoadAgent[] = [];
    const first = firsts[position] as number;
    for (let count = 0; count < population.count; count++) {
      agents.push(
        new LoadAgent({
          definition,
          population,
          seed: options.seed,
          runTag: options.runTag,
          archetypeIndex: first + count,
          index: index++,
          host: options.host,
        }),
      );
    }
    return agents;
  });
}

/** The populations interleaved: round r takes the r-th agent of every population that has one. */
export function interleave<T>(groups: readonly (readonly T[])[]): T[] {
  const ring: T[] = [];
  const longest = Math.max(0, ...groups.map((group) => group.length));
  for (let round = 0; round < longest; round++)
    for (const group of groups) if (round < group.length) ring.push(group[round] as T);
  return ring;
}

export class AgentPool implements IterationSource {
  readonly agents: readonly LoadAgent[];
  reportCount = 0;
  readonly kept: KeptReport[] = [];
  private cursor = 0;
  private readonly recorder: LoadRecorder;

  constructor(agents: readonly LoadAgent[], recorder: LoadRecorder) {
    assert(agents.length > 0, 'a load run has at least one agent');
    this.agents = agents;
    this.recorder = recorder;
  }

  start(intendedStartMs: number, ended: (end: IterationEnd) => void): boolean {
    for (let tried = 0; tried < this.agents.length; tried++) {
      const agent = this.agents[this.cursor] as LoadAgent;
      this.cursor = (this.cursor + 1) % this.agents.length;
      if (agent.busy || agent.done) continue;
      void this.iterate(agent, intendedStartMs, ended);
      return true;
    }
    return false;
  }

  /** Called by the host when an agent reports a broken rule. */
  keep(agent: LoadAgent, message: string): void {
    this.reportCount += 1;
    if (this.kept.length < MAX_KEPT) this.kept.push({ agentId: agent.agentId, message });
  }

  /** Runs the agent's iteration and reports its end to `ended` itself (rather than through a `.then` on it: one promise hop less per iteration). */
  private async iterate(agent: LoadAgent, intendedStartMs: number, ended: (end: IterationEnd) => void): Promise<void> {
    agent.busy = true;
    agent.beginIteration(intendedStartMs);
    const reportsBefore = agent.reports;
    let end: IterationEnd = null;
    try {
      if (!agent.setUp) {
        agent.setUp = true;
        await agent.definition.setup(agent);
      } else if ((await agent.definition.step(agent)) === 'done') {
        agent.done = true;
      }
      if (agent.pendingSetup !== null) await agent.pendingSetup;
      this.recorder.check(rulesCheckName(agent.archetype), agent.reports === reportsBefore);
    } catch (error) {
      end = { error };
    } finally {
      agent.takeIntendedStartMs();
      agent.busy = false;
    }
    ended(end);
  }
}
