/**
 * The trading service's records and commands, and its account names.
 *
 * Order lifecycle: open → filled | cancelled (limit orders), or straight to filled (market orders
 * and limit orders already crossed when placed). A perpetual position is per (agent, market),
 * netted: orders on its side add to it, orders on the other side reduce, close or flip it; it
 * ends closed (by orders) or liquidated. Spot holdings are per (agent, spot market) quantities.
 * Records are handed out as read-only views; only the service mutates them.
 * Money: margin sits in `trading-margin:<agent>` (the sum of the agent's open positions' margins),
 * open limit orders' funds in `trading-hold:<agent>`; the house account is the counterparty of
 * every fill and every PnL, the insurance account covers losses beyond a liquidated margin.
 */
import type { Micro } from '../../core/money.ts';
import type { MarketKind } from './market-catalogue.ts';

export const TRADING_HOUSE = 'trading-house';
export const TRADING_INSURANCE = 'trading-insurance';
export const marginAccount = (agentId: string): string => `trading-margin:${agentId}`;
export const tradingHoldAccount = (agentId: string): string => `trading-hold:${agentId}`;

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
export type OrderStatus = 'open' | 'filled' | 'cancelled';
export const ORDER_STATUSES: readonly OrderStatus[] = ['open', 'filled', 'cancelled'];
export type PositionSide = 'long' | 'short';
export type PositionStatus = 'open' | 'closed' | 'liquidated';

export interface OrderRecord {
  readonly id: string;
  readonly agentId: string;
  readonly symbol: string;
  readonly kind: MarketKind;
  readonly side: OrderSide;
  readonly type: OrderType;
  /** Size in USDC (quote currency). */
  readonly amountMicro: Micro;
  readonly leverage: number;
  /** Limit price (price units); null for market orders. */
  readonly limitPrice: bigint | null;
  readonly status: OrderStatus;
  readonly fillPrice: bigint | null;
  /** Units of base filled (QTY_ONE scale). */
  readonly fillQty: bigint | null;
  readonly feeMicro: Micro;
  readonly liquidity: 'maker' | 'taker' | null;
  /** Money held while open (limit orders): cost or margin plus the fee. */
  readonly holdMicro: Micro;
  /** Base units reserved while open (spot sell limit orders). */
  readonly holdQty: bigint;
  /** Realized PnL of the fill (perpetual reductions), 0 otherwise. */
  readonly realizedPnlMicro: Micro;
  readonly createdAtMs: number;
  readonly filledAtMs: number | null;
  readonly cancelledAtMs: number | null;
}

export interface PositionRecord {
  readonly id: string;
  readonly agentId: string;
  readonly symbol: string;
  readonly side: PositionSide;
  /** Units of base (QTY_ONE scale), positive while open. */
  readonly qty: bigint;
  readonly entryPrice: bigint;
  readonly marginMicro: Micro;
  /** Leverage of the latest order that opened or added to the position. */
  readonly leverage: number;
  readonly status: PositionStatus;
  readonly openedAtMs: number;
  readonly closedAtMs: number | null;
  /** Funding paid (positive) or received (negative) so far. */
  readonly fundingPaidMicro: Micro;
  readonly realizedPnlMicro: Micro;
  /** Mark price at liquidation; null unless liquidated. */
  readonly liquidationMark: bigint | null;
  /** Every unit ever added to the position (its size at opening plus additions; the deployed `size_usd`). */
  readonly openedQty: bigint;
  /** The price of the fill that closed it, or the liquidation mark; null while open. */
  readonly exitPrice: bigint | null;
}

export interface SpotHolding {
  readonly agentId: string;
  readonly symbol: string;
  readonly qty: bigint;
  /** Base units reserved by open sell limit orders. */
  readonly reservedQty: bigint;
  /** What the held units cost (for the average entry price). */
  readonly costMicro: Micro;
}

export interface PlaceOrderCommand {
  readonly agentId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly amountMicro: Micro;
  readonly leverage: number;
  readonly limitPrice: bigint | null;
}

export interface OrderActionCommand {
  readonly agentId: string;
  readonly orderId: string;
}

export interface ListOrdersCommand {
  readonly agentId: string;
  /** null = all statuses. */
  readonly status: OrderStatus | null;
  /** Markets the list keeps; null = every market. */
  readonly symbols: readonly string[] | null;
  readonly limit: number;
}

/** A market quote at an instant. */
export interface Quote {
  readonly symbol: string;
  readonly mid: bigint;
  readonly bid: bigint;
  readonly ask: bigint;
  /** Change over 24 hours in basis points. */
  readonly change24hBps: bigint;
  readonly volume24hMicro: Micro;
  /** Per 8 hours, parts per million; null for spot. */
  readonly fundingRatePpm: number | null;
  readonly nextFundingAtMs: number | null;
  readonly open: boolean;
}

/** A scenario's price shock: from `atMs` on, the asset's price moves by `moveBps`. */
export interface PriceShock {
  readonly base: string;
  readonly atMs: number;
  readonly moveBps: number;
}

/** A window in which a market (or every market: '*') refuses orders with MARKET_CLOSED. */
export interface MarketClosure {
  readonly symbol: string;
  readonly fromMs: number;
  readonly untilMs: number;
}

/** A scenario's trading events: price shocks and market closures, at absolute instants. */
export interface TradingSchedule {
  readonly shocks: readonly PriceShock[];
  readonly closures: readonly MarketClosure[];
}

export const TRADING_LIMITS = {
  ordersMax: 10_000_000,
  positionsMax: 10_000_000,
  shocksMax: 100,
  closuresMax: 100,
} as const;
