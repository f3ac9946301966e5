/**
 * TradingBook: the trading service's storage — orders by id and per agent (creation order), the
 * open limit orders (placement order: the order fills are checked in), positions by id with the
 * open ones indexed by (agent, market), and spot holdings per (agent, market).
 *
 * Iteration orders are insertion orders of Maps, so every pass (fills, liquidations, funding) runs
 * in the same order in every run. Records are never removed (history for lists and reports);
 * the totals are bounded by TRADING_LIMITS (a harness bug beyond them).
 */
import { assert } from '../../core/assert.ts';
import {
  TRADING_LIMITS,
  type OrderRecord,
  type OrderStatus,
  type PositionRecord,
  type SpotHolding,
} from './trading-record.ts';

export type MutableOrder = { -readonly [K in keyof OrderRecord]: OrderRecord[K] };
export type MutablePosition = { -readonly [K in keyof PositionRecord]: PositionRecord[K] };
export type MutableHolding = { -readonly [K in keyof SpotHolding]: SpotHolding[K] };

export class TradingBook {
  private readonly orders = new Map<string, MutableOrder>();
  private readonly ordersByAgent = new Map<string, MutableOrder[]>();
  private readonly openOrders = new Map<string, MutableOrder>();
  private readonly openCountByAgent = new Map<string, number>();
  private readonly positions = new Map<string, MutablePosition>();
  private readonly openPositions = new Map<string, MutablePosition>();
  private readonly positionsByAgent = new Map<string, MutablePosition[]>();
  private readonly openByAgent = new Map<string, Map<string, MutablePosition>>();
  private readonly holdings = new Map<string, Map<string, MutableHolding>>();

  get orderCount(): number {
    return this.orders.size;
  }

  get positionCount(): number {
    return this.positions.size;
  }

  get openOrderCount(): number {
    return this.openOrders.size;
  }

  get openPositionCount(): number {
    return this.openPositions.size;
  }

  addOrder(order: MutableOrder): void {
    assert(!this.orders.has(order.id), 'order ids are unique');
    assert(this.orders.size < TRADING_LIMITS.ordersMax, `at most ${TRADING_LIMITS.ordersMax} orders`);
    this.orders.set(order.id, order);
    const list = this.ordersByAgent.get(order.agentId);
    if (list === undefined) this.ordersByAgent.set(order.agentId, [order]);
    else list.push(order);
    if (order.status === 'open') {
      this.openOrders.set(order.id, order);
      this.openCountByAgent.set(order.agentId, this.openOrdersOf(order.agentId) + 1);
    }
  }

  /** Marks an open order filled or cancelled (the caller sets the other fields). */
  closeOrder(order: MutableOrder, status: Exclude<OrderStatus, 'open'>): void {
    assert(order.status === 'open' && this.openOrders.has(order.id), 'only an open order closes');
    order.status = status;
    this.openOrders.delete(order.id);
    this.openCountByAgent.set(order.agentId, this.openOrdersOf(order.agentId) - 1);
  }

  order(orderId: string): MutableOrder | undefined {
    return this.orders.get(orderId);
  }

  openOrdersOf(agentId: string): number {
    return this.openCountByAgent.get(agentId) ?? 0;
  }

  /** A snapshot of the open limit orders, in placement order (fills may close them while iterating). */
  openOrderList(): MutableOrder[] {
    return [...this.openOrders.values()];
  }

  allOrders(): IterableIterator<OrderRecord> {
    return this.orders.values();
  }

  /** The caller's newest orders first, filtered; at most `limit`. */
  listOrders(options: {
    agentId: string;
    status: OrderStatus | null;
    symbols: readonly string[] | null;
    limit: number;
  }): OrderRecord[] {
    const list = this.ordersByAgent.get(options.agentId) ?? [];
    const found: OrderRecord[] = [];
    for (let index = list.length - 1; index >= 0 && found.length < options.limit; index--) {
      const order = list[index] as OrderRecord;
      if (options.status !== null && order.status !== options.status) continue;
      if (options.symbols !== null && !options.symbols.includes(order.symbol)) continue;
      found.push(order);
    }
    return found;
  }

  addPosition(position: MutablePosition): void {
    const key = positionKey(position.agentId, position.symbol);
    assert(!this.openPositions.has(key), 'one open position per agent and market');
    assert(this.positions.size < TRADING_LIMITS.positionsMax, `at most ${TRADING_LIMITS.positionsMax} positions`);
    this.positions.set(position.id, position);
    const ofAgent = this.positionsByAgent.get(position.agentId);
    if (ofAgent === undefined) this.positionsByAgent.set(position.agentId, [position]);
    else ofAgent.push(position);
    this.openPositions.set(key, position);
    let byMarket = this.openByAgent.get(position.agentId);
    if (byMarket === undefined) {
      byMarket = new Map();
      this.openByAgent.set(position.agentId, byMarket);
    }
    byMarket.set(position.symbol, position);
  }

  /** Takes a position out of the open index (its status is set by the caller). */
  endPosition(position: MutablePosition): void {
    const key = positionKey(position.agentId, position.symbol);
    assert(this.openPositions.get(key) === position, 'only the open position ends');
    this.openPositions.delete(key);
    this.openByAgent.get(position.agentId)?.delete(position.symbol);
  }

  openPosition(agentId: string, symbol: string): MutablePosition | undefined {
    return this.openPositions.get(positionKey(agentId, symbol));
  }

  /** A snapshot of the open positions in opening order. */
  openPositionList(): MutablePosition[] {
    return [...this.openPositions.values()];
  }

  openPositionsOf(agentId: string): PositionRecord[] {
    return [...(this.openByAgent.get(agentId)?.values() ?? [])];
  }

  position(positionId: string): PositionRecord | undefined {
    return this.positions.get(positionId);
  }

  /** The agent's positions, open and ended, newest first, at most `limit`. */
  positionsOf(agentId: string, limit: number): PositionRecord[] {
    const all = this.positionsByAgent.get(agentId) ?? [];
    const found: PositionRecord[] = [];
    for (let index = all.length - 1; index >= 0 && found.length < limit; index--)
      found.push(all[index] as MutablePosition);
    return found;
  }

  allPositions(): IterableIterator<PositionRecord> {
    return this.positions.values();
  }

  /** The holding of (agent, spot market), created empty on first use. */
  holding(agentId: string, symbol: string): MutableHolding {
    let byMarket = this.holdings.get(agentId);
    if (byMarket === undefined) {
      byMarket = new Map();
      this.holdings.set(agentId, byMarket);
    }
    let holding = byMarket.get(symbol);
    if (holding === undefined) {
      holding = { agentId, symbol, qty: 0n, reservedQty: 0n, costMicro: 0n };
      byMarket.set(symbol, holding);
    }
    return holding;
  }

  /** The agent's non-empty holdings, in first-use order. */
  holdingsOf(agentId: string): SpotHolding[] {
    return [...(this.holdings.get(agentId)?.values() ?? [])].filter((holding) => holding.qty > 0n);
  }

  /** Every agent's open-order holds summed (for the conservation checker). */
  agentsWithOpenOrders(): Set<string> {
    return new Set([...this.openOrders.values()].map((order) => order.agentId));
  }
}

function positionKey(agentId: string, symbol: string): string {
  return `${agentId}|${symbol}`;
}
