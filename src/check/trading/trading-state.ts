/**
 * The trading part of `afp check`'s model state (check-model.ts): the markets a run trades, its
 * orders, positions, spot holdings and liquidations, the target's market closures and its price
 * oracle, as the wire showed them. Only the state and its empty start: the rules that move it are
 * in model-*.ts beside it. Its own file so that the whole model's state names it without importing
 * the rules, which take the whole model.
 */
import type { Micro } from '../../core/money.ts';
import type { MarketKind } from '../../services/trading/market-catalogue.ts';
import type { OrderSide, PositionSide } from '../../services/trading/trading-record.ts';

export interface TradingMarket {
  readonly symbol: string;
  readonly pair: string;
  readonly kind: MarketKind;
}
/** The markets a run trades: two crypto majors as perpetuals (leverage up to 10) and BTC spot. */
export const TRADING_MARKETS: readonly TradingMarket[] = [
  { symbol: 'BTC-PERP', pair: 'BTC-USDC', kind: 'perp' },
  { symbol: 'ETH-PERP', pair: 'ETH-USDC', kind: 'perp' },
  { symbol: 'BTC-USDC', pair: 'BTC-USDC', kind: 'spot' },
];
/** A market nobody lists, valid in form (the 400 answers). */
export const UNKNOWN_MARKET: TradingMarket = { symbol: 'NOPE-PERP', pair: 'NOPE-USDC', kind: 'perp' };

export function marketAt(market: number | 'unknown'): TradingMarket {
  return market === 'unknown' ? UNKNOWN_MARKET : (TRADING_MARKETS[market] ?? UNKNOWN_MARKET);
}

export interface ModelQuote {
  readonly bid: bigint;
  readonly ask: bigint;
  readonly mid: bigint;
}

export interface PriceOracle {
  /** The mid (the mark) of a check market at the tick containing `atMs`. */
  mid(market: number, atMs: number): bigint;
  quote(market: number, atMs: number): ModelQuote;
  /** The funding rate quoted during the 8-hour period containing `atMs`, in parts per million. */
  fundingRatePpm(market: number, atMs: number): number;
}

export interface ModelOrder {
  readonly id: string;
  readonly slot: number;
  readonly market: number;
  readonly side: OrderSide;
  readonly amountMicro: Micro;
  readonly leverage: number;
  readonly limitPrice: bigint | null;
  status: 'open' | 'cancelled' | 'filled';
  holdMicro: Micro;
  /** Units of a spot holding reserved by a resting sell. */
  holdQty: bigint;
}

/** A spot holding of (slot, market): units owned, units reserved by resting sells, their cost. */
export interface ModelHolding {
  readonly slot: number;
  readonly market: number;
  qty: bigint;
  reservedQty: bigint;
  costMicro: Micro;
}

/** A window in which a market (or every market, `*`) refuses orders. */
export interface ModelClosure {
  readonly symbol: string;
  readonly fromMs: number;
  readonly untilMs: number;
}

export interface ModelPosition {
  readonly slot: number;
  readonly market: number;
  readonly side: PositionSide;
  qty: bigint;
  entry: bigint;
  marginMicro: Micro;
  leverage: number;
}

export interface TradingModel {
  /** Every order placed in this run, in placing order (filled, open, cancelled). */
  readonly orders: ModelOrder[];
  /** Open positions, in opening order. */
  positions: ModelPosition[];
  /** Positions liquidated at a tick, and the loss beyond their margins booked to insurance. */
  liquidations: number;
  shortfallMicro: Micro;
  /** Spot holdings, in first-use order. */
  readonly holdings: ModelHolding[];
  /** The target's market closures, learned when the run starts. */
  readonly closures: readonly ModelClosure[];
  /** The target's prices at any instant; null when the target does not say its seed (then time never moves with trading open). */
  readonly prices: PriceOracle | null;
}

export function createTradingModel(
  closures: readonly ModelClosure[] = [],
  prices: PriceOracle | null = null,
): TradingModel {
  return { orders: [], positions: [], liquidations: 0, shortfallMicro: 0n, holdings: [], closures, prices };
}
