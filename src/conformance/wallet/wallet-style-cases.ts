/**
 * The wallet's style A and B rejection cases of the conformance suite, as data (the form of
 * trading/trading-cases.ts): for every style row, the generic bad inputs its shape admits (wrong
 * method, malformed JSON, a wrong content type, a non-object body, an unknown field or query
 * parameter, a missing, unknown or malformed key), then what each row must refuse: a caller
 * without a wallet (404 on every row that answers over the caller's latest wallet), B's send to an
 * agent without a wallet or on a chain B does not take, A's swap in a malformed `<chain>:<token>`
 * form, history limits outside 1..50, an unknown hash (404). Each must answer exactly its 4xx
 * `{ error, code }` and leave both agents' balances as they were (the runner checks).
 * Non-goals: refusals that need a funded wallet (422) are in the check (command-wallet-styles.ts).
 */
import { WALLET_ENDPOINTS, type WalletEndpointId } from '../../client/wallet-client.ts';
import type { HttpMethod, TransportRequest } from '../../client/transport.ts';
import type { ExpectedRejection, RejectionCase } from '../conformance-case.ts';
import { rejectionMaker } from '../rejection-maker.ts';
import { transportRejections } from '../transport-rejections.ts';

type Body = Readonly<Record<string, unknown>>;

const BAD_REQUEST: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };
const NOT_FOUND: ExpectedRejection = { status: 404, code: 'NOT_FOUND' };
const EVM_ADDRESS = `0x${'1'.repeat(40)}`;
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The style rows (A's and B's ids). */
export const WALLET_STYLE_ENDPOINTS: readonly WalletEndpointId[] = (
  Object.keys(WALLET_ENDPOINTS) as WalletEndpointId[]
).filter((id) => id.startsWith('wallet.A.') || id.startsWith('wallet.B.'));

/** A valid body per body row (the unknown-field and key cases extend it). */
const VALID_BODY: Readonly<Partial<Record<WalletEndpointId, Body>>> = {
  'wallet.A.send': { chain: 'base', to: EVM_ADDRESS, amount: '0.001', private_key: `0x${'2'.repeat(64)}` },
  'wallet.A.swap': { from: `base:${BASE_USDC}`, to: `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48`, amount: 1 },
  'wallet.B.send': { to: EVM_ADDRESS, amount: 1, chain: 'base', private_key: `0x${'2'.repeat(64)}` },
};

function requestTo(
  endpoint: WalletEndpointId,
  extra: Partial<TransportRequest> = {},
  hash = `0x${'0'.repeat(64)}`,
): TransportRequest {
  const row = WALLET_ENDPOINTS[endpoint];
  return { mount: row.mount, method: row.method as HttpMethod, path: row.path.replace(':hash', hash), ...extra };
}

const rejection = rejectionMaker<WalletEndpointId>((endpoint, _world, extra) => requestTo(endpoint, extra));

function genericCases(endpoint: WalletEndpointId): RejectionCase[] {
  return transportRejections(
    WALLET_ENDPOINTS[endpoint].method as HttpMethod,
    VALID_BODY[endpoint],
    (name, expect, extra, auth) => rejection(endpoint, name, expect, extra, auth),
  );
}

function otherCases(): RejectionCase[] {
  const send = VALID_BODY['wallet.B.send'] ?? {};
  const swap = VALID_BODY['wallet.A.swap'] ?? {};
  return [
    ...(
      [
        'wallet.A.balance',
        'wallet.A.addresses',
        'wallet.A.transactions',
        'wallet.B.balance',
        'wallet.B.address',
        'wallet.B.transactions',
      ] as const
    ).map((endpoint) => rejection(endpoint, 'a caller without a wallet', NOT_FOUND, {})),
    rejection('wallet.A.swap', 'a caller without a wallet', NOT_FOUND, { body: swap }),
    rejection('wallet.A.swap', 'from without its chain', BAD_REQUEST, { body: { ...swap, from: BASE_USDC } }),
    rejection('wallet.A.swap', 'amount as a string', BAD_REQUEST, { body: { ...swap, amount: '1' } }),
    rejection('wallet.A.swap', 'slippage 51', BAD_REQUEST, { body: { ...swap, slippage: 51 } }),
    rejection('wallet.A.transactions', 'limit 101', BAD_REQUEST, { query: { limit: '101' } }),
    rejection('wallet.B.send', 'to an agent without a wallet', NOT_FOUND, {
      body: { ...send, to: 'agent_without_wallet' },
    }),
    rejection('wallet.B.send', 'a chain B does not take (tron)', BAD_REQUEST, { body: { ...send, chain: 'tron' } }),
    rejection('wallet.B.send', 'amount as a string', BAD_REQUEST, { body: { ...send, amount: '1' } }),
    rejection('wallet.B.send', 'amount 0', BAD_REQUEST, { body: { ...send, amount: 0 } }),
    rejection('wallet.B.send', 'amount with 7 decimals', BAD_REQUEST, { body: { ...send, amount: 1.0000001 } }),
    rejection('wallet.B.balance', 'a chain B does not take (solana)', BAD_REQUEST, { query: { chain: 'solana' } }),
    rejection('wallet.B.transactions', 'limit 0', BAD_REQUEST, { query: { limit: '0' } }),
    rejection('wallet.B.transactions', 'an unknown type', BAD_REQUEST, { query: { type: 'swap' } }),
    rejection('wallet.B.tx', 'an unknown hash', NOT_FOUND, {}),
  ];
}

export const WALLET_STYLE_REJECTION_CASES: readonly RejectionCase[] = [
  ...WALLET_STYLE_ENDPOINTS.flatMap(genericCases),
  ...otherCases(),
];
