/**
 * What the deployed dialect's rows (`afp serve --dialect deployed`, src/http/routes/deployed/,
 * spec/DEPLOYED.md) take and answer, as zod definitions keyed by deployed row id, for the OpenAPI
 * documents (src/http/openapi.ts) — the deployed counterpart of openapi-requests.ts and
 * openapi-responses.ts. A deployed row that adapts a documents row reads only its `bodyKeys`
 * under the deployment's names, so its definition is the documents one renamed the same way.
 * Request objects are loose, not strict: the deployment ignores fields it does not read (the
 * published clients' extras pass unseen). Success bodies are strict, with the deployment's `_info`
 * (the same four keys as afp's). Error bodies are `{ error, message, ...extras }` (DeployedError).
 * Held to the rows by test/http/openapi-contract.test.ts (each field's probes against the row's
 * parse) and openapi-responses.test.ts (every success body of the deployed tour).
 * Done: the faucet and escrow rows; the casino's single-game bet rows, register, balance,
 * withdraw, the games list, the challenges, and the Kelly/stats rows that answer style A's body
 * (limits, config, history, stats me/session/leaderboard, gossip), and fairness seed-hash, audit,
 * rotate and seeds, video poker's deal and draw, tournaments list, get and enter; the batch,
 * Kelly simulate, bets history, fairness verify, tournaments create and play. Every deployed row
 * has its definition (test/http/openapi-contract.test.ts checks that none is missing); the domains
 * rows' are in openapi-deployed-domains.ts, the wallet's in openapi-deployed-wallet.ts.
 * One piece: a table, one definition per deployed row of the services left here, keyed by row id
 * beside the rows' shared shapes; a row is added by adding its entry.
 */
import * as z from 'zod';
import { BET_ID_PATTERN } from '../services/casino/bet-record.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';
import { PARLAY_LEG_GAMES, PARLAY_LEGS_MAX, PARLAY_LEGS_MIN } from '../services/casino/deployed/parlay-rule.ts';
import { HISTORY_SINCE_PATTERN, KELLY_SIMULATE_KEYS } from './routes/deployed/casino-stats.ts';
import { TOURNAMENT_PLAY_KEYS } from './routes/deployed/casino-tournaments.ts';
import {
  DOMAINS_DEPLOYED_ERRORS,
  DOMAINS_DEPLOYED_REQUESTS,
  DOMAINS_DEPLOYED_RESPONSES,
} from './openapi-deployed-domains.ts';
import {
  EXTRAS_DEPLOYED_ERRORS,
  EXTRAS_DEPLOYED_REQUESTS,
  EXTRAS_DEPLOYED_RESPONSES,
} from './openapi-deployed-extras.ts';
import type { RequestContract } from './openapi-fields.ts';
import { amountNumber, instant, named, oneOf, nonBlankString, usdcNumber as usdc, withInfo } from './openapi-fields.ts';
import { clientSeed, GAME_PARAMS } from './openapi-game-params.ts';
import { gameQuery, REQUESTS } from './openapi-requests.ts';
import {
  TRADING_DEPLOYED_ERRORS,
  TRADING_DEPLOYED_REQUESTS,
  TRADING_DEPLOYED_RESPONSES,
} from './openapi-deployed-trading.ts';
import {
  WALLET_DEPLOYED_ERRORS,
  WALLET_DEPLOYED_REQUESTS,
  WALLET_DEPLOYED_RESPONSES,
} from './openapi-deployed-wallet.ts';
import { betFields, CASINO_RESPONSES } from './openapi-responses-casino.ts';

/** validate.ts `optionalString`: absent or null, else a non-blank string of at most `max` characters. */
const optionalText = (max: number): z.ZodOptional<z.ZodNullable<z.ZodString>> =>
  z.string().max(max).regex(/\S/).nullable().optional();

/** The faucet's `agent_casino_id`: a non-blank string of at most 64 characters (the casino agent id). */
const FAUCET_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'faucet.deployed.claim': {
    body: z.looseObject({
      agent_casino_id: z
        .string()
        .max(64)
        .regex(/\S/)
        .describe('Your casino agent id (ag_...), from POST /api/v1/auth/register'),
      referral_code: optionalText(128).describe('A referral code (recorded by the deployment; afp does not track it)'),
    }),
  },
};

const escrowId = z.strictObject({ id: z.string().describe('The escrow id (esc_...)') });
const reason = optionalText(1000);

const ESCROW_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'escrow.deployed.create': {
    body: z.looseObject({
      amount_usd: amountNumber().describe('USDC, a positive JSON number with at most 6 decimals (at least 0.10)'),
      description: z
        .string()
        .max(1000)
        .refine((text) => text.trim().length >= 3)
        .meta({ minLength: 3 })
        .describe('3 to 1000 characters (trimmed length at least 3)'),
      counterparty_agent_id: z
        .string()
        .max(128)
        .regex(/\S/)
        .describe('The counterparty: agent id, address or referral code'),
      timeout_hours: z
        .number()
        .nullable()
        .optional()
        .describe('Hours until automatic refund: floor, clamped to 1..720 (default 24)'),
      referral_code: optionalText(128).describe(
        'A known referral code earns its agent 15% of the fee; an unknown one is ignored',
      ),
    }),
  },
  'escrow.deployed.complete': {
    params: escrowId,
    body: z.looseObject({ reason: reason.describe('Read and checked, unused') }),
    bodyOptional: true,
  },
  'escrow.deployed.release': {
    params: escrowId,
    body: z.looseObject({ reason: reason.describe('Read and checked, unused') }),
    bodyOptional: true,
  },
  'escrow.deployed.dispute': {
    params: escrowId,
    body: z.looseObject({ reason: reason.describe('Why (default "No reason given")') }),
    bodyOptional: true,
  },
  'escrow.deployed.get': { params: escrowId },
};

/**
 * The single-game rows adapt style A's with bodyKeys = amount, client_seed and the game's fields,
 * under the same names: style A's definition, loosened (other fields are ignored).
 */
const SINGLE_GAMES = GAME_IDS.filter((game) => game !== 'video_poker');
/** A recorded bet's game on the deployed wire: the 17 and the parlay (one bet of several legs). */
const BET_GAMES = [...GAME_IDS, 'parlay'] as const;
const parlayLeg = z.looseObject({
  game: z.enum(PARLAY_LEG_GAMES as [string, ...string[]]),
  params: z
    .looseObject({ client_seed: clientSeed() })
    .optional()
    .describe("The leg game's fields (missing ones take the batch defaults; simple_dice's pick may be `guess`)"),
});
const loosened = (rowId: string): z.ZodObject => {
  const body = REQUESTS[rowId]?.body;
  if (!(body instanceof z.ZodObject)) throw new Error(`${rowId} has an object body`);
  return z.looseObject(body.shape);
};
/** Style A's definition of `rowId` on the `keys` the deployed row reads, loosened. */
const picked = (rowId: string, keys: readonly string[]): z.ZodObject =>
  z.looseObject(Object.fromEntries(keys.map((key) => [key, loosened(rowId).shape[key] as z.ZodType])));
/** A row that reads no body field: whatever object is sent is ignored (the deployment's extras). */
const ignoredBody = z.looseObject({}).describe('Any fields are ignored');
/** The game fields of `game` among `keys` (the fields a deployed row reads), loose. */
const gameFields = (game: (typeof SINGLE_GAMES)[number], keys: readonly string[]): z.ZodRawShape =>
  Object.fromEntries(Object.entries(GAME_PARAMS[game]).filter(([key]) => keys.includes(key)));
/** casino-batch.ts DEFAULTS: a batch element's missing game field takes the deployment's default. */
const BATCH_GAMES = SINGLE_GAMES.filter((game) => game !== 'baccarat');
const defaulted = (shape: z.ZodRawShape): z.ZodRawShape =>
  Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, (schema as z.ZodType).optional()]));
const batchElement = oneOf(
  'game',
  BATCH_GAMES.map((game) =>
    z.looseObject({
      game: z.literal(game),
      ...defaulted(GAME_PARAMS[game]),
      amount: amountNumber(),
      client_seed: clientSeed(),
    }),
  ),
).describe(
  "A bet: game, amount, client_seed? and the game's fields (missing ones take the deployment's defaults: side heads, direction over, threshold 50, ...)",
);
/**
 * deployed casino-stats.ts kellySimulate reads only KELLY_SIMULATE_KEYS: a game whose style A fields
 * outside them are required cannot be simulated there (the row refuses it).
 */
const SIMULATE_GAMES = SINGLE_GAMES.filter((game) =>
  Object.entries(GAME_PARAMS[game]).every(
    ([key, schema]) => KELLY_SIMULATE_KEYS.includes(key) || (schema as z.ZodType).safeParse(undefined).success,
  ),
);
const simulateOption = (game: (typeof SINGLE_GAMES)[number]): z.ZodObject => {
  const simulate = REQUESTS['casino.A.kelly.simulate']?.body as z.ZodUnion<z.ZodObject[]>;
  const option = simulate.options.find(
    (candidate) => (candidate.shape['game'] as z.ZodLiteral).value === game,
  ) as z.ZodObject;
  return z.looseObject(
    Object.fromEntries(Object.entries(option.shape).filter(([key]) => KELLY_SIMULATE_KEYS.includes(key))),
  );
};
/** A tournament bet on `game`: its fields; the other games' fields the row reads are refused. */
const playOption = (game: (typeof SINGLE_GAMES)[number]): z.ZodObject => {
  const own = gameFields(game, TOURNAMENT_PLAY_KEYS);
  const others = TOURNAMENT_PLAY_KEYS.filter((key) => !(key in own) && key !== 'amount' && key !== 'client_seed');
  return z.looseObject({
    ...Object.fromEntries(others.map((key) => [key, z.never().optional()])),
    game: z.literal(game).optional().describe("The tournament's game, if sent"),
    ...own,
    amount: amountNumber(),
    client_seed: clientSeed(),
  });
};
const unixSeconds = (): z.ZodInt => z.int().min(0).max(99_999_999_999).describe('Unix seconds');

const CASINO_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'casino.deployed.batch': {
    body: z.looseObject({
      bets: z
        .array(batchElement)
        .min(1)
        .max(20)
        .describe('1 to 20 bets, run in order; an element refused is answered in `results`'),
    }),
  },
  'casino.deployed.kelly.simulate': {
    body: oneOf('game', SIMULATE_GAMES.map(simulateOption)).describe(
      `A Monte Carlo of flat bets on one of: ${SIMULATE_GAMES.join(', ')} (the games whose fields the deployment reads)`,
    ),
  },
  'casino.deployed.bets.history': {
    query: z.strictObject({
      game: z.enum(GAME_IDS).optional().describe('One game only'),
      outcome: z.enum(['won', 'lost']).optional().describe('Within the page read'),
      limit: z.int().min(1).max(200).optional().describe('1 to 200 (default 50); afp answers at most its page of 100'),
      offset: z.int().min(0).max(9_999_999).optional().describe('Bets to skip (default 0)'),
      since: z
        .string()
        .regex(HISTORY_SINCE_PATTERN)
        .optional()
        .describe('Unix seconds, or an ISO 8601 date or instant (2026-01-01, 2026-01-01T12:00:00Z)'),
    }),
  },
  'casino.deployed.fairness.verify': {
    body: z
      .union([
        z.looseObject({ bet_id: z.string().regex(BET_ID_PATTERN).describe('One of your bets (bet_...)') }),
        z.looseObject({
          server_seed: z
            .string()
            .regex(/^[0-9a-f]{64}$/)
            .describe('64 lowercase hex characters'),
          server_seed_hash: z.string(),
          client_seed: z
            .string()
            .regex(/^[!-9;-~]{1,64}$/)
            .describe("1 to 64 printable characters without ':'"),
          nonce: z.int().min(0),
        }),
      ])
      .describe('{ bet_id }, or a seed, its hash, a client seed and a nonce'),
    bodyOptional: true,
  },
  'casino.deployed.tournaments.create': {
    body: z.looseObject({
      name: nonBlankString(64),
      game: nonBlankString(32).describe('A game id, e.g. dice'),
      entry_fee_usdc: z.number().min(0).max(1e12).optional().describe('USDC, default 0'),
      prize_pool_usdc: amountNumber().describe('USDC paid by the creator (afp funds the pool from its creator)'),
      max_agents: z.int().min(2).max(1000).nullable().optional(),
      starts_at: unixSeconds(),
      ends_at: unixSeconds().describe('Unix seconds, after starts_at'),
    }),
  },
  'casino.deployed.tournaments.play': {
    params: REQUESTS['casino.A.tournaments.play']?.params as z.ZodObject,
    body: z
      .union(SINGLE_GAMES.map(playOption))
      .describe(
        "A bet of the tournament's game: amount, client_seed? and the game's fields (another game's fields are refused)",
      ),
  },
  ...Object.fromEntries(
    SINGLE_GAMES.map((game) => [`casino.deployed.game.${game}`, { body: loosened(`casino.A.game.${game}`) }]),
  ),
  'casino.deployed.game.parlay': {
    body: z.looseObject({
      amount: amountNumber().describe('0.01 to 10'),
      bets: z
        .array(parlayLeg)
        .min(PARLAY_LEGS_MIN)
        .max(PARLAY_LEGS_MAX)
        .describe('2 to 5 legs, each drawn on its own nonce; every leg must win'),
    }),
  },
  'casino.deployed.register': {
    body: z.looseObject({
      referral_code: z
        .string()
        .nullable()
        .optional()
        .describe(
          'A known referral code links the referrer; any other text (or null) is ignored, as the deployment does',
        ),
    }),
    bodyOptional: true,
  },
  'casino.deployed.kelly.config': { body: picked('casino.A.kelly.config', ['risk_factor']) },
  'casino.deployed.tournaments.list': { query: REQUESTS['casino.A.tournaments.list']?.query as z.ZodObject },
  'casino.deployed.tournaments.get': { params: REQUESTS['casino.A.tournaments.get']?.params as z.ZodObject },
  'casino.deployed.tournaments.enter': {
    params: REQUESTS['casino.A.tournaments.enter']?.params as z.ZodObject,
    body: ignoredBody,
    bodyOptional: true,
  },
  'casino.deployed.video-poker.deal': {
    body: z.looseObject({
      amount: amountNumber()
        .optional()
        .describe('A stake committed until the draw; without one the deal is free and the draw places the bet'),
      client_seed: picked('casino.A.video-poker.deal', ['client_seed']).shape['client_seed'] as z.ZodType,
    }),
    bodyOptional: true,
  },
  'casino.deployed.video-poker.draw': {
    body: z.looseObject({
      ...picked('casino.A.video-poker.draw', ['holds', 'nonce', 'amount']).shape,
      holds: z
        .array(z.boolean())
        .length(5)
        .or(loosened('casino.A.video-poker.draw').shape['holds'] as z.ZodType)
        .describe("Five booleans (the deployment's form), or afp's card codes or positions"),
    }),
  },
  'casino.deployed.fairness.audit': { params: REQUESTS['casino.A.fairness.audit']?.params as z.ZodObject },
  'casino.deployed.fairness.rotate': { body: ignoredBody, bodyOptional: true },
  'casino.deployed.stats.leaderboard': { query: gameQuery }, // game only (DEPLOYED.md), not the documents' limit
  'casino.deployed.challenges.create': {
    body: picked('casino.A.challenges.create', ['challenged_agent_id', 'game', 'amount', 'message']),
  },
  'casino.deployed.challenges.accept': {
    params: REQUESTS['casino.A.challenges.accept']?.params as z.ZodObject,
    body: ignoredBody,
    bodyOptional: true,
  },
  'casino.deployed.challenges.decline': {
    params: REQUESTS['casino.A.challenges.decline']?.params as z.ZodObject,
    body: ignoredBody,
    bodyOptional: true,
  },
  'casino.deployed.withdraw': {
    body: z.looseObject({
      amount: amountNumber().max(100_000).describe('USDC, at least 1.00, at most 100 000; the 0.50 fee is added'),
      address: picked('casino.A.withdraw', ['address']).shape['address'] as z.ZodType,
    }),
  },
};

export const DEPLOYED_REQUESTS: Readonly<Record<string, RequestContract>> = {
  ...FAUCET_REQUESTS,
  ...ESCROW_REQUESTS,
  ...CASINO_REQUESTS,
  ...TRADING_DEPLOYED_REQUESTS,
  ...DOMAINS_DEPLOYED_REQUESTS,
  ...EXTRAS_DEPLOYED_REQUESTS,
  ...WALLET_DEPLOYED_REQUESTS,
};

const deployedStatus = z.enum(['funded', 'completed', 'released', 'refunded', 'disputed']);
const escrowView = {
  escrow_id: z.string(),
  amount_usd: usdc(),
  commission_usd: usdc(),
  net_to_counterparty: usdc(),
  description: z.string(),
  creator_id: z.string(),
  counterparty_id: z.string(),
  status: deployedStatus,
  timeout_hours: z.int().min(1).max(720),
  auto_release_at: instant(),
};

/** §2.4: style A's bet answer without `placed_at`. */
const { placed_at: _placedAt, ...deployedBetFields } = betFields;
const deployedBet = named('DeployedBet', withInfo(deployedBetFields));

const tier = z.enum(['free', 'pro', 'enterprise']);
const withdrawalBase = { withdrawal_id: z.string(), amount: usdc(), fee: usdc(), new_balance: usdc() };

/** casino-challenges.ts `challengeLine`: a resolved challenge adds the winner and the payout. */
const challengeLine = {
  challenge_id: z.string(),
  challenger_id: z.string(),
  challenged_id: z.string(),
  game: z.string(),
  amount: usdc(),
  status: z.string().describe('pending, accepted, declined...'),
  message: z.string().nullable(),
  winner: z.string().nullable().optional(),
  payout_to_winner: usdc().optional(),
  house_cut: usdc().optional(),
};
const challenge = named('DeployedChallenge', z.strictObject(challengeLine));

/** The deployed rows that answer their style A row's body as is (casino-stats.ts `documentsBody`). */
const AS_STYLE_A = [
  'kelly.limits',
  'kelly.config',
  'kelly.history',
  'stats.me',
  'stats.session',
  'stats.leaderboard',
  'gossip',
];

const hex64 = (): z.ZodString => z.string().regex(/^[0-9a-f]{64}$/);

const card = z.strictObject({ rank: z.string(), suit: z.string() });

/** casino-tournaments.ts `listLine`: instants as unix seconds. */
const tournamentLine = named(
  'DeployedTournament',
  z.strictObject({
    id: z.string(),
    name: z.string(),
    game: z.string(),
    entry_fee: usdc(),
    prize_pool: usdc(),
    agent_count: z.int().min(0),
    max_agents: z.int().nullable(),
    starts_at: z.int().describe('Unix seconds'),
    ends_at: z.int().describe('Unix seconds'),
    status: z.string(),
  }),
);

/** A refused element of a batch: the deployment's error body without `_info`. */
const elementRefusal = z.looseObject({
  error: z.string().describe('The refusal, as a single bet names it (minimum_bet, insufficient_balance, ...)'),
  message: z.string(),
});

/** fairness.verify (deployed casino-fairness.ts): a revealed bet, a bet whose seed is still active, or a seed. */
const verifyProof = z.strictObject({
  server_seed: hex64(),
  server_seed_hash: hex64(),
  client_seed: z.string(),
  nonce: z.int().min(0),
  result_hash: hex64(),
  computed_result: z.number().min(0).max(99.99).describe('the roll (parseInt(result_hash[0..8], 16) % 10000) / 100'),
  hash_matches: z.boolean(),
});
const verifyAnswers = z.union([
  withInfo({
    bet_id: z.string(),
    verified: z.boolean(),
    game: z.enum(BET_GAMES),
    result: z.record(z.string(), z.unknown()),
    won: z.boolean(),
    amount_bet: usdc(),
    amount_won: usdc(),
    proof: verifyProof,
    how_to_verify_yourself: z.string(),
  }),
  withInfo({
    bet_id: z.string(),
    status: z.literal('seed_not_yet_revealed'),
    server_seed_hash: hex64(),
    client_seed: z.string(),
    nonce: z.int().min(0),
    result_hash: hex64(),
    message: z.string(),
    note: z.string(),
  }),
  withInfo({
    verified: z.boolean(),
    result: z.number().min(0).max(99.99).describe('the roll'),
    result_hash: hex64(),
    hash_matches: z.boolean(),
  }),
]);

export const DEPLOYED_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  ...DOMAINS_DEPLOYED_RESPONSES,
  ...EXTRAS_DEPLOYED_RESPONSES,
  'casino.deployed.batch': withInfo({
    results: z.array(z.union([z.strictObject(deployedBetFields), elementRefusal])),
    summary: z.strictObject({
      total: z.int().min(1),
      won: z.int().min(0),
      lost: z.int().min(0),
      errors: z.int().min(0),
      total_wagered: usdc(),
      total_won: usdc(),
      net_pnl: usdc(),
      win_rate_pct: z.number().min(0).max(100),
    }),
    balance_after: usdc(),
    kelly_max_next_bet: usdc().describe('balance × your risk factor, rounded down to the cent'),
  }),
  'casino.deployed.kelly.simulate': CASINO_RESPONSES['casino.A.kelly.simulate'] as z.ZodType,
  'casino.deployed.bets.history': withInfo({
    bets: z.array(
      z.strictObject({
        id: z.string(),
        game: z.enum(BET_GAMES),
        amount: usdc(),
        amount_won: usdc(),
        multiplier: z.number(),
        won: z.boolean(),
        net: usdc(),
        verify: z.string(),
        at: instant(),
      }),
    ),
    pagination: z.strictObject({
      total: z.int().min(0),
      limit: z.int().min(1),
      offset: z.int().min(0),
      has_more: z.boolean(),
    }),
    summary: z.strictObject({ count: z.int().min(0), total_wagered: usdc(), total_won: usdc(), net: usdc() }),
    filters: z.strictObject({
      game: z.enum(GAME_IDS).nullable(),
      outcome: z.enum(['won', 'lost']).nullable(),
      since: instant().nullable(),
    }),
    tip: z.string(),
  }),
  'casino.deployed.fairness.verify': verifyAnswers,
  'casino.deployed.tournaments.create': withInfo({
    tournament_id: z.string(),
    name: z.string(),
    game: z.string(),
    entry_fee: usdc(),
    prize_pool: usdc(),
    max_agents: z.int().nullable(),
    starts_at: z.int().describe('Unix seconds'),
    ends_at: z.int().describe('Unix seconds'),
    status: z.string(),
    message: z.string(),
  }),
  'casino.deployed.tournaments.play': withInfo({
    ...deployedBetFields,
    tournament_score: usdc(),
    tournament_id: z.string(),
  }),
  'casino.deployed.tournaments.list': withInfo({ tournaments: z.array(tournamentLine) }),
  'casino.deployed.tournaments.get': withInfo({
    tournament: tournamentLine,
    leaderboard: z.array(
      z.strictObject({ rank: z.int().min(1), agent_id: z.string(), score: usdc(), winnings: usdc() }),
    ),
  }),
  'casino.deployed.tournaments.enter': withInfo({
    tournament_id: z.string(),
    agent_id: z.string(),
    position: z.int().min(0),
    entry_fee_paid: usdc(),
    message: z.string(),
  }),
  'casino.deployed.video-poker.deal': withInfo({
    phase: z.literal('deal'),
    cards: z.array(card).length(5),
    nonce: z.int().min(0),
    message: z.string(),
    instruction: z.string(),
  }),
  'casino.deployed.video-poker.draw': withInfo({
    ...deployedBetFields,
    poker_hand: z.string(),
    initial_cards: z.array(card),
    final_cards: z.array(card),
    holds: z.array(z.boolean()),
  }),
  'casino.deployed.fairness.seed-hash': withInfo({
    server_seed_hash: hex64(),
    note: z.string(),
    how_to_verify: z.string(),
  }),
  'casino.deployed.fairness.audit': withInfo({
    bet_id: z.string(),
    game: z.enum(BET_GAMES),
    amount: usdc(),
    payout_multiplier: z.number(),
    won: z.boolean(),
    amount_won: usdc(),
    result: z.record(z.string(), z.unknown()).describe("The game's outcome; its fields depend on the game"),
    fairness: z.strictObject({
      server_seed_hash: hex64(),
      server_seed: z.string().describe('The seed once revealed, else "[hidden until seed rotation]"'),
      client_seed: z.string(),
      nonce: z.int().min(0),
      result_hash: hex64(),
      seed_revealed: z.boolean(),
      seed_revealed_at: instant().nullable(),
    }),
    timestamp: instant(),
  }),
  'casino.deployed.fairness.rotate': withInfo({
    message: z.string(),
    previous_seed: z.strictObject({ seed: hex64(), seed_hash: hex64(), bets_made: z.int().min(0), note: z.string() }),
    new_seed_hash: hex64(),
  }),
  'casino.deployed.fairness.seeds': withInfo({
    seeds: z.array(
      z.strictObject({
        id: z.int().min(1),
        seed_hash: hex64(),
        seed: z.string().describe('The seed once revealed, else a placeholder'),
        active: z.boolean(),
        bets_made: z.int().min(0),
        revealed_at: instant().nullable(),
        created_at: instant(),
      }),
    ),
  }),
  ...Object.fromEntries(
    AS_STYLE_A.map((name) => [`casino.deployed.${name}`, CASINO_RESPONSES[`casino.A.${name}`] as z.ZodType]),
  ),
  'casino.deployed.challenges.create': withInfo({ ...challengeLine, note: z.string() }),
  'casino.deployed.challenges.list': withInfo({
    incoming: z.array(challenge),
    outgoing: z.array(challenge),
    resolved: z.array(challenge).describe('Always empty in afp'),
  }),
  'casino.deployed.challenges.decline': withInfo(challengeLine),
  'casino.deployed.challenges.accept': withInfo({
    challenge_id: z.string(),
    winner: z.string().nullable().describe('null: a draw, both stakes returned'),
    loser: z.string(),
    game: z.string(),
    amount: usdc(),
    house_cut: usdc(),
    payout_to_winner: usdc(),
    game_result: z.record(z.string(), z.unknown()).nullable(),
    proof: z
      .strictObject({
        server_seed_hash: z.string(),
        client_seed: z.string(),
        nonce: z.int().min(0),
        result_hash: z.string(),
      })
      .nullable(),
    message: z.string(),
  }),
  'casino.deployed.register': withInfo({
    agent_id: z.string(),
    api_key: z.string().describe('Shown once; works on the faucet and escrow too'),
    referral_code: z.string(),
    balance: usdc(),
    tier,
    risk_factor: z.number(),
    referral_commission: z.strictObject({ level_1: z.number(), level_2: z.number(), level_3: z.number() }),
    message: z.string(),
    next_steps: z.array(z.string()),
  }),
  'casino.deployed.balance': withInfo({
    agent_id: z.string(),
    balance_usd: usdc(),
    tier,
    risk_factor: z.number(),
    lifetime: z.strictObject({
      total_deposited: usdc(),
      total_withdrawn: usdc(),
      total_wagered: usdc(),
      total_won: usdc(),
      net_profit: usdc(),
    }),
    recent_activity: z.array(
      z.strictObject({
        type: z.enum(['credit', 'debit']),
        amount: usdc(),
        balance_after: usdc(),
        reason: z.string(),
        service: z.string(),
        at: instant(),
      }),
    ),
  }),
  'casino.deployed.withdraw': z.union([
    withInfo({
      status: z.literal('completed'),
      ...withdrawalBase,
      chain: z.literal('base'),
      token: z.literal('USDC'),
      address: z.string(),
      tx_hash: z.string().nullable(),
      explorer: z.string(),
    }),
    withInfo({
      status: z.string().describe('Over 1000 USDC: reviewed before it is sent'),
      ...withdrawalBase,
      message: z.string(),
    }),
  ]),
  'casino.deployed.games': withInfo({
    games: z.array(
      z.strictObject({
        id: z.enum(BET_GAMES),
        name: z.string(),
        house_edge: z.string().describe('In prose: "0.5%", "~4%", "Player 1.24% | Banker 1.06%"'),
        payout: z.string().describe('In prose: "1.96x", "Variable (e.g. over 50 = 1.96x)"'),
        endpoint: z.string(),
        params: z.record(z.string(), z.string()),
        max_bet: usdc().optional().describe("The parlay's maximum stake (10)"),
      }),
    ),
    batch_endpoint: z.string(),
    note: z.string(),
  }),
  ...Object.fromEntries(SINGLE_GAMES.map((game) => [`casino.deployed.game.${game}`, deployedBet])),
  'casino.deployed.game.parlay': withInfo({
    parlay_id: z.string(),
    total_bet: usdc(),
    legs: z.array(
      z
        .looseObject({
          game: z.string(),
          params: z.record(z.string(), z.unknown()),
          nonce: z.int().min(0),
          won: z.boolean(),
        })
        .describe("The leg, its nonce and its game's result fields as a single bet writes them"),
    ),
    all_won: z.boolean(),
    legs_won: z.int().min(0),
    combined_multiplier: z.number().describe('round2(Π legs’ payouts × 0.90)'),
    payout: usdc(),
    balance_after: usdc(),
  }),
  'faucet.deployed.claim': withInfo({
    credited: usdc(),
    message: z.string(),
    casino_url: z.string(),
    claim_id: z.string(),
    agent_id: z.string(),
    referral_tracked: z.boolean().describe('Always false in afp (no referrer is recorded on a claim)'),
  }),
  'faucet.deployed.stats': withInfo({
    total_claims: z.number().int().nonnegative(),
    total_agents: z.number().int().nonnegative().describe('Agents that made at least one claim'),
    total_value_usd: usdc(),
    avg_per_agent: usdc().describe('total_value_usd over total_agents; 0 before any claim'),
  }),
  'escrow.deployed.create': withInfo({ ...escrowView, next_steps: z.array(z.string()) }),
  'escrow.deployed.complete': withInfo({
    escrow_id: z.string(),
    status: z.literal('completed'),
    completed_at: instant(),
    message: z.string(),
  }),
  'escrow.deployed.release': withInfo({
    escrow_id: z.string(),
    status: z.literal('released'),
    amount_released: usdc(),
    commission: usdc(),
    referral_commission: usdc(),
    counterparty_id: z.string(),
    message: z.string(),
  }),
  'escrow.deployed.dispute': withInfo({
    escrow_id: z.string(),
    status: z.literal('disputed'),
    reason: z.string(),
    message: z.string(),
    contact: z.string(),
  }),
  'escrow.deployed.get': withInfo({
    ...escrowView,
    created_at: instant(),
    completed_at: instant().nullable(),
    released_at: instant().nullable(),
    disputed_at: instant().nullable(),
  }),
  ...TRADING_DEPLOYED_RESPONSES,
  ...WALLET_DEPLOYED_RESPONSES,
};

/** What a single-game bet refuses with a 400 (the game rows and video poker's deal alike). */
const BET_REFUSALS: readonly string[] = [
  'invalid_params',
  'minimum_bet',
  'maximum_bet',
  'kelly_limit_exceeded',
  'insufficient_balance',
  'game_closed',
];

/**
 * The refusals each deployed row can answer beyond the dispatcher's own (400 `invalid_json`, 401,
 * 429 `rate_limited`, 503/500 fault windows): status → the deployment's error names (the rows'
 * files list them).
 */
export const DEPLOYED_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  'casino.deployed.batch': { 400: ['invalid_request', 'too_many_bets'] },
  'casino.deployed.kelly.simulate': { 400: ['invalid_request'] },
  'casino.deployed.bets.history': { 400: ['invalid_game', 'invalid_outcome', 'invalid_params'] },
  'casino.deployed.fairness.verify': {
    400: ['missing_params', 'invalid_params'],
    403: ['forbidden'],
    404: ['bet_not_found'],
  },
  'casino.deployed.tournaments.create': { 400: ['invalid_params', 'insufficient_balance'] },
  'casino.deployed.tournaments.play': {
    400: ['wrong_game', 'tournament_closed', 'tournament_not_active', 'insufficient_balance', 'invalid_params'],
    403: ['not_entered'],
    404: ['not_found'],
  },
  'casino.deployed.register': { 400: ['invalid_request'] },
  'casino.deployed.kelly.config': { 400: ['invalid_request'] },
  'casino.deployed.tournaments.list': { 400: ['invalid_request'] },
  'casino.deployed.tournaments.get': { 400: ['invalid_params'], 404: ['not_found'] },
  'casino.deployed.tournaments.enter': {
    400: [
      'already_entered',
      'tournament_full',
      'tournament_closed',
      'tournament_not_active',
      'insufficient_balance',
      'invalid_params',
    ],
    404: ['not_found'],
  },
  'casino.deployed.video-poker.deal': {
    400: BET_REFUSALS,
  },
  'casino.deployed.video-poker.draw': {
    400: ['invalid_params', 'amount_mismatch', 'hand_not_found', 'insufficient_balance'],
  },
  'casino.deployed.fairness.audit': { 400: ['invalid_request'], 403: ['forbidden'], 404: ['bet_not_found'] },
  'casino.deployed.stats.leaderboard': { 400: ['invalid_request'] },
  'casino.deployed.challenges.create': {
    400: ['invalid_params', 'self_challenge', 'insufficient_balance', 'challenge_limit'],
    404: ['agent_not_found'],
  },
  'casino.deployed.challenges.accept': {
    400: ['already_resolved', 'insufficient_balance', 'invalid_params'],
    403: ['forbidden'],
    404: ['not_found'],
  },
  'casino.deployed.challenges.decline': {
    400: ['already_resolved', 'invalid_params'],
    403: ['forbidden'],
    404: ['not_found'],
  },
  'casino.deployed.withdraw': {
    400: ['invalid_amount', 'invalid_address', 'minimum_withdrawal', 'maximum_withdrawal', 'insufficient_balance'],
  },
  ...Object.fromEntries(
    SINGLE_GAMES.map((game) => [
      `casino.deployed.game.${game}`,
      {
        400: BET_REFUSALS,
        429: ['rate_limit_exceeded'],
      },
    ]),
  ),
  'casino.deployed.game.parlay': {
    400: ['invalid_params', 'minimum_bet', 'maximum_bet', 'insufficient_balance'],
    429: ['rate_limit_exceeded'],
  },
  'faucet.deployed.claim': {
    400: ['invalid_request'],
    403: ['has_deposits'],
    404: ['agent_not_found'],
    409: ['already_claimed'],
    429: ['ip_rate_limited', 'rate_limited'],
  },
  'escrow.deployed.create': {
    400: ['invalid_amount', 'invalid_description', 'invalid_counterparty', 'self_escrow', 'invalid_request'],
    402: ['insufficient_balance'],
    404: ['counterparty_not_found'],
  },
  'escrow.deployed.complete': {
    400: ['invalid_request'],
    403: ['forbidden'],
    404: ['not_found'],
    409: ['invalid_status'],
  },
  'escrow.deployed.release': {
    400: ['invalid_request'],
    403: ['forbidden'],
    404: ['not_found'],
    409: ['invalid_status'],
  },
  'escrow.deployed.dispute': {
    400: ['invalid_request'],
    403: ['forbidden'],
    404: ['not_found'],
    409: ['invalid_status'],
  },
  'escrow.deployed.get': { 404: ['not_found'] },
  ...TRADING_DEPLOYED_ERRORS,
  ...DOMAINS_DEPLOYED_ERRORS,
  ...EXTRAS_DEPLOYED_ERRORS,
  ...WALLET_DEPLOYED_ERRORS,
};
