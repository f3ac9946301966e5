/**
 * The deployed trading service's names and bodies (spec/DEPLOYED.md §5) over afp's trading model:
 * a deployed `coin` is a Hyperliquid name — a crypto perpetual's asset (`BTC` for afp's
 * `BTC-PERP`), a real-world asset with the `xyz:` prefix (`xyz:TSLA` for `TSLA-PERP`); spot pairs
 * are not offered (the deployment trades perpetuals only). Prices and money are JSON numbers; a
 * position's `size_usd` is its notional at entry; `pnl_percent` is the PnL over the margin, in
 * percent with 2 decimals (the return on the money put up). Bodies are fresh object literals.
 */
import type { JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import { MARKETS, marketBySymbol, type Market } from '../../../services/trading/market-catalogue.ts';
import { formatFixed, formatPrice, notionalMicro } from '../../../services/trading/price-scale.ts';
import type { MarkedPosition } from '../../../services/trading/trading.ts';
import type { OrderRecord, PositionRecord, Quote } from '../../../services/trading/trading-record.ts';
import { isoTime, moneyA } from '../../render.ts';

/** afp's perpetuals by deployed coin name, built once (the catalogue is immutable). */
const MARKET_BY_COIN: ReadonlyMap<string, Market> = new Map(
  MARKETS.filter((market) => market.kind === 'perp').map((market) => [coinOf(market), market]),
);
const MARKET_BY_UPPER_COIN: ReadonlyMap<string, Market> = new Map(
  [...MARKET_BY_COIN].map(([coin, market]) => [coin.toUpperCase(), market]),
);

export function coinOf(market: Market): string {
  return market.category === 'crypto' ? market.base : `xyz:${market.base}`;
}

/** The perpetual a deployed coin names (exact, else case-insensitively); undefined when none. */
export function marketOfCoin(coin: string): Market | undefined {
  return MARKET_BY_COIN.get(coin) ?? MARKET_BY_UPPER_COIN.get(coin.toUpperCase());
}

export function coinOfSymbol(symbol: string): string {
  const market = marketBySymbol(symbol);
  return market === undefined ? symbol : coinOf(market);
}

export const priceNumber = (price: bigint): number => Number(formatPrice(price));
const fundingNumber = (ppm: number | null): number | null =>
  ppm === null ? null : Number(formatFixed(BigInt(ppm), 6));

/** PnL over margin, in percent, 2 decimals; 0 without margin. */
export function pnlPercent(pnlMicro: Micro, marginMicro: Micro): number {
  if (marginMicro <= 0n) return 0;
  return Number(formatFixed((pnlMicro * 10_000n) / marginMicro, 2));
}

export function marketRow(market: Market, quote: Quote): JsonObject {
  return {
    coin: coinOf(market),
    ticker: market.symbol,
    category: market.category,
    price: priceNumber(quote.mid),
    max_leverage: market.maxLeverage,
    funding_rate: fundingNumber(quote.fundingRatePpm),
    change_24h_pct: Number(formatFixed(quote.change24hBps, 2)),
    volume_24h: moneyA(quote.volume24hMicro),
  };
}

export function marketDetail(market: Market, quote: Quote): JsonObject {
  return {
    ...marketRow(market, quote),
    bid: priceNumber(quote.bid),
    ask: priceNumber(quote.ask),
    next_funding_at: quote.nextFundingAtMs === null ? null : isoTime(quote.nextFundingAtMs),
    open: quote.open,
  };
}

/** The notional a position was opened with (all its lots at the combined entry), to the nearest cent (the units bought are floored). */
export function sizeUsdOf(position: PositionRecord): Micro {
  const exact = notionalMicro(position.openedQty, position.entryPrice, 'down');
  return ((exact + 5_000n) / 10_000n) * 10_000n;
}

/** The fields every position line opens with, open or closed. */
function positionHead(position: PositionRecord): JsonObject {
  return {
    position_id: position.id,
    coin: coinOfSymbol(position.symbol),
    side: position.side,
    size_usd: moneyA(sizeUsdOf(position)),
    entry_price: priceNumber(position.entryPrice),
  };
}

export function openPositionRow(view: MarkedPosition, feeMicro: Micro | null): JsonObject {
  const { position } = view;
  return {
    ...positionHead(position),
    current_price: priceNumber(view.markPrice),
    leverage: position.leverage,
    margin_used: moneyA(position.marginMicro),
    liquidation_price: priceNumber(view.liquidationPrice),
    unrealized_pnl: moneyA(view.unrealizedPnlMicro),
    unrealized_pnl_percent: pnlPercent(view.unrealizedPnlMicro, position.marginMicro),
    ...(feeMicro === null ? {} : { fee: moneyA(feeMicro) }),
    status: 'open',
    opened_at: isoTime(position.openedAtMs),
  };
}

/** A closed or liquidated position (history, close). `marginMicro`: what the position had put up. */
export function closedPositionRow(position: PositionRecord, marginMicro: Micro): JsonObject {
  return {
    ...positionHead(position),
    exit_price: position.exitPrice === null ? null : priceNumber(position.exitPrice),
    leverage: position.leverage,
    pnl: moneyA(position.realizedPnlMicro),
    pnl_percent: pnlPercent(position.realizedPnlMicro, marginMicro),
    status: position.status === 'open' ? 'open' : 'closed',
    ...(position.status === 'liquidated' ? { liquidated: true } : {}),
    opened_at: isoTime(position.openedAtMs),
    closed_at: position.closedAtMs === null ? null : isoTime(position.closedAtMs),
  };
}

/** afp's limit-order status in the deployment's words: open reads `pending`. */
export function limitOrderRow(order: OrderRecord): JsonObject {
  return {
    order_id: order.id,
    coin: coinOfSymbol(order.symbol),
    side: order.side === 'buy' ? 'long' : 'short',
    size_usd: moneyA(order.amountMicro),
    limit_price: order.limitPrice === null ? null : priceNumber(order.limitPrice),
    leverage: order.leverage,
    status: order.status === 'open' ? 'pending' : order.status,
    fill_price: order.fillPrice === null ? null : priceNumber(order.fillPrice),
    fee: moneyA(order.feeMicro),
    created_at: isoTime(order.createdAtMs),
    filled_at: order.filledAtMs === null ? null : isoTime(order.filledAtMs),
  };
}
