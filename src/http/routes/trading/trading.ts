/**
 * Trading route rows, styles A (mount 'trading', /api/v1/...) and B (mount 'api', /trading-api/...),
 * over the one TradingService. A speaks `symbol` (`BTC-PERP`, or a spot `BTC-USDC`), `side`
 * long/short (buy/sell accepted) and `size` in USDC as JSON numbers; B speaks `pair` + `market_type`
 * and decimal strings. Rate rows: every B row counts against the trading row (120 per minute, burst
 * 200) and order placement against 50,000 a day; A's /positions against 300 per minute.
 *
 * Invariants: `parse` validates every field (trading-parse.ts) before anything runs, so bad input
 * changes nothing; `run` passes the authenticated caller; renders build fresh objects
 * (trading-render.ts). Non-goals: domain rules (funds, leverage per market, closures) — those live
 * in the service.
 */
import { assert } from '../../../core/assert.ts';
import { fail, succeed, type Outcome } from '../../../core/errors.ts';
import { agentAccount } from '../../../core/ledger.ts';
import type { Micro } from '../../../core/money.ts';
import { MARKETS, marketByPair, marketBySymbol, type Market } from '../../../services/trading/market-catalogue.ts';
import { notionalMicro } from '../../../services/trading/price-scale.ts';
import type { MarkedPosition } from '../../../services/trading/trading.ts';
import {
  tradingHoldAccount,
  marginAccount,
  type OrderRecord,
  type Quote,
  type SpotHolding,
} from '../../../services/trading/trading-record.ts';
import type { Platform } from '../../../platform/platform.ts';
import { listCall } from '../../list-call.ts';
import type { Route, RouteContext } from '../../route.ts';
import { styleAFamily, styleBFamily } from '../../route-family.ts';
import { moneyB } from '../../render.ts';
import {
  parseList,
  parseNothing,
  parseOrderA,
  parseOrderB,
  parseOrderId,
  parsePricePair,
  parseSymbol,
  type IdInput,
  type ListInput,
  type OrderInput,
} from './trading-parse.ts';
import { holdingB, marketA, orderA, orderB, positionA, positionB, priceB, tickerA } from './trading-render.ts';

function callerId(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

function place(context: RouteContext, input: OrderInput): Outcome<OrderRecord> {
  const command = {
    agentId: callerId(context),
    symbol: input.market.symbol,
    side: input.side,
    type: input.type,
    amountMicro: input.amountMicro,
    leverage: input.leverage,
    limitPrice: input.limitPrice,
  };
  return context.platform.trading.place(command, context.nowMs);
}

function cancel(context: RouteContext, input: IdInput): Outcome<OrderRecord> {
  return context.platform.trading.cancel({ agentId: callerId(context), orderId: input.orderId }, context.nowMs);
}

interface Portfolio {
  readonly balanceMicro: Micro;
  readonly heldMicro: Micro;
  readonly positions: readonly MarkedPosition[];
  readonly spot: readonly { holding: SpotHolding; mark: bigint; valueMicro: Micro }[];
  readonly openOrders: number;
}

function portfolio(platform: Platform, agentId: string, nowMs: number): Portfolio {
  const trading = platform.trading;
  const spot = trading.book.holdingsOf(agentId).map((holding) => {
    const market = marketBySymbol(holding.symbol);
    assert(market !== undefined, 'a holding names a listed market');
    const mark = trading.prices.mid(market, nowMs);
    return { holding, mark, valueMicro: notionalMicro(holding.qty, mark, 'down') };
  });
  return {
    balanceMicro: platform.ledger.balance(agentAccount(agentId)),
    heldMicro: platform.ledger.balance(tradingHoldAccount(agentId)),
    positions: trading.positions(agentId, nowMs),
    spot,
    openOrders: trading.book.openOrdersOf(agentId),
  };
}

function renderPortfolio(view: Portfolio, platform: Platform, agentId: string): ReturnType<Route['render']> {
  const marginMicro = platform.ledger.balance(marginAccount(agentId));
  const unrealized = view.positions.reduce((sum, position) => sum + position.unrealizedPnlMicro, 0n);
  const spotValue = view.spot.reduce((sum, item) => sum + item.valueMicro, 0n);
  return {
    balance: moneyB(view.balanceMicro),
    margin_used: moneyB(marginMicro),
    held_for_orders: moneyB(view.heldMicro),
    unrealized_pnl: moneyB(unrealized),
    spot_value: moneyB(spotValue),
    equity: moneyB(view.balanceMicro + marginMicro + view.heldMicro + unrealized + spotValue),
    positions: view.positions.map(positionB),
    spot: view.spot.map((item) => holdingB(item.holding, item.mark, item.valueMicro)),
    open_orders: view.openOrders,
  };
}

const rowA = styleAFamily('trading');
const rowB = styleBFamily('trading');

const rowsA: readonly Route[] = [
  rowA<OrderInput, OrderRecord>('order', {
    method: 'POST',
    path: '/api/v1/orders',
    summary: 'Place an order (symbol, side long/short, size in USDC, leverage 1-10, type market/limit, price).',
    parse: (input) => parseOrderA(input.body),
    run: place,
    successStatus: 201,
    render: orderA,
  }),
  rowA<IdInput, OrderRecord>('cancel', {
    method: 'POST',
    path: '/api/v1/orders/:id/cancel',
    summary: 'Cancel an open limit order; answers the cancelled order.',
    parse: parseOrderId,
    run: cancel,
    render: orderA,
  }),
  listCall(
    { items: ['positions'], count: 'count' },
    rowA<null, readonly MarkedPosition[]>('positions', {
      method: 'GET',
      path: '/api/v1/positions',
      limits: { serviceRowB: true, row: 'trading-positions' },
      summary: 'Open perpetual positions: entry and mark price, unrealized PnL, margin, liquidation price.',
      parse: parseNothing,
      run: (context) => succeed(context.platform.trading.positions(callerId(context), context.nowMs)),
      render: (positions) => ({ positions: positions.map(positionA), count: positions.length }),
    }),
  ),
  listCall(
    { items: ['markets'], count: 'count' },
    rowA<null, readonly { market: Market; quote: Quote }[]>('markets', {
      method: 'GET',
      path: '/api/v1/markets',
      summary: 'Every market (275 perpetuals and the spot pairs) with its mark price and funding rate.',
      parse: parseNothing,
      run: (context) =>
        succeed(MARKETS.map((market) => ({ market, quote: context.platform.trading.quote(market, context.nowMs) }))),
      render: (markets) => ({
        markets: markets.map((item) => marketA(item.market, item.quote)),
        count: markets.length,
      }),
    }),
  ),
  rowA<string, Quote>('ticker', {
    method: 'GET',
    path: '/api/v1/ticker/:symbol',
    summary: "One market's mark price, bid, ask, 24-hour change and volume, funding rate.",
    parse: parseSymbol,
    run: (context, symbol) => {
      const market = marketBySymbol(symbol);
      return market === undefined
        ? fail('NOT_FOUND', `unknown market ${symbol}`)
        : succeed(context.platform.trading.quote(market, context.nowMs));
    },
    render: tickerA,
  }),
];

const rowsB: readonly Route[] = [
  rowB<OrderInput, OrderRecord>('order', {
    method: 'POST',
    path: '/trading-api/order',
    limits: { serviceRowB: true, endpointDaily: 'trading.order' },
    summary: 'Place an order (pair, side, amount in USDC, type, price, market_type spot/perp, leverage).',
    parse: (input) => parseOrderB(input.body),
    run: place,
    successStatus: 201,
    render: orderB,
  }),
  rowB<{ pair: string; marketType: 'spot' | 'perp' | null }, { market: Market; quote: Quote }>('price', {
    method: 'GET',
    path: '/trading-api/price/:pair',
    summary: 'Quote of a pair: bid, ask, mid, change_24h, volume_24h, funding rate for perpetuals.',
    parse: parsePricePair,
    run: (context, input) => {
      const market = marketByPair(input.pair, input.marketType);
      return market === undefined
        ? fail('NOT_FOUND', `unknown pair ${input.pair}`)
        : succeed({ market, quote: context.platform.trading.quote(market, context.nowMs) });
    },
    render: (value) => priceB(value.market, value.quote),
  }),
  rowB<ListInput, readonly OrderRecord[]>('orders', {
    method: 'GET',
    path: '/trading-api/orders',
    summary: "The caller's orders, newest first (query status, pair, market_type, limit).",
    parse: (input, context) =>
      parseList(input, {
        fallback: context.platform.config.trading.listLimitDefault,
        max: context.platform.config.trading.listLimitMax,
      }),
    run: (context, input) =>
      context.platform.trading.list({
        agentId: callerId(context),
        status: input.status,
        symbols: input.symbols,
        limit: input.limit,
      }),
    render: (orders) => ({ orders: orders.map(orderB), count: orders.length }),
  }),
  rowB<IdInput, OrderRecord>('cancel', {
    method: 'DELETE',
    path: '/trading-api/order/:id',
    summary: 'Cancel an open limit order; answers the cancelled order.',
    parse: parseOrderId,
    run: cancel,
    render: orderB,
  }),
  listCall(
    { items: ['positions', 'spot'] },
    rowB<null, { agentId: string; view: Portfolio }>('portfolio', {
      method: 'GET',
      path: '/trading-api/portfolio',
      summary:
        'Balance, margin, equity, open positions (entry, current price, PnL, liquidation price) and spot holdings.',
      parse: parseNothing,
      run: (context) => {
        const agentId = callerId(context);
        return succeed({ agentId, view: portfolio(context.platform, agentId, context.nowMs) });
      },
      render: (value, context) => renderPortfolio(value.view, context.platform, value.agentId),
    }),
  ),
];

/** Every trading row, both styles. */
export const tradingRoutes: readonly Route[] = [...rowsA, ...rowsB];
