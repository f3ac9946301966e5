/**
 * Rendering of the trading rows' bodies, styles A (JSON numbers, `symbol`, `size`) and B
 * (decimal strings, `pair`, `amount`, `market_type`). Prices carry up to 8 decimals, quantities
 * 8, money 6; the 24-hour change is a percentage with 2 decimals; a funding rate is the 8-hour
 * rate as a fraction (0.0001 = 0.01%). Each body is one fresh object literal.
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import { marketBySymbol, pairOf, type Market } from '../../../services/trading/market-catalogue.ts';
import { formatFixed, formatPrice, formatQty } from '../../../services/trading/price-scale.ts';
import type { MarkedPosition } from '../../../services/trading/trading.ts';
import type { OrderRecord, Quote, SpotHolding } from '../../../services/trading/trading-record.ts';
import { isoTime, moneyA, moneyB } from '../../render.ts';

const priceA = (price: bigint): number => Number(formatPrice(price));
const priceOrNullA = (price: bigint | null): number | null => (price === null ? null : priceA(price));
const priceOrNullB = (price: bigint | null): string | null => (price === null ? null : formatPrice(price));
const percent = (bps: bigint): string => formatFixed(bps, 2);
const fundingText = (ppm: number | null): string | null => (ppm === null ? null : formatFixed(BigInt(ppm), 6));

function marketOf(symbol: string): Market {
  const market = marketBySymbol(symbol);
  assert(market !== undefined, `a record names a listed market: ${symbol}`);
  return market;
}

export function orderA(order: OrderRecord): JsonObject {
  return {
    order_id: order.id,
    status: order.status,
    symbol: order.symbol,
    side: order.kind === 'perp' ? (order.side === 'buy' ? 'long' : 'short') : order.side,
    type: order.type,
    size: moneyA(order.amountMicro),
    leverage: order.leverage,
    price: priceOrNullA(order.limitPrice),
    entry_price: priceOrNullA(order.fillPrice),
    fill_qty: order.fillQty === null ? null : Number(formatQty(order.fillQty)),
    fee: moneyA(order.feeMicro),
    realized_pnl: moneyA(order.realizedPnlMicro),
    created_at: isoTime(order.createdAtMs),
    filled_at: order.filledAtMs === null ? null : isoTime(order.filledAtMs),
    cancelled_at: order.cancelledAtMs === null ? null : isoTime(order.cancelledAtMs),
  };
}

export function orderB(order: OrderRecord): JsonObject {
  return {
    order_id: order.id,
    status: order.status,
    pair: pairOf(marketOf(order.symbol)),
    market_type: order.kind,
    side: order.side,
    type: order.type,
    amount: moneyB(order.amountMicro),
    leverage: order.leverage,
    price: priceOrNullB(order.limitPrice),
    fill_price: priceOrNullB(order.fillPrice),
    fill_qty: order.fillQty === null ? null : formatQty(order.fillQty),
    fee: moneyB(order.feeMicro),
    realized_pnl: moneyB(order.realizedPnlMicro),
    ts: isoTime(order.filledAtMs ?? order.cancelledAtMs ?? order.createdAtMs),
    created_at: isoTime(order.createdAtMs),
  };
}

export function positionA(view: MarkedPosition): JsonObject {
  const { position } = view;
  return {
    position_id: position.id,
    symbol: position.symbol,
    side: position.side,
    size: moneyA(notionalOf(position.qty, position.entryPrice)),
    qty: Number(formatQty(position.qty)),
    entry_price: priceA(position.entryPrice),
    mark_price: priceA(view.markPrice),
    unrealized_pnl: moneyA(view.unrealizedPnlMicro),
    margin: moneyA(position.marginMicro),
    leverage: position.leverage,
    liquidation_price: priceA(view.liquidationPrice > 0n ? view.liquidationPrice : 0n),
    funding_paid: moneyA(position.fundingPaidMicro),
    opened_at: isoTime(position.openedAtMs),
  };
}

export function positionB(view: MarkedPosition): JsonObject {
  const { position } = view;
  return {
    position_id: position.id,
    pair: pairOf(marketOf(position.symbol)),
    market_type: 'perp',
    side: position.side,
    amount: moneyB(notionalOf(position.qty, position.entryPrice)),
    qty: formatQty(position.qty),
    entry_price: formatPrice(position.entryPrice),
    current_price: formatPrice(view.markPrice),
    unrealized_pnl: moneyB(view.unrealizedPnlMicro),
    margin: moneyB(position.marginMicro),
    leverage: position.leverage,
    liquidation_price: formatPrice(view.liquidationPrice > 0n ? view.liquidationPrice : 0n),
    funding_paid: moneyB(position.fundingPaidMicro),
    opened_at: isoTime(position.openedAtMs),
  };
}

export function holdingB(holding: SpotHolding, mark: bigint, valueMicro: Micro): JsonObject {
  return {
    pair: holding.symbol,
    market_type: 'spot',
    qty: formatQty(holding.qty),
    reserved_qty: formatQty(holding.reservedQty),
    entry_price: formatPrice(holding.qty > 0n ? (holding.costMicro * 10_000_000_000n) / holding.qty : 0n),
    current_price: formatPrice(mark),
    value: moneyB(valueMicro),
    unrealized_pnl: moneyB(valueMicro - holding.costMicro),
  };
}

export function marketA(market: Market, quote: Quote): JsonObject {
  return {
    symbol: market.symbol,
    base: market.base,
    type: market.kind,
    category: market.category,
    mark_price: priceA(quote.mid),
    max_leverage: market.maxLeverage,
    funding_rate: quote.fundingRatePpm === null ? null : Number(fundingText(quote.fundingRatePpm)),
    open: quote.open,
  };
}

export function tickerA(quote: Quote): JsonObject {
  return {
    symbol: quote.symbol,
    mark_price: priceA(quote.mid),
    bid: priceA(quote.bid),
    ask: priceA(quote.ask),
    change_24h: Number(percent(quote.change24hBps)),
    volume_24h: moneyA(quote.volume24hMicro),
    funding_rate: quote.fundingRatePpm === null ? null : Number(fundingText(quote.fundingRatePpm)),
    next_funding_at: quote.nextFundingAtMs === null ? null : isoTime(quote.nextFundingAtMs),
    open: quote.open,
  };
}

export function priceB(market: Market, quote: Quote): JsonObject {
  return {
    pair: pairOf(market),
    market_type: market.kind,
    bid: formatPrice(quote.bid),
    ask: formatPrice(quote.ask),
    mid: formatPrice(quote.mid),
    change_24h: percent(quote.change24hBps),
    volume_24h: moneyB(quote.volume24hMicro),
    funding_rate: fundingText(quote.fundingRatePpm),
    next_funding_at: quote.nextFundingAtMs === null ? null : isoTime(quote.nextFundingAtMs),
    open: quote.open,
  };
}

function notionalOf(qty: bigint, price: bigint): Micro {
  return (qty * price) / 10_000_000_000n;
}
