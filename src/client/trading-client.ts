/**
 * TradingClient: the trading service's endpoints over the same Transport as AfpClient — every row
 * of styles A and B by its route id (the table below mirrors src/http/routes/trading/trading.ts),
 * with one named call per row. Answers are plain JSON objects: callers read the fields they need
 * (the wire shapes are in src/http/routes/trading/trading-render.ts). Identity comes from the
 * AfpClient that made it.
 */
import type { HttpMethod, Mount } from '../http/route.ts';
import type { ApiResult, CallInput } from './client.ts';

export interface TradingEndpointRow {
  readonly mount: Mount;
  readonly method: HttpMethod;
  readonly path: string;
}

export const TRADING_ENDPOINTS = {
  'trading.A.order': { mount: 'trading', method: 'POST', path: '/api/v1/orders' },
  'trading.A.cancel': { mount: 'trading', method: 'POST', path: '/api/v1/orders/:id/cancel' },
  'trading.A.positions': { mount: 'trading', method: 'GET', path: '/api/v1/positions' },
  'trading.A.markets': { mount: 'trading', method: 'GET', path: '/api/v1/markets' },
  'trading.A.ticker': { mount: 'trading', method: 'GET', path: '/api/v1/ticker/:symbol' },
  'trading.B.order': { mount: 'api', method: 'POST', path: '/trading-api/order' },
  'trading.B.price': { mount: 'api', method: 'GET', path: '/trading-api/price/:pair' },
  'trading.B.orders': { mount: 'api', method: 'GET', path: '/trading-api/orders' },
  'trading.B.cancel': { mount: 'api', method: 'DELETE', path: '/trading-api/order/:id' },
  'trading.B.portfolio': { mount: 'api', method: 'GET', path: '/trading-api/portfolio' },
} as const satisfies Record<string, TradingEndpointRow>;

export type TradingEndpointId = keyof typeof TRADING_ENDPOINTS;
export type TradingBody = Record<string, unknown>;
export type TradingCall = (endpoint: TradingEndpointId, input: CallInput) => Promise<ApiResult<TradingBody>>;

export class TradingClient {
  readonly call: TradingCall;

  constructor(call: TradingCall) {
    this.call = call;
  }

  orderA(body: TradingBody): Promise<ApiResult<TradingBody>> {
    return this.call('trading.A.order', { body });
  }

  cancelA(orderId: string): Promise<ApiResult<TradingBody>> {
    return this.call('trading.A.cancel', { params: { id: orderId } });
  }

  positionsA(): Promise<ApiResult<TradingBody>> {
    return this.call('trading.A.positions', {});
  }

  marketsA(): Promise<ApiResult<TradingBody>> {
    return this.call('trading.A.markets', {});
  }

  tickerA(symbol: string): Promise<ApiResult<TradingBody>> {
    return this.call('trading.A.ticker', { params: { symbol } });
  }

  orderB(body: TradingBody): Promise<ApiResult<TradingBody>> {
    return this.call('trading.B.order', { body });
  }

  priceB(pair: string, query: Readonly<Record<string, string>> = {}): Promise<ApiResult<TradingBody>> {
    return this.call('trading.B.price', { params: { pair }, query });
  }

  ordersB(query: Readonly<Record<string, string | number>> = {}): Promise<ApiResult<TradingBody>> {
    return this.call('trading.B.orders', { query });
  }

  cancelB(orderId: string): Promise<ApiResult<TradingBody>> {
    return this.call('trading.B.cancel', { params: { id: orderId } });
  }

  portfolioB(): Promise<ApiResult<TradingBody>> {
    return this.call('trading.B.portfolio', {});
  }
}
