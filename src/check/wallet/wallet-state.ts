/**
 * The wallet part of `afp check`'s model state (check-model.ts): the run's wallets (public
 * addresses only), balances per (chain, asset, address) in base units, its transactions and swap
 * orders, and the sums the invariant compares. Only the state and its empty start: the chain
 * rules that move it are in model-wallet*.ts. Its own file so that the whole model's state names
 * it without importing the rules, which take the whole model.
 */
import type { WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import type { SwapStatus } from '../../services/wallet/swap-desk.ts';

export interface WalletAsset {
  readonly chain: WalletChain;
  /** The native coin's asset address, or the token contract. */
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly native: boolean;
}

export interface ModelWallet {
  readonly index: number;
  readonly slot: number;
  readonly addresses: Readonly<Record<WalletChain, string>>;
}

export type WalletTxKind = 'send' | 'mint' | 'swap-payout' | 'swap-refund';

export interface ModelWalletTx {
  /** Learned from the answer that shows it first (a payout's or refund's from a status or history read). */
  hash: string | null;
  readonly kind: WalletTxKind;
  readonly asset: WalletAsset;
  readonly from: string | null;
  readonly to: string;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly memo: string | null;
  readonly sentAtMs: number;
  readonly blockAtMs: number;
  status: 'pending' | 'confirmed' | 'failed';
}

export interface ModelSwapOrder {
  readonly id: string;
  readonly from: WalletAsset;
  readonly to: WalletAsset;
  readonly fromAmount: bigint;
  readonly feeAmount: bigint;
  readonly toAmount: bigint;
  readonly minReceived: bigint;
  readonly toAddress: string;
  readonly depositAddress: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  status: SwapStatus;
  updatedAtMs: number;
  /** The next step's instant while confirming or exchanging; null otherwise. */
  stepAtMs: number | null;
  depositTx: ModelWalletTx | null;
  depositAmount: bigint | null;
  payoutTx: ModelWalletTx | null;
  refundTx: ModelWalletTx | null;
  hasReason: boolean;
}

export interface WalletModel {
  readonly wallets: ModelWallet[];
  /** `${chain}|${asset key}|${address key}` → base units. */
  readonly balances: Map<string, bigint>;
  readonly txs: ModelWalletTx[];
  readonly orders: ModelSwapOrder[];
  /** Per `${chain}|${asset key}`: minted by the run, in flight, fees taken (native only), the pool's change. */
  readonly minted: Map<string, bigint>;
  readonly inFlight: Map<string, bigint>;
  readonly fees: Map<string, bigint>;
  readonly pool: Map<string, bigint>;
}

export function createWalletModel(): WalletModel {
  return {
    wallets: [],
    balances: new Map(),
    txs: [],
    orders: [],
    minted: new Map(),
    inFlight: new Map(),
    fees: new Map(),
    pool: new Map(),
  };
}
