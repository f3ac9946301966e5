/**
 * The documents' trading reads and limit orders, in both styles (platform.md), as afp serve
 * answers them: a market's price (style A's ticker `mark_price`, style B's price `mid`), a limit
 * order placed, listed (style B) and cancelled, and style B's portfolio balance. Why: a recorded
 * trading scenario is mostly these, and a replay reads each recorded answer through the
 * recording's dialect before it compares the target's (replay/route-operations-trading.ts).
 * Prices are 8-decimal strings in style B and JSON numbers in style A; money likewise.
 */
import type { LimitOrderView } from '../../operations.ts';
import type { WireReader } from '../../wire-reader.ts';
import { row, type DialectTable } from '../dialect.ts';
import { orderBodyA } from './trading-a.ts';
import { orderBodyB, pairOfSymbol } from './trading-b.ts';

const ORDER_FIELDS = ['type', 'leverage', 'fill_qty', 'realized_pnl', 'created_at', 'filled_at', 'cancelled_at', 'ts'];

/** A price as either style writes it: a JSON number (A) or a decimal string (B). */
function priceOf(reader: WireReader, field: string): number | null {
  const value = reader.any(field, { optional: true });
  if (typeof value === 'number') return value;
  return typeof value === 'string' && value !== '' && Number.isFinite(Number(value)) ? Number(value) : null;
}

/** `BTC-USDC` with `market_type: perp` is afp's `BTC-PERP`; a spot pair keeps its name. */
function symbolOfPair(pair: string | null, marketType: string | null): string | null {
  if (pair === null) return null;
  return marketType === 'perp' && pair.endsWith('-USDC') ? `${pair.slice(0, -'-USDC'.length)}-PERP` : pair;
}

function orderA(reader: WireReader): LimitOrderView | null {
  reader.knows(...ORDER_FIELDS, 'entry_price');
  const orderId = reader.id('order_id');
  const side = reader.string('side', { optional: true });
  const view = {
    symbol: reader.string('symbol', { optional: true }),
    side,
    status: reader.string('status', { optional: true }),
    sizeMicro: reader.money('size', { optional: true }),
    limitPrice: priceOf(reader, 'price'),
    fillPrice: priceOf(reader, 'entry_price'),
    feeMicro: reader.money('fee', { optional: true }),
  };
  return orderId === null ? null : { orderId, ...view };
}

function orderB(reader: WireReader): LimitOrderView | null {
  reader.knows(...ORDER_FIELDS);
  const orderId = reader.id('order_id');
  const side = reader.string('side', { optional: true });
  const view = {
    symbol: symbolOfPair(reader.string('pair', { optional: true }), reader.string('market_type', { optional: true })),
    side: side === 'buy' ? 'long' : side === 'sell' ? 'short' : side,
    status: reader.string('status', { optional: true }),
    sizeMicro: reader.money('amount', { optional: true }),
    limitPrice: priceOf(reader, 'price'),
    fillPrice: priceOf(reader, 'fill_price'),
    feeMicro: reader.money('fee', { optional: true }),
  };
  return orderId === null ? null : { orderId, ...view };
}

export const TRADING_ORDERS_A: DialectTable = {
  'trading.price': row('trading.price', {
    request: (input) => ({
      service: 'trading',
      method: 'GET',
      path: `/api/v1/ticker/${encodeURIComponent(input.symbol)}`,
      auth: false,
    }),
    read: (reader) => {
      reader.knows('symbol', 'bid', 'ask', 'change_24h', 'volume_24h', 'funding_rate', 'next_funding_at', 'open');
      const price = priceOf(reader, 'mark_price');
      return price === null ? null : { price, timestampMs: null };
    },
  }),
  'trading.limit': row('trading.limit', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/api/v1/orders',
      auth: true,
      body: { ...orderBodyA(input), type: 'limit', price: input.limitPrice },
    }),
    read: orderA,
  }),
  'trading.cancel': row('trading.cancel', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: `/api/v1/orders/${encodeURIComponent(input.orderId)}/cancel`,
      auth: true,
    }),
    read: orderA,
  }),
};

export const TRADING_ORDERS_B: DialectTable = {
  'trading.price': row('trading.price', {
    request: (input) => ({
      service: 'trading',
      method: 'GET',
      path: `/trading-api/price/${encodeURIComponent(pairOfSymbol(input.symbol))}`,
      auth: false,
    }),
    read: (reader) => {
      reader.knows('pair', 'market_type', 'bid', 'ask', 'change_24h', 'volume_24h', 'funding_rate');
      reader.knows('next_funding_at', 'open');
      const price = priceOf(reader, 'mid');
      return price === null ? null : { price, timestampMs: null };
    },
  }),
  'trading.limit': row('trading.limit', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/trading-api/order',
      auth: true,
      body: { ...orderBodyB(input, 'limit'), price: String(input.limitPrice) },
    }),
    read: orderB,
  }),
  'trading.orders': row('trading.orders', {
    request: () => ({ service: 'trading', method: 'GET', path: '/trading-api/orders', auth: true }),
    read: (reader) => {
      reader.knows('count');
      return { orders: reader.items('orders', orderB) };
    },
  }),
  'trading.cancel': row('trading.cancel', {
    request: (input) => ({
      service: 'trading',
      method: 'DELETE',
      path: `/trading-api/order/${encodeURIComponent(input.orderId)}`,
      auth: true,
    }),
    read: orderB,
  }),
  'trading.balance': row('trading.balance', {
    request: () => ({ service: 'trading', method: 'GET', path: '/trading-api/portfolio', auth: true }),
    read: (reader) => {
      reader.knows('held_for_orders', 'unrealized_pnl', 'spot_value', 'equity', 'positions', 'spot', 'open_orders');
      const balanceMicro = reader.money('balance');
      const marginMicro = reader.money('margin_used', { optional: true });
      return balanceMicro === null ? null : { balanceMicro, marginMicro };
    },
  }),
};
