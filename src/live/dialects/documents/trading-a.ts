/**
 * The documents' style A trading service (platform.md), as afp serves it: its own address under
 * /api/v1, bearer keys, `symbol`, `side` long/short, `size` in USDC as a JSON number. Only the
 * order row: the money audit places one order larger than the balance, which must be refused.
 */
import { toNumber } from '../../../core/money.ts';
import { row, type DialectTable } from '../dialect.ts';

export const TRADING_A: DialectTable = {
  'trading.order': row('trading.order', {
    request: (input) => ({
      service: 'trading', method: 'POST', path: '/api/v1/orders', auth: true,
      body: { symbol: input.symbol, side: input.side, size: toNumber(input.sizeMicro), ...(input.leverage === null ? {} : { leverage: input.leverage }) },
    }),
    read: (reader) => {
      const orderId = reader.string('order_id');
      const status = reader.string('status', { optional: true });
      reader.knows('symbol', 'side', 'type', 'size', 'leverage', 'price', 'entry_price', 'fill_qty', 'realized_pnl', 'created_at', 'filled_at', 'cancelled_at');
      return orderId === null ? null : { orderId, status, feeMicro: reader.money('fee', { optional: true }) };
    },
  }),
};
