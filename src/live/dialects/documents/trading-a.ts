/**
 * The documents' style A trading service (platform.md), as afp serves it: its own address under
 * /api/v1, bearer keys, `symbol`, `side` long/short, `size` in USDC as a JSON number. The order
 * row (the money audit places orders larger than the balance, which must be refused, and one at
 * the highest leverage for the liquidation probe) and the positions list (a replay compares it by market, side, margin and leverage; `size`, the notional at
 * the current quantity, a deployment rounds otherwise, and the entry is the price of the instant the
 * replay reached, which its own funding of a service account may have moved on a manual serve);
 * prices (entry, mark, liquidation) read into 8-decimal units for the liquidation probe, and not compared by a replay.
 */
import type { JsonObject } from '../../../core/errors.ts';
import { toNumber, type Micro } from '../../../core/money.ts';
import type { PositionView } from '../../operations.ts';
import type { MarketOrderResult } from '../../operation-views.ts';
import type { WireReader } from '../../wire-reader.ts';
import { row, type DialectTable } from '../dialect.ts';
import { priceUnits } from '../price-units.ts';

const POSITION_KNOWN = [
  'size',
  'qty',
  'entry_price',
  'mark_price',
  'unrealized_pnl',
  'liquidation_price',
  'funding_paid',
  'opened_at',
];

/** A perpetual order's body in style A: the symbol, long/short, the size in USDC as a JSON number. */
export function orderBodyA(input: {
  symbol: string;
  side: 'long' | 'short';
  sizeMicro: Micro;
  leverage: number | null;
}): JsonObject {
  return {
    symbol: input.symbol,
    side: input.side,
    size: toNumber(input.sizeMicro),
    ...(input.leverage === null ? {} : { leverage: input.leverage }),
  };
}

/** A market order's answer in style A (a perpetual or a spot pair's). */
function readOrderA(reader: WireReader): MarketOrderResult | null {
  const orderId = reader.string('order_id');
  const status = reader.string('status', { optional: true });
  reader.knows(
    'symbol',
    'side',
    'type',
    'size',
    'leverage',
    'price',
    'entry_price',
    'fill_qty',
    'realized_pnl',
    'created_at',
    'filled_at',
    'cancelled_at',
  );
  return orderId === null ? null : { orderId, status, feeMicro: reader.money('fee', { optional: true }) };
}

export const TRADING_A: DialectTable = {
  'trading.order': row('trading.order', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/api/v1/orders',
      auth: true,
      body: orderBodyA(input),
    }),
    read: readOrderA,
  }),
  // A spot pair's market order: its `symbol` is the pair, its `size` the USDC spent or sold.
  'trading.spot': row('trading.spot', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/api/v1/orders',
      auth: true,
      body: { symbol: input.pair, side: input.side, size: toNumber(input.sizeMicro), type: 'market' },
    }),
    read: readOrderA,
  }),
  'trading.positions': row('trading.positions', {
    request: () => ({ service: 'trading', method: 'GET', path: '/api/v1/positions', auth: true }),
    read: (reader) => {
      reader.knows('count');
      const positions = reader.items('positions', (item): PositionView | null => {
        const element = item.knows(...POSITION_KNOWN);
        const positionId = element.string('position_id');
        const view = {
          symbol: element.string('symbol', { optional: true }),
          side: element.string('side', { optional: true }),
          sizeMicro: null,
          marginMicro: element.money('margin', { optional: true }),
          leverage: element.number('leverage', { optional: true }),
          entryPrice: priceUnits(element.number('entry_price', { optional: true })),
          markPrice: priceUnits(element.number('mark_price', { optional: true })),
          liquidationPrice: priceUnits(element.number('liquidation_price', { optional: true })),
        };
        return positionId === null ? null : { positionId, ...view };
      });
      return { positions: positions.sort((a, b) => (a.symbol ?? '').localeCompare(b.symbol ?? '')) };
    },
  }),
};
