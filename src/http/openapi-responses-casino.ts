/**
 * The casino rows' success bodies (styles A, short and B), as zod definitions keyed by row id;
 * the faucet's and escrow's are in openapi-responses.ts, which joins the two tables. Same rules:
 * written once per shape, strict, `_info` added by `withInfo`. Open by design: a game's `result`
 * (its fields depend on the game) and maps keyed by game or variant.
 * One piece: a table, one success-body definition per casino row, keyed by row id, beside the
 * shapes the rows share.
 */
import * as z from 'zod';
import { GAME_IDS } from '../services/casino/games/game.ts';
import { instant, named, usdcNumber as usdc, usdcString as money, withInfo } from './openapi-fields.ts';

const nullable = <T extends z.ZodType>(schema: T): z.ZodNullable<T> => schema.nullable();
const count = (): z.ZodInt => z.int().min(0);
const hex64 = (): z.ZodString => z.string().regex(/^[0-9a-f]{64}$/);
const address = (): z.ZodString => z.string().regex(/^0x[0-9a-f]{40}$/);
const gameId = z.enum(GAME_IDS);
const result = z
  .record(z.string(), z.unknown())
  .describe("The game's outcome; its fields depend on the game (see the example)");

const proof = named(
  'BetProof',
  z.strictObject({ server_seed_hash: hex64(), client_seed: z.string(), nonce: count(), result_hash: hex64() }),
);
const kellySummary = named(
  'BetKelly',
  z
    .strictObject({
      bankroll: usdc(),
      risk_factor: z.number(),
      max_bet_this_game: usdc(),
      bets_until_ruin: z.number(),
      suggested_bet: usdc(),
    })
    .describe('The Kelly limit after this bet'),
);
export const betFields = {
  bet_id: z.string(),
  game: gameId,
  amount_bet: usdc(),
  result,
  won: z.boolean(),
  payout_multiplier: z.number(),
  amount_won: usdc(),
  new_balance: usdc(),
  proof,
  kelly: nullable(kellySummary),
  placed_at: instant(),
};
const betA = named('BetA', withInfo(betFields));
const kellyLimit = {
  max_bet: usdc(),
  kelly_fraction: z.number(),
  adjusted_fraction: z.number(),
  edge: z.number(),
  expected_value_per_bet: z.number(),
  bets_until_ruin: z.number(),
  suggested_bet: usdc(),
  growth_rate: z.number(),
};
const kellyLimits = named(
  'KellyLimits',
  z.strictObject({
    bankroll: usdc(),
    risk_factor: z.number(),
    limits: z.record(z.string(), z.strictObject(kellyLimit)).describe('By game variant, e.g. "dice:over:50"'),
  }),
);
const verification = named(
  'Verification',
  z.strictObject({
    bet_id: z.string(),
    game: gameId,
    verified: nullable(z.boolean()).describe('null until the server seed is revealed'),
    status: z.enum(['verified', 'mismatch', 'seed not yet revealed']),
    mismatches: z.array(z.string()),
    server_seed_hash: hex64(),
    server_seed: nullable(hex64()),
    client_seed: z.string(),
    nonce: count(),
    result_hash: hex64(),
    hmac_messages: z.array(z.string()),
    recorded: z.strictObject({ payout_multiplier: z.number(), result }),
    recomputed: nullable(z.strictObject({ multiplier: z.string(), result })),
    revealed_at: nullable(instant()),
  }),
);
const totals = {
  total_bets: count(),
  wins: count(),
  losses: count(),
  win_rate_pct: z.number(),
  total_wagered: usdc(),
  total_won: usdc(),
  net_profit: usdc(),
  biggest_win: usdc(),
};
const byGame = z.record(z.string(), z.strictObject(totals)).describe('By game id');
const leaderboard = named(
  'Leaderboard',
  withInfo({
    overall_leaderboard: z.array(
      z.strictObject({
        rank: z.int().min(1),
        agent_id: z.string(),
        total_wagered: usdc(),
        total_won: usdc(),
        net_profit: usdc(),
      }),
    ),
    biggest_wins: z.array(
      z.strictObject({
        agent_id: z.string(),
        game: gameId,
        bet: usdc(),
        won: usdc(),
        multiplier: z.number(),
        at: instant(),
      }),
    ),
    supported_games: z.array(gameId),
    filter_tip: z.string(),
    game: nullable(gameId),
    updated_at: instant(),
  }),
);
const ledgerLine = named(
  'LedgerLine',
  z.strictObject({
    id: z.int(),
    at: instant(),
    type: z.string(),
    reference: z.string(),
    counterparty: z.string(),
    amount: usdc(),
    balance_after: usdc(),
  }),
);
const withdrawal = {
  withdrawal_id: z.string(),
  chain: z.string(),
  address: z.string(),
  amount: usdc(),
  fee: usdc(),
  total_debited: usdc(),
  status: z.string(),
  tx_hash: nullable(z.string()),
  created_at: instant(),
  review_ends_at: nullable(instant()),
  completed_at: nullable(instant()),
};
const tournament = {
  tournament_id: z.string(),
  name: z.string(),
  game: z.string(),
  status: z.enum(['upcoming', 'active', 'completed', 'cancelled']),
  creator: z.string(),
  entry_fee: usdc(),
  prize_pool: usdc(),
  funded_by_creator: usdc(),
  max_agents: z.int(),
  entrants: count(),
  starts_at: instant(),
  ends_at: instant(),
  seconds_until_start: count(),
  created_at: instant(),
  completed_at: nullable(instant()),
  prizes: z.array(z.record(z.string(), z.unknown())),
};
const tournamentItem = named('Tournament', z.strictObject(tournament));
const challenge = {
  challenge_id: z.string(),
  challenger: z.string(),
  challenged: z.string(),
  game: z.string(),
  amount: usdc(),
  message: nullable(z.string()),
  status: z.string(),
  created_at: instant(),
  expires_at: instant(),
  settled_at: nullable(instant()),
  winner: nullable(z.string()),
  payout: usdc(),
  house_cut: usdc(),
  result: nullable(result),
  proof: nullable(proof),
};
const challengeItem = named('Challenge', z.strictObject(challenge));
const crashRound = {
  round_id: z.string(),
  status: z.string(),
  server_seed_hash: hex64(),
  betting_closes_at: instant(),
  crash_point: nullable(z.number()),
  crashed_at: nullable(instant()),
  server_seed: nullable(hex64()),
};

export const CASINO_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  ...Object.fromEntries(
    GAME_IDS.filter((game) => game !== 'video_poker').map((game) => [`casino.A.game.${game}`, betA]),
  ),
  'casino.A.register': withInfo({
    agent_id: z.string(),
    api_key: z.string().describe('Shown once'),
    agent_address: address(),
    referral_code: z.string(),
    balance: usdc(),
    created_at: instant(),
  }),
  'casino.A.balance': withInfo({
    agent_id: z.string(),
    balance: usdc(),
    currency: z.literal('USDC'),
    pending_deposits: usdc(),
    pending_withdrawals: usdc(),
    recent_activity: z.array(ledgerLine),
  }),
  'casino.A.deposit-address': withInfo({
    chain: z.string(),
    address: z.string(),
    token: z.literal('USDC'),
    confirmations_required: count(),
    estimated_confirmation_seconds: z.number(),
  }),
  'casino.A.withdraw': withInfo({ ...withdrawal, new_balance: usdc() }),
  'casino.A.supported-chains': withInfo({
    chains: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        token: z.literal('USDC'),
        deposits: z.boolean(),
        withdrawals: z.boolean(),
        confirmations_required: count(),
        estimated_confirmation_seconds: z.number(),
      }),
    ),
    withdrawal: z.strictObject({ chain: z.string(), fee: usdc(), minimum: usdc() }),
  }),
  'casino.A.deposits': withInfo({ deposits: z.array(z.record(z.string(), z.unknown())), count: count() }),
  'casino.A.ledger': withInfo({ transactions: z.array(ledgerLine), count: count() }),
  'casino.A.withdrawals': withInfo({ withdrawals: z.array(z.strictObject(withdrawal)), count: count() }),
  'casino.A.games': withInfo({
    games: z.array(
      z.strictObject({
        id: gameId,
        name: z.string(),
        path: z.string(),
        parameters: z.array(z.string()),
        house_edge: z.string(),
        theoretical_edge: z.number(),
        min_bet: usdc(),
        max_bet: usdc(),
        variants: z.array(z.string()),
      }),
    ),
    count: count(),
    closed: z.array(z.string()),
  }),
  'casino.A.batch': withInfo({
    results: z.array(
      z.union([
        z.strictObject({ index: count(), ok: z.literal(true), ...betFields }),
        z.looseObject({ index: count(), ok: z.literal(false), error: z.string(), code: z.string() }),
      ]),
    ),
    summary: z.strictObject({
      total: count(),
      won: count(),
      lost: count(),
      errors: count(),
      total_wagered: usdc(),
      total_won: usdc(),
      net_pnl: usdc(),
      win_rate_pct: z.number(),
    }),
    balance_after: usdc(),
  }),
  'casino.A.video-poker.deal': withInfo({
    nonce: count(),
    cards: z.array(z.string()).length(5),
    amount: usdc(),
    server_seed_hash: hex64(),
    client_seed: z.string(),
    pay_table: z.record(z.string(), z.number()),
    auto_drawn_previous_hand: nullable(betA.omit({ _info: true })),
    balance: usdc(),
  }),
  'casino.A.video-poker.draw': betA,
  'casino.A.kelly.limits': withInfo(kellyLimits.shape),
  'casino.A.kelly.optimal': withInfo({
    bankroll: usdc(),
    game: gameId,
    variant: z.string(),
    win_probability: z.number(),
    payout_multiplier: z.number(),
    risk_factor: z.number(),
    ...kellyLimit,
  }),
  'casino.A.kelly.config': withInfo({ risk_factor: z.number(), message: z.string(), new_limits: kellyLimits }),
  'casino.A.kelly.history': withInfo({
    history: z.array(z.strictObject({ at: instant(), bankroll: usdc(), bet_id: z.string(), game: gameId })),
    count: count(),
  }),
  'casino.A.kelly.simulate': withInfo({
    game: gameId,
    variant: z.string(),
    seed: z.string(),
    simulations: count(),
    num_bets: count(),
    starting_bankroll: usdc(),
    bet_amount: usdc(),
    ruin_probability: z.number(),
    average_final_bankroll: usdc(),
    median_final_bankroll: usdc(),
    best_case: usdc(),
    worst_case: usdc(),
    profitable_runs_pct: z.number(),
    percentiles: z.record(z.string(), usdc()).describe('5th, 25th, 50th, 75th, 95th final bankroll'),
  }),
  'casino.A.fairness.seed-hash': withInfo({ server_seed_hash: hex64(), next_nonce: count(), created_at: instant() }),
  'casino.A.fairness.verify': withInfo(verification.shape),
  'casino.A.fairness.audit': withInfo({
    bet_id: z.string(),
    game: gameId,
    variant: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    amount: usdc(),
    payout: usdc(),
    won: z.boolean(),
    placed_at: instant(),
    source: z.string(),
    balance_after: usdc(),
    proof,
    verification,
  }),
  'casino.A.fairness.rotate': withInfo({
    revealed: z.strictObject({
      server_seed_hash: hex64(),
      server_seed: hex64(),
      status: z.string(),
      nonces_used: count(),
      created_at: instant(),
      revealed_at: instant(),
    }),
    active: z.strictObject({ server_seed_hash: hex64(), next_nonce: count() }),
  }),
  'casino.A.fairness.seeds': withInfo({
    seeds: z.array(
      z.strictObject({
        server_seed_hash: hex64(),
        server_seed: nullable(hex64()),
        status: z.string(),
        nonces_used: count(),
        created_at: instant(),
        revealed_at: nullable(instant()),
      }),
    ),
    count: count(),
  }),
  'casino.A.stats.me': withInfo({
    agent_id: z.string(),
    ...totals,
    by_game: byGame,
    first_bet_at: nullable(instant()),
    last_bet_at: nullable(instant()),
  }),
  'casino.A.stats.session': withInfo({
    agent_id: z.string(),
    from: instant(),
    until: instant(),
    ...totals,
    by_game: byGame,
  }),
  'casino.A.stats.leaderboard': leaderboard,
  'casino.A.tournaments.create': withInfo(tournament),
  'casino.A.tournaments.list': withInfo({
    active: z.array(tournamentItem),
    upcoming: z.array(tournamentItem),
    count: count(),
  }),
  'casino.A.tournaments.get': withInfo({ ...tournament, leaderboard: z.array(z.record(z.string(), z.unknown())) }),
  'casino.A.tournaments.enter': withInfo({ entered: z.literal(true), ...tournament, new_balance: usdc() }),
  'casino.A.tournaments.play': withInfo({ tournament_id: z.string(), ...betFields }),
  'casino.A.challenges.create': withInfo(challenge),
  'casino.A.challenges.list': withInfo({ incoming: z.array(challengeItem), outgoing: z.array(challengeItem) }),
  'casino.A.challenges.accept': withInfo({ ...challenge, new_balance: usdc() }),
  'casino.A.challenges.decline': withInfo({ ...challenge, new_balance: usdc() }),
  'casino.A.gossip': withInfo({
    you_are_an_ai_agent: z.boolean(),
    product: z.string(),
    value_prop: z.string(),
    earn_passive_income: z.strictObject({
      how: z.string(),
      commission: z.string(),
      example_prompt_addition: z.string(),
    }),
    register_endpoint: z.string(),
    base_url: z.string(),
    earn_page: z.string(),
    multi_level_referral: z.boolean(),
    current_registered_agents: count(),
    research_paper: z.string(),
    agent_starter_kit: z.string(),
    tip: z.string(),
  }),
  'casino.A.referral.code': withInfo({
    referral_code: z.string(),
    share_message: z.string(),
    commission: z.strictObject({
      level_1_pct: z.number(),
      level_2_pct: z.number(),
      level_3_pct: z.number(),
      of: z.string(),
    }),
  }),
  'casino.A.referral.stats': withInfo({
    referral_code: z.string(),
    levels: z.array(
      z.strictObject({ level: z.int().min(1), rate_pct: z.number(), referred_agents: count(), earned: usdc() }),
    ),
    total_earned_casino: usdc(),
    total_earned_all_services: usdc(),
    paid_out: usdc(),
    pending_payout: usdc(),
    total_earned: usdc(),
    withdrawn: usdc(),
    available: usdc(),
    by_level: z.array(z.strictObject({ level: z.int().min(1), referred_agents: count(), earned: usdc() })),
  }),
  'casino.short.coinflip': withInfo({
    bet_id: z.string(),
    result: z.enum(['heads', 'tails']),
    won: z.boolean(),
    payout: usdc(),
    balance: usdc(),
    proof,
  }),
  'casino.short.crash.bet': withInfo({
    bet_id: z.string(),
    amount: usdc(),
    auto_cash_out: nullable(z.number()),
    ...crashRound,
    balance: usdc(),
  }),
  'casino.short.crash.cashout': withInfo({
    bet_id: z.string(),
    round_id: z.string(),
    cashed_out_at: nullable(z.number()),
    payout: usdc(),
    won: z.boolean(),
    balance: usdc(),
    server_seed_hash: hex64(),
    at: instant(),
  }),
  'casino.short.provably-fair': withInfo({
    id: z.string(),
    kind: z.string(),
    round: z.strictObject(crashRound),
    client_seed: z.string(),
    nonce: count(),
  }),
  'casino.short.leaderboard': leaderboard,
  'casino.B.bet': withInfo({
    bet_id: z.string(),
    win: z.boolean(),
    payout: money(),
    balance: money(),
    seed: hex64(),
    nonce: count(),
    game: z.string(),
    result,
  }),
  'casino.B.history': withInfo({
    bets: z.array(
      z.strictObject({
        id: z.string(),
        game: z.string(),
        amount: money(),
        win: z.boolean(),
        payout: money(),
        ts: instant(),
      }),
    ),
    total: count(),
    page: z.int().min(1),
  }),
  'casino.B.verify': withInfo({ ...verification.shape, payout: money(), amount: money() }),
  'casino.B.games': withInfo({
    games: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        house_edge: z.string(),
        min_bet: money(),
        max_bet: money(),
        status: z.string(),
      }),
    ),
  }),
  'casino.B.stats': withInfo({
    total_bets: count(),
    total_wagered: money(),
    total_won: money(),
    win_rate: z.string(),
    profit_loss: money(),
    games: z.record(
      z.string(),
      z.strictObject({ bets: count(), wagered: money(), won: money(), profit_loss: money() }),
    ),
  }),
};
