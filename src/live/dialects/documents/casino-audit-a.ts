/**
 * The documents' casino history and audit trail, as afp serves them. The documents list a bet
 * history only in style B (`{api_url}/casino-api/history?limit=&page=`, limit at most 100, pages
 * from 1, casino.md), so the history row lives on the shared api_url (`base: 'api'`); the audit
 * trail is style A's `GET /api/v1/fairness/audit/{betId}` (its body is afp's: the documents do not
 * show it), which carries the parameters as sent, the proof, the recorded result and multiplier,
 * and the server seed once revealed.
 * Paging: the operation's offset is turned into B's page number; an offset off a page boundary
 * drops the page's leading bets it already covers.
 */
import type { JsonObject } from '../../../core/errors.ts';
import { row, type DialectTable } from '../dialect.ts';
import { betIdSegment, readBetIds } from '../history-answer.ts';

export const B_HISTORY_LIMIT_MAX = 100;
const HEX_SEED = /^[0-9a-f]{64}$/;

const pageLimit = (limit: number): number => Math.max(1, Math.min(limit, B_HISTORY_LIMIT_MAX));

export const CASINO_AUDIT_A: DialectTable = {
  'casino.history': row('casino.history', {
    base: 'api',
    request: (input) => {
      const limit = pageLimit(input.limit);
      return {
        service: 'casino',
        method: 'GET',
        path: '/casino-api/history',
        query: { limit: String(limit), page: String(Math.floor(input.offset / limit) + 1) },
        auth: true,
      };
    },
    read: (reader, input) => {
      const ids = readBetIds(reader);
      const total = reader.number('total', { optional: true });
      reader.knows('page');
      if (ids === null) return null;
      const limit = pageLimit(input.limit);
      const betIds = ids.slice(input.offset % limit);
      const hasMore = total !== null ? input.offset + betIds.length < total : ids.length >= limit;
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
      const params = reader.object('parameters');
      const amountMicro = reader.money('amount');
      const paidMicro = reader.money('payout');
      const won = reader.boolean('won', { optional: true });
      const multiplier = reader.number('verification.recorded.payout_multiplier');
      const result = reader.any('verification.recorded.result');
      const seed = reader.any('verification.server_seed', { optional: true });
      const clientSeed = reader.string('proof.client_seed');
      const nonce = reader.number('proof.nonce');
      const seedHash = reader.string('proof.server_seed_hash');
      const resultHash = reader.string('proof.result_hash');
      const balanceAfterMicro = reader.money('balance_after', { optional: true });
      reader.knows('variant', 'placed_at', 'source');
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
          balanceAfterMicro,
        },
        params: params as JsonObject | null,
        revealedSeed: typeof seed === 'string' && HEX_SEED.test(seed) ? seed : null,
      };
    },
  }),
};
