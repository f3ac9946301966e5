/**
 * The deployed faucet and escrow (spec/DEPLOYED.md §3, §4): root paths on their own addresses, the
 * casino's key and balance. The faucet's claim names the casino agent in the body and needs no key;
 * an escrow is created for a `counterparty_agent_id` with `amount_usd` and `timeout_hours`, and
 * released by `/escrow/release/:id`, disputed by `/escrow/dispute/:id`; there is no faucet
 * registration or status, and no escrow refund or list (DEPLOYED.md §3, §4). Renamed fields are
 * read under the deployment's names and recorded as documented deviations; states keep the
 * deployment's names (`funded`): checks judge them by src/live/documented-rules.ts, replay by
 * `ESCROW_STATES`. The documents' faucet status is the agent's balance and its eligibility; a
 * deployment's faucet credits the casino account, so its status is the casino balance
 * (`GET /api/v1/auth/balance`, its key), with no eligibility to say (docs/decisions/replay.md).
 */
import { toNumber } from '../../../core/money.ts';
import { KEY_PLACEHOLDER, mcpToolRequest } from '../../mcp-call.ts';
import { row, type DialectTable } from '../dialect.ts';
import { readEscrowView, releaseAnswer, statusAnswer, type EscrowNames } from '../escrow-answer.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

/** Errors the escrow and the faucet answer without a message (DEPLOYED.md §1): `{"error":"unauthorized"}`, `{"error":"not_found"}`. */
const BARE_ERRORS = ['unauthorized', 'not_found'];

const ESCROW_DEPLOYED: EscrowNames = {
  amount: 'amount_usd',
  amountDocuments: 'amount',
  fee: 'commission_usd',
  feeDocuments: 'fee',
};

/** The escrow fields the deployment shows on a creation and a detail alike (DEPLOYED.md §4). */
const ESCROW_DETAIL = [
  'commission_usd',
  'net_to_counterparty',
  'description',
  'creator_id',
  'counterparty_id',
  'timeout_hours',
  'auto_release_at',
];

/** The fields of a release's answer beside its status (DEPLOYED.md §4). */
const RELEASE_FIELDS = [
  'escrow_id',
  'amount_released',
  'commission',
  'referral_commission',
  'counterparty_id',
  'message',
] as const;

export const FAUCET_ESCROW_DEPLOYED: DialectTable = {
  'faucet.status': row('faucet.status', {
    request: () => ({ service: 'casino', method: 'GET', path: deployedPath('casino.deployed.balance'), auth: true }),
    read: (reader) => {
      reader.knows('agent_id', 'tier', 'risk_factor', 'lifetime', 'recent_activity');
      return { balanceMicro: reader.money('balance_usd', { documents: 'balance_usdc' }) };
    },
  }),
  'faucet.claim': row('faucet.claim', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'faucet',
      method: 'POST',
      path: deployedPath('faucet.deployed.claim'),
      body: { agent_casino_id: input.agentId },
      auth: false,
    }),
    read: (reader) => {
      reader.knows('message', 'casino_url', 'claim_id', 'agent_id', 'referral_tracked');
      return { creditedMicro: reader.money('credited', { documents: 'amount_usdc' }) };
    },
  }),
  // The faucet's MCP door (DEPLOYED.md §3): the same claim, no key.
  'faucet.mcp-claim': row('faucet.mcp-claim', {
    bareErrors: BARE_ERRORS,
    request: (input) => mcpToolRequest('faucet', 'claim_faucet', { agent_casino_id: input.agentId }, 'none'),
    read: (reader) => {
      reader.knows('message', 'casino_url', 'claim_id', 'agent_id', 'referral_tracked');
      return { creditedMicro: reader.money('credited', { documents: 'amount_usdc' }) };
    },
  }),
  'escrow.create': row('escrow.create', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: deployedPath('escrow.deployed.create'),
      auth: true,
      body: {
        amount_usd: toNumber(input.amountMicro),
        description: input.description,
        counterparty_agent_id: input.counterpartyId,
        timeout_hours: input.timeoutHours,
      },
    }),
    read: (reader) => {
      reader.knows(...ESCROW_DETAIL, 'next_steps');
      return readEscrowView(reader, ESCROW_DEPLOYED);
    },
    expiry: {
      shortestSeconds: 3_600,
      sweepSeconds: 300,
      source: 'DEPLOYED.md §4 (timeout_hours clamped to at least 1; expiry by a 5-minute sweep)',
    },
  }),
  'escrow.release': row('escrow.release', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: deployedPath('escrow.deployed.release', { id: input.escrowId }),
      auth: true,
    }),
    read: releaseAnswer({ fee: 'commission', net: 'amount_released' }, ...RELEASE_FIELDS),
  }),
  // The escrow's MCP door (DEPLOYED.md §4): the key is the `casino_api_key` argument.
  'escrow.mcp-release': row('escrow.mcp-release', {
    bareErrors: BARE_ERRORS,
    request: (input) =>
      mcpToolRequest(
        'escrow',
        'release_escrow',
        { casino_api_key: KEY_PLACEHOLDER, escrow_id: input.escrowId },
        'argument',
      ),
    // The tool answers as the HTTP release does (DEPLOYED.md §4: the same release, another door).
    read: releaseAnswer({ fee: 'commission', net: 'amount_released' }, ...RELEASE_FIELDS),
  }),
  'escrow.dispute': row('escrow.dispute', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'escrow',
      method: 'POST',
      path: deployedPath('escrow.deployed.dispute', { id: input.escrowId }),
      body: { reason: input.reason },
      auth: true,
    }),
    read: statusAnswer('escrow_id', 'reason', 'message', 'contact'),
  }),
  'escrow.get': row('escrow.get', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'escrow',
      method: 'GET',
      path: deployedPath('escrow.deployed.get', { id: input.escrowId }),
      auth: true,
    }),
    read: (reader) => {
      reader.knows(...ESCROW_DETAIL, 'created_at', 'completed_at', 'released_at', 'disputed_at', 'events');
      return readEscrowView(reader, ESCROW_DEPLOYED);
    },
  }),
};
