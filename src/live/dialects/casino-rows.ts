/**
 * The casino rows whose request is the same on every dialect that serves them (the documents'
 * style A and the deployment): the batch, the seeds list, the withdrawal and the audit trail. Each
 * is one function over the data that differs — where a field sits (a FieldPath: the dialect's
 * path, with the documents' path where it differs), which fields are known but unread, how an
 * error element is told — so a new dialect is a new table of paths, never a copied reader.
 * Invariants: a seed counts as revealed only as 64 lowercase hex digits (the deployment shows a
 * hidden one as a sentence); a missing required field gives null, as every row's read does.
 */
import type { JsonObject } from '../../core/errors.ts';
import { toNumber } from '../../core/money.ts';
import type { WireReader } from '../wire-reader.ts';
import { readBatchElements, readSummary } from './batch-answer.ts';
import { betBody, readAt, readBetAt, type BetAnswerPaths, type FieldPath } from './bet-answer.ts';
import { row, type OperationRow } from './dialect.ts';
import { deployedPath } from '../../http/deployed/deployed-wire.ts';

export const HEX_SEED = /^[0-9a-f]{64}$/;

/** A seed as revealed: 64 hex digits, else null (hidden, or not a seed). */
export const revealedSeedText = (seed: unknown): string | null =>
  typeof seed === 'string' && HEX_SEED.test(seed) ? seed : null;

export interface BatchAnswerShape {
  /** Which field names a refused element's error. */
  readonly errorName: 'code' | 'error';
  /** The dialect's own flag of an error element (the documents' `ok: false`). */
  readonly isError: (element: WireReader) => boolean;
  readonly paidPlaces: number | null;
  readonly known: readonly string[];
}

export function casinoBatchRow(shape: BatchAnswerShape): OperationRow<'casino.batch'> {
  return row('casino.batch', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.batch'),
      body: { bets: input.bets.map((bet) => betBody(bet, true)) },
      auth: true,
    }),
    read: (reader) => {
      const results = readBatchElements(reader, shape.errorName, shape.isError, shape.paidPlaces);
      if (results === null) return null;
      reader.knows(...shape.known);
      return {
        results,
        summary: readSummary(reader),
        balanceAfterMicro: reader.money('balance_after', { optional: true }),
      };
    },
  });
}

export interface SeedsAnswerShape {
  readonly seedHash: FieldPath;
  readonly seed: FieldPath;
  /** Known fields of the answer, and of each element. */
  readonly known: readonly string[];
  readonly elementKnown: readonly string[];
}

export function casinoSeedsRow(shape: SeedsAnswerShape): OperationRow<'casino.seeds'> {
  return row('casino.seeds', {
    request: () => ({
      service: 'casino',
      method: 'GET',
      path: deployedPath('casino.deployed.fairness.seeds'),
      auth: true,
    }),
    read: (reader) => {
      const list = reader.array('seeds');
      reader.knows(...shape.known);
      if (list === null) return null;
      const seeds = list.flatMap((item, index) => {
        const element = reader.nested(item, `seeds[${index}]`);
        const seedHash = element.string(...readAt(shape.seedHash));
        const seed = element.any(...readAt(shape.seed, true));
        element.knows(...shape.elementKnown);
        return seedHash === null ? [] : [{ seedHash, seed: revealedSeedText(seed) }];
      });
      return { seeds };
    },
  });
}

export function casinoWithdrawRow(known: readonly string[]): OperationRow<'casino.withdraw'> {
  return row('casino.withdraw', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.withdraw'),
      body: { amount: toNumber(input.amountMicro), address: input.address },
      auth: true,
    }),
    read: (reader) => {
      const status = reader.string('status', { optional: true });
      reader.knows(...known);
      return { status, balanceAfterMicro: reader.money('new_balance', { optional: true }) };
    },
  });
}

export interface AuditAnswerShape {
  readonly paths: BetAnswerPaths;
  /** Where the server seed is revealed. */
  readonly seed: FieldPath;
  /** Where the parameters sent are echoed; null: not sent (the scheme recovers them from `result`). */
  readonly params: string | null;
  readonly paidPlaces: number | null;
}

/** The audit trail (`GET /api/v1/fairness/audit/:betId`): the bet, its parameters, the seed once revealed. */
export function casinoAuditRow(shape: AuditAnswerShape): OperationRow<'casino.audit'> {
  return row('casino.audit', {
    request: (input) => ({
      service: 'casino',
      method: 'GET',
      path: deployedPath('casino.deployed.fairness.audit', { betId: input.betId }),
      auth: true,
    }),
    read: (reader) => {
      const params = shape.params === null ? null : reader.object(shape.params);
      const seed = reader.any(...readAt(shape.seed, true));
      const bet = readBetAt(reader, shape.paths, shape.paidPlaces);
      if (bet === null) return null;
      return { bet, params: params as JsonObject | null, revealedSeed: revealedSeedText(seed) };
    },
  });
}
