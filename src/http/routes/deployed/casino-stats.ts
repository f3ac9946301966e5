/**
 * The deployed casino's Kelly, statistics, history and gossip rows (spec/DEPLOYED.md §2.8, §2.9):
 * `/kelly/limits`, `PUT /kelly/config`, `/kelly/history`, `/kelly/simulate` (5 per IP per minute),
 * `/stats/me`, `/stats/session`, the public `/stats/leaderboard` and `/gossip`, and
 * `/bets/history?game=&outcome=&limit=&offset=&since=` (limit 50 by default; at most afp's page of
 * 100, which `pagination.limit` says). The Kelly and stats answers are afp's style A bodies
 * (NOTES.md's shapes, which the deployment shares); afp's own figures throughout.
 * Nearest values: `outcome=` filters within the page read (`pagination.total` counts every outcome);
 * `since` takes unix seconds or an ISO instant.
 */
import { succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import { fixedNumber } from '../../../services/casino/kelly/kelly-numbers.ts';
import type { GameId } from '../../../services/casino/games/game.ts';
import { findGame } from '../../../services/casino/games/index.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route } from '../../route.ts';
import { casinoCaller } from '../casino/casino-games.ts';
import { deployedRoute, adaptedRow } from './deployed-row.ts';

const documentsBody = (_value: unknown, _context: unknown, body: () => JsonObject): JsonObject => body();

const kellyLimits = adaptedRow('casino.A.kelly.limits', {
  id: 'casino.deployed.kelly.limits',
  summary: 'The Kelly limit of each game variant for your bankroll.',
  bodyKeys: [],
  render: documentsBody,
});
const kellyConfig = adaptedRow('casino.A.kelly.config', {
  id: 'casino.deployed.kelly.config',
  summary: 'Set your risk factor ({ risk_factor: 0.1 to 1.0 }).',
  bodyKeys: ['risk_factor'],
  render: documentsBody,
});
const kellyHistory = adaptedRow('casino.A.kelly.history', {
  id: 'casino.deployed.kelly.history',
  summary: 'Your bankroll curve.',
  bodyKeys: [],
  render: documentsBody,
});
/** What the deployment's Kelly simulate reads (the OpenAPI document reads it too: openapi-deployed.ts). */
export const KELLY_SIMULATE_KEYS: readonly string[] = [
  'bankroll',
  'game',
  'bet_amount',
  'num_bets',
  'simulations',
  'threshold',
  'win_probability',
  'direction',
  'side',
  'target_multiplier',
];
const kellySimulate = adaptedRow('casino.A.kelly.simulate', {
  id: 'casino.deployed.kelly.simulate',
  summary: 'Monte Carlo of flat bets ({ bankroll, game, bet_amount, num_bets, simulations? }); seeded.',
  bodyKeys: KELLY_SIMULATE_KEYS,
  render: documentsBody,
});
const statsMe = adaptedRow('casino.A.stats.me', {
  id: 'casino.deployed.stats.me',
  summary: 'Your lifetime statistics.',
  bodyKeys: [],
  render: documentsBody,
});
const statsSession = adaptedRow('casino.A.stats.session', {
  id: 'casino.deployed.stats.session',
  summary: 'Your last 24 hours.',
  bodyKeys: [],
  render: documentsBody,
});
const leaderboard = adaptedRow('casino.A.stats.leaderboard', {
  id: 'casino.deployed.stats.leaderboard',
  summary: 'Top agents (public; ?game=).',
  auth: 'none',
  bodyKeys: [],
  queryKeys: ['game'],
  render: documentsBody,
});
const gossip = adaptedRow('casino.A.gossip', {
  id: 'casino.deployed.gossip',
  summary: 'The referral programme (public).',
  bodyKeys: [],
  render: documentsBody,
});

const HISTORY_LIMIT_DEFAULT = 50;
/** `since`: unix seconds, or an ISO 8601 date or instant (Date.parse alone takes "1.5" and "-1"). */
export const HISTORY_SINCE_PATTERN =
  /^(?:\d{1,12}|\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?)$/;
const HISTORY_LIMIT_MAX = 200;

interface HistoryQuery {
  readonly game: GameId | null;
  readonly outcome: 'won' | 'lost' | null;
  readonly limit: number;
  readonly offset: number;
  readonly fromMs: number | null;
}

function wholeNumber(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  return /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
}

function parseHistory(query: Readonly<Record<string, string>>): HistoryQuery | Failure {
  const game = query['game'] ?? null;
  if (game !== null && findGame(game) === undefined)
    return deployedFailure(400, 'invalid_game', `Unknown game: ${game.slice(0, 32)}`);
  const outcome = query['outcome'] ?? null;
  if (outcome !== null && outcome !== 'won' && outcome !== 'lost')
    return deployedFailure(400, 'invalid_outcome', 'outcome must be won or lost');
  const limit = wholeNumber(query['limit'], HISTORY_LIMIT_DEFAULT);
  const offset = wholeNumber(query['offset'], 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_LIMIT_MAX || !Number.isInteger(offset))
    return deployedFailure(400, 'invalid_params', `limit must be 1 to ${HISTORY_LIMIT_MAX}, offset a whole number`);
  const since = query['since'];
  const fromMs =
    since === undefined
      ? null
      : !HISTORY_SINCE_PATTERN.test(since)
        ? Number.NaN
        : /^\d{1,12}$/.test(since)
          ? Number(since) * 1000
          : Date.parse(since);
  if (fromMs !== null && !Number.isFinite(fromMs))
    return deployedFailure(400, 'invalid_params', 'since must be unix seconds or an ISO 8601 instant');
  return { game: game as GameId | null, outcome, limit, offset, fromMs };
}

function historyLine(bet: BetRecord): JsonObject {
  return {
    id: bet.id,
    game: bet.game,
    amount: moneyA(bet.amountMicro),
    amount_won: moneyA(bet.payoutMicro),
    multiplier: fixedNumber(bet.multiplier),
    won: bet.won,
    net: moneyA(bet.payoutMicro - bet.amountMicro),
    verify: `GET /api/v1/fairness/audit/${bet.id}`,
    at: isoTime(bet.atMs),
  };
}

const history = deployedRoute<
  HistoryQuery,
  { query: HistoryQuery; bets: readonly BetRecord[]; total: number; limit: number }
>({
  id: 'casino.deployed.bets.history',
  service: 'casino',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your bets, newest first (?game=&outcome=won|lost&limit=&offset=&since=).',
  parse: (input) => parseHistory(input.query),
  run: (context, query) => {
    const limit = Math.min(query.limit, context.platform.config.casino.historyLimitMax);
    const page = context.platform.casino.state.bets.newest(casinoCaller(context), {
      limit,
      skip: query.offset,
      game: query.game,
      fromMs: query.fromMs,
    });
    const bets = query.outcome === null ? page.bets : page.bets.filter((bet) => bet.won === (query.outcome === 'won'));
    return succeed({ query, bets, total: page.total, limit });
  },
  successStatus: 200,
  render: ({ query, bets, total, limit }) => {
    const wageredMicro = bets.reduce((sum, bet) => sum + bet.amountMicro, 0n);
    const wonMicro = bets.reduce((sum, bet) => sum + bet.payoutMicro, 0n);
    return {
      bets: bets.map(historyLine),
      pagination: { total, limit, offset: query.offset, has_more: query.offset + limit < total },
      summary: {
        count: bets.length,
        total_wagered: moneyA(wageredMicro),
        total_won: moneyA(wonMicro),
        net: moneyA(wonMicro - wageredMicro),
      },
      filters: {
        game: query.game,
        outcome: query.outcome,
        since: query.fromMs === null ? null : isoTime(query.fromMs),
      },
      tip: 'Verify any bet: GET /api/v1/fairness/audit/<bet_id>',
    };
  },
});

export const deployedStatsRoutes: readonly Route[] = [
  kellyLimits,
  kellyConfig,
  kellyHistory,
  kellySimulate,
  statsMe,
  statsSession,
  leaderboard,
  gossip,
  history,
];
