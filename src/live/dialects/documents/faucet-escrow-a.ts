/**
 * The documents' style A faucet and escrow (platform.md), as afp serves them: each on its own
 * address under /api/v1, bearer keys, money as JSON numbers. The faucet's claim is the caller's own
 * (no agent id in the body); an escrow is created by the buyer for a `seller`, always with the
 * default expiry (style A has no expiry field), and style A has no refund.
 */
import type { JsonObject } from '../../../core/errors.ts';
import { toNumber } from '../../../core/money.ts';
import type { OperationResult } from '../../operations.ts';
import type { WireReader } from '../../wire-reader.ts';
import { mcpToolRequest } from '../../mcp-call.ts';
import { row, type DialectTable } from '../dialect.ts';
import { readEscrowList, readEscrowView, releaseAnswer, statusAnswer, type EscrowNames } from '../escrow-answer.ts';

const ESCROW_A: EscrowNames = { amount: 'amount', fee: 'fee' };
/** The escrow detail fields both documented styles show (A and B name the parties otherwise). */
export const DETAIL_SHARED = [
  'fee',
  'net',
  'conditions',
  'referrer',
  'created_at',
  'expires_at',
  'settled_at',
  'tx_hash',
];
const DETAIL_A = [
  'buyer',
  'seller',
  'currency',
  'memo',
  ...DETAIL_SHARED,
  'released_at',
  'refunded_at',
  'disputed_at',
  'dispute',
];

/** `{ agent_id, referrer? }`: the same registration body in styles A and B. */
export function registerBody(input: { agentId: string; referrer?: string }): JsonObject {
  const body: JsonObject = { agent_id: input.agentId };
  if (input.referrer !== undefined) body['referrer'] = input.referrer;
  return body;
}

/** `?role=…&status=…&limit=…`, only the parts the input names. */
export function listQuery(input: {
  role: string | null;
  status: string | null;
  limit: number | null;
}): Record<string, string> {
  const query: Record<string, string> = {};
  if (input.role !== null) query['role'] = input.role;
  if (input.status !== null) query['status'] = input.status;
  if (input.limit !== null) query['limit'] = String(input.limit);
  return query;
}

/**
 * The read of a faucet registration: the agent, its key, address and referral code, and what the
 * registration credited (`credited`: its field; null when the dialect credits nothing, 0).
 */
export function registrationAnswer(
  credited: string | null,
  ...known: string[]
): (reader: WireReader) => OperationResult<'faucet.register'> | null {
  return (reader: WireReader): OperationResult<'faucet.register'> | null => {
    const agentId = reader.string('agent_id');
    const apiKey = reader.string('api_key');
    const address = reader.string('agent_address', { optional: true });
    const referralCode = reader.string('referral_code', { optional: true });
    const creditedMicro = credited === null ? 0n : reader.money(credited, { optional: true });
    reader.knows(...known);
    return agentId === null || apiKey === null ? null : { agentId, apiKey, address, referralCode, creditedMicro };
  };
}

export const FAUCET_ESCROW_A: DialectTable = {
  'faucet.register': row('faucet.register', {
    request: (input) => ({
      service: 'faucet',
      method: 'POST',
      path: '/api/v1/agents/register',
      body: registerBody(input),
      auth: false,
    }),
    read: registrationAnswer(null, 'created_at'),
  }),
  'faucet.claim': row('faucet.claim', {
    request: () => ({ service: 'faucet', method: 'POST', path: '/api/v1/faucet/claim', auth: true }),
    read: (reader) => {
      reader.knows('balance_usdc');
      return { creditedMicro: reader.money('amount_usdc') };
    },
  }),
  'faucet.status': row('faucet.status', {
    request: () => ({ service: 'faucet', method: 'GET', path: '/api/v1/faucet/status', auth: true }),
    read: (reader) => {
      reader.knows('eligible');
      return { balanceMicro: reader.money('balance_usdc', { optional: true }) };
    },
  }),
  'escrow.create': row('escrow.create', {
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: '/api/v1/escrow/create',
      auth: true,
      body: {
        buyer: input.creatorId,
        seller: input.counterpartyId,
        amount: toNumber(input.amountMicro),
        ...(input.description === '' ? {} : { memo: input.description }),
      },
    }),
    read: (reader) => {
      reader.knows('fee', 'net', 'expires_at');
      return readEscrowView(reader, ESCROW_A);
    },
    // Style A's create has no expiry field: every escrow takes the default.
    expiry: {
      shortestSeconds: 86_400,
      sweepSeconds: 0,
      source: 'platform.md "Limits" 8 (style A sends no expiry; the default 86400 seconds)',
    },
  }),
  'escrow.release': row('escrow.release', {
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: '/api/v1/escrow/release',
      body: { escrow_id: input.escrowId },
      auth: true,
    }),
    read: releaseAnswer(
      { fee: 'fee', net: 'released_amount' },
      'escrow_id',
      'released_amount',
      'seller',
      'fee',
      'tx_hash',
    ),
  }),
  // The escrow's MCP door (platform.md, NOTES.md: afp's tools answer through the style-B rows), keyed by the Authorization header.
  'escrow.mcp-release': row('escrow.mcp-release', {
    request: (input) => mcpToolRequest('escrow', 'release_escrow', { escrow_id: input.escrowId }, 'header'),
    read: releaseAnswer({ fee: 'fee', net: 'net' }, 'escrow_id', 'tx_hash', 'net', 'fee'),
  }),
  'escrow.dispute': row('escrow.dispute', {
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: '/api/v1/escrow/dispute',
      body: { escrow_id: input.escrowId, reason: input.reason },
      auth: true,
    }),
    read: statusAnswer('escrow_id', 'reason', 'evidence', 'window_ends_at'),
  }),
  'escrow.get': row('escrow.get', {
    request: (input) => ({
      service: 'escrow',
      method: 'GET',
      path: `/api/v1/escrow/${encodeURIComponent(input.escrowId)}`,
      auth: true,
    }),
    read: (reader) => readEscrowView(reader.knows(...DETAIL_A), ESCROW_A),
  }),
  'escrow.list': row('escrow.list', {
    request: (input) => ({
      service: 'escrow',
      method: 'GET',
      path: '/api/v1/escrow/list',
      query: listQuery(input),
      auth: true,
    }),
    read: (reader) => readEscrowList(reader, ESCROW_A, DETAIL_A),
  }),
};
