/**
 * The documents' style A casino (casino.md, NOTES.md), as afp serves it: paths under /api/v1 on the
 * casino's own address, money as JSON numbers, errors `{ error, code }`, batch elements flagged by
 * `ok`, the revealed seed under `revealed`.
 */
import { toNumber } from '../../../core/money.ts';
import { gameById } from '../../../services/casino/games/index.ts';
import type { GameId } from '../../../services/casino/games/game.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { isRefusal, type LiveBet, type OperationInput, type Refusal } from '../../operations.ts';
import { betBody, readBet } from '../bet-answer.ts';
import { readHand } from '../card-answer.ts';
import { row, type DialectTable, type DialectRequest } from '../dialect.ts';
import { casinoBatchRow, casinoSeedsRow, casinoWithdrawRow, revealedSeedText } from '../casino-rows.ts';
import { challengeAcceptRow, challengeRow, tournamentCreateRow } from '../casino-pot-rows.ts';
import { tournamentEnterRow, tournamentPlayRow } from '../casino-tournament-rows.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

/** A game's style A path ("coin-flip"); an unknown game keeps its own name. */
export function gamePathA(game: string): string {
  try {
    return gameById(game as GameId).path;
  } catch {
    return game.replaceAll('_', '-');
  }
}

/** Registration: the same request on the documents' style A and the deployment. */
export function registerRequest(input: OperationInput<'casino.register'>): DialectRequest {
  const body: JsonObject = {};
  if (input.referralCode !== undefined) body['referral_code'] = input.referralCode;
  return { service: 'casino', method: 'POST', path: deployedPath('casino.deployed.register'), body, auth: false };
}

const TOURNAMENT_FIELDS_A = [
  'name',
  'game',
  'status',
  'creator',
  'entry_fee',
  'funded_by_creator',
  'max_agents',
  'entrants',
  'starts_at',
  'ends_at',
  'seconds_until_start',
  'created_at',
  'completed_at',
  'prizes',
];
const CHALLENGE_FIELDS_A = [
  'challenge_id',
  'challenger',
  'challenged',
  'game',
  'amount',
  'message',
  'status',
  'created_at',
  'expires_at',
  'settled_at',
  'winner',
  'payout',
  'house_cut',
  'result',
  'proof',
];

export const CASINO_A: DialectTable = {
  'casino.register': row('casino.register', {
    request: registerRequest,
    read: (reader) => {
      const agentId = reader.string('agent_id');
      const apiKey = reader.string('api_key');
      reader.knows('agent_address', 'referral_code', 'balance', 'created_at');
      return agentId === null || apiKey === null ? null : { agentId, apiKey };
    },
  }),
  'casino.balance': row('casino.balance', {
    request: () => ({ service: 'casino', method: 'GET', path: '/api/v1/auth/balance', auth: true }),
    read: (reader) => {
      const agentId = reader.string('agent_id', { optional: true });
      const balanceMicro = reader.money('balance');
      reader.knows('currency', 'pending_deposits', 'pending_withdrawals', 'recent_activity');
      return balanceMicro === null ? null : { agentId, balanceMicro };
    },
  }),
  'casino.games': row('casino.games', {
    request: () => ({ service: 'casino', method: 'GET', path: '/api/v1/games', auth: true }),
    read: (reader) => {
      const games = reader.array('games');
      reader.knows('count', 'closed');
      if (games === null) return null;
      return {
        games: games
          .map((game, index) => reader.nested(game, `games[${index}]`).string('id'))
          .filter((id): id is string => id !== null),
      };
    },
  }),
  'casino.bet': row('casino.bet', {
    request: (bet) => ({
      service: 'casino',
      method: 'POST',
      path: `${deployedPath('casino.deployed.games')}/${gamePathA(bet.game)}`,
      body: betBody(bet, false),
      auth: true,
    }),
    read: (reader) => readBet(reader),
  }),
  // Video poker (casino.md): the deal commits the amount; the draw places the bet with holds as positions.
  'casino.deal': row('casino.deal', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: '/api/v1/games/video-poker/deal',
      body: { amount: toNumber(input.amountMicro), client_seed: input.clientSeed },
      auth: true,
    }),
    read: (reader) => {
      const nonce = reader.number('nonce');
      const cards = readHand(reader, 'cards');
      reader.knows('amount', 'server_seed_hash', 'client_seed', 'pay_table', 'auto_drawn_previous_hand', 'balance');
      return nonce === null || cards === null ? null : { nonce, cards };
    },
  }),
  'casino.draw': row('casino.draw', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: '/api/v1/games/video-poker/draw',
      body: { nonce: input.nonce, holds: [...input.holds], amount: toNumber(input.amountMicro) },
      auth: true,
    }),
    read: (reader) => readBet(reader),
  }),
  'casino.batch': casinoBatchRow({
    errorName: 'code',
    isError: (element) => element.boolean('ok') === false,
    paidPlaces: null,
    known: [],
  }),
  'casino.rotate': row('casino.rotate', {
    request: () => ({ service: 'casino', method: 'POST', path: '/api/v1/fairness/rotate', auth: true }),
    read: (reader) => {
      const seed = reader.string('revealed.server_seed');
      const hash = reader.string('revealed.server_seed_hash');
      reader.knows('active');
      return { revealedSeed: revealedSeedText(seed), revealedSeedHash: hash };
    },
  }),
  'casino.seeds': casinoSeedsRow({
    seedHash: 'server_seed_hash',
    seed: 'server_seed',
    known: ['count'],
    elementKnown: [],
  }),
  // Tournaments and challenges (casino.md): instants as ISO 8601, money as JSON numbers.
  'casino.tournament-create': tournamentCreateRow({
    entryFee: 'entry_fee',
    prizePool: 'prize_pool',
    instant: (ms) => new Date(ms).toISOString(),
    known: TOURNAMENT_FIELDS_A,
  }),
  'casino.tournament-enter': tournamentEnterRow(),
  'casino.tournament-play': tournamentPlayRow(null),
  'casino.challenge': challengeRow(CHALLENGE_FIELDS_A),
  'casino.challenge-accept': challengeAcceptRow({ payout: 'payout', known: [...CHALLENGE_FIELDS_A, 'new_balance'] }),
  'casino.withdraw': casinoWithdrawRow([
    'withdrawal_id',
    'amount',
    'fee',
    'chain',
    'address',
    'tx_hash',
    'created_at',
    'completed_at',
    'total_debited',
  ]),
};

/** Bets and refusals of a batch, in order (re-exported for tests). */
export function betsOf(results: ReadonlyArray<LiveBet | Refusal>): LiveBet[] {
  return results.filter((result): result is LiveBet => !isRefusal(result));
}
