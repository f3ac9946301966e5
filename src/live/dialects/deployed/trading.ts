/**
 * The deployed trading service (spec/DEPLOYED.md §5): base /v1 on its own address, its own
 * registration and `sk_trade_` keys and balance. afp's `trading.order` (a market order on a
 * perpetual) is `POST /v1/trade/open { coin, side, size_usd, leverage }`: the coin is the
 * Hyperliquid name (afp's `BTC-PERP` is `BTC`), the answer carries `entry_price` and a
 * `position_id`, closed by `POST /v1/trade/close`. Renamed fields are read under the deployment's
 * names and recorded as documented deviations; the trading balance is read from the portfolio;
 * open positions from GET /v1/trade/positions (`coin` back to afp's `<coin>-PERP`).
 */
import { toNumber } from '../../../core/money.ts';
import type { LivePosition } from '../../operations.ts';
import { row, type DialectTable } from '../dialect.ts';
import { priceUnits } from '../price-units.ts';

/** The deployment's coin for one of afp's perpetual symbols (`BTC-PERP` → `BTC`); other names pass as they are. */
export function coinOfSymbol(symbol: string): string {
  return symbol.endsWith('-PERP') ? symbol.slice(0, -'-PERP'.length) : symbol;
}

const POSITION_FIELDS = ['coin', 'side', 'size_usd', 'entry_price', 'current_price', 'leverage', 'liquidation_price', 'unrealized_pnl', 'unrealized_pnl_percent', 'opened_at', 'position_size_usd', 'order_id', 'position_id'];

export const TRADING_DEPLOYED: DialectTable = {
  'trading.register': row('trading.register', {
    request: () => ({ service: 'trading', method: 'POST', path: '/v1/auth/register', body: {}, auth: false }),
    read: (reader) => {
      const agentId = reader.string('agent_id');
      const apiKey = reader.string('api_key');
      reader.knows('referral_code', 'tier', 'deposit_address', 'hl_wallet', 'balance_usd', 'created_at', 'message', 'next_steps');
      return agentId === null || apiKey === null ? null : { agentId, apiKey };
    },
  }),
  'trading.balance': row('trading.balance', {
    request: () => ({ service: 'trading', method: 'GET', path: '/v1/trade/portfolio', auth: true }),
    read: (reader) => {
      const balanceMicro = reader.money('balance_usd');
      const marginMicro = reader.money('margin_used', { optional: true });
      reader.knows('agent_id', 'held_for_orders', 'unrealized_pnl', 'equity', 'open_positions', 'pending_orders', 'positions');
      return balanceMicro === null ? null : { balanceMicro, marginMicro };
    },
  }),
  'trading.order': row('trading.order', {
    request: (input) => ({
      service: 'trading', method: 'POST', path: '/v1/trade/open', auth: true,
      body: { coin: coinOfSymbol(input.symbol), side: input.side, size_usd: toNumber(input.sizeMicro), leverage: input.leverage },
    }),
    read: (reader) => {
      const orderId = reader.string('order_id', { optional: true });
      const positionId = reader.string('position_id');
      const status = reader.string('status', { optional: true });
      reader.number('entry_price', { documents: 'fill_price' });
      const marginMicro = reader.money('margin_used', { optional: true });
      const feeMicro = reader.money('fee', { optional: true });
      reader.knows(...POSITION_FIELDS);
      const id = orderId ?? positionId;
      return id === null ? null : { orderId: id, status, feeMicro, positionId, marginMicro };
    },
  }),
  'trading.close': row('trading.close', {
    request: (input) => ({ service: 'trading', method: 'POST', path: '/v1/trade/close', body: { position_id: input.positionId }, auth: true }),
    read: (reader) => {
      const status = reader.string('status', { optional: true });
      const pnlMicro = reader.money('pnl', { documents: 'realized_pnl' });
      reader.number('exit_price', { optional: true });
      const feeMicro = reader.money('fee', { optional: true });
      reader.knows(...POSITION_FIELDS, 'pnl_percent', 'closed_at', 'balance_usd', 'liquidated');
      return { status, pnlMicro, feeMicro };
    },
  }),
  'trading.positions': row('trading.positions', {
    request: () => ({ service: 'trading', method: 'GET', path: '/v1/trade/positions', auth: true }),
    read: (reader) => {
      const list = reader.array('positions');
      reader.knows('count');
      if (list === null) return null;
      const positions = list.flatMap((item, index): LivePosition[] => {
        const element = reader.nested(item, `positions[${index}]`).knows(...POSITION_FIELDS);
        const coin = element.string('coin');
        const side = element.string('side');
        const entryPrice = priceUnits(element.number('entry_price'));
        if (coin === null || side === null || entryPrice === null) return [];
        return [{ symbol: `${coin}-PERP`, side, entryPrice, markPrice: priceUnits(element.number('current_price', { optional: true })), marginMicro: element.money('margin_used', { optional: true }), leverage: element.number('leverage', { optional: true }), liquidationPrice: priceUnits(element.number('liquidation_price', { optional: true })) }];
      });
      return { positions };
    },
  }),
};
