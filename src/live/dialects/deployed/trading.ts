/**
 * The deployed trading service (spec/DEPLOYED.md §5): base /v1 on its own address, its own
 * registration and `sk_trade_` keys and balance. afp's `trading.order` (a market order on a
 * perpetual) is `POST /v1/trade/open { coin, side, size_usd, leverage }`: the coin is the
 * Hyperliquid name (afp's `BTC-PERP` is `BTC`, `GOLD-PERP` is `xyz:GOLD`), the answer carries `entry_price` and a
 * `position_id`, closed by `POST /v1/trade/close`. Renamed fields are read under the deployment's
 * names and recorded as documented deviations; the trading balance is read from the portfolio.
 * Also: `trading.limit` (`POST /v1/trade/limit`, 201 `pending`), `trading.orders` and
 * `trading.cancel` (`GET`, `DELETE /v1/trade/limit-orders[/:id]`), `trading.positions`
 * (`GET /v1/trade/positions`, listed by market; `coin` back to afp's `<coin>-PERP`, prices in 8-decimal units) and `trading.price` (`GET /v1/markets/:coin/price`,
 * public); an order without leverage sends none (the deployment's default applies).
 */
import { toNumber } from '../../../core/money.ts';
import { marketBySymbol } from '../../../services/trading/market-catalogue.ts';
import type { LimitOrderView, PositionView } from '../../operations.ts';
import type { MarketOrderResult } from '../../operation-views.ts';
import type { WireReader } from '../../wire-reader.ts';
import { row, type DialectTable } from '../dialect.ts';
import { priceUnits } from '../price-units.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

/** An unknown key's answer, without a message (DEPLOYED.md §1: `{"error":"invalid_key"}`). */
const BARE_ERRORS = ['invalid_key'];

/**
 * The deployment's coin for one of afp's perpetual symbols, by Hyperliquid's naming (DEPLOYED.md
 * §5: `BTC`, `xyz:TSLA`): a crypto asset bare (`BTC-PERP` → `BTC`), a real-world asset (a stock,
 * a commodity, an index in afp's catalogue) under the `xyz:` deployer (`GOLD-PERP` → `xyz:GOLD`);
 * a symbol afp does not know passes without its `-PERP`, other names as they are.
 */
export function wireCoinOfSymbol(symbol: string): string {
  if (!symbol.endsWith('-PERP')) return symbol;
  const base = symbol.slice(0, -'-PERP'.length);
  const market = marketBySymbol(symbol);
  return market === undefined || market.category === 'crypto' || base.startsWith('xyz:') ? base : `xyz:${base}`;
}

/** afp's perpetual symbol of a deployed coin (`BTC` → `BTC-PERP`, `xyz:TSLA` → `TSLA-PERP`). */
export function symbolOfCoin(coin: string): string {
  return `${coin.startsWith('xyz:') ? coin.slice('xyz:'.length) : coin}-PERP`;
}

const LIMIT_FIELDS = [
  'coin',
  'side',
  'size_usd',
  'limit_price',
  'leverage',
  'status',
  'fill_price',
  'fee',
  'created_at',
  'filled_at',
  'message',
];

function limitOrderOf(reader: WireReader): LimitOrderView | null {
  reader.knows(...LIMIT_FIELDS);
  const orderId = reader.id('order_id');
  const coin = reader.string('coin', { optional: true, documents: 'symbol' });
  const view = {
    symbol: coin === null ? null : symbolOfCoin(coin),
    side: reader.string('side', { optional: true }),
    status: reader.string('status', { optional: true }),
    sizeMicro: reader.money('size_usd', { optional: true, documents: 'size' }),
    limitPrice: reader.number('limit_price', { optional: true, documents: 'price' }),
    fillPrice:
      reader.any('fill_price', { optional: true }) === null ? null : reader.number('fill_price', { optional: true }),
    feeMicro: reader.money('fee', { optional: true }),
  };
  return orderId === null ? null : { orderId, ...view };
}

function positionOf(reader: WireReader): PositionView | null {
  const positionId = reader.id('position_id');
  const coin = reader.string('coin', { optional: true, documents: 'symbol' });
  const view = {
    symbol: coin === null ? null : symbolOfCoin(coin),
    side: reader.string('side', { optional: true }),
    sizeMicro: reader.money('size_usd', { optional: true, documents: 'size' }),
    marginMicro: reader.money('margin_used', { optional: true, documents: 'margin' }),
    leverage: reader.number('leverage', { optional: true }),
    entryPrice: priceUnits(reader.number('entry_price', { optional: true })),
    markPrice: priceUnits(reader.number('current_price', { optional: true })),
    liquidationPrice: priceUnits(reader.number('liquidation_price', { optional: true })),
  };
  return positionId === null ? null : { positionId, ...view };
}

const POSITION_FIELDS = [
  'coin',
  'side',
  'size_usd',
  'entry_price',
  'current_price',
  'leverage',
  'liquidation_price',
  'unrealized_pnl',
  'unrealized_pnl_percent',
  'opened_at',
  'position_size_usd',
  'order_id',
  'position_id',
];

/** An opened position's answer (`POST /v1/trade/open`), as a market order's result. */
function readOpened(reader: WireReader): MarketOrderResult | null {
  const orderId = reader.id('order_id', { optional: true });
  const positionId = reader.id('position_id');
  const status = reader.string('status', { optional: true });
  const entryPrice = reader.number('entry_price', { documents: 'fill_price' });
  const marginMicro = reader.money('margin_used', { optional: true });
  const feeMicro = reader.money('fee', { optional: true });
  const leverage = reader.number('leverage', { optional: true });
  const openedAt = reader.string('opened_at', { optional: true });
  reader.knows(...POSITION_FIELDS);
  const id = orderId ?? positionId;
  const openedAtMs = openedAt === null || Number.isNaN(Date.parse(openedAt)) ? null : Date.parse(openedAt);
  return id === null
    ? null
    : { orderId: id, status, feeMicro, positionId, marginMicro, entryPrice, leverage, openedAtMs };
}

/** The deployment's coin of a spot pair (`BTC-USDC` → `BTC`, by its perpetual's name). */
function coinOfPair(pair: string): string {
  return pair.endsWith('-USDC') ? wireCoinOfSymbol(`${pair.slice(0, -'-USDC'.length)}-PERP`) : pair;
}

export const TRADING_DEPLOYED: DialectTable = {
  'trading.register': row('trading.register', {
    bareErrors: BARE_ERRORS,
    request: () => ({
      service: 'trading',
      method: 'POST',
      path: deployedPath('trading.deployed.register'),
      body: {},
      auth: false,
    }),
    read: (reader) => {
      const agentId = reader.string('agent_id');
      const apiKey = reader.string('api_key');
      reader.knows(
        'referral_code',
        'tier',
        'deposit_address',
        'hl_wallet',
        'balance_usd',
        'created_at',
        'message',
        'next_steps',
      );
      return agentId === null || apiKey === null ? null : { agentId, apiKey };
    },
  }),
  'trading.balance': row('trading.balance', {
    bareErrors: BARE_ERRORS,
    request: () => ({
      service: 'trading',
      method: 'GET',
      path: deployedPath('trading.deployed.portfolio'),
      auth: true,
    }),
    // DEPLOYED.md §5 names /portfolio but gives none of its fields (an agent trades from its own
    // Hyperliquid wallet): a portfolio stating no balance is read as none (info), and the probes
    // that need one are skipped. A prober's honest deployment answering {open_positions,
    // total_margin, positions} drew a major missing balance_usd, and audit money exited 3.
    read: (reader) => {
      const balanceMicro = reader.money('balance_usd', { unstated: true });
      const marginMicro = reader.money('margin_used', { optional: true, unstated: true });
      reader.knows(
        'agent_id',
        'held_for_orders',
        'unrealized_pnl',
        'equity',
        'open_positions',
        'pending_orders',
        'positions',
      );
      return balanceMicro === null ? null : { balanceMicro, marginMicro };
    },
  }),
  'trading.order': row('trading.order', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: deployedPath('trading.deployed.open'),
      auth: true,
      body: {
        coin: wireCoinOfSymbol(input.symbol),
        side: input.side,
        size_usd: toNumber(input.sizeMicro),
        ...(input.leverage === null ? {} : { leverage: input.leverage }),
      },
    }),
    read: readOpened,
  }),
  // A spot buy as the deployment's nearest order: a 1x long of the same notional on the coin's
  // perpetual (it trades perpetuals only, DEPLOYED.md §5); it holds no spot asset to sell.
  'trading.spot': row('trading.spot', {
    bareErrors: BARE_ERRORS,
    unsupported: (input) =>
      input.side === 'buy'
        ? null
        : 'a spot sell: a deployment trades perpetuals only and holds no spot asset to sell (DEPLOYED.md §5)',
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: deployedPath('trading.deployed.open'),
      auth: true,
      body: { coin: coinOfPair(input.pair), side: 'long', size_usd: toNumber(input.sizeMicro), leverage: 1 },
    }),
    read: readOpened,
  }),
  'trading.close': row('trading.close', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: deployedPath('trading.deployed.close'),
      body: { position_id: input.positionId },
      auth: true,
    }),
    read: (reader) => {
      const status = reader.string('status', { optional: true });
      const pnlMicro = reader.money('pnl', { documents: 'realized_pnl' });
      reader.number('exit_price', { optional: true });
      const feeMicro = reader.money('fee', { optional: true });
      reader.knows(...POSITION_FIELDS, 'pnl_percent', 'closed_at', 'balance_usd', 'liquidated');
      return { status, pnlMicro, feeMicro };
    },
  }),
  'trading.limit': row('trading.limit', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'trading',
      method: 'POST',
      path: deployedPath('trading.deployed.limit'),
      auth: true,
      body: {
        coin: wireCoinOfSymbol(input.symbol),
        side: input.side,
        size_usd: toNumber(input.sizeMicro),
        limit_price: input.limitPrice,
        leverage: input.leverage,
      },
    }),
    read: (reader) => limitOrderOf(reader),
  }),
  'trading.orders': row('trading.orders', {
    bareErrors: BARE_ERRORS,
    request: () => ({
      service: 'trading',
      method: 'GET',
      path: deployedPath('trading.deployed.limit-orders'),
      auth: true,
    }),
    read: (reader) => {
      reader.knows('count');
      return { orders: reader.items('orders', limitOrderOf) };
    },
  }),
  'trading.cancel': row('trading.cancel', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'trading',
      method: 'DELETE',
      path: deployedPath('trading.deployed.limit-cancel', { id: input.orderId }),
      auth: true,
    }),
    read: (reader) => limitOrderOf(reader),
  }),
  'trading.positions': row('trading.positions', {
    bareErrors: BARE_ERRORS,
    request: () => ({
      service: 'trading',
      method: 'GET',
      path: deployedPath('trading.deployed.positions'),
      auth: true,
    }),
    read: (reader) => {
      reader.knows('count');
      const positions = reader.items('positions', (element) =>
        positionOf(element.knows(...POSITION_FIELDS, 'margin_used', 'fee', 'status')),
      );
      // By market, as the documents' reader lists them: a replay compares two lists element by element.
      return { positions: positions.sort((a, b) => (a.symbol ?? '').localeCompare(b.symbol ?? '')) };
    },
  }),
  'trading.price': row('trading.price', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'trading',
      method: 'GET',
      path: deployedPath('trading.deployed.price', { coin: wireCoinOfSymbol(input.symbol) }),
      auth: false,
    }),
    read: (reader) => {
      reader.knows('coin', 'ticker');
      const price = reader.number('price', { documents: 'mark_price' });
      const timestamp = reader.any('timestamp', { optional: true });
      const timestampMs =
        typeof timestamp === 'number'
          ? timestamp
          : typeof timestamp === 'string' && !Number.isNaN(Date.parse(timestamp))
            ? Date.parse(timestamp)
            : null;
      return price === null ? null : { price, timestampMs };
    },
  }),
};
