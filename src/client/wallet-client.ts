/**
 * WalletClient: the wallet endpoints (primary /v1, style A, style B) over the same Transport as
 * AfpClient, reachable as `client.wallet`, with typed requests and answers (the wire shapes of
 * src/http/routes/wallet/). The endpoint table is the server's wallet rows, id for id (generated:
 * endpoint-table.ts). Keys sent to `send` travel in the request body only; the client keeps none.
 */
import { endpointsOf } from './endpoints.ts';
import type { ApiResult, CallInput } from './call.ts';
import { ServiceClient } from './service-client.ts';

/** The wallet rows of the route table (generated: src/client/endpoint-table.ts). */
export const WALLET_ENDPOINTS = endpointsOf('wallet');

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

export class WalletClient extends ServiceClient<WalletCall> {
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
