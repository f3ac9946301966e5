/**
 * Casino stats rows: style A lifetime stats, the last 24 hours, and the leaderboard (casino.md
 * "Leaderboard record": overall_leaderboard, biggest_wins, supported_games, filter_tip,
 * updated_at; `?game=` filters per game). The short style's GET /leaderboard (top agents by
 * profit and loss) shares the leaderboard view.
 */
import { fail, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Totals } from '../../../services/casino/bet-stats.ts';
import { GAME_IDS, type GameId } from '../../../services/casino/games/game.ts';
import type { BetGameId } from '../../../services/casino/bet-record.ts';
import type { SessionView, StatsView } from '../../../services/casino/stats-views.ts';
import { isoTime, moneyA } from '../../render.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../route.ts';
import { knownQuery, NO_KEYS } from '../../validate.ts';
import { casinoCaller } from './casino-games.ts';

const noQuery = (input: RouteInput): null | Failure => knownQuery(input.query, NO_KEYS) ?? null;

export function totalsA(totals: Totals): JsonObject {
  const net = totals.wonMicro - totals.wageredMicro;
  return {
    total_bets: totals.bets,
    wins: totals.wins,
    losses: totals.bets - totals.wins,
    win_rate_pct: totals.bets === 0 ? 0 : Math.round((totals.wins / totals.bets) * 10_000) / 100,
    total_wagered: moneyA(totals.wageredMicro),
    total_won: moneyA(totals.wonMicro),
    net_profit: moneyA(net),
    biggest_win: moneyA(totals.biggestWinMicro),
  };
}

const byGameA = (rows: ReadonlyArray<readonly [BetGameId, Totals]>): JsonObject =>
  Object.fromEntries(rows.map(([game, totals]) => [game, totalsA(totals)]));

const me = defineRoute<null, StatsView>({
  id: 'casino.A.stats.me',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/stats/me',
  auth: 'bearer',
  summary: 'Your lifetime casino stats, overall and per game.',
  parse: noQuery,
  run: (context) => succeed(context.platform.casino.stats(casinoCaller(context))),
  successStatus: 200,
  render: (view) => ({
    agent_id: view.agentId,
    ...totalsA(view.overall),
    by_game: byGameA(view.byGame),
    first_bet_at: view.firstBetAtMs === null ? null : isoTime(view.firstBetAtMs),
    last_bet_at: view.lastBetAtMs === null ? null : isoTime(view.lastBetAtMs),
  }),
});

const session = defineRoute<null, SessionView>({
  id: 'casino.A.stats.session',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/stats/session',
  auth: 'bearer',
  summary: 'Your casino stats over the last 24 hours.',
  parse: noQuery,
  run: (context) => succeed(context.platform.casino.session(casinoCaller(context), context.nowMs)),
  successStatus: 200,
  render: (view) => ({
    agent_id: view.agentId,
    from: isoTime(view.fromMs),
    until: isoTime(view.untilMs),
    ...totalsA(view.totals),
    by_game: byGameA(view.byGame),
  }),
});

const GAME_QUERY = ['game'];

function parseGameQuery(input: RouteInput): GameId | null | Failure {
  const unknown = knownQuery(input.query, GAME_QUERY);
  if (unknown !== null) return unknown;
  const game = input.query['game'];
  if (game === undefined) return null;
  return (GAME_IDS as readonly string[]).includes(game)
    ? (game as GameId)
    : fail('BAD_REQUEST', `game must be one of: ${GAME_IDS.join(', ')}`);
}

const abbreviate = (agentId: string): string =>
  agentId.length <= 12 ? agentId : `${agentId.slice(0, 8)}…${agentId.slice(-3)}`;

export function leaderboardView(context: RouteContext, game: GameId | null): JsonObject {
  const { rows, biggestWins } = context.platform.casino.leaderboard(game);
  return {
    overall_leaderboard: rows.map((row) => ({
      rank: row.rank,
      agent_id: abbreviate(row.agentId),
      total_wagered: moneyA(row.wageredMicro),
      total_won: moneyA(row.wonMicro),
      net_profit: moneyA(row.netProfitMicro),
    })),
    biggest_wins: biggestWins.map((bet) => ({
      agent_id: abbreviate(bet.agentId),
      game: bet.game,
      bet: moneyA(bet.amountMicro),
      won: moneyA(bet.payoutMicro),
      multiplier: Number((Number(bet.multiplier.num) / Number(bet.multiplier.den)).toFixed(6)),
      at: isoTime(bet.atMs),
    })),
    supported_games: [...GAME_IDS],
    filter_tip: 'Add ?game=<id> to see one game, e.g. ?game=dice',
    game,
    updated_at: isoTime(context.nowMs),
  };
}

/** The one leaderboard, answered at style A's path and at the short style's. */
function leaderboardRow(row: { id: string; style: 'A' | 'short'; path: string; summary: string }): Route {
  return listCall(
    { items: ['overall_leaderboard', 'biggest_wins'] },
    defineRoute<GameId | null, GameId | null>({
      ...row,
      service: 'casino',
      mount: 'casino',
      method: 'GET',
      auth: 'bearer',
      parse: parseGameQuery,
      run: (_context, game) => succeed(game),
      successStatus: 200,
      render: (game, context) => leaderboardView(context, game),
    }),
  );
}

const leaderboardA = leaderboardRow({
  id: 'casino.A.stats.leaderboard',
  style: 'A',
  path: '/api/v1/stats/leaderboard',
  summary: 'Top agents by net profit and the biggest wins; ?game= filters one game.',
});

const leaderboardShort = leaderboardRow({
  id: 'casino.short.leaderboard',
  style: 'short',
  path: '/api/v1/leaderboard',
  summary: 'Top agents by profit and loss (short style).',
});

export const casinoStatsRoutes: readonly Route[] = [me, session, leaderboardA];
export const casinoShortLeaderboard: Route = leaderboardShort;
