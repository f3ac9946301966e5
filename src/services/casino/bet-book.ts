/**
 * BetBook: the settled bets, by id and per agent in placement order, with a bound on how many
 * are retained per agent (a 1M-bet house-edge scenario must not hold 1M objects). Aggregates
 * (stats, leaderboards, Kelly history) are kept elsewhere incrementally, so evicting an old bet
 * loses only its detail: its proof, audit trail and history entry, which then answer 404.
 *
 * Invariants: an agent's retained bets are in (atMs, placement) order, so "since" queries are a
 * binary search; ids are unique; eviction is oldest-first.
 */
import { assert } from '../../core/assert.ts';
import type { BetRecord } from './bet-record.ts';

export const BETS_RETAINED_PER_AGENT = 10_000;

export class BetBook {
  private readonly byId = new Map<string, BetRecord>();
  private readonly byAgent = new Map<string, BetRecord[]>();
  private readonly retainedPerAgent: number;
  private total = 0;

  constructor(retainedPerAgent = BETS_RETAINED_PER_AGENT) {
    this.retainedPerAgent = retainedPerAgent;
  }

  add(bet: BetRecord): void {
    assert(!this.byId.has(bet.id), 'bet ids are unique');
    this.byId.set(bet.id, bet);
    let list = this.byAgent.get(bet.agentId);
    if (list === undefined) {
      list = [];
      this.byAgent.set(bet.agentId, list);
    }
    const last = list[list.length - 1];
    assert(last === undefined || last.atMs <= bet.atMs, 'an agent bets in time order');
    list.push(bet);
    if (list.length > this.retainedPerAgent) {
      const evicted = list.splice(0, list.length - this.retainedPerAgent);
      for (const old of evicted) this.byId.delete(old.id);
    }
    this.total += 1;
  }

  get(betId: string): BetRecord | undefined {
    return this.byId.get(betId);
  }

  /** The agent's retained bets, oldest first. */
  ofAgent(agentId: string): readonly BetRecord[] {
    return this.byAgent.get(agentId) ?? [];
  }

  /** The agent's retained bets placed at or after `fromMs`, oldest first. */
  ofAgentSince(agentId: string, fromMs: number): readonly BetRecord[] {
    const list = this.ofAgent(agentId);
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((list[middle] as BetRecord).atMs < fromMs) low = middle + 1;
      else high = middle;
    }
    return list.slice(low);
  }

  /** Bets ever recorded (evicted ones included). */
  get count(): number {
    return this.total;
  }

  /** Every retained bet, agents in first-bet order (invariant checkers, reports). */
  *all(): IterableIterator<BetRecord> {
    for (const list of this.byAgent.values()) yield* list;
  }
}
