/**
 * BetBook: the settled bets, by id and per agent in placement order, with a bound on how many
 * are retained per agent (a 1M-bet house-edge scenario must not hold 1M objects). Aggregates
 * (stats, leaderboards, Kelly history) are kept elsewhere incrementally, so evicting an old bet
 * loses only its detail: its proof, audit trail and history entry, which then answer 404.
 *
 * Invariants: an agent's retained bets are in (atMs, placement) order, so "since" queries are a
 * binary search; ids are unique; eviction is oldest-first.
 * Cost: eviction is amortised O(1): an agent's list keeps its evicted prefix (`head`, already
 * dropped from the id index) until the prefix is as long as the retained part, then drops it in
 * one copy — a splice per bet made a long house-edge run quadratic in bets per agent.
 */
import { assert } from '../../core/assert.ts';
import type { BetRecord } from './bet-record.ts';

export const BETS_RETAINED_PER_AGENT = 10_000;

export class BetBook {
  private readonly byId = new Map<string, BetRecord>();
  /** Per agent: its bets, of which `items[head..]` are retained (the prefix is evicted). */
  private readonly byAgent = new Map<string, { items: BetRecord[]; head: number }>();
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
      list = { items: [], head: 0 };
      this.byAgent.set(bet.agentId, list);
    }
    const last = list.items[list.items.length - 1];
    assert(last === undefined || last.atMs <= bet.atMs, 'an agent bets in time order');
    list.items.push(bet);
    if (list.items.length - list.head > this.retainedPerAgent) {
      this.byId.delete((list.items[list.head] as BetRecord).id);
      list.head += 1;
      if (list.head >= this.retainedPerAgent) compact(list);
    }
    this.total += 1;
  }

  get(betId: string): BetRecord | undefined {
    return this.byId.get(betId);
  }

  /** The agent's retained bets, oldest first. */
  ofAgent(agentId: string): readonly BetRecord[] {
    const list = this.byAgent.get(agentId);
    if (list === undefined) return [];
    compact(list);
    return list.items;
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
    for (const list of this.byAgent.values()) for (let index = list.head; index < list.items.length; index++) yield list.items[index] as BetRecord;
  }
}

/** Drops an agent's evicted prefix (one copy of the retained part). */
function compact(list: { items: BetRecord[]; head: number }): void {
  if (list.head === 0) return;
  list.items = list.items.slice(list.head);
  list.head = 0;
}
