/**
 * The deployed casino's history and audit trail (spec/DEPLOYED.md §2.9, §2.7):
 * `GET /api/v1/bets/history?limit=&offset=` (limit at most 200) → `bets[].id` with
 * `pagination.{total, has_more}`; `GET /api/v1/fairness/audit/:betId` → `{ bet_id, game, amount,
 * payout_multiplier, won, amount_won, result, fairness: { server_seed_hash, server_seed,
 * client_seed, nonce, result_hash, seed_revealed } }`. The audit answer carries no parameters:
 * the fairness scheme recovers them from `result` (FairnessScheme.paramsOf). A hidden seed reads
 * "[hidden until seed rotation]". Fields are read under the deployment's names, each recorded as a
 * documented rename of afp's style A answer. `POST /api/v1/fairness/verify {bet_id}` (§2.7): while
 * the seed is active `{status: "seed_not_yet_revealed", …}`, once revealed `{verified, …}`.
 */
import { row, type DialectTable } from '../dialect.ts';
import { displayPlaces } from '../../documented-rules.ts';
import { casinoAuditRow } from '../casino-rows.ts';
import { readBetIds } from '../history-answer.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

export const DEPLOYED_HISTORY_LIMIT_MAX = 200;

export const CASINO_AUDIT_DEPLOYED: DialectTable = {
  'casino.verify': row('casino.verify', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.fairness.verify'),
      body: { bet_id: input.betId },
      auth: true,
    }),
    read: (reader) => {
      reader.knows('bet_id', 'server_seed_hash', 'client_seed', 'nonce', 'result_hash', 'message', 'note');
      reader.knows('game', 'result', 'won', 'amount_bet', 'amount_won', 'proof', 'how_to_verify_yourself');
      // While the seed is active the answer has a status and no `verified` (DEPLOYED.md §2.7).
      if (reader.has('status') && reader.string('status') === 'seed_not_yet_revealed') return { verified: null };
      return { verified: reader.boolean('verified', { optional: true }) };
    },
  }),
  'casino.history': row('casino.history', {
    request: (input) => ({
      service: 'casino',
      method: 'GET',
      path: deployedPath('casino.deployed.bets.history'),
      query: {
        limit: String(Math.max(1, Math.min(input.limit, DEPLOYED_HISTORY_LIMIT_MAX))),
        offset: String(input.offset),
      },
      auth: true,
    }),
    read: (reader, input) => {
      const betIds = readBetIds(reader);
      const total = reader.number('pagination.total', { documents: 'total', optional: true });
      const more = reader.boolean('pagination.has_more', { optional: true });
      reader.knows('summary', 'filters', 'tip');
      if (betIds === null) return null;
      const hasMore = more ?? (total !== null ? input.offset + betIds.length < total : betIds.length > 0);
      return { betIds, total, hasMore };
    },
  }),
  'casino.audit': casinoAuditRow({
    paths: {
      amount: 'amount',
      paid: ['amount_won', 'payout'],
      multiplier: ['payout_multiplier', 'verification.recorded.payout_multiplier'],
      result: ['result', 'verification.recorded.result'],
      clientSeed: ['fairness.client_seed', 'proof.client_seed'],
      nonce: ['fairness.nonce', 'proof.nonce'],
      seedHash: ['fairness.server_seed_hash', 'proof.server_seed_hash'],
      resultHash: ['fairness.result_hash', 'proof.result_hash'],
      balanceAfter: null,
      known: ['timestamp'],
    },
    seed: ['fairness.server_seed', 'verification.server_seed'],
    params: null,
    paidPlaces: displayPlaces('deployed', 'amount_won'),
  }),
};
