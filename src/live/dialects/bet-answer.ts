/**
 * Reading one bet answer: the documents' style A answer and the deployment's share one shape
 * (`bet_id, game, amount_bet, result, won, payout_multiplier, amount_won, new_balance, proof`,
 * spec/NOTES.md and DEPLOYED.md §2.4), so both dialects read bets here, alone or as a batch element,
 * and the bet request's body is built here too (the same fields on both). The audit trails keep
 * the same fields under other paths (BetAnswerPaths, casino-rows.ts): one reader, a table each.
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

/** A field's path as the dialect spells it, with the documents' path where that differs. */
export type FieldPath = string | readonly [path: string, documents: string];

/** Where a bet answer keeps each field: one table per answer shape (the bet answer, each audit trail). */
export interface BetAnswerPaths {
  readonly amount: FieldPath;
  readonly paid: FieldPath;
  readonly multiplier: FieldPath;
  readonly result: FieldPath;
  readonly clientSeed: FieldPath;
  readonly nonce: FieldPath;
  readonly seedHash: FieldPath;
  readonly resultHash: FieldPath;
  /** null: the answer carries no balance. */
  readonly balanceAfter: string | null;
  /** Top-level fields the answer may carry that afp does not read (not `unknown`). */
  readonly known: readonly string[];
}

/** The bet answer of style A and of the deployment (spec/NOTES.md, DEPLOYED.md §2.4). */
export const BET_ANSWER_PATHS: BetAnswerPaths = {
  amount: 'amount_bet',
  paid: 'amount_won',
  multiplier: 'payout_multiplier',
  result: 'result',
  clientSeed: 'proof.client_seed',
  nonce: 'proof.nonce',
  seedHash: 'proof.server_seed_hash',
  resultHash: 'proof.result_hash',
  balanceAfter: 'new_balance',
  known: ['kelly', 'placed_at', 'index', 'ok'],
};

/** `[path, options]` for a reader call: the documents' name only where it differs. */
export function readAt(field: FieldPath, optional = false): [string, { documents?: string; optional: boolean }] {
  return typeof field === 'string' ? [field, { optional }] : [field[0], { documents: field[1], optional }];
}

/** A bet answer read through `paths`; `paidPlaces`: the decimals the dialect rounds the credit to (null: exact). */
export function readBetAt(reader: WireReader, paths: BetAnswerPaths, paidPlaces: number | null): LiveBet | null {
  const betId = reader.string('bet_id');
  const game = reader.string('game');
  const amountMicro = reader.money(...readAt(paths.amount));
  const paidMicro = reader.money(...readAt(paths.paid));
  const multiplier = reader.number(...readAt(paths.multiplier));
  const won = reader.boolean('won', { optional: true });
  const result = reader.any(...readAt(paths.result));
  const balanceAfterMicro = paths.balanceAfter === null ? null : reader.money(paths.balanceAfter, { optional: true });
  const clientSeed = reader.string(...readAt(paths.clientSeed));
  const nonce = reader.number(...readAt(paths.nonce));
  const seedHash = reader.string(...readAt(paths.seedHash));
  const resultHash = reader.string(...readAt(paths.resultHash));
  reader.knows(...paths.known);
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
  const bet = { betId, game, amountMicro, paidMicro, multiplier, won, result, clientSeed, nonce, seedHash, resultHash };
  return { ...bet, balanceAfterMicro, paidPlaces };
}

/** A bet answer (BET_ANSWER_PATHS); `paidPlaces`: the decimals the dialect rounds `amount_won` to (null: exact). */
export function readBet(reader: WireReader, paidPlaces: number | null = null): LiveBet | null {
  return readBetAt(reader, BET_ANSWER_PATHS, paidPlaces);
}
