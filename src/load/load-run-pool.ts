/**
 * AgentPool: the scenario's agents as the load generator's iteration source. Agents are created
 * as their populations say and queued in the ring of src/agent/agent-ring.ts (populations
 * interleaved round-robin), each made when the ring first reaches it (TurnRing): an agent's
 * identity, streams and name derive from the seed and its name alone, so when it is made changes
 * nothing it does, and a window of 40 arrivals into million.yaml's 1,000,000 agents made 40 (it
 * made all of them first: 17 CPU s before the first request). An iteration goes to the next agent in the ring that is free; when none is (every agent busy or done), the
 * generator counts a dropped iteration — the agents are the VUs.
 *
 * One iteration = the agent's setup (its first) or one step (src/agent/agent-turn.ts, as a k6 VU runs it). After it, a k6-style check
 * `agent rules: <archetype>` passes when the agent saw no broken rule during it (context.report),
 * so `checks: ['rate>0.99']` thresholds what the agents observe. Reports are kept: the count and
 * the first MAX_KEPT, with the agent and the message.
 * An iteration that throws (no answer: the transport rejects) records no check; the generator
 * counts it as a failed iteration.
 */
import { assert } from '../core/assert.ts';
import type { AgentTurn } from '../agent/agent-turn.ts';
import type { IterationEnd, IterationSource } from './generator.ts';
import type { LoadRecorder } from './load-recorder.ts';

export const MAX_KEPT = 20;

export interface KeptReport {
  readonly agentId: string;
  readonly message: string;
}

export function rulesCheckName(archetype: string): string {
  return `agent rules: ${archetype}`;
}

/** The ring's turns, each made by `make` on its first use and kept. */
export class TurnRing {
  readonly length: number;
  private readonly make: (position: number) => AgentTurn;
  private readonly made: (AgentTurn | undefined)[] = [];

  constructor(length: number, make: (position: number) => AgentTurn) {
    this.length = length;
    this.make = make;
  }

  at(position: number): AgentTurn {
    assert(position >= 0 && position < this.length, `ring position ${position} of ${this.length}`);
    return (this.made[position] ??= this.make(position));
  }
}

export class AgentPool implements IterationSource {
  readonly turns: TurnRing;
  reportCount = 0;
  readonly kept: KeptReport[] = [];
  private cursor = 0;
  private readonly recorder: LoadRecorder;

  constructor(turns: TurnRing, recorder: LoadRecorder) {
    assert(turns.length > 0, 'a load run has at least one agent');
    this.turns = turns;
    this.recorder = recorder;
  }

  start(intendedStartMs: number, ended: (end: IterationEnd) => void): boolean {
    for (let tried = 0; tried < this.turns.length; tried++) {
      const turn = this.turns.at(this.cursor);
      this.cursor = (this.cursor + 1) % this.turns.length;
      if (turn.busy || turn.done) continue;
      void this.iterate(turn, intendedStartMs, ended);
      return true;
    }
    return false;
  }

  /** Called by the host when an agent reports a broken rule. */
  keep(agentId: string, message: string): void {
    this.reportCount += 1;
    if (this.kept.length < MAX_KEPT) this.kept.push({ agentId, message });
  }

  /** Runs the agent's iteration and reports its end to `ended` itself (rather than through a `.then` on it: one promise hop less per iteration). */
  private async iterate(turn: AgentTurn, intendedStartMs: number, ended: (end: IterationEnd) => void): Promise<void> {
    turn.busy = true;
    turn.beginIteration(intendedStartMs);
    let end: IterationEnd = null;
    try {
      this.recorder.check(rulesCheckName(turn.agent.archetype), await turn.iterate());
    } catch (error) {
      end = { error };
    } finally {
      turn.takeIntendedStartMs();
      turn.busy = false;
    }
    ended(end);
  }
}
