/**
 * The documents' style B trading order (platform.md), as afp serve answers it: `POST
 * /trading-api/order` on the shared api address, `pair` (`BTC-USDC`), `side` buy/sell, `amount` as
 * a decimal string, `market_type: "perp"` for a position. Replay reads recorded style B orders
 * through it (a perpetual market order is afp's trading.order); the money audit speaks style A.
 */
import { formatDecimal } from '../../../core/money.ts';
import { row, type DialectTable } from '../dialect.ts';

/** `BTC-PERP` → `BTC-USDC` (style B names a perpetual by its pair and `market_type`). */
function pairOfSymbol(symbol: string): string {
  return symbol.endsWith('-PERP') ? `${symbol.slice(0, -'-PERP'.length)}-USDC` : symbol;
}

export const TRADING_B: DialectTable = {
  'trading.order': row('trading.order', {
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: '/trading-api/order',
      auth: true,
      body: {
        pair: pairOfSymbol(input.symbol),
        side: input.side === 'long' ? 'buy' : 'sell',
        amount: formatDecimal(input.sizeMicro),
        market_type: 'perp',
        type: 'market',
        ...(input.leverage === null ? {} : { leverage: input.leverage }),
      },
    }),
    read: (reader) => {
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
    },
  }),
};
