/**
 * BetStats: the casino's running aggregates, updated once per settled bet so that stats,
 * leaderboards and the referral base never rescan bets: per agent (overall and per game), per
 * game, and the biggest wins.
 *
 * Invariants: every total is the exact sum over every bet ever settled (evicted bets included);
 * `netLossMicro` = wagered − won; the biggest-win list holds at most `biggestWinsMax` bets,
 * ordered by amount won desc, then time, then bet id (stable ties).
 */
import type { Micro } from '../../core/money.ts';
import type { BetRecord } from './bet-record.ts';
import type { GameId } from './games/game.ts';

export interface Totals {
  bets: number;
  wins: number;
  wageredMicro: Micro;
  wonMicro: Micro;
  biggestWinMicro: Micro;
}

export interface AgentStats {
  readonly overall: Totals;
  readonly byGame: Map<GameId, Totals>;
  firstBetAtMs: number;
  lastBetAtMs: number;
}

export const emptyTotals = (): Totals => ({ bets: 0, wins: 0, wageredMicro: 0n, wonMicro: 0n, biggestWinMicro: 0n });

function addTo(totals: Totals, bet: BetRecord): void {
  totals.bets += 1;
  if (bet.won) totals.wins += 1;
  totals.wageredMicro += bet.amountMicro;
  totals.wonMicro += bet.payoutMicro;
  if (bet.payoutMicro > totals.biggestWinMicro) totals.biggestWinMicro = bet.payoutMicro;
}

export class BetStats {
  private readonly agents = new Map<string, AgentStats>();
  private readonly games = new Map<GameId, Totals>();
  private readonly biggest: BetRecord[] = [];
  private readonly biggestWinsMax: number;

  constructor(biggestWinsMax: number) {
    this.biggestWinsMax = biggestWinsMax;
  }

  record(bet: BetRecord): void {
    let agent = this.agents.get(bet.agentId);
    if (agent === undefined) {
      agent = { overall: emptyTotals(), byGame: new Map(), firstBetAtMs: bet.atMs, lastBetAtMs: bet.atMs };
      this.agents.set(bet.agentId, agent);
    }
    agent.lastBetAtMs = bet.atMs;
    addTo(agent.overall, bet);
    let perGame = agent.byGame.get(bet.game);
    if (perGame === undefined) {
      perGame = emptyTotals();
      agent.byGame.set(bet.game, perGame);
    }
    addTo(perGame, bet);
    let game = this.games.get(bet.game);
    if (game === undefined) {
      game = emptyTotals();
      this.games.set(bet.game, game);
    }
    addTo(game, bet);
    if (bet.won) this.considerBiggest(bet);
  }

  private considerBiggest(bet: BetRecord): void {
    const list = this.biggest;
    const last = list[list.length - 1];
    if (list.length >= this.biggestWinsMax && last !== undefined && bet.payoutMicro <= last.payoutMicro) return;
    list.push(bet);
    list.sort((a, b) => (a.payoutMicro === b.payoutMicro ? a.atMs - b.atMs || (a.id < b.id ? -1 : 1) : a.payoutMicro > b.payoutMicro ? -1 : 1));
    if (list.length > this.biggestWinsMax) list.length = this.biggestWinsMax;
  }

  agent(agentId: string): AgentStats | undefined {
    return this.agents.get(agentId);
  }

  game(game: GameId): Totals | undefined {
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
