/**
 * The deployed wallet (spec/DEPLOYED.md §6, `public-wallet`): base /v1 on its own address, its own
 * registration and `pk_live_` keys. The same paths as the documents' primary interface (their
 * requests are shared, ../documents/wallet.ts); the answers read here under the deployment's
 * fields: register `{agent_id, api_key, referral_code, message, next_steps}`, balance with
 * `explorer`, send exactly `{tx_hash, chain, from, to, amount, explorer}`, the swap's eight fields.
 * Where the deployment and the documents disagree on a rule (§6's table: 201 vs 200, the default
 * chain, symbols in swaps, the swap window, styles A/B not served), afp measures it
 * (src/live/audit/wallet-probes.ts) and judges it by a documented rule; never assumed here.
 */
import { row, type DialectTable } from '../dialect.ts';
import { WALLET_DOCUMENTS, WALLET_REQUESTS } from '../documents/wallet.ts';

/** The documents' rows where the answers agree (create: the same fields, 201 instead of 200, judged by the probes); the rest read here. */
export const WALLET_DEPLOYED: DialectTable = {
  ...WALLET_DOCUMENTS,
  'wallet.register': row('wallet.register', {
    request: WALLET_REQUESTS.register,
    read: (reader) => {
      const agentId = reader.string('agent_id');
      const apiKey = reader.string('api_key');
      reader.knows('referral_code', 'message', 'next_steps');
      return agentId === null || apiKey === null ? null : { agentId, apiKey };
    },
  }),
  'wallet.balance': row('wallet.balance', {
    request: WALLET_REQUESTS.balance,
    read: (reader) => {
      const chain = reader.string('chain', { optional: true });
      const symbol = reader.string('balance.native.symbol', { optional: true });
      const amount = reader.string('balance.native.amount');
      reader.knows('address', 'balance', 'explorer');
      return { chain, symbol, amount };
    },
  }),
  'wallet.send': row('wallet.send', {
    request: WALLET_REQUESTS.send,
    read: (reader) => {
      const txHash = reader.string('tx_hash');
      const amount = reader.string('amount', { optional: true });
      reader.knows('chain', 'from', 'to', 'explorer');
      return txHash === null ? null : { txHash, amount };
    },
  }),
  // No gateway serves /wallet-api on a deployment (§1.1): both styles are asked on the wallet's own address.
  'wallet.style-balance': row('wallet.style-balance', {
    request: WALLET_REQUESTS.styleBalance,
    read: (reader) => {
      reader.knows(...Object.keys(typeof reader.body === 'object' && reader.body !== null ? reader.body : {}));
      return { served: true };
    },
  }),
  'wallet.swap': row('wallet.swap', {
    request: WALLET_REQUESTS.swap,
    read: (reader) => {
      const orderId = reader.string('order_id');
      const status = reader.string('status', { optional: true });
      reader.knows('swap_id', 'deposit', 'output', 'fee', 'expires_at', 'check_status');
      return orderId === null ? null : { orderId, status };
    },
  }),
};
