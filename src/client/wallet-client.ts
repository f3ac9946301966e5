/**
 * WalletClient: the wallet endpoints (primary /v1, style A, style B) over the same Transport as
 * AfpClient, reachable as `client.wallet`, with typed requests and answers (the wire shapes of
 * src/http/routes/wallet/). The endpoint table is the server's wallet rows, id for id (a test
 * checks it). Keys sent to `send` travel in the request body only; the client keeps none.
 */
import type { HttpMethod, Mount } from '../http/route.ts';
import type { ApiResult, CallInput } from './client.ts';

export interface WalletEndpointRow {
  readonly mount: Mount;
  readonly method: HttpMethod;
  readonly path: string;
}

export const WALLET_ENDPOINTS = {
  'wallet.primary.register': { mount: 'wallet', method: 'POST', path: '/v1/auth/register' },
  'wallet.primary.create': { mount: 'wallet', method: 'POST', path: '/v1/wallet/create' },
  'wallet.primary.balance': { mount: 'wallet', method: 'GET', path: '/v1/wallet/balance/:address' },
  'wallet.primary.send': { mount: 'wallet', method: 'POST', path: '/v1/wallet/send' },
  'wallet.primary.swap-quote': { mount: 'wallet', method: 'GET', path: '/v1/wallet/swap/quote' },
  'wallet.primary.swap': { mount: 'wallet', method: 'POST', path: '/v1/wallet/swap' },
  'wallet.primary.deposit-address': { mount: 'wallet', method: 'GET', path: '/v1/wallet/deposit-address' },
  'wallet.primary.transactions': { mount: 'wallet', method: 'GET', path: '/v1/wallet/transactions/:address' },
  'wallet.primary.swap-status': { mount: 'wallet', method: 'GET', path: '/v1/wallet/swap/status/:orderId' },
  'wallet.primary.chains': { mount: 'wallet', method: 'GET', path: '/v1/wallet/chains' },
  'wallet.primary.gossip': { mount: 'wallet', method: 'GET', path: '/v1/gossip' },
  'wallet.primary.referral-code': { mount: 'wallet', method: 'GET', path: '/v1/referral/code' },
  'wallet.primary.referral-stats': { mount: 'wallet', method: 'GET', path: '/v1/referral/stats' },
  'wallet.primary.referral-withdraw': { mount: 'wallet', method: 'POST', path: '/v1/referral/withdraw' },
  'wallet.A.balance': { mount: 'wallet', method: 'GET', path: '/api/v1/balance' },
  'wallet.A.addresses': { mount: 'wallet', method: 'GET', path: '/api/v1/addresses' },
  'wallet.A.send': { mount: 'wallet', method: 'POST', path: '/api/v1/send' },
  'wallet.A.swap': { mount: 'wallet', method: 'POST', path: '/api/v1/swap' },
  'wallet.A.transactions': { mount: 'wallet', method: 'GET', path: '/api/v1/transactions' },
  'wallet.B.balance': { mount: 'api', method: 'GET', path: '/wallet-api/balance' },
  'wallet.B.send': { mount: 'api', method: 'POST', path: '/wallet-api/send' },
  'wallet.B.address': { mount: 'api', method: 'GET', path: '/wallet-api/address' },
  'wallet.B.transactions': { mount: 'api', method: 'GET', path: '/wallet-api/transactions' },
  'wallet.B.tx': { mount: 'api', method: 'GET', path: '/wallet-api/tx/:hash' },
} as const satisfies Record<string, WalletEndpointRow>;

export type WalletEndpointId = keyof typeof WALLET_ENDPOINTS;
export type WalletChainName = 'ethereum' | 'base' | 'solana' | 'bitcoin' | 'tron' | 'monero';

export interface WalletCreated {
  mnemonic: string;
  addresses: Record<WalletChainName, string>;
  monero_keys: { spend_key: string; view_key: string; public_spend_key: string; public_view_key: string };
  derivation_paths: Record<WalletChainName, string>;
  warning: string;
}

export interface WalletAmount {
  symbol: string;
  contract: string | null;
  amount: string;
  base_units: string;
  decimals: number;
}

export interface WalletTransaction {
  tx_hash: string;
  chain: WalletChainName;
  type: 'send' | 'mint' | 'swap-payout' | 'swap-refund';
  status: 'pending' | 'confirmed' | 'failed';
  from: string | null;
  to: string;
  symbol: string;
  token: string | null;
  amount: string;
  fee: string;
  fee_symbol: string;
  memo: string | null;
  sent_at: string;
  block_at: string;
  block_height: number;
  failure: string | null;
  explorer: string;
}

export interface WalletSendBody {
  chain: WalletChainName;
  to: string;
  amount: string | number;
  private_key?: string;
  token?: string;
  from?: string;
  view_key?: string;
  spend_key?: string;
  memo?: string;
}

export interface WalletSwapFields {
  from_chain: WalletChainName;
  to_chain: WalletChainName;
  from_token: string;
  to_token: string;
  amount: string | number;
}

export interface WalletSwapOrder {
  order_id: string;
  status: 'waiting' | 'confirming' | 'exchanging' | 'sending' | 'finished' | 'failed' | 'refunded' | 'expired';
  deposit: { chain: WalletChainName; address: string; token: string; amount: string };
  output: { chain: WalletChainName; address: string; token: string; amount: string; min_received: string };
  deposit_tx: string | null;
  payout_tx: string | null;
  refund_tx: string | null;
  reason: string | null;
}

export type WalletCall = (endpoint: WalletEndpointId, input: CallInput) => Promise<ApiResult<unknown>>;

export class WalletClient {
  readonly call: WalletCall;

  constructor(call: WalletCall) {
    this.call = call;
  }

  register(
    body: { referral_code?: string } = {},
  ): Promise<ApiResult<{ agent_id: string; api_key: string; referral_code: string }>> {
    return this.typed('wallet.primary.register', { body });
  }

  /** A fresh HD wallet: the mnemonic and keys are in this answer only (the service keeps none). */
  create(): Promise<ApiResult<WalletCreated>> {
    return this.typed('wallet.primary.create', {});
  }

  balance(
    address: string,
    query: { chain: WalletChainName; view_key?: string },
  ): Promise<
    ApiResult<{ address: string; chain: WalletChainName; balance: { native: WalletAmount; tokens: WalletAmount[] } }>
  > {
    return this.typed('wallet.primary.balance', { params: { address }, query });
  }

  send(body: WalletSendBody): Promise<ApiResult<WalletTransaction>> {
    return this.typed('wallet.primary.send', { body });
  }

  quote(
    query: WalletSwapFields,
  ): Promise<
    ApiResult<{ quote: { fromAmount: string; toAmount: string; minReceived: string; estimatedTime: number } }>
  > {
    return this.typed('wallet.primary.swap-quote', { query: { ...query, amount: String(query.amount) } });
  }

  swap(body: WalletSwapFields & { to_address: string }): Promise<ApiResult<WalletSwapOrder>> {
    return this.typed('wallet.primary.swap', { body });
  }

  swapStatus(orderId: string): Promise<ApiResult<WalletSwapOrder>> {
    return this.typed('wallet.primary.swap-status', { params: { orderId } });
  }

  depositAddress(
    chain?: WalletChainName,
  ): Promise<ApiResult<{ chain: WalletChainName; derivation_path: string; method: string; instructions: string }>> {
    return this.typed('wallet.primary.deposit-address', chain === undefined ? {} : { query: { chain } });
  }

  transactions(
    address: string,
    query: { chain: 'bitcoin' | 'solana' | 'base' | 'ethereum'; limit?: number },
  ): Promise<ApiResult<{ transactions: WalletTransaction[]; count: number }>> {
    return this.typed('wallet.primary.transactions', {
      params: { address },
      query: { chain: query.chain, ...(query.limit === undefined ? {} : { limit: String(query.limit) }) },
    });
  }

  chains(): Promise<
    ApiResult<{
      wallet_chains: unknown[];
      swap_chains: WalletChainName[];
      transaction_history_chains: WalletChainName[];
    }>
  > {
    return this.typed('wallet.primary.chains', {});
  }

  /** Style B: a transaction's status by hash. */
  tx(hash: string): Promise<ApiResult<WalletTransaction>> {
    return this.typed('wallet.B.tx', { params: { hash } });
  }

  private async typed<T>(endpoint: WalletEndpointId, input: CallInput): Promise<ApiResult<T>> {
    return (await this.call(endpoint, input)) as ApiResult<T>;
  }
}
