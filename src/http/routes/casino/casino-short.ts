/**
 * Casino short-style rows (mount 'casino', /api/v1): the coin flip with `{ side, amount,
 * currency }` answering `{ result, won, payout, balance }` (numbers), crash as a round on the
 * clock (bet, then cash out during the flight; crash-rounds.ts), the provably-fair lookup of a bet
 * or a crash round by id, and the leaderboard (casino-stats.ts).
 */
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import { BETTING_MS, type CrashBet, type CrashRound } from '../../../services/casino/crash-rounds.ts';
import { revealedSeed } from '../../../services/casino/fairness.ts';
import { coinFlip } from '../../../services/casino/games/coin-flip.ts';
import { decimalParam } from '../../../services/casino/games/params.ts';
import { isoTime, moneyA } from '../../render.ts';
import { defineRoute, type Route, type RouteContext } from '../../route.ts';
import {
  bodyOnly,
  knownQuery,
  NO_KEYS,
  optionalString,
  requiredAmount,
  requiredString,
  type Fields,
} from '../../validate.ts';
import { clientSeedField, type ParsedBet } from './casino-bet-fields.ts';
import { betCommand, casinoCaller } from './casino-games.ts';
import { proofOf } from './casino-render.ts';
import { casinoShortLeaderboard } from './casino-stats.ts';

/** `amount` with an optional `currency`, which must be USDC. */
function usdcAmount(fields: Fields): bigint | Failure {
  const currency = optionalString(fields['currency'], 'currency', 16);
  if (isFailure(currency)) return currency;
  if (currency !== undefined && currency !== 'USDC') return fail('BAD_REQUEST', 'currency must be USDC');
  return requiredAmount(fields['amount'], 'amount', 'number');
}

const COINFLIP_KEYS = ['side', 'amount', 'currency', 'client_seed'];

const coinflip = defineRoute<ParsedBet, BetRecord>({
  id: 'casino.short.coinflip',
  service: 'casino',
  style: 'short',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/games/coinflip',
  auth: 'bearer',
  summary: 'Flip a coin ({ side, amount, currency? }): pays 1.96x.',
  parse: (input) => {
    const fields = bodyOnly(input, COINFLIP_KEYS);
    if (isFailure(fields)) return fields;
    const amountMicro = usdcAmount(fields);
    if (isFailure(amountMicro)) return amountMicro;
    const paramsJson = { side: fields['side'] ?? null } as JsonObject;
    const params = coinFlip.parse(paramsJson);
    if (!params.ok) return params;
    const clientSeed = clientSeedField(fields);
    if (isFailure(clientSeed)) return clientSeed;
    return { game: coinFlip, params: params.value, paramsJson, amountMicro, clientSeed };
  },
  run: (context, parsed) => context.platform.casino.bet(betCommand(context, parsed, 'short'), context.nowMs),
  successStatus: 200,
  render: (bet) => ({
    bet_id: bet.id,
    result: String(bet.detail['outcome']),
    won: bet.won,
    payout: moneyA(bet.payoutMicro),
    balance: moneyA(bet.balanceAfterMicro),
    proof: proofOf(bet),
  }),
});

function roundView(round: CrashRound, nowMs: number): JsonObject {
  const crashed = round.status === 'crashed';
  return {
    round_id: round.id,
    status: round.status === 'betting' && nowMs >= round.bettingClosesAtMs ? 'flying' : round.status,
    server_seed_hash: round.seed?.hash ?? null,
    betting_closes_at: round.status === 'queued' ? null : isoTime(round.bettingClosesAtMs),
    crash_point: crashed ? round.crashCents / 100 : null,
    crashed_at: crashed ? isoTime(round.crashAtMs) : null,
    server_seed: crashed && round.seed !== null ? round.seed.hex : null,
  };
}

const CRASH_BET_KEYS = ['amount', 'auto_cash_out', 'currency'];

const crashBet = defineRoute<
  { amountMicro: bigint; autoCashOutCents: number | null },
  { round: CrashRound; bet: CrashBet }
>({
  id: 'casino.short.crash.bet',
  service: 'casino',
  style: 'short',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/games/crash/bet',
  auth: 'bearer',
  summary: `Join the next crash round ({ amount, auto_cash_out? 1.01..100 }); bets close ${BETTING_MS / 1000} s after a round opens.`,
  parse: (input) => {
    const fields = bodyOnly(input, CRASH_BET_KEYS);
    if (isFailure(fields)) return fields;
    const amountMicro = usdcAmount(fields);
    if (isFailure(amountMicro)) return amountMicro;
    if (fields['auto_cash_out'] === undefined || fields['auto_cash_out'] === null)
      return { amountMicro, autoCashOutCents: null };
    const auto = decimalParam(fields, 'auto_cash_out', '1.01', '100', 2);
    if (isFailure(auto)) return auto;
    return { amountMicro, autoCashOutCents: Number((auto.num * 100n) / auto.den) };
  },
  run: (context, command) =>
    context.platform.casino.crashRounds.bet(
      context.platform.casino.state,
      { agentId: casinoCaller(context), ...command },
      context.nowMs,
    ),
  successStatus: 200,
  render: ({ round, bet }, context) => ({
    bet_id: bet.betId,
    amount: moneyA(bet.amountMicro),
    auto_cash_out: bet.autoCashOutCents === null ? null : bet.autoCashOutCents / 100,
    ...roundView(round, context.nowMs),
    balance: moneyA(context.platform.casino.balanceMicro(bet.agentId)),
  }),
});

const CASHOUT_KEYS = ['bet_id'];

const crashCashout = defineRoute<string, { round: CrashRound; record: BetRecord }>({
  id: 'casino.short.crash.cashout',
  service: 'casino',
  style: 'short',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/games/crash/cashout',
  auth: 'bearer',
  summary: 'Cash out a crash bet ({ bet_id }) at the current multiplier, before the crash.',
  parse: (input) => {
    const fields = bodyOnly(input, CASHOUT_KEYS);
    return isFailure(fields) ? fields : requiredString(fields['bet_id'], 'bet_id', 64);
  },
  run: (context, betId) =>
    context.platform.casino.crashRounds.cashOut(
      context.platform.casino.state,
      casinoCaller(context),
      betId,
      context.nowMs,
    ),
  successStatus: 200,
  render: ({ round, record }, context) => ({
    bet_id: record.id,
    round_id: round.id,
    cashed_out_at: record.detail['cashed_out_at'] ?? null,
    payout: moneyA(record.payoutMicro),
    won: record.won,
    balance: moneyA(record.balanceAfterMicro),
    server_seed_hash: round.seed?.hash ?? null,
    at: isoTime(context.nowMs),
  }),
});

const provablyFair = defineRoute<string, string>({
  id: 'casino.short.provably-fair',
  service: 'casino',
  style: 'short',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/games/provably-fair/:id',
  auth: 'bearer',
  summary: 'The proof of one of your bets, or of a crash round, by id (seed shown once revealed).',
  parse: (input) =>
    knownQuery(input.query, NO_KEYS) ??
    ((input.params['id'] ?? '').length > 0 ? (input.params['id'] as string) : fail('BAD_REQUEST', 'id is required')),
  run: (context, id) => lookup(context, id),
  successStatus: 200,
  render: (id, context) => proofView(context, id),
});

function lookup(context: RouteContext, id: string): { ok: true; value: string } | Failure {
  const casino = context.platform.casino;
  if (casino.crashRounds.round(id) !== undefined) return succeed(id);
  const bet = casino.findBet(id);
  const crashBetRound = casino.crashRounds.roundOfBet(id);
  if (bet === undefined && crashBetRound === undefined) return fail('NOT_FOUND', `no bet or round ${id}`);
  const owner = bet?.agentId ?? crashBetRound?.bets.find((candidate) => candidate.betId === id)?.agentId;
  if (owner !== casinoCaller(context)) return fail('FORBIDDEN', `${id} belongs to another agent`);
  return succeed(id);
}

function proofView(context: RouteContext, id: string): JsonObject {
  const casino = context.platform.casino;
  const round = casino.crashRounds.round(id) ?? casino.crashRounds.roundOfBet(id);
  const bet = casino.findBet(id);
  if (bet !== undefined) {
    const seed = revealedSeed(casino.state, bet);
    return {
      id,
      kind: 'bet',
      game: bet.game,
      ...proofOf(bet),
      server_seed: seed?.hex ?? null,
      revealed: seed !== null,
      result: structuredClone(bet.detail),
      round: round === undefined ? null : roundView(round, context.nowMs),
    };
  }
  return {
    id,
    kind: round?.id === id ? 'round' : 'bet',
    round: round === undefined ? null : roundView(round, context.nowMs),
    client_seed: 'crash',
    nonce: round?.nonce ?? null,
  };
}

export const casinoShortRoutes: readonly Route[] = [
  coinflip,
  crashBet,
  crashCashout,
  provablyFair,
  casinoShortLeaderboard,
];
