/**
 * The wallet's recorded reads as afp operations (route-operations.ts's rows for them): an
 * address's transactions, a swap order's state, the chains served, and style B's read of one
 * transaction by hash, which a deployment lacks and which is asked as its sender's transactions
 * kept to that hash (the recorded answer read as a list of that one transaction, `recordedAs`).
 * Why: a wallet scenario's traffic is mostly these reads, and a deployment offers each
 * (DEPLOYED.md §6: `/v1/wallet/transactions/:address`, `/swap/status/:orderId`, `/chains`).
 * Also an agent's referral statistics (style B's faucet `/referrals`, style A's casino
 * `/auth/referral/stats`), which a deployment's casino shows (DEPLOYED.md §2.9).
 */
import type { OperationName } from '../live.ts';
import { isObject } from './json-pointer.ts';
import type { AnyRouteOperation, RouteOperation } from './route-operations-types.ts';

/** The most transactions a read by hash looks through (the deployment's list answers at most 50). */
const BY_HASH_LIMIT = 50;
const LIMIT_MAX = 1_000;

function row<O extends OperationName>(
  route: string,
  op: O,
  input: RouteOperation<O>['input'],
  extra: Pick<RouteOperation<O>, 'recordedAs'> = {},
): RouteOperation<O> {
  return { route, op, input, ...extra };
}

function limitOf(text: string | undefined): number | null | undefined {
  if (text === undefined) return null;
  return /^\d{1,4}$/.test(text) && Number(text) <= LIMIT_MAX ? Number(text) : undefined;
}

export const READ_ROUTE_OPERATIONS: readonly AnyRouteOperation[] = [
  row('wallet.primary.transactions', 'wallet.transactions', (call, ids) => {
    const address = call.params['address'];
    const limit = limitOf(call.query['limit']);
    if (address === undefined || address === '' || limit === undefined) return null;
    return { address: ids.address(address), chain: call.query['chain'] ?? null, limit, txHash: null };
  }),
  row('wallet.primary.swap-status', 'wallet.swap-status', (call, ids) => {
    const orderId = call.params['orderId'];
    return orderId === undefined || orderId === '' ? null : { orderId: ids.order(orderId) };
  }),
  row('wallet.primary.chains', 'wallet.chains', () => ({})),
  // The caller's referral statistics (style B's faucet, style A's casino): a deployment's casino shows them.
  row('faucet.B.referrals', 'faucet.referrals', () => ({})),
  row('casino.A.referral.stats', 'faucet.referrals', () => ({})),
  row(
    'wallet.B.tx',
    'wallet.transactions',
    (call, ids) => {
      const hash = call.params['hash'];
      const from = isObject(call.answer) ? call.answer['from'] : undefined;
      const chain = isObject(call.answer) ? call.answer['chain'] : undefined;
      if (hash === undefined || typeof from !== 'string' || typeof chain !== 'string') return null;
      return { address: ids.address(from), chain, limit: BY_HASH_LIMIT, txHash: ids.tx(hash) };
    },
    { recordedAs: (answer) => (isObject(answer) && 'tx_hash' in answer ? { transactions: [answer] } : answer) },
  ),
];
