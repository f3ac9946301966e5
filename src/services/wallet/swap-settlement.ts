/**
 * A swap order's life on the chains after it is placed: a confirmed deposit into its address
 * starts it (or refunds a wrong asset or a short amount), the output is priced again when it is
 * exchanged and paid from the aggregator's pool (or the deposit sent back when the price moved
 * past the quote's minimum or the pool lacks liquidity), and the payout's confirmation finishes it
 * with its fee accrued as wallet revenue. Why a file of its own: the aggregator's settlement is one
 * concept, apart from the wallet's own sends and blocks (wallet.ts), which is its `SwapHost`.
 */
import { assert } from '../../core/assert.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { PriceBook } from '../trading/price-book.ts';
import { addressKey, AGGREGATOR_POOL, type ChainBook, type TxKind, type WalletTx } from './chain-book.ts';
import { quoteSwap, type SwapDesk, type SwapOrder, type SwapStatus } from './swap-desk.ts';
import { accrueSwapFee } from './wallet-referral-fee.ts';
import type { SimChain, WalletConfig } from './wallet-config.ts';

/** What the settlement reads and moves: the wallet service's context, settings, prices, chains, orders and pool. */
export interface SwapHost {
  readonly context: ServiceContext;
  readonly config: WalletConfig;
  readonly prices: PriceBook;
  readonly chains: ChainBook;
  readonly swaps: SwapDesk;
  /** A transfer from the aggregator's pool (fee paid by the pool); null when the pool cannot pay. */
  payFromPool(chain: SimChain, asset: string, to: string, amount: bigint, kind: TxKind, atMs: number): WalletTx | null;
}

/** A confirmed transfer into a waiting order's deposit address starts (or refunds) that order. */
export function swapTransferConfirmed(host: SwapHost, tx: WalletTx, atMs: number): void {
  if (tx.kind === 'swap-payout') {
    const order = host.swaps.all().find((one) => one.payoutTx === tx.hash);
    if (order === undefined || order.status !== 'sending') return;
    accrueSwapFee(host.context, host.config, order, atMs);
    moveSwap(host, order, 'finished', atMs, null);
    return;
  }
  const order = host.swaps.waitingAt(`${tx.chain}|${addressKey(tx.chain, tx.to)}`);
  if (order === undefined || tx.from === null) return;
  order.depositTx = tx.hash;
  order.depositFrom = tx.from;
  order.depositAmount = tx.amount;
  const wanted = order.quote.from;
  host.chains.move(tx.chain, tx.asset, tx.to, AGGREGATOR_POOL, tx.amount);
  if (tx.asset !== wanted.address || tx.amount < order.quote.fromAmount) {
    moveSwap(
      host,
      order,
      'refunded',
      atMs,
      tx.asset !== wanted.address
        ? "the deposit is another asset than the order's"
        : "the deposit is below the order's amount",
    );
    order.refundTx = host.payFromPool(tx.chain, tx.asset, tx.from, tx.amount, 'swap-refund', atMs)?.hash ?? null;
    return;
  }
  moveSwap(host, order, 'confirming', atMs, null);
  host.context.timers.schedule(atMs + host.config.swapStepMs, {
    kind: 'wallet.swap',
    orderId: order.id,
    step: 'exchange',
  });
}

/** The output priced again at `atMs`; paid to to_address, or the deposit sent back (failed). */
export function payOutSwap(host: SwapHost, order: SwapOrder, atMs: number): void {
  const deposited = order.depositAmount;
  const from = order.depositFrom;
  assert(deposited !== null && from !== null, 'an exchanging order has its deposit');
  const { quote } = order;
  const now = quoteSwap(host.prices, host.config, quote.from, quote.to, deposited, atMs);
  const scaledMin = (quote.minReceived * deposited) / quote.fromAmount;
  const payout =
    now.toAmount >= scaledMin
      ? host.payFromPool(quote.to.chain, quote.to.address, order.toAddress, now.toAmount, 'swap-payout', atMs)
      : null;
  if (payout !== null) {
    order.payoutTx = payout.hash;
    moveSwap(host, order, 'sending', atMs, null);
    return;
  }
  moveSwap(
    host,
    order,
    'failed',
    atMs,
    now.toAmount < scaledMin
      ? "the price moved past the quote's minimum received"
      : 'the aggregator lacks liquidity for the output',
  );
  order.refundTx =
    host.payFromPool(quote.from.chain, quote.from.address, from, deposited, 'swap-refund', atMs)?.hash ?? null;
}

export function moveSwap(
  host: SwapHost,
  order: SwapOrder,
  status: SwapStatus,
  atMs: number,
  reason: string | null,
): void {
  host.swaps.move(order, status, atMs, depositKeyOf(order));
  if (reason !== null) order.reason = reason;
  emitSwap(host.context, order, atMs);
}

export function emitSwap(context: ServiceContext, order: SwapOrder, atMs: number): void {
  context.emit({
    type: 'wallet.swap',
    atMs,
    orderId: order.id,
    status: order.status,
    fromChain: order.quote.from.chain,
    toChain: order.quote.to.chain,
    amount: order.quote.fromAmount,
  });
}

export function depositKeyOf(order: SwapOrder): string {
  const chain = order.quote.from.chain;
  return `${chain}|${addressKey(chain, order.depositAddress)}`;
}
