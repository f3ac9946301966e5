/**
 * Casino style B rows (mount 'api', under /casino-api): one bet endpoint for five games with a
 * `params` object, history, verify by seed hash and nonce, the games list with limits, and stats.
 * Money as decimal strings; amounts may be numbers or decimal strings. Counted against the casino's
 * style-B row (60 per minute, burst 100); the 10,000 bets per day per game type are counted by the
 * casino (daily-game-cap.ts).
 *
 * The B games map onto the one game table: coinflip → coin_flip { side, default heads };
 * dice → dice { target 1..99 (default 50), over (default true) }; roulette → roulette { bet: a
 * bet type name or a number 0..36 (default red) }; slots → slots {}; blackjack → blackjack
 * { action (default stand) }. The same domain model and Kelly rule apply.
 */
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { BetGameId, BetRecord } from '../../../services/casino/bet-record.ts';
import type { Verification } from '../../../services/casino/fairness.ts';
import type { GameId, GameModule } from '../../../services/casino/games/game.ts';
import { gameById } from '../../../services/casino/games/index.ts';
import type { StatsView } from '../../../services/casino/stats-views.ts';
import { moneyB } from '../../render.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route, type RouteInput } from '../../route.ts';
import { bodyOnly, knownQuery, NO_KEYS, queryLimit, type Fields } from '../../validate.ts';
import { amountField, clientSeedField } from './casino-bet-fields.ts';
import { betCommand, casinoCaller } from './casino-games.ts';
import { betB, historyLineB, verificationView } from './casino-render.ts';
import type { ParsedBet } from './casino-bet-fields.ts';

const B_GAMES = ['dice', 'slots', 'roulette', 'blackjack', 'coinflip'] as const;
type GameB = (typeof B_GAMES)[number];
const GAME_OF_B: Readonly<Record<GameB, GameId>> = {
  dice: 'dice',
  slots: 'slots',
  roulette: 'roulette',
  blackjack: 'blackjack',
  coinflip: 'coin_flip',
};
const B_OF_GAME = (game: BetGameId): string => (game === 'coin_flip' ? 'coinflip' : game);
const LIMITS = { serviceRowB: true } as const;

const PARAMS_OF_B: Readonly<Record<GameB, readonly string[]>> = {
  dice: ['target', 'over'],
  slots: [],
  roulette: ['bet'],
  blackjack: ['action'],
  coinflip: ['side'],
};

/** The `params` of a B bet as the game module's own parameters. */
function paramsOfB(game: GameB, params: Fields): JsonObject | Failure {
  const allowed = PARAMS_OF_B[game];
  const unknown = Object.keys(params).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) return fail('BAD_REQUEST', `unknown params for ${game}: ${unknown.sort().join(', ')}`);
  switch (game) {
    case 'dice': {
      const over = params['over'] ?? true;
      if (typeof over !== 'boolean') return fail('BAD_REQUEST', 'params.over must be true or false');
      return { direction: over ? 'over' : 'under', threshold: (params['target'] ?? 50) as JsonObject[string] };
    }
    case 'roulette': {
      const bet = params['bet'] ?? 'red';
      if (typeof bet === 'number') return { bet_type: 'number', bet_value: bet };
      return typeof bet === 'string'
        ? { bet_type: bet }
        : fail('BAD_REQUEST', 'params.bet must be a bet type name or a number from 0 to 36');
    }
    case 'blackjack':
      return { action: (params['action'] ?? 'stand') as JsonObject[string] };
    case 'coinflip':
      return { side: (params['side'] ?? 'heads') as JsonObject[string] };
    case 'slots':
      return {};
  }
}

const BET_KEYS = ['game', 'amount', 'params', 'client_seed'];

function parseBet(input: RouteInput): ParsedBet | Failure {
  const fields = bodyOnly(input, BET_KEYS);
  if (isFailure(fields)) return fields;
  const name = fields['game'];
  if (typeof name !== 'string' || !(B_GAMES as readonly string[]).includes(name))
    return fail('BAD_REQUEST', `game must be one of: ${B_GAMES.join(', ')}`);
  const gameB = name as GameB;
  const game = gameById(GAME_OF_B[gameB]) as GameModule;
  const amountMicro = amountField(fields, 'number-or-decimal-string');
  if (isFailure(amountMicro)) return amountMicro;
  const rawParams = fields['params'] ?? {};
  if (typeof rawParams !== 'object' || rawParams === null || Array.isArray(rawParams))
    return fail('BAD_REQUEST', 'params must be an object');
  const paramsJson = paramsOfB(gameB, rawParams as Fields);
  if (isFailure(paramsJson)) return paramsJson;
  const params = game.parse(paramsJson);
  if (!params.ok) return params;
  const clientSeed = clientSeedField(fields);
  if (isFailure(clientSeed)) return clientSeed;
  return { game, params: params.value, paramsJson, amountMicro, clientSeed };
}

const bet = defineRoute<ParsedBet, BetRecord>({
  id: 'casino.B.bet',
  service: 'casino',
  style: 'B',
  mount: 'api',
  method: 'POST',
  path: '/casino-api/bet',
  auth: 'bearer',
  limits: LIMITS,
  summary: 'Place a bet (game dice|slots|roulette|blackjack|coinflip, amount 0.01..10000, params?, client_seed?).',
  parse: parseBet,
  run: (context, parsed) => context.platform.casino.betB(betCommand(context, parsed, 'B'), context.nowMs),
  successStatus: 200,
  render: (record) => betB(record),
});

const HISTORY_QUERY = ['limit', 'game', 'from', 'page'];
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

const history = defineRoute<
  { limit: number; game: GameId | null; fromMs: number | null; page: number },
  { bets: BetRecord[]; total: number; page: number }
>({
  id: 'casino.B.history',
  service: 'casino',
  style: 'B',
  mount: 'api',
  method: 'GET',
  path: '/casino-api/history',
  auth: 'bearer',
  limits: LIMITS,
  summary: 'Your bets, newest first (limit default 20, max 100; game; from = ISO 8601; page from 1).',
  parse: (input, context) => {
    const unknown = knownQuery(input.query, HISTORY_QUERY);
    if (unknown !== null) return unknown;
    const limit = queryLimit(
      input.query,
      context.platform.config.casino.historyLimitDefault,
      context.platform.config.casino.historyLimitMax,
    );
    if (isFailure(limit)) return limit;
    const gameText = input.query['game'];
    const game = gameText === undefined ? null : gameText === 'coinflip' ? 'coin_flip' : gameText;
    if (game !== null && !Object.values(GAME_OF_B).includes(game as GameId) && gameText !== undefined && !isGame(game))
      return fail('BAD_REQUEST', `game must be a game id, e.g. ${B_GAMES.join(', ')}`);
    const fromText = input.query['from'];
    const fromMs = fromText === undefined ? null : ISO_INSTANT.test(fromText) ? Date.parse(fromText) : Number.NaN;
    if (fromMs !== null && !Number.isFinite(fromMs))
      return fail('BAD_REQUEST', 'from must be an ISO 8601 date or instant');
    const pageText = input.query['page'] ?? '1';
    if (!/^[1-9]\d{0,6}$/.test(pageText)) return fail('BAD_REQUEST', 'page must be a whole number from 1');
    return { limit, game: game as GameId | null, fromMs, page: Number(pageText) };
  },
  run: (context, command) =>
    succeed({ ...context.platform.casino.history(casinoCaller(context), command), page: command.page }),
  successStatus: 200,
  render: (page) => ({ bets: page.bets.map(historyLineB), total: page.total, page: page.page }),
});

function isGame(id: string): boolean {
  try {
    gameById(id as GameId);
    return true;
  } catch {
    return false;
  }
}

const VERIFY_QUERY = ['nonce'];

const verify = defineRoute<{ seed: string; nonce: number }, Verification>({
  id: 'casino.B.verify',
  service: 'casino',
  style: 'B',
  mount: 'api',
  method: 'GET',
  path: '/casino-api/verify/:seed',
  auth: 'bearer',
  limits: LIMITS,
  summary: 'Verify your bet by server seed hash and ?nonce=.',
  parse: (input) => {
    const unknown = knownQuery(input.query, VERIFY_QUERY);
    if (unknown !== null) return unknown;
    const seed = input.params['seed'] ?? '';
    if (!/^[0-9a-f]{64}$/.test(seed))
      return fail('BAD_REQUEST', 'seed must be a server seed hash (64 lowercase hex characters)');
    const nonceText = input.query['nonce'];
    if (nonceText === undefined || !/^\d{1,9}$/.test(nonceText))
      return fail('BAD_REQUEST', 'nonce is required: a non-negative integer');
    return { seed, nonce: Number(nonceText) };
  },
  run: (context, command) => context.platform.casino.verifyBySeed(casinoCaller(context), command.seed, command.nonce),
  successStatus: 200,
  render: (verification) => ({
    ...verificationView(verification),
    payout: moneyB(verification.bet.payoutMicro),
    amount: moneyB(verification.bet.amountMicro),
  }),
});

const games = listCall(
  { items: ['games'] },
  defineRoute<null, null>({
    id: 'casino.B.games',
    service: 'casino',
    style: 'B',
    mount: 'api',
    method: 'GET',
    path: '/casino-api/games',
    auth: 'bearer',
    limits: LIMITS,
    summary: 'The style B games with limits, house edge and status.',
    parse: (input) => knownQuery(input.query, NO_KEYS) ?? null,
    run: () => succeed(null),
    successStatus: 200,
    render: (_value, context) => ({
      games: B_GAMES.map((name) => {
        const game = gameById(GAME_OF_B[name]);
        return {
          id: name,
          name: game.name,
          house_edge: game.advertisedEdgeText,
          min_bet: moneyB(game.minBetMicro),
          max_bet: moneyB(game.maxBetMicro),
          status: context.platform.casino.state.closedGames.has(game.id) ? 'closed' : 'active',
        };
      }),
    }),
  }),
);

function statsB(view: StatsView): JsonObject {
  const totals = view.overall;
  return {
    total_bets: totals.bets,
    total_wagered: moneyB(totals.wageredMicro),
    total_won: moneyB(totals.wonMicro),
    win_rate: totals.bets === 0 ? '0.00' : ((totals.wins / totals.bets) * 100).toFixed(2),
    profit_loss: moneyB(totals.wonMicro - totals.wageredMicro),
    games: Object.fromEntries(
      view.byGame.map(([game, perGame]) => [
        B_OF_GAME(game),
        {
          bets: perGame.bets,
          wagered: moneyB(perGame.wageredMicro),
          won: moneyB(perGame.wonMicro),
          profit_loss: moneyB(perGame.wonMicro - perGame.wageredMicro),
        },
      ]),
    ),
  };
}

const stats = defineRoute<null, StatsView>({
  id: 'casino.B.stats',
  service: 'casino',
  style: 'B',
  mount: 'api',
  method: 'GET',
  path: '/casino-api/stats',
  auth: 'bearer',
  limits: LIMITS,
  summary: 'Your totals: bets, wagered, won, win rate, profit and loss, per game.',
  parse: (input) => knownQuery(input.query, NO_KEYS) ?? null,
  run: (context) => succeed(context.platform.casino.stats(casinoCaller(context))),
  successStatus: 200,
  render: statsB,
});

export const casinoRoutesB: readonly Route[] = [bet, history, verify, games, stats];
