/**
 * The deployed wallet (spec/DEPLOYED.md §6, `public-wallet`): base /v1 on its own address, its own
 * registration and `pk_live_` keys. The same paths as the documents' primary interface (their
 * requests are shared, ../documents/wallet.ts); the answers read here under the deployment's
 * fields: register `{agent_id, api_key, referral_code, message, next_steps}`, balance with
 * `explorer`, send exactly `{tx_hash, chain, from, to, amount, explorer}`, the swap's eight fields.
 * Where the deployment and the documents disagree on a rule (§6's table: 201 vs 200, the default
 * chain, symbols in swaps, the swap window, styles A/B not served), afp measures it
 * (src/audit/probes/wallet-probes.ts) and judges it by a documented rule; never assumed here.
 */
import { row, type DialectTable } from '../dialect.ts';
import { walletReaders, DEPLOYED_WALLET_REQUESTS } from '../documents/wallet.ts';

/** The documents' readers under the deployment's fields; only style balance is read otherwise (no /wallet-api gateway). */
export const WALLET_DEPLOYED: DialectTable = {
  ...walletReaders({
    register: ['referral_code', 'message', 'next_steps'],
    balance: ['address', 'balance', 'explorer'],
    send: ['chain', 'from', 'to', 'explorer'],
    swap: ['swap_id', 'deposit', 'output', 'fee', 'expires_at', 'check_status'],
  }),
  // No gateway serves /wallet-api on a deployment (§1.1): both styles are asked on the wallet's own address.
  'wallet.style-balance': row('wallet.style-balance', {
    request: DEPLOYED_WALLET_REQUESTS.styleBalance,
    read: (reader) => {
      reader.knows(...Object.keys(typeof reader.body === 'object' && reader.body !== null ? reader.body : {}));
      return { served: true };
    },
  }),
};
