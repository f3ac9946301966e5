/**
 * The documents' style B faucet and escrow (platform.md), as afp serves them: short paths on the
 * shared api address (the target file gives that address as the faucet's and the escrow's URL),
 * bearer keys, money as decimal strings. Registration grants 10 USDC; a claim names its agent by
 * the key; an escrow is created by the caller for a `receiver`, with `expires_in` seconds.
 */
import { formatDecimal } from '../../../core/money.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { row, type DialectTable } from '../dialect.ts';
import { readEscrowList, readEscrowView, releaseAnswer, statusAnswer, type EscrowNames } from '../escrow-answer.ts';
import { DETAIL_SHARED, listQuery, registerBody, registrationAnswer } from './faucet-escrow-a.ts';

const ESCROW_B: EscrowNames = { amount: 'amount', fee: 'fee' };
const DETAIL_B = ['sender', 'receiver', 'description', ...DETAIL_SHARED, 'dispute'];
const HOUR_SECONDS = 3_600;

function escrowPath(escrowId: string, action = ''): string {
  return `/escrow/${encodeURIComponent(escrowId)}${action === '' ? '' : `/${action}`}`;
}

export const FAUCET_ESCROW_B: DialectTable = {
  'faucet.register': row('faucet.register', {
    request: (input) => ({
      service: 'faucet',
      method: 'POST',
      path: '/register',
      body: registerBody(input),
      auth: false,
    }),
    read: registrationAnswer('amount', 'currency', 'balance', 'next_claim'),
  }),
  'faucet.claim': row('faucet.claim', {
    request: () => ({ service: 'faucet', method: 'POST', path: '/claim', body: {}, auth: true }),
    read: (reader) => {
      reader.knows('balance', 'next_claim');
      return { creditedMicro: reader.money('amount') };
    },
  }),
  'faucet.status': row('faucet.status', {
    request: () => ({ service: 'faucet', method: 'GET', path: '/status', auth: true }),
    read: (reader) => {
      reader.knows('agent_id', 'can_claim', 'next_claim', 'seconds_until_next_claim', 'pool_balance');
      return { balanceMicro: reader.money('balance', { optional: true }) };
    },
  }),
  'escrow.create': row('escrow.create', {
    request: (input) => {
      const body: JsonObject = {
        amount: formatDecimal(input.amountMicro),
        receiver: input.counterpartyId,
        expires_in: input.expiresInSeconds ?? input.timeoutHours * HOUR_SECONDS,
      };
      if (input.description !== '') body['description'] = input.description;
      return { service: 'escrow', method: 'POST', path: '/escrow', body, auth: true };
    },
    read: (reader) => {
      reader.knows('fee', 'net', 'receiver', 'expires_at');
      return readEscrowView(reader, ESCROW_B);
    },
    expiry: { shortestSeconds: 1, sweepSeconds: 0, source: 'platform.md "Escrow" (style B expires_in, seconds)' },
  }),
  'escrow.release': row('escrow.release', {
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: escrowPath(input.escrowId, 'release'),
      auth: true,
    }),
    read: releaseAnswer({ fee: 'fee', net: 'net' }, 'escrow_id', 'tx_hash', 'net', 'fee'),
  }),
  'escrow.refund': row('escrow.refund', {
    request: (input) => ({ service: 'escrow', method: 'POST', path: escrowPath(input.escrowId, 'refund'), auth: true }),
    read: statusAnswer('escrow_id', 'amount', 'tx_hash'),
  }),
  'escrow.dispute': row('escrow.dispute', {
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: escrowPath(input.escrowId, 'dispute'),
      body: { reason: input.reason },
      auth: true,
    }),
    read: statusAnswer('escrow_id', 'reason', 'evidence', 'window_ends_at'),
  }),
  'escrow.get': row('escrow.get', {
    request: (input) => ({ service: 'escrow', method: 'GET', path: escrowPath(input.escrowId), auth: true }),
    read: (reader) => readEscrowView(reader.knows(...DETAIL_B), ESCROW_B),
  }),
  'escrow.list': row('escrow.list', {
    request: (input) => ({ service: 'escrow', method: 'GET', path: '/escrows', query: listQuery(input), auth: true }),
    read: (reader) => readEscrowList(reader, ESCROW_B, DETAIL_B),
  }),
};
