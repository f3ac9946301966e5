/**
 * The documents' casino history and audit trail, as afp serves them. The documents list a bet
 * history only in style B (`{api_url}/casino-api/history?limit=&page=`, limit at most 100, pages
 * from 1, casino.md), so the history row lives on the shared api_url (`base: 'api'`); the audit
 * trail is style A's `GET /api/v1/fairness/audit/{betId}` (its body is afp's: the documents do not
 * show it), which carries the parameters as sent, the proof, the recorded result and multiplier,
 * and the server seed once revealed.
 * A bet's verification is style A's `POST /api/v1/fairness/verify {bet_id}` (`verified` null while
 * the seed is hidden), the same request a deployment takes (its path from the one wire table).
 * Paging: the operation's offset is turned into B's page number; an offset off a page boundary
 * drops the page's leading bets it already covers.
 */
import { row, type DialectTable } from '../dialect.ts';
import { casinoAuditRow } from '../casino-rows.ts';
import { readBetIds } from '../history-answer.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

export const B_HISTORY_LIMIT_MAX = 100;

const pageLimit = (limit: number): number => Math.max(1, Math.min(limit, B_HISTORY_LIMIT_MAX));

export const CASINO_AUDIT_A: DialectTable = {
  'casino.verify': row('casino.verify', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.fairness.verify'),
      body: { bet_id: input.betId },
      auth: true,
    }),
    read: (reader) => {
      reader.knows('bet_id', 'game', 'status', 'mismatches', 'server_seed_hash', 'server_seed', 'client_seed', 'nonce');
      reader.knows('result_hash', 'hmac_messages', 'recorded', 'recomputed', 'revealed_at');
      return { verified: reader.boolean('verified', { optional: true }) };
    },
  }),
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
  'casino.audit': casinoAuditRow({
    paths: {
      amount: 'amount',
      paid: 'payout',
      multiplier: 'verification.recorded.payout_multiplier',
      result: 'verification.recorded.result',
      clientSeed: 'proof.client_seed',
      nonce: 'proof.nonce',
      seedHash: 'proof.server_seed_hash',
      resultHash: 'proof.result_hash',
      balanceAfter: 'balance_after',
      known: ['variant', 'placed_at', 'source'],
    },
    seed: 'verification.server_seed',
    params: 'parameters',
    paidPlaces: null,
  }),
};
