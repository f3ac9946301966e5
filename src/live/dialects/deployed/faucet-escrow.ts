/**
 * The deployed faucet and escrow (spec/DEPLOYED.md §3, §4): root paths on their own addresses, the
 * casino's key and balance. The faucet's claim names the casino agent in the body and needs no key;
 * an escrow is created for a `counterparty_agent_id` with `amount_usd` and `timeout_hours`, and
 * released by `/escrow/release/:id`. Renamed fields are read under the deployment's names and
 * recorded as documented deviations.
 */
import { toNumber } from '../../../core/money.ts';
import { row, type DialectTable } from '../dialect.ts';

export const FAUCET_ESCROW_DEPLOYED: DialectTable = {
  'faucet.claim': row('faucet.claim', {
    request: (input) => ({ service: 'faucet', method: 'POST', path: '/faucet/claim', body: { agent_casino_id: input.agentId }, auth: false }),
    read: (reader) => {
      reader.knows('message', 'casino_url', 'claim_id', 'agent_id', 'referral_tracked');
      return { creditedMicro: reader.money('credited', { documents: 'amount_usdc' }) };
    },
  }),
  'escrow.create': row('escrow.create', {
    request: (input) => ({
      service: 'escrow', method: 'POST', path: '/escrow/create', auth: true,
      body: { amount_usd: toNumber(input.amountMicro), description: input.description, counterparty_agent_id: input.counterpartyId, timeout_hours: input.timeoutHours },
    }),
    read: (reader) => {
      const escrowId = reader.string('escrow_id');
      reader.knows('commission_usd', 'net_to_counterparty', 'description', 'creator_id', 'counterparty_id', 'timeout_hours', 'auto_release_at', 'next_steps');
      return escrowId === null ? null : { escrowId, status: reader.string('status', { optional: true }), amountMicro: reader.money('amount_usd', { documents: 'amount', optional: true }) };
    },
  }),
  'escrow.release': row('escrow.release', {
    request: (input) => ({ service: 'escrow', method: 'POST', path: `/escrow/release/${encodeURIComponent(input.escrowId)}`, auth: true }),
    read: (reader) => {
      reader.knows('escrow_id', 'amount_released', 'commission', 'referral_commission', 'counterparty_id', 'message');
      return { status: reader.string('status', { optional: true }) };
    },
  }),
  'escrow.get': row('escrow.get', {
    request: (input) => ({ service: 'escrow', method: 'GET', path: `/escrow/${encodeURIComponent(input.escrowId)}`, auth: true }),
    read: (reader) => {
      const escrowId = reader.string('escrow_id');
      reader.knows('commission_usd', 'net_to_counterparty', 'description', 'creator_id', 'counterparty_id', 'timeout_hours', 'auto_release_at', 'created_at', 'completed_at', 'released_at', 'disputed_at', 'events');
      return escrowId === null ? null : { escrowId, status: reader.string('status', { optional: true }), amountMicro: reader.money('amount_usd', { documents: 'amount', optional: true }) };
    },
  }),
};
