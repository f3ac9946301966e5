/**
 * The wallet's simulated chains and tokens as data (STYLE rule 7: defaults in one place). Each
 * chain: its native coin (symbol, decimals of its base unit), its block pace, its fees in base
 * units, and the rule a pending transaction can fail by. Tokens are named by CONTRACT ADDRESS
 * (the real mainnet contracts), never by symbol. Each chain's native coin has an "asset address"
 * too, so a swap always names contract addresses: the EVM sentinel 0xEeee…EEeE that aggregators
 * use, wrapped SOL's mint on solana, tron's zero address, and the word `native` on bitcoin and
 * monero, which have no contracts (docs/decisions/wallet.md "Wallet").
 *
 * Chains: the six of the wallet's keys (WalletChain, the /v1 interface's chain lists) and the two
 * further EVM chains style B names, polygon and arbitrum (SimChain): they use the ethereum key and
 * address (`keyChainOf`) and are reachable only through style B (docs/decisions/wallet.md "Wallet").
 * Block pace (real chains: ethereum 12 s, base 2 s, solana 0.4 s, bitcoin 10 min, tron 3 s, monero
 * 2 min, polygon 2 s, arbitrum 0.25 s): only blocks that include a pending transaction are simulated — one timer per (chain,
 * block instant) with work in it, batching every transaction of that block; empty blocks cost
 * nothing. Block height = floor(instant / blockMs). A transaction is confirmed in the first block
 * after it was sent (one confirmation).
 * Non-goals: gas markets, mempools, reorgs.
 */
import { assert } from '../../core/assert.ts';
import type { WalletChain } from './keys/wallet-keys.ts';

/** Every simulated chain: the wallet's six and style B's further EVM chains. */
export type SimChain = WalletChain | 'polygon' | 'arbitrum';

/** EVM chains: addresses keyed without case, hashes 0x-prefixed, the ethereum key signs. */
const EVM_CHAINS: readonly SimChain[] = ['ethereum', 'base', 'polygon', 'arbitrum'];

export function isEvmChain(chain: SimChain): boolean {
  return EVM_CHAINS.includes(chain);
}

/** The chain whose keys and addresses `chain` uses: polygon and arbitrum are ethereum's. */
export function keyChainOf(chain: SimChain): WalletChain {
  return chain === 'polygon' || chain === 'arbitrum' ? 'ethereum' : chain;
}

export interface ChainRow {
  readonly chain: SimChain;
  readonly symbol: string;
  /** Decimals of the base unit: wei 18, lamports 9, sats 8, sun 6, piconero 12. */
  readonly decimals: number;
  readonly blockMs: number;
  /** Fee of a native transfer, in base units of the native coin. */
  readonly feeNative: bigint;
  /** Fee of a token transfer (ERC-20/TRC-20/SPL), in base units of the native coin; null: no tokens. */
  readonly feeToken: bigint | null;
  /** The native coin's asset address (swaps name assets by address). */
  readonly nativeAsset: string;
  /** Solana: an account created by a transfer must hold at least this (rent exemption); else 0. */
  readonly rentExemptMin: bigint;
  /**
   * Solana: the rent of a token account (165 bytes), paid by a token send whose recipient has no
   * account for that mint yet (the associated token account is created with the transfer); else 0.
   */
  readonly tokenAccountRent: bigint;
  /** Explorer base of a transaction. */
  readonly explorerTx: string;
  /** The aggregator's liquidity per asset at genesis, in whole coins. */
  readonly liquidityWhole: bigint;
}

export interface TokenRow {
  readonly chain: SimChain;
  /** The contract (solana: mint) address, exactly as the chain writes it (EIP-55 on EVM, base58 on tron and solana). */
  readonly contract: string;
  readonly symbol: string;
  readonly decimals: number;
  /** The trading base whose price values it; null = a USD stablecoin (1 USD). */
  readonly priceBase: string | null;
  readonly liquidityWhole: bigint;
}

export const EVM_NATIVE_ASSET = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** Gas of a plain EVM transfer (21,000) and of an ERC-20 transfer (65,000, a typical token). */
const EVM_GAS_NATIVE = 21_000n;
const EVM_GAS_TOKEN = 65_000n;

/** An EVM chain: 18-decimal native coin (ETH unless named), fees of gas × its gas price, no rent. */
function evmChainRow(
  chain: SimChain,
  row: { blockMs: number; gasPriceWei: bigint; explorerTx: string; symbol?: string; liquidityWhole?: bigint },
): ChainRow {
  return {
    chain,
    symbol: row.symbol ?? 'ETH',
    decimals: 18,
    blockMs: row.blockMs,
    feeNative: EVM_GAS_NATIVE * row.gasPriceWei,
    feeToken: EVM_GAS_TOKEN * row.gasPriceWei,
    nativeAsset: EVM_NATIVE_ASSET,
    rentExemptMin: 0n,
    tokenAccountRent: 0n,
    explorerTx: row.explorerTx,
    liquidityWhole: row.liquidityWhole ?? 10_000n,
  };
}

export const CHAIN_ROWS: readonly ChainRow[] = [
  evmChainRow('ethereum', { blockMs: 12_000, gasPriceWei: 20_000_000_000n, explorerTx: 'https://etherscan.io/tx/' }),
  evmChainRow('base', { blockMs: 2_000, gasPriceWei: 10_000_000n, explorerTx: 'https://basescan.org/tx/' }),
  {
    chain: 'solana',
    symbol: 'SOL',
    decimals: 9,
    blockMs: 400,
    feeNative: 5_000n,
    feeToken: 5_000n,
    nativeAsset: 'So11111111111111111111111111111111111111112',
    rentExemptMin: 890_880n,
    tokenAccountRent: 2_039_280n,
    explorerTx: 'https://solscan.io/tx/',
    liquidityWhole: 100_000n,
  },
  {
    chain: 'bitcoin',
    symbol: 'BTC',
    decimals: 8,
    blockMs: 600_000,
    feeNative: 141n * 10n,
    feeToken: null,
    nativeAsset: 'native',
    rentExemptMin: 0n,
    tokenAccountRent: 0n,
    explorerTx: 'https://mempool.space/tx/',
    liquidityWhole: 500n,
  },
  {
    chain: 'tron',
    symbol: 'TRX',
    decimals: 6,
    blockMs: 3_000,
    feeNative: 268_000n,
    feeToken: 13_000_000n,
    nativeAsset: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
    rentExemptMin: 0n,
    tokenAccountRent: 0n,
    explorerTx: 'https://tronscan.org/#/transaction/',
    liquidityWhole: 100_000_000n,
  },
  {
    chain: 'monero',
    symbol: 'XMR',
    decimals: 12,
    blockMs: 120_000,
    feeNative: 30_000_000n,
    feeToken: null,
    nativeAsset: 'native',
    rentExemptMin: 0n,
    tokenAccountRent: 0n,
    explorerTx: 'https://xmrchain.net/tx/',
    liquidityWhole: 100_000n,
  },
  // Style B's further EVM chains (keys and addresses of ethereum): polygon's native coin is POL
  // (MATIC until 2024), 30 gwei; arbitrum's is ETH at 0.01 gwei.
  evmChainRow('polygon', {
    blockMs: 2_000,
    gasPriceWei: 30_000_000_000n,
    explorerTx: 'https://polygonscan.com/tx/',
    symbol: 'POL',
    liquidityWhole: 10_000_000n,
  }),
  evmChainRow('arbitrum', { blockMs: 250, gasPriceWei: 10_000_000n, explorerTx: 'https://arbiscan.io/tx/' }),
];

/** A USD stablecoin: 6 decimals, priced at 1 USD, a pool of 50 million. */
const stablecoinRow = (chain: SimChain, symbol: 'USDC' | 'USDT', contract: string): TokenRow => ({
  chain,
  contract,
  symbol,
  decimals: 6,
  priceBase: null,
  liquidityWhole: 50_000_000n,
});

export const TOKEN_ROWS: readonly TokenRow[] = [
  stablecoinRow('ethereum', 'USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
  stablecoinRow('ethereum', 'USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7'),
  stablecoinRow('base', 'USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
  stablecoinRow('tron', 'USDT', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  // SPL tokens by mint address (Circle's USDC, Tether's USDT on solana).
  stablecoinRow('solana', 'USDC', 'EPjFWdd5AufqSSQh9ZsfHW2q4bYW3eFbFpyG7aiuqa7w'),
  stablecoinRow('solana', 'USDT', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'),
  // Native USDC (Circle) on polygon and arbitrum; polygon's bridged WETH is style B's `eth` there.
  stablecoinRow('polygon', 'USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'),
  {
    chain: 'polygon',
    contract: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
    symbol: 'WETH',
    decimals: 18,
    priceBase: 'ETH',
    liquidityWhole: 10_000n,
  },
  stablecoinRow('arbitrum', 'USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'),
];

export interface WalletConfig {
  /** Swap fee in basis points of the input value (NOTES.md: 0.5%). */
  readonly swapFeeBps: bigint;
  /** minReceived = toAmount less this many basis points (the quote's slippage allowance). */
  readonly slippageBps: bigint;
  /** A swap order waits this long for its deposit, then expires. */
  readonly swapDepositWindowMs: number;
  /** Each of confirming → exchanging → sending takes this long once the deposit confirmed. */
  readonly swapStepMs: number;
  readonly historyLimitDefault: number;
  readonly historyLimitMax: number;
  /** Transactions kept per address in its history (oldest dropped; lookup by hash keeps them all up to txMax). */
  readonly historyPerAddressMax: number;
  /** Transactions kept in all (lookup by hash); past it the oldest confirmed ones are forgotten. */
  readonly txMax: number;
  /** Addresses with a balance, per chain (a bound on state). */
  readonly addressesPerChainMax: number;
  /** Open swap orders (waiting for a deposit). */
  readonly openSwapsMax: number;
  /** Largest amount of one send, mint or swap in whole coins (a bound; keeps sums far from overflow). */
  readonly amountWholeMax: bigint;
  /** Most decimal digits an amount text may have. */
  readonly amountTextMax: number;
}

export const DEFAULT_WALLET_CONFIG: WalletConfig = {
  swapFeeBps: 50n,
  slippageBps: 100n,
  swapDepositWindowMs: 30 * 60_000,
  swapStepMs: 60_000,
  historyLimitDefault: 10,
  historyLimitMax: 100,
  historyPerAddressMax: 200,
  txMax: 1_000_000,
  addressesPerChainMax: 1_000_000,
  openSwapsMax: 100_000,
  amountWholeMax: 1_000_000_000_000n,
  amountTextMax: 64,
};

/** Every simulated chain, in the rows' order (the six of the keys first). */
export const SIM_CHAIN_NAMES: readonly SimChain[] = CHAIN_ROWS.map((row) => row.chain);

const CHAIN_BY_NAME = new Map(CHAIN_ROWS.map((row) => [row.chain, row] as const));

export function chainRow(chain: SimChain): ChainRow {
  const row = CHAIN_BY_NAME.get(chain);
  assert(row !== undefined, `every wallet chain has a row (${chain})`);
  return row;
}
