/**
 * The wallet's reads beside its balance, on the documents' primary interface and on a deployment
 * alike (the same paths, DEPLOYED.md §6): an address's transactions, a swap order's state, the
 * chains served. A read by hash (the documents' style B `GET /wallet-api/tx/:hash`, which a
 * deployment lacks) is asked as its sender's transactions and kept to that hash (`txHash`).
 * Amounts stay as the chain writes them (decimal strings). Bounds: the first TRANSACTIONS_MAX.
 * A `mint` (afp's stand-ins list the harness's own funding of an address so) is not a transaction
 * of the address's owner: a replay funds a target its own way, so mints are left out of the list.
 */
import type { LiveWalletTx } from '../operations.ts';
import type { WireReader } from '../wire-reader.ts';
import { row, type DialectTable } from './dialect.ts';
import { DEPLOYED_WALLET_REQUESTS, WALLET_TX_FIELDS } from './documents/wallet.ts';

const TRANSACTIONS_MAX = 200;

const SWAP_FIELDS = ['swap_id', 'deposit', 'output', 'fee', 'created_at', 'updated_at', 'expires_at', 'deposit_tx'];

function isMint(item: unknown): boolean {
  return typeof item === 'object' && item !== null && (item as Record<string, unknown>)['type'] === 'mint';
}

function transactionOf(reader: WireReader): LiveWalletTx | null {
  reader.knows(...WALLET_TX_FIELDS);
  const txHash = reader.string('tx_hash');
  const view = {
    amount: reader.string('amount', { optional: true }),
    status: reader.string('status', { optional: true }),
  };
  return txHash === null ? null : { txHash, ...view };
}

export const WALLET_READS: DialectTable = {
  'wallet.transactions': row('wallet.transactions', {
    request: DEPLOYED_WALLET_REQUESTS.transactions,
    read: (reader, input) => {
      reader.knows('address', 'chain', 'count', 'limit');
      const listed = (reader.array('transactions') ?? []).slice(0, TRANSACTIONS_MAX).flatMap((item, index) => {
        if (isMint(item)) return [];
        const one = transactionOf(reader.nested(item, `transactions[${index}]`));
        return one === null ? [] : [one];
      });
      const transactions = input.txHash === null ? listed : listed.filter((tx) => tx.txHash === input.txHash);
      return { transactions };
    },
  }),
  'wallet.swap-status': row('wallet.swap-status', {
    request: DEPLOYED_WALLET_REQUESTS.swapStatus,
    read: (reader) => {
      reader.knows(...SWAP_FIELDS, 'tx_hash', 'refund', 'check_status', 'next_step', 'message');
      const orderId = reader.string('order_id');
      return orderId === null ? null : { orderId, status: reader.string('status', { optional: true }) };
    },
  }),
  'wallet.chains': row('wallet.chains', {
    request: DEPLOYED_WALLET_REQUESTS.chains,
    read: (reader) => {
      reader.knows('chains', 'count');
      const chains = reader.items('wallet_chains', (element) => {
        element.knows('symbol', 'decimals', 'block_time_ms', 'native_token', 'tokens', 'explorer', 'name');
        return element.string('chain');
      });
      return { chains: [...chains].sort() };
    },
  }),
};
