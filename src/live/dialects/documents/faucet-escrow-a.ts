/**
 * The documents' style A faucet and escrow (platform.md), as afp serves them: each on its own
 * address under /api/v1, bearer keys, money as JSON numbers. The faucet's claim is the caller's own
 * (no agent id in the body); an escrow is created by the buyer for a `seller`.
 */
import { toNumber } from '../../../core/money.ts';
import { row, type DialectTable } from '../dialect.ts';

export const FAUCET_ESCROW_A: DialectTable = {
  'faucet.claim': row('faucet.claim', {
    request: () => ({ service: 'faucet', method: 'POST', path: '/api/v1/faucet/claim', auth: true }),
    read: (reader) => {
      reader.knows('balance_usdc');
      return { creditedMicro: reader.money('amount_usdc') };
    },
  }),
  'escrow.create': row('escrow.create', {
    request: (input) => ({ service: 'escrow', method: 'POST', path: '/api/v1/escrow/create', body: { buyer: input.creatorId, seller: input.counterpartyId, amount: toNumber(input.amountMicro), memo: input.description }, auth: true }),
    read: (reader) => {
      const escrowId = reader.string('escrow_id');
      reader.knows('fee', 'net', 'expires_at');
      return escrowId === null ? null : { escrowId, status: reader.string('status', { optional: true }), amountMicro: reader.money('amount', { optional: true }) };
    },
  }),
  'escrow.release': row('escrow.release', {
    request: (input) => ({ service: 'escrow', method: 'POST', path: '/api/v1/escrow/release', body: { escrow_id: input.escrowId }, auth: true }),
    read: (reader) => {
      reader.knows('escrow_id', 'released_amount', 'seller', 'fee', 'tx_hash');
      return { status: reader.string('status', { optional: true }) };
    },
  }),
  'escrow.get': row('escrow.get', {
    request: (input) => ({ service: 'escrow', method: 'GET', path: `/api/v1/escrow/${encodeURIComponent(input.escrowId)}`, auth: true }),
    read: (reader) => {
      const escrowId = reader.string('escrow_id');
      reader.knows('buyer', 'seller', 'fee', 'net', 'created_at', 'expires_at', 'released_at', 'refunded_at', 'disputed_at', 'memo', 'tx_hash', 'currency', 'dispute', 'conditions', 'referrer', 'settled_at');
      return escrowId === null ? null : { escrowId, status: reader.string('status', { optional: true }), amountMicro: reader.money('amount', { optional: true }) };
    },
  }),
};
