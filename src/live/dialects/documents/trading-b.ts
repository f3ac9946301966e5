/**
 * The documents' style B trading order (platform.md), as afp serve answers it: `POST
 * /trading-api/order` on the shared api address, `pair` (`BTC-USDC`), `side` buy/sell, `amount` as
 * a decimal string, `market_type: "perp"` for a position. Replay reads recorded style B orders
 * through it (a perpetual market order is afp's trading.order); the money audit speaks style A.
 */
import type { JsonObject } from '../../../core/errors.ts';
import { formatDecimal, type Micro } from '../../../core/money.ts';
import type { MarketOrderResult } from '../../operation-views.ts';
import type { WireReader } from '../../wire-reader.ts';
import { row, type DialectTable } from '../dialect.ts';

/** `BTC-PERP` → `BTC-USDC` (style B names a perpetual by its pair and `market_type`). */
export function pairOfSymbol(symbol: string): string {
  return symbol.endsWith('-PERP') ? `${symbol.slice(0, -'-PERP'.length)}-USDC` : symbol;
}

/** A perpetual order's body in style B: the pair, buy/sell, the amount as a decimal string, its type. */
export function orderBodyB(
  input: { symbol: string; side: 'long' | 'short'; sizeMicro: Micro; leverage: number | null },
  type: 'market' | 'limit',
): JsonObject {
  return {
    pair: pairOfSymbol(input.symbol),
    side: input.side === 'long' ? 'buy' : 'sell',
    amount: formatDecimal(input.sizeMicro),
    market_type: 'perp',
    type,
    ...(input.leverage === null ? {} : { leverage: input.leverage }),
  };
}

/** A market order's answer in style B (a perpetual or a spot pair's). */
function readOrderB(reader: WireReader): MarketOrderResult | null {
  const orderId = reader.string('order_id');
  const status = reader.string('status', { optional: true });
  reader.knows(
    'pair',
    'market_type',
    'side',
    'type',
    'amount',
    'leverage',
    'price',
    'fill_price',
    'fill_qty',
    'realized_pnl',
    'ts',
    'created_at',
  );
  return orderId === null ? null : { orderId, status, feeMicro: reader.money('fee', { optional: true }) };
}

export const TRADING_B: DialectTable = {
  'trading.order': row('trading.order', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/trading-api/order',
      auth: true,
      body: orderBodyB(input, 'market'),
    }),
    read: readOrderB,
  }),
  'trading.spot': row('trading.spot', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/trading-api/order',
      auth: true,
      body: {
        pair: input.pair,
        side: input.side,
        amount: formatDecimal(input.sizeMicro),
        market_type: 'spot',
        type: 'market',
      },
    }),
    read: readOrderB,
  }),
};
