/**
 * Reading one bet answer: the documents' style A answer and the deployment's share one shape
 * (`bet_id, game, amount_bet, result, won, payout_multiplier, amount_won, new_balance, proof`,
 * spec/NOTES.md and DEPLOYED.md §2.4), so both dialects read bets here, alone or as a batch element,
 * and the bet request's body is built here too (the same fields on both).
 * A bet answer without its proof cannot be verified: null, with the missing fields recorded.
 */
import type { JsonObject } from '../../core/errors.ts';
import { toNumber } from '../../core/money.ts';
import type { BetInput, LiveBet } from '../operations.ts';
import type { WireReader } from '../wire-reader.ts';

/** `{ amount, client_seed, ...params }` (with `game` for a batch element). */
export function betBody(bet: BetInput, withGame: boolean): JsonObject {
  const base: JsonObject = withGame ? { game: bet.game } : {};
  return { ...base, amount: toNumber(bet.amountMicro), client_seed: bet.clientSeed, ...bet.params };
}

/** A bet answer; `paidPlaces`: the decimals the dialect rounds `amount_won` to (null: exact). */
export function readBet(reader: WireReader, paidPlaces: number | null = null): LiveBet | null {
  const betId = reader.string('bet_id');
  const game = reader.string('game');
  const amountMicro = reader.money('amount_bet');
  const paidMicro = reader.money('amount_won');
  const multiplier = reader.number('payout_multiplier');
  const won = reader.boolean('won', { optional: true });
  const result = reader.any('result');
  const balanceAfterMicro = reader.money('new_balance', { optional: true });
  const clientSeed = reader.string('proof.client_seed');
  const nonce = reader.number('proof.nonce');
  const seedHash = reader.string('proof.server_seed_hash');
  const resultHash = reader.string('proof.result_hash');
  reader.knows('kelly', 'placed_at', 'index', 'ok');
  if (
    betId === null ||
    game === null ||
    amountMicro === null ||
    clientSeed === null ||
    nonce === null ||
    seedHash === null ||
    resultHash === null
  )
    return null;
  return {
    betId,
    game,
    amountMicro,
    paidMicro,
    multiplier,
    won,
    result,
    clientSeed,
    nonce,
    seedHash,
    resultHash,
    balanceAfterMicro,
    paidPlaces,
  };
}
