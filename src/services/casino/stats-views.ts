/**
 * Casino statistics as plain records (the route layer renders them): lifetime stats of an agent,
 * its last 24 hours, the leaderboard (casino.md "Leaderboard record", optionally per game), and
 * style B's stats with its per-game breakdown.
 *
 * Lifetime figures come from the running aggregates (BetStats), so they include bets evicted from
 * the bet book; the session view scans the retained bets of the last 24 h (bounded by the
 * retention). Orders are total: net profit desc, then wagered desc, then agent id.
 */
import type { Micro } from '../../core/money.ts';
import type { BetRecord, BetGameId } from './bet-record.ts';
import { emptyTotals, type Totals } from './bet-stats.ts';
import type { CasinoState } from './casino-state.ts';

export const SESSION_MS = 24 * 3_600_000;

export interface StatsView {
  readonly agentId: string;
  readonly overall: Totals;
  readonly byGame: ReadonlyArray<readonly [BetGameId, Totals]>;
  readonly firstBetAtMs: number | null;
  readonly lastBetAtMs: number | null;
}

export function statsOf(state: CasinoState, agentId: string): StatsView {
  const stats = state.stats.agent(agentId);
  if (stats === undefined)
    return { agentId, overall: emptyTotals(), byGame: [], firstBetAtMs: null, lastBetAtMs: null };
  const byGame = [...stats.byGame.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { agentId, overall: stats.overall, byGame, firstBetAtMs: stats.firstBetAtMs, lastBetAtMs: stats.lastBetAtMs };
}

export interface SessionView {
  readonly agentId: string;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly totals: Totals;
  readonly byGame: ReadonlyArray<readonly [BetGameId, Totals]>;
}

export function sessionOf(state: CasinoState, agentId: string, nowMs: number): SessionView {
  const fromMs = nowMs - SESSION_MS;
  const totals = emptyTotals();
  const byGame = new Map<BetGameId, Totals>();
  for (const bet of state.bets.ofAgentSince(agentId, fromMs)) {
    add(totals, bet);
    let perGame = byGame.get(bet.game);
    if (perGame === undefined) {
      perGame = emptyTotals();
      byGame.set(bet.game, perGame);
    }
    add(perGame, bet);
  }
  return {
    agentId,
    fromMs,
    untilMs: nowMs,
    totals,
    byGame: [...byGame.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
  };
}

function add(totals: Totals, bet: BetRecord): void {
  totals.bets += 1;
  if (bet.won) totals.wins += 1;
  totals.wageredMicro += bet.amountMicro;
  totals.wonMicro += bet.payoutMicro;
  if (bet.payoutMicro > totals.biggestWinMicro) totals.biggestWinMicro = bet.payoutMicro;
}

export interface LeaderboardRow {
  readonly rank: number;
  readonly agentId: string;
  readonly wageredMicro: Micro;
  readonly wonMicro: Micro;
  readonly netProfitMicro: Micro;
}

/** Top agents by net profit (payouts − stakes), overall or for one game; at most `size` rows. */
export function leaderboard(state: CasinoState, game: BetGameId | null, size: number): LeaderboardRow[] {
  const rows: Omit<LeaderboardRow, 'rank'>[] = [];
  for (const agentId of state.stats.agentIds()) {
    const stats = state.stats.agent(agentId);
    const totals = game === null ? stats?.overall : stats?.byGame.get(game);
    if (totals === undefined || totals.bets === 0) continue;
    rows.push({
      agentId,
      wageredMicro: totals.wageredMicro,
      wonMicro: totals.wonMicro,
      netProfitMicro: totals.wonMicro - totals.wageredMicro,
    });
  }
  rows.sort(
    (a, b) =>
      compareDesc(a.netProfitMicro, b.netProfitMicro) ||
      compareDesc(a.wageredMicro, b.wageredMicro) ||
      (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0),
  );
  return rows.slice(0, size).map((row, index) => ({ rank: index + 1, ...row }));
}

/** The biggest wins, optionally of one game (from the running top list). */
export function biggestWins(state: CasinoState, game: BetGameId | null): readonly BetRecord[] {
  const all = state.stats.biggestWins();
  return game === null ? all : all.filter((bet) => bet.game === game);
}

function compareDesc(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0;
}
