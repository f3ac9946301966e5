/**
 * BetStats: the casino's running aggregates, updated once per settled bet so that stats,
 * leaderboards and the referral base never rescan bets: per agent (overall and per game), per
 * game, and the biggest wins.
 *
 * Invariants: every total is the exact sum over every bet ever settled (evicted bets included);
 * `netLossMicro` = wagered − won; the biggest-win list holds at most `biggestWinsMax` bets,
 * ordered by amount won desc, then time, then bet id (stable ties).
 * Hot path (every bet): an agent remembers the game of its last bet with that game's totals, its
 * own and the casino's, so a bet on the same game as the agent's previous one costs one map lookup.
 */
import type { Micro } from '../../core/money.ts';
import type { BetRecord, BetGameId } from './bet-record.ts';

export interface Totals {
  bets: number;
  wins: number;
  wageredMicro: Micro;
  wonMicro: Micro;
  biggestWinMicro: Micro;
}

export interface AgentStats {
  readonly overall: Totals;
  readonly byGame: Map<BetGameId, Totals>;
  firstBetAtMs: number;
  lastBetAtMs: number;
}

/** An agent's stats with the totals of its last game (the agent's and the casino's) at hand. */
export interface AgentStatsEntry extends AgentStats {
  lastGame: BetGameId | null;
  lastGameTotals: Totals;
  lastCasinoGameTotals: Totals;
}

export const emptyTotals = (): Totals => ({ bets: 0, wins: 0, wageredMicro: 0n, wonMicro: 0n, biggestWinMicro: 0n });

function addTo(totals: Totals, bet: BetRecord): void {
  totals.bets += 1;
  if (bet.won) totals.wins += 1;
  totals.wageredMicro += bet.amountMicro;
  // A lost bet pays nothing: no sum to make (half the bets of a population).
  if (bet.payoutMicro === 0n) return;
  totals.wonMicro += bet.payoutMicro;
  if (bet.payoutMicro > totals.biggestWinMicro) totals.biggestWinMicro = bet.payoutMicro;
}

/** The totals of `game` in `byGame`, created empty on first use. */
function totalsOf(byGame: Map<BetGameId, Totals>, game: BetGameId): Totals {
  let totals = byGame.get(game);
  if (totals === undefined) {
    totals = emptyTotals();
    byGame.set(game, totals);
  }
  return totals;
}

export class BetStats {
  private readonly agents = new Map<string, AgentStatsEntry>();
  private readonly games = new Map<BetGameId, Totals>();
  private readonly biggest: BetRecord[] = [];
  private readonly biggestWinsMax: number;

  constructor(biggestWinsMax: number) {
    this.biggestWinsMax = biggestWinsMax;
  }

  record(bet: BetRecord): void {
    this.recordTo(this.entryOf(bet.agentId, bet.atMs), bet);
  }

  /** The agent's stats, created empty (first bet at `atMs`) on first use. */
  entryOf(agentId: string, atMs: number): AgentStatsEntry {
    let agent = this.agents.get(agentId);
    if (agent === undefined) {
      const none = emptyTotals();
      agent = {
        overall: emptyTotals(),
        byGame: new Map(),
        firstBetAtMs: atMs,
        lastBetAtMs: atMs,
        lastGame: null,
        lastGameTotals: none,
        lastCasinoGameTotals: none,
      };
      this.agents.set(agentId, agent);
    }
    return agent;
  }

  /** `record` with the agent's stats at hand (`agent` is `entryOf(bet.agentId, bet.atMs)`). */
  recordTo(agent: AgentStatsEntry, bet: BetRecord): void {
    agent.lastBetAtMs = bet.atMs;
    addTo(agent.overall, bet);
    if (agent.lastGame !== bet.game) {
      agent.lastGame = bet.game;
      agent.lastGameTotals = totalsOf(agent.byGame, bet.game);
      agent.lastCasinoGameTotals = totalsOf(this.games, bet.game);
    }
    addTo(agent.lastGameTotals, bet);
    addTo(agent.lastCasinoGameTotals, bet);
    if (bet.won) this.considerBiggest(bet);
  }

  private considerBiggest(bet: BetRecord): void {
    const list = this.biggest;
    const last = list[list.length - 1];
    if (list.length >= this.biggestWinsMax && last !== undefined && bet.payoutMicro <= last.payoutMicro) return;
    list.push(bet);
    list.sort((a, b) =>
      a.payoutMicro === b.payoutMicro
        ? a.atMs - b.atMs || (a.id < b.id ? -1 : 1)
        : a.payoutMicro > b.payoutMicro
          ? -1
          : 1,
    );
    if (list.length > this.biggestWinsMax) list.length = this.biggestWinsMax;
  }

  agent(agentId: string): AgentStats | undefined {
    return this.agents.get(agentId);
  }

  game(game: BetGameId): Totals | undefined {
    return this.games.get(game);
  }

  /** Agents with bets, in first-bet order. */
  agentIds(): IterableIterator<string> {
    return this.agents.keys();
  }

  biggestWins(): readonly BetRecord[] {
    return this.biggest;
  }
}
