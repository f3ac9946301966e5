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
import { row, type DialectTable, type WireRequest } from '../dialect.ts';
import { readBatchElements, readSummary } from '../batch-answer.ts';

const HEX_SEED = /^[0-9a-f]{64}$/;

/** A game's style A path ("coin-flip"); an unknown game keeps its own name. */
export function gamePathA(game: string): string {
  try {
    return gameById(game as GameId).path;
  } catch {
    return game.replaceAll('_', '-');
  }
}

/** Registration: the same request on the documents' style A and the deployment. */
export function registerRequest(input: OperationInput<'casino.register'>): WireRequest {
  const body: JsonObject = {};
  if (input.referralCode !== undefined) body['referral_code'] = input.referralCode;
  return { service: 'casino', method: 'POST', path: '/api/v1/auth/register', body, auth: false };
}

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
      path: `/api/v1/games/${gamePathA(bet.game)}`,
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
  'casino.batch': row('casino.batch', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: '/api/v1/bets/batch',
      body: { bets: input.bets.map((bet) => betBody(bet, true)) },
      auth: true,
    }),
    read: (reader) => {
      const results = readBatchElements(reader, 'code', (element) => element.boolean('ok') === false);
      if (results === null) return null;
      return {
        results,
        summary: readSummary(reader),
        balanceAfterMicro: reader.money('balance_after', { optional: true }),
      };
    },
  }),
  'casino.rotate': row('casino.rotate', {
    request: () => ({ service: 'casino', method: 'POST', path: '/api/v1/fairness/rotate', auth: true }),
    read: (reader) => {
      const seed = reader.string('revealed.server_seed');
      const hash = reader.string('revealed.server_seed_hash');
      reader.knows('active');
      return { revealedSeed: seed !== null && HEX_SEED.test(seed) ? seed : null, revealedSeedHash: hash };
    },
  }),
  'casino.seeds': row('casino.seeds', {
    request: () => ({ service: 'casino', method: 'GET', path: '/api/v1/fairness/seeds', auth: true }),
    read: (reader) => {
      const list = reader.array('seeds');
      reader.knows('count');
      if (list === null) return null;
      const seeds = list.flatMap((item, index) => {
        const element = reader.nested(item, `seeds[${index}]`);
        const seedHash = element.string('server_seed_hash');
        const seed = element.any('server_seed', { optional: true });
        return seedHash === null
          ? []
          : [{ seedHash, seed: typeof seed === 'string' && HEX_SEED.test(seed) ? seed : null }];
      });
      return { seeds };
    },
  }),
  'casino.withdraw': row('casino.withdraw', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: '/api/v1/auth/withdraw',
      body: { amount: toNumber(input.amountMicro), address: input.address },
      auth: true,
    }),
    read: (reader) => {
      const status = reader.string('status', { optional: true });
      reader.knows(
        'withdrawal_id',
        'amount',
        'fee',
        'chain',
        'address',
        'tx_hash',
        'created_at',
        'completed_at',
        'total_debited',
      );
      return { status, balanceAfterMicro: reader.money('new_balance', { optional: true }) };
    },
  }),
};

/** Bets and refusals of a batch, in order (re-exported for tests). */
export function betsOf(results: ReadonlyArray<LiveBet | Refusal>): LiveBet[] {
  return results.filter((result): result is LiveBet => !isRefusal(result));
}
