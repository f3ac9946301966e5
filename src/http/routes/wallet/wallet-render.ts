/**
 * Wallet response bodies shared by the rows. Chain amounts are decimal strings in whole units
 * (DEPLOYED.md §1.1: "wallet chain amounts excepted" from money-as-number) with the base units
 * beside them as an integer string; USD values of style A and B are JSON numbers. Field names
 * follow the deployment where DEPLOYED.md §6 shows them (tx_hash, explorer, quote, order_id…).
 */
import type { JsonObject } from '../../../core/errors.ts';
import { isoTime } from '../../render.ts';
import type { WalletTx } from '../../../services/wallet/chain-book.ts';
import type { SwapOrder, SwapQuote } from '../../../services/wallet/swap-desk.ts';
import { formatUnits, type Asset } from '../../../services/wallet/wallet-assets.ts';
import { chainRow } from '../../../services/wallet/wallet-config.ts';
import { PRICE_DECIMALS } from '../../../services/trading/price-scale.ts';

/** A USD value with 8 decimals as a JSON number rounded to cents (display only). */
export function usdNumber(value: bigint): number {
  return Number(value / 10n ** BigInt(PRICE_DECIMALS - 2)) / 100;
}

export function amountBody(asset: Asset, units: bigint): JsonObject {
  return {
    symbol: asset.symbol,
    contract: asset.token === null ? null : asset.address,
    amount: formatUnits(units, asset.decimals),
    base_units: units.toString(),
    decimals: asset.decimals,
  };
}

export function txBody(tx: WalletTx): JsonObject {
  const row = chainRow(tx.chain);
  return {
    tx_hash: tx.hash,
    chain: tx.chain,
    type: tx.kind,
    status: tx.status,
    from: tx.from,
    to: tx.to,
    symbol: tx.symbol,
    token: tx.asset === row.nativeAsset ? null : tx.asset,
    amount: formatUnits(tx.amount, tx.decimals),
    fee: formatUnits(tx.fee, row.decimals),
    fee_symbol: row.symbol,
    memo: tx.memo,
    sent_at: isoTime(tx.sentAtMs),
    block_at: isoTime(tx.blockAtMs),
    block_height: Math.floor(tx.blockAtMs / row.blockMs),
    failure: tx.failure,
    explorer: `${row.explorerTx}${tx.hash}`,
  };
}

export function quoteBody(quote: SwapQuote): JsonObject {
  const { from, to } = quote;
  return {
    quote: {
      fromChain: from.chain,
      toChain: to.chain,
      fromToken: from.address,
      toToken: to.address,
      fromAmount: formatUnits(quote.fromAmount, from.decimals),
      toAmount: formatUnits(quote.toAmount, to.decimals),
      minReceived: formatUnits(quote.minReceived, to.decimals),
      estimatedTime: Math.ceil(quote.estimatedTimeMs / 1000),
      fee: {
        integrator_fee_pct: 0.5,
        amount: formatUnits(quote.feeAmount, from.decimals),
        symbol: from.symbol,
        usd: usdNumber((quote.feeAmount * quote.fromPrice) / 10n ** BigInt(from.decimals)),
      },
      prices_usd: { [from.symbol]: usdNumber(quote.fromPrice), [to.symbol]: usdNumber(quote.toPrice) },
    },
    integrator_fee: '0.5%',
    next_step: 'POST /v1/wallet/swap with the same fields and to_address, then send fromAmount to the deposit address',
  };
}

export function swapOrderBody(order: SwapOrder): JsonObject {
  const { quote } = order;
  return {
    swap_id: order.id,
    order_id: order.id,
    status: order.status,
    deposit: {
      chain: quote.from.chain,
      address: order.depositAddress,
      token: quote.from.address,
      amount: formatUnits(quote.fromAmount, quote.from.decimals),
    },
    output: {
      chain: quote.to.chain,
      address: order.toAddress,
      token: quote.to.address,
      amount: formatUnits(quote.toAmount, quote.to.decimals),
      min_received: formatUnits(quote.minReceived, quote.to.decimals),
    },
    fee: {
      integrator_fee_pct: 0.5,
      amount: formatUnits(quote.feeAmount, quote.from.decimals),
      symbol: quote.from.symbol,
    },
    created_at: isoTime(order.createdAtMs),
    updated_at: isoTime(order.updatedAtMs),
    expires_at: isoTime(order.expiresAtMs),
    deposit_tx: order.depositTx,
    payout_tx: order.payoutTx,
    refund_tx: order.refundTx,
    reason: order.reason,
    check_status: `/v1/wallet/swap/status/${order.id}`,
  };
}
