/**
 * The documents' style A trading service (platform.md), as afp serves it: its own address under
 * /api/v1, bearer keys, `symbol`, `side` long/short, `size` in USDC as a JSON number. The order
 * row (the money audit places orders larger than the balance, which must be refused, and one at
 * the highest leverage for the liquidation probe) and the positions row (GET /api/v1/positions:
 * entry, mark and liquidation prices as JSON numbers, read into 8-decimal units).
 */
import { toNumber } from '../../../core/money.ts';
import type { LivePosition } from '../../operations.ts';
import { row, type DialectTable } from '../dialect.ts';
import { priceUnits } from '../price-units.ts';

export const TRADING_A: DialectTable = {
  'trading.order': row('trading.order', {
    request: (input) => ({
      service: 'trading', method: 'POST', path: '/api/v1/orders', auth: true,
      body: { symbol: input.symbol, side: input.side, size: toNumber(input.sizeMicro), leverage: input.leverage },
    }),
    read: (reader) => {
      const orderId = reader.string('order_id');
      const status = reader.string('status', { optional: true });
      reader.knows('symbol', 'side', 'type', 'size', 'leverage', 'price', 'entry_price', 'fill_qty', 'realized_pnl', 'created_at', 'filled_at', 'cancelled_at');
      return orderId === null ? null : { orderId, status, feeMicro: reader.money('fee', { optional: true }) };
    },
  }),
  'trading.positions': row('trading.positions', {
    request: () => ({ service: 'trading', method: 'GET', path: '/api/v1/positions', auth: true }),
    read: (reader) => {
      const list = reader.array('positions');
      reader.knows('count');
      if (list === null) return null;
      const positions = list.flatMap((item, index): LivePosition[] => {
        const element = reader.nested(item, `positions[${index}]`).knows('position_id', 'size', 'qty', 'unrealized_pnl', 'opened_at', 'funding_paid');
        const symbol = element.string('symbol');
        const side = element.string('side');
        const entryPrice = priceUnits(element.number('entry_price'));
        if (symbol === null || side === null || entryPrice === null) return [];
        return [{ symbol, side, entryPrice, markPrice: priceUnits(element.number('mark_price', { optional: true })), marginMicro: element.money('margin', { optional: true }), leverage: element.number('leverage', { optional: true }), liquidationPrice: priceUnits(element.number('liquidation_price', { optional: true })) }];
      });
      return { positions };
    },
  }),
};
