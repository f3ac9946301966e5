/**
 * SwapDesk: the simulated swap aggregator's quotes and orders (NOTES.md: fee 0.5% of the input;
 * quote { fromAmount, toAmount, minReceived, estimatedTime, fee }; statuses waiting, confirming,
 * exchanging, sending, finished, failed, refunded, expired).
 *
 * Prices: the trading service's seeded price book (`<BASE>-PERP` mids of ETH, SOL, BTC, TRX, XMR;
 * stablecoins at 1 USD), so the wallet and trading agree at every instant.
 * Order life (afp's rules, docs/decisions/wallet.md "Wallet"): an order waits for a deposit of its input
 * asset at its own deposit address; without one for `swapDepositWindowMs` → expired. A confirmed
 * deposit below the order's amount, or of another asset → refunded (sent back to its sender).
 * Otherwise confirming (at the deposit's block) → exchanging (+swapStepMs) → sending (+swapStepMs:
 * the output is priced again; below minReceived, or more than the pool holds → failed and the
 * deposit is sent back) → the payout transaction → finished when it confirms.
 * Non-goals: the chain moves themselves (WalletService does them through ChainBook).
 */
import { assert } from '../../core/assert.ts';
import { basisPoints } from '../../core/money.ts';
import { marketBySymbol } from '../trading/market-catalogue.ts';
import type { PriceBook } from '../trading/price-book.ts';
import { PRICE_ONE } from '../trading/price-scale.ts';
import { chainRow, type WalletConfig } from './wallet-config.ts';
import type { Asset } from './wallet-assets.ts';

export type SwapStatus =
  | 'waiting'
  | 'confirming'
  | 'exchanging'
  | 'sending'
  | 'finished'
  | 'failed'
  | 'refunded'
  | 'expired';

export interface SwapQuote {
  readonly from: Asset;
  readonly to: Asset;
  readonly fromAmount: bigint;
  /** The aggregator's 0.5%, in input units. */
  readonly feeAmount: bigint;
  readonly toAmount: bigint;
  readonly minReceived: bigint;
  /** USD values with 8 decimals (PRICE_ONE = 1 USD). */
  readonly fromPrice: bigint;
  readonly toPrice: bigint;
  readonly estimatedTimeMs: number;
}

export interface SwapOrder {
  readonly id: string;
  readonly quote: SwapQuote;
  /** The agent that opened the order: its fee's referral shares go up this agent's chain. */
  readonly payerId: string;
  readonly toAddress: string;
  readonly depositAddress: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  status: SwapStatus;
  updatedAtMs: number;
  depositTx: string | null;
  depositFrom: string | null;
  depositAmount: bigint | null;
  payoutTx: string | null;
  refundTx: string | null;
  reason: string | null;
}

/** The USD price of one whole unit of an asset, 8 decimals; stablecoins 1. */
export function assetPrice(prices: PriceBook, asset: Asset, nowMs: number): bigint {
  const base = asset.token === null ? chainRow(asset.chain).symbol : asset.token.priceBase;
  if (base === null) return PRICE_ONE;
  const market = marketBySymbol(`${base}-PERP`);
  assert(market !== undefined, `a priced asset has a perpetual market (${base})`);
  return prices.mid(market, nowMs);
}

/** The output of `fromAmount` after the fee, at the prices of `nowMs`, in the output's base units (rounded down). */
export function quoteSwap(
  prices: PriceBook,
  config: WalletConfig,
  from: Asset,
  to: Asset,
  fromAmount: bigint,
  nowMs: number,
): SwapQuote {
  const fromPrice = assetPrice(prices, from, nowMs);
  const toPrice = assetPrice(prices, to, nowMs);
  const feeAmount = basisPoints(fromAmount, config.swapFeeBps, 'up');
  const toAmount = convert(fromAmount - feeAmount, from, to, fromPrice, toPrice);
  const minReceived = toAmount - basisPoints(toAmount, config.slippageBps, 'up');
  const estimatedTimeMs = chainRow(from.chain).blockMs + 2 * config.swapStepMs + chainRow(to.chain).blockMs;
  return { from, to, fromAmount, feeAmount, toAmount, minReceived, fromPrice, toPrice, estimatedTimeMs };
}

/** `amount` of `from` in units of `to` at the two prices (rounded down). */
export function convert(amount: bigint, from: Asset, to: Asset, fromPrice: bigint, toPrice: bigint): bigint {
  return (amount * fromPrice * 10n ** BigInt(to.decimals)) / (toPrice * 10n ** BigInt(from.decimals));
}

export class SwapDesk {
  private readonly orders = new Map<string, SwapOrder>();
  /** Deposit address key → the waiting order it belongs to. */
  private readonly byDeposit = new Map<string, string>();
  private waiting = 0;

  get(id: string): SwapOrder | undefined {
    return this.orders.get(id);
  }

  get openCount(): number {
    return this.waiting;
  }

  get size(): number {
    return this.orders.size;
  }

  add(order: SwapOrder, depositKey: string): void {
    assert(!this.orders.has(order.id) && !this.byDeposit.has(depositKey), 'order ids and deposit addresses are unique');
    this.orders.set(order.id, order);
    this.byDeposit.set(depositKey, order.id);
    this.waiting++;
  }

  /** The waiting order whose deposit address is `depositKey` (chain + address key), if any. */
  waitingAt(depositKey: string): SwapOrder | undefined {
    const id = this.byDeposit.get(depositKey);
    const order = id === undefined ? undefined : this.orders.get(id);
    return order?.status === 'waiting' ? order : undefined;
  }

  /** Moves an order to `status` at `atMs`; leaving 'waiting' retires its deposit address. */
  move(order: SwapOrder, status: SwapStatus, atMs: number, depositKey: string): void {
    if (order.status === 'waiting' && status !== 'waiting') {
      this.byDeposit.delete(depositKey);
      this.waiting--;
    }
    order.status = status;
    order.updatedAtMs = atMs;
  }

  /** Every order, in creation order (checkers and tests). */
  all(): SwapOrder[] {
    return [...this.orders.values()];
  }
}
