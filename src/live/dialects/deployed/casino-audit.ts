/**
 * The deployed casino's history and audit trail (spec/DEPLOYED.md §2.9, §2.7):
 * `GET /api/v1/bets/history?limit=&offset=` (limit at most 200) → `bets[].id` with
 * `pagination.{total, has_more}`; `GET /api/v1/fairness/audit/:betId` → `{ bet_id, game, amount,
 * payout_multiplier, won, amount_won, result, fairness: { server_seed_hash, server_seed,
 * client_seed, nonce, result_hash, seed_revealed } }`. The audit answer carries no parameters:
 * the fairness scheme recovers them from `result` (FairnessScheme.paramsOf). A hidden seed reads
 * "[hidden until seed rotation]". Fields are read under the deployment's names, each recorded as a
 * documented rename of afp's style A answer.
 */
import { row, type DialectTable } from '../dialect.ts';
import { displayPlaces } from '../../documented-rules.ts';
import { betIdSegment, readBetIds } from '../history-answer.ts';

export const DEPLOYED_HISTORY_LIMIT_MAX = 200;
const HEX_SEED = /^[0-9a-f]{64}$/;

export const CASINO_AUDIT_DEPLOYED: DialectTable = {
  'casino.history': row('casino.history', {
    request: (input) => ({
      service: 'casino',
      method: 'GET',
      path: '/api/v1/bets/history',
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
  'casino.audit': row('casino.audit', {
    request: (input) => ({
      service: 'casino',
      method: 'GET',
      path: `/api/v1/fairness/audit/${betIdSegment(input.betId)}`,
      auth: true,
    }),
    read: (reader) => {
      const betId = reader.string('bet_id');
      const game = reader.string('game');
      const amountMicro = reader.money('amount');
      const paidMicro = reader.money('amount_won', { documents: 'payout' });
      const won = reader.boolean('won', { optional: true });
      const multiplier = reader.number('payout_multiplier', { documents: 'verification.recorded.payout_multiplier' });
      const result = reader.any('result', { documents: 'verification.recorded.result' });
      const seed = reader.any('fairness.server_seed', { documents: 'verification.server_seed', optional: true });
      const clientSeed = reader.string('fairness.client_seed', { documents: 'proof.client_seed' });
      const nonce = reader.number('fairness.nonce', { documents: 'proof.nonce' });
      const seedHash = reader.string('fairness.server_seed_hash', { documents: 'proof.server_seed_hash' });
      const resultHash = reader.string('fairness.result_hash', { documents: 'proof.result_hash' });
      reader.knows('timestamp');
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
        bet: {
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
          balanceAfterMicro: null,
          paidPlaces: displayPlaces('deployed', 'amount_won'),
        },
        params: null,
        revealedSeed: typeof seed === 'string' && HEX_SEED.test(seed) ? seed : null,
      };
    },
  }),
};
