/**
 * BetBook: the settled bets, by id and per agent in placement order, with a bound on how many
 * are retained per agent (a 1M-bet house-edge scenario must not hold 1M objects). Aggregates
 * (stats, leaderboards, Kelly history) are kept elsewhere incrementally, so evicting an old bet
 * loses only its detail: its proof, audit trail and history entry, which then answer 404.
 *
 * Storage (the bet path's cost, measured by the bench's casino phase): each agent's bets are
 * rows in a ring (agent-bets.ts), ids are found through a table of their hex words
 * (bet-id-index.ts); a BetRecord is rebuilt when read, equal field for field to the one added.
 * Reads hand out fresh objects: compare bets by id, never by identity.
 * The id table is filled lazily: a bet's id goes in at the first lookup after it was added (all
 * pending ids at once), so a run that never looks a bet up by id (a load test) never pays for
 * probing a large table with random keys; a run that does pays the same as before.
 *
 * Invariants: an agent's retained bets are in (atMs, placement) order, so "since" queries are a
 * binary search; ids are unique (asserted when they enter the id table, at the next lookup);
 * eviction is oldest-first, one bet per bet added beyond the bound.
 */
import { assert } from '../../core/assert.ts';
import { AgentBets } from './agent-bets.ts';
import { BetIdIndex, readIdWords, type BetLocation, type IdWords } from './bet-id-index.ts';
import type { BetRecord } from './bet-record.ts';
import type { GameId } from './games/game.ts';
import type { BankrollPoint } from './kelly/kelly-history.ts';

export const BETS_RETAINED_PER_AGENT = 10_000;

/** One page of an agent's bets, newest first, and how many match in all. */
export interface BetPage {
  readonly bets: BetRecord[];
  readonly total: number;
}

export class BetBook {
  private readonly index = new BetIdIndex();
  /** Agents in first-bet order; an agent's number is its position here. */
  private readonly agents: AgentBets[] = [];
  private readonly byAgent = new Map<string, AgentBets>();
  /** Agents with bets not yet in the id index. */
  private readonly pending: AgentBets[] = [];
  private readonly retainedPerAgent: number;
  private total = 0;
  private readonly words: IdWords = { high: 0, low: 0 };
  private readonly found: BetLocation = { agent: 0, sequence: 0 };

  constructor(retainedPerAgent = BETS_RETAINED_PER_AGENT) {
    assert(
      Number.isSafeInteger(retainedPerAgent) && retainedPerAgent >= 1,
      'a book retains at least one bet per agent',
    );
    this.retainedPerAgent = retainedPerAgent;
  }

  add(bet: BetRecord): void {
    this.addTo(this.agentBets(bet.agentId), bet);
  }

  /**
   * `add` with the agent's bets at hand (`bets` is `agentBets(bet.agentId)`); `resultBytes`, when
   * given, are the 32 bytes whose hex is `bet.resultHash` (kept instead of the text).
   */
  addTo(bets: AgentBets, bet: BetRecord, resultBytes: Uint8Array | null = null): void {
    assert(bets.size === 0 || bets.lastAtMs <= bet.atMs, 'an agent bets in time order');
    const hex = readIdWords(bet.id, this.words);
    if (bets.full) bets.evictOldest(this.index);
    if (hex) bets.push(bet, this.words.high, this.words.low, null, resultBytes);
    else bets.push(bet, 0, 0, bet.id, resultBytes);
    if (!bets.pendingIndex) {
      bets.pendingIndex = true;
      this.pending.push(bets);
    }
    this.total += 1;
  }

  /** Puts every pending id into the id index. */
  private indexPending(): void {
    for (const bets of this.pending) {
      const unique = bets.indexNew(this.index);
      assert(unique, 'bet ids are unique');
      bets.pendingIndex = false;
    }
    this.pending.length = 0;
  }

  /** The agent's retained bets, created empty on first use. */
  agentBets(agentId: string): AgentBets {
    let bets = this.byAgent.get(agentId);
    if (bets === undefined) {
      bets = new AgentBets(agentId, this.agents.length, this.retainedPerAgent);
      this.agents.push(bets);
      this.byAgent.set(agentId, bets);
    }
    return bets;
  }

  get(betId: string): BetRecord | undefined {
    if (this.pending.length > 0) this.indexPending();
    if (!this.index.find(betId, this.found)) return undefined;
    const bets = this.agents[this.found.agent] as AgentBets;
    return bets.record(this.found.sequence, betId);
  }

  /** The agent's retained bets, oldest first (rebuilt: O(retained)). */
  ofAgent(agentId: string): readonly BetRecord[] {
    return this.ofAgentSince(agentId, -Infinity);
  }

  /** The agent's retained bets placed at or after `fromMs`, oldest first. */
  ofAgentSince(agentId: string, fromMs: number): readonly BetRecord[] {
    const bets = this.byAgent.get(agentId);
    if (bets === undefined) return [];
    const found: BetRecord[] = [];
    const end = bets.nextSequence;
    for (let sequence = firstSince(bets, fromMs); sequence < end; sequence++) found.push(bets.record(sequence, null));
    return found;
  }

  /**
   * The agent's retained bets (placed at or after `fromMs` when given, of `game` when given),
   * newest first, `limit` of them after skipping `skip`; `total` counts every match. Only the
   * page is rebuilt.
   */
  newest(
    agentId: string,
    options: {
      readonly limit: number;
      readonly skip: number;
      readonly game: GameId | null;
      readonly fromMs: number | null;
    },
  ): BetPage {
    const bets = this.byAgent.get(agentId);
    if (bets === undefined) return { bets: [], total: 0 };
    const first = options.fromMs === null ? bets.oldestSequence : firstSince(bets, options.fromMs);
    const page: BetRecord[] = [];
    let total = 0;
    for (let sequence = bets.nextSequence - 1; sequence >= first; sequence--) {
      if (options.game !== null && bets.gameOf(sequence) !== options.game) continue;
      if (total >= options.skip && page.length < options.limit) page.push(bets.record(sequence, null));
      total += 1;
    }
    return { bets: page, total };
  }

  /** The agent's oldest retained bet that drew from the seed `seedHash` at `nonce`. */
  findByDraw(agentId: string, seedHash: string, nonce: number): BetRecord | undefined {
    const bets = this.byAgent.get(agentId);
    if (bets === undefined) return undefined;
    for (let sequence = bets.oldestSequence; sequence < bets.nextSequence; sequence++) {
      if (bets.drewFrom(sequence, seedHash, nonce)) return bets.record(sequence, null);
    }
    return undefined;
  }

  /** The bankroll curve of the agent's newest `limit` retained bets, oldest first; undefined for an agent without bets. */
  bankrollPoints(agentId: string, limit: number): BankrollPoint[] | undefined {
    const bets = this.byAgent.get(agentId);
    if (bets === undefined) return undefined;
    const points: BankrollPoint[] = [];
    for (
      let sequence = Math.max(bets.oldestSequence, bets.nextSequence - limit);
      sequence < bets.nextSequence;
      sequence++
    )
      points.push(bets.bankrollPoint(sequence));
    return points;
  }

  /** How many bets per agent are retained. */
  get retained(): number {
    return this.retainedPerAgent;
  }

  /** Bets ever recorded (evicted ones included). */
  get count(): number {
    return this.total;
  }

  /** Every retained bet, agents in first-bet order (invariant checkers, reports). */
  *all(): IterableIterator<BetRecord> {
    for (const bets of this.agents)
      for (let sequence = bets.oldestSequence; sequence < bets.nextSequence; sequence++)
        yield bets.record(sequence, null);
  }
}

/** Sequence number of the agent's first retained bet at or after `fromMs` (binary search). */
function firstSince(bets: AgentBets, fromMs: number): number {
  let low = bets.oldestSequence;
  let high = bets.nextSequence;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (bets.atMsOf(middle) < fromMs) low = middle + 1;
    else high = middle;
  }
  return low;
}
