/**
 * What every row of the route tables takes — JSON body, query and path parameters — as zod
 * definitions keyed by row id, for the OpenAPI documents (src/http/openapi.ts). A row absent here
 * takes no input at all (no query, no body). Bounds come from the same constants and default
 * config the rows read. test/http/openapi-contract.test.ts sends each definition's values and
 * its near misses to the row's own `parse` and requires the same verdict, so this table and the
 * rows' hand-written validation (kept for speed: validate.ts) cannot drift apart silently.
 * Objects are strict: every row refuses unknown fields and query parameters.
 */
import * as z from 'zod';
import { DEFAULT_CONFIG } from '../services/shared/config.ts';
import { DEFAULT_CASINO_CONFIG } from '../services/casino/casino-config.ts';
import { ESCROW_LIMITS, ESCROW_ROLES, ESCROW_STATUSES } from '../services/escrow/escrow-record.ts';
import { FRAMEWORK_MAX_LENGTH } from '../services/faucet/faucet-records.ts';
import { AGENT_LIST_LIMIT_MAX } from '../services/faucet/agent-list.ts';
import { GAME_IDS, type GameId } from '../services/casino/games/game.ts';
import { COIN_SIDES } from '../services/casino/games/coin-flip.ts';
import { BLACKJACK_ACTIONS } from '../services/casino/games/blackjack-rules.ts';
import { ROULETTE_BET_TYPES } from '../services/casino/games/roulette.ts';
import { SIMULATE_LIMITS } from '../services/casino/kelly/kelly-simulate.ts';
import {
  amountNumber,
  amountNumberOrText,
  jsonObject,
  limitQuery,
  listLimitQuery,
  oneOf,
  optional,
  reference,
  nonBlankString,
  type RequestContract,
} from './openapi-fields.ts';
import { clientSeed, GAME_PARAMS } from './openapi-game-params.ts';
import { DOMAINS_REQUESTS } from './openapi-domains.ts';
import { WALLET_REQUESTS } from './openapi-wallet.ts';
import { TRADING_REQUESTS } from './openapi-trading.ts';

const escrow = DEFAULT_CONFIG.escrow;
const casino = DEFAULT_CASINO_CONFIG;
const id = (what: string): z.ZodObject => z.strictObject({ id: reference().describe(what) });
/** casino-tournaments.ts `pathId`: three letters, '_', 12 hex digits. */
const casinoId = (what: string): z.ZodObject =>
  z.strictObject({
    id: z
      .string()
      .regex(/^[a-z]{3}_[0-9a-f]{12}$/)
      .describe(what),
  });
/** casino-fairness.ts: a bet id is bet_ and 16 hex digits. */
const betId = (): z.ZodString =>
  z
    .string()
    .regex(/^bet_[0-9a-f]{16}$/)
    .describe('The bet id (bet_...)');
/** casino-tournaments.ts `instantField`: an ISO 8601 instant with a zone. */
const zonedInstant = (): z.ZodString =>
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/);
const escrowIdParam = id('The escrow id (esc_...)');
const usdcOnly = optional(z.literal('USDC').describe('Only USDC'));

const registerA = z.strictObject({
  agent_id: reference().describe('1 to 64 characters of A-Z a-z 0-9 _ . -'),
  referrer: optional(reference().describe('The referrer: an agent id, address or referral code')),
});
const FAUCET: Readonly<Record<string, RequestContract>> = {
  'faucet.A.register': { body: registerA },
  'faucet.A.agent': { params: id('An agent id, address or referral code (your own)') },
  'faucet.B.register': {
    body: registerA.extend({
      metadata: optional(
        jsonObject(32).describe(
          `At most 32 keys; metadata.framework (at most ${FRAMEWORK_MAX_LENGTH} characters) is counted in /agents`,
        ),
      ),
    }),
  },
  'faucet.B.claim': {
    body: z.strictObject({
      agent_id: optional(reference().describe("Omit, or the caller's own agent id (the first claim without a key)")),
    }),
    bodyOptional: true,
  },
  'faucet.B.agents': { query: z.strictObject({ limit: limitQuery(20, AGENT_LIST_LIMIT_MAX).optional() }) },
  'faucet.B.referrals': { query: listLimitQuery('all referred agents') },
};

const dispute = {
  reason: nonBlankString(ESCROW_LIMITS.reasonLengthMax).describe('Why'),
  evidence: optional(nonBlankString(ESCROW_LIMITS.evidenceLengthMax).describe('Text or a link')),
};
const listQuery = z.strictObject({
  role: z
    .enum(ESCROW_ROLES as [string, ...string[]])
    .optional()
    .describe('Default all'),
  status: z.enum(ESCROW_STATUSES as [string, ...string[]]).optional(),
  limit: limitQuery(escrow.listLimitDefault, escrow.listLimitMax).optional(),
});
const ESCROW: Readonly<Record<string, RequestContract>> = {
  'escrow.A.create': {
    body: z.strictObject({
      buyer: nonBlankString(ESCROW_LIMITS.referenceLengthMax).describe('The paying agent (you)'),
      seller: nonBlankString(ESCROW_LIMITS.referenceLengthMax).describe(
        'The receiving agent: id, address or referral code',
      ),
      amount: amountNumber().describe('USDC, at least 0.10, at most 6 decimals'),
      currency: usdcOnly,
      memo: optional(nonBlankString(ESCROW_LIMITS.descriptionLengthMax)),
    }),
  },
  'escrow.A.release': { body: z.strictObject({ escrow_id: reference() }) },
  'escrow.A.dispute': { body: z.strictObject({ escrow_id: reference(), ...dispute }) },
  'escrow.A.get': { params: escrowIdParam },
  'escrow.A.list': { query: listQuery },
  'escrow.B.create': {
    body: z.strictObject({
      amount: amountNumberOrText(),
      receiver: nonBlankString(ESCROW_LIMITS.referenceLengthMax).describe(
        'The receiving agent: id, address or referral code',
      ),
      description: optional(nonBlankString(ESCROW_LIMITS.descriptionLengthMax)),
      expires_in: optional(
        z
          .int()
          .min(1)
          .max(escrow.maxExpiresInSeconds)
          .describe(`Seconds until automatic refund (default ${escrow.defaultExpiresInSeconds})`),
      ),
      referrer: optional(nonBlankString(ESCROW_LIMITS.referenceLengthMax)),
      conditions: optional(
        jsonObject(ESCROW_LIMITS.conditionsKeysMax).describe(
          `Release conditions, stored and shown, never interpreted: at most ${ESCROW_LIMITS.conditionsKeysMax} keys, ${ESCROW_LIMITS.conditionsNodesMax} values, depth ${ESCROW_LIMITS.conditionsDepthMax}`,
        ),
      ),
    }),
  },
  'escrow.B.release': { params: escrowIdParam },
  'escrow.B.refund': { params: escrowIdParam },
  'escrow.B.dispute': { params: escrowIdParam, body: z.strictObject(dispute) },
  'escrow.B.get': { params: escrowIdParam },
  'escrow.B.list': { query: listQuery },
};

/** A bet body of one game: amount, client_seed and the game's own fields (`extra` first). */
const betBody = (game: GameId, extra: z.ZodRawShape = {}): z.ZodObject =>
  z.strictObject({ ...extra, ...GAME_PARAMS[game], amount: amountNumber(), client_seed: clientSeed() });
const SINGLE_GAMES = GAME_IDS.filter((game) => game !== 'video_poker');
/** The leaderboard's game filter (the deployed leaderboard's whole query). */
export const gameQuery = z.strictObject({ game: z.enum(GAME_IDS).optional().describe('One game only') });
/** The leaderboards' query: a game, and `limit` cutting each of the two rankings. */
const leaderboardQuery = gameQuery.extend(listLimitQuery('the whole ranking').shape);
const casinoLimit = z.strictObject({
  limit: limitQuery(casino.historyLimitDefault, casino.historyLimitMax).optional(),
});
/** The Kelly calculators' body: one game with its fields, plus the calculator's own. */
/**
 * A Kelly body names a game with all of its parameters, or none of them (the game's default
 * variant, kelly-fields.ts): a plain union, as a discriminated one takes one option per game.
 */
const kellyBody = (own: z.ZodRawShape): z.ZodType =>
  z.union(
    SINGLE_GAMES.flatMap((game) => {
      const full = z.strictObject({ game: z.literal(game), ...GAME_PARAMS[game], ...own });
      const bare = z.strictObject({ game: z.literal(game), ...own });
      return Object.keys(GAME_PARAMS[game]).length === 0 ? [full] : [full, bare];
    }),
  );
const riskFactor = z.number().min(0.1).max(1).describe('From 0.1 to 1, at most 2 decimals');

const B_PARAMS: Readonly<Record<string, z.ZodRawShape>> = {
  dice: {
    target: z.int().min(1).max(99).optional().describe('Default 50'),
    over: z.boolean().optional().describe('Default true'),
  },
  slots: {},
  roulette: {
    bet: z
      .union([z.enum(ROULETTE_BET_TYPES), z.int().min(0).max(36)])
      .optional()
      .describe('A bet type, or a pocket number (default red)'),
  },
  blackjack: {
    action: z
      .enum(BLACKJACK_ACTIONS as [string, ...string[]])
      .optional()
      .describe('Default stand'),
  },
  coinflip: { side: z.enum(COIN_SIDES).optional().describe('Default heads') },
};

const CASINO: Readonly<Record<string, RequestContract>> = {
  ...Object.fromEntries(SINGLE_GAMES.map((game) => [`casino.A.game.${game}`, { body: betBody(game) }])),
  'casino.A.register': {
    body: z.strictObject({
      agent_id: optional(nonBlankString(64).describe('Default: a fresh ag_ id')),
      referrer: optional(nonBlankString(128).describe('Agent id, address or referral code; not with referral_code')),
      referral_code: optional(nonBlankString(128)),
    }),
    bodyOptional: true,
  },
  'casino.A.deposit-address': {
    body: z.strictObject({ chain: optional(nonBlankString(32).describe('Default base')) }),
    bodyOptional: true,
  },
  'casino.A.withdraw': {
    body: z.strictObject({
      amount: amountNumber().describe('USDC, at least 1.00; the 0.50 fee is added'),
      address: nonBlankString(128),
      chain: optional(nonBlankString(32)),
      currency: usdcOnly,
    }),
  },
  'casino.A.deposits': { query: casinoLimit },
  'casino.A.ledger': { query: casinoLimit },
  'casino.A.withdrawals': { query: casinoLimit },
  'casino.A.batch': {
    body: z.strictObject({
      bets: z
        .array(
          oneOf(
            'game',
            SINGLE_GAMES.map((game) => betBody(game, { game: z.literal(game) })),
          ),
        )
        .min(1)
        .max(casino.batchMax),
    }),
  },
  'casino.A.video-poker.deal': {
    body: z.strictObject({ amount: amountNumber().optional(), client_seed: clientSeed() }),
  },
  'casino.A.video-poker.draw': {
    body: z.strictObject({
      ...GAME_PARAMS.video_poker,
      amount: amountNumber().optional().describe('The amount of the deal, if sent'),
    }),
  },
  'casino.A.kelly.optimal': {
    body: kellyBody({ risk_factor: riskFactor.optional(), bankroll: amountNumber().optional() }),
  },
  'casino.A.kelly.config': { body: z.strictObject({ risk_factor: riskFactor }) },
  'casino.A.kelly.simulate': {
    body: kellyBody({
      bankroll: amountNumber(),
      bet_amount: amountNumber(),
      num_bets: z.int().min(1).max(SIMULATE_LIMITS.numBetsMax),
      simulations: z
        .int()
        .min(1)
        .max(SIMULATE_LIMITS.simulationsMax)
        .nullable()
        .optional()
        .describe('num_bets × simulations within the tier budget'),
      seed: z.string().min(1).max(64).optional().describe('A seed for a repeatable run'),
    }),
  },
  'casino.A.fairness.verify': { body: z.strictObject({ bet_id: betId() }) },
  'casino.A.fairness.audit': { params: z.strictObject({ betId: betId() }) },
  'casino.A.fairness.seeds': { query: listLimitQuery('every seed, at most 100') },
  'casino.A.kelly.history': { query: listLimitQuery('the last 500 points; limit keeps the last ones') },
  'casino.A.games': { query: listLimitQuery('all 17') },
  'casino.A.challenges.list': {
    query: listLimitQuery('every pending challenge; limit cuts incoming and outgoing each'),
  },
  'casino.B.games': { query: listLimitQuery('all') },
  'casino.A.stats.leaderboard': { query: leaderboardQuery },
  'casino.short.leaderboard': { query: leaderboardQuery },
  'casino.A.tournaments.create': {
    body: z.strictObject({
      name: nonBlankString(64),
      game: nonBlankString(32).describe('A game id, e.g. dice'),
      entry_fee: z.number().min(0).max(1e12).optional().describe('USDC, default 0'),
      prize_pool: amountNumber().describe('USDC paid by the creator'),
      max_agents: optional(z.int().min(2).max(1000)),
      starts_at: zonedInstant().describe('ISO 8601 instant with a zone, e.g. 2026-01-01T12:00:00Z'),
      ends_at: zonedInstant().describe('ISO 8601 instant with a zone, after starts_at'),
    }),
  },
  'casino.A.tournaments.list': { query: z.strictObject({ limit: limitQuery(50, 100).optional() }) },
  'casino.A.tournaments.get': { params: casinoId('The tournament id (tnm_...)') },
  'casino.A.tournaments.enter': { params: casinoId('The tournament id (tnm_...)') },
  'casino.A.tournaments.play': {
    params: casinoId('The tournament id (tnm_...)'),
    body: z
      .union(SINGLE_GAMES.map((game) => betBody(game)))
      .describe("A bet of the tournament's game: amount, client_seed? and the game's fields"),
  },
  'casino.A.challenges.create': {
    body: z.strictObject({
      challenged_agent_id: nonBlankString(128),
      game: optional(nonBlankString(32).describe('Default coin_flip')),
      amount: amountNumber(),
      message: optional(nonBlankString(280)),
    }),
  },
  'casino.A.challenges.accept': { params: casinoId('The challenge id (chl_...)') },
  'casino.A.challenges.decline': { params: casinoId('The challenge id (chl_...)') },
  'casino.short.coinflip': {
    body: z.strictObject({
      ...GAME_PARAMS.coin_flip,
      amount: amountNumber(),
      currency: usdcOnly,
      client_seed: clientSeed(),
    }),
  },
  'casino.short.crash.bet': {
    body: z.strictObject({
      amount: amountNumber(),
      auto_cash_out: optional(z.number().min(1.01).max(100).describe('At most 2 decimals')),
      currency: usdcOnly,
    }),
  },
  'casino.short.crash.cashout': { body: z.strictObject({ bet_id: nonBlankString(64) }) },
  'casino.short.provably-fair': {
    params: z.strictObject({ id: z.string().min(1).describe('A bet id or crash round id') }),
  },
  'casino.B.bet': {
    body: oneOf(
      'game',
      Object.entries(B_PARAMS).map(([game, params]) =>
        z.strictObject({
          game: z.literal(game),
          amount: amountNumberOrText(),
          params: z.strictObject(params).nullable().optional(),
          client_seed: clientSeed(),
        }),
      ),
    ),
  },
  'casino.B.history': {
    query: casinoLimit.extend({
      game: z
        .enum([...GAME_IDS, 'coinflip'])
        .optional()
        .describe('A game id (coinflip for coin_flip)'),
      from: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/)
        .optional()
        .describe('ISO 8601 date or instant'),
      page: z.int().min(1).max(9_999_999).optional().describe('From 1'),
    }),
  },
  'casino.B.verify': {
    params: z.strictObject({
      seed: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('The server seed hash'),
    }),
    query: z.strictObject({ nonce: z.int().min(0).max(999_999_999) }),
  },
};

export const REQUESTS: Readonly<Record<string, RequestContract>> = {
  ...FAUCET,
  ...ESCROW,
  ...CASINO,
  ...TRADING_REQUESTS,
  ...DOMAINS_REQUESTS,
  ...WALLET_REQUESTS,
};
