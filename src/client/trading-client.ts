/**
 * TradingClient: the trading service's endpoints over the same Transport as AfpClient — every row
 * of styles A and B by its route id (the table below mirrors src/http/routes/trading/trading.ts),
 * with one named call per row. Answers are plain JSON objects: callers read the fields they need
 * (the wire shapes are in src/http/routes/trading/trading-render.ts). Identity comes from the
 * AfpClient that made it.
 */
import { endpointsOf } from './endpoints.ts';
import type { ApiResult, CallInput } from './call.ts';
import { ServiceClient } from './service-client.ts';

/** The trading rows of the route table (generated: src/client/endpoint-table.ts). */
export const TRADING_ENDPOINTS = endpointsOf('trading');

export type TradingEndpointId = keyof typeof TRADING_ENDPOINTS;
export type TradingBody = Record<string, unknown>;
export type TradingCall = (endpoint: TradingEndpointId, input: CallInput) => Promise<ApiResult<TradingBody>>;

export class TradingClient extends ServiceClient<TradingCall> {
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
