// The trading part of the OpenAPI tour (test/http/openapi-tour.ts): one successful request for
// every trading row, both styles, in an order where each succeeds — market and limit orders,
// a cancel per style, positions, markets, a ticker, a price, a filtered list, the portfolio.
// The first request of each row is the one the contract test probes field by field, so the first
// orders carry no cross-field parts (a market order without price, a spot order without leverage).
import type { Mount } from '../../../src/http/route.ts';

type Send = (
  mount: Mount,
  method: string,
  path: string,
  options?: { key?: string; body?: unknown; query?: Record<string, string> },
) => Record<string, unknown>;

export function tradingTour(send: Send, keys: { alice: string; bob: string }): void {
  const a = (
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, string> } = {},
  ): Record<string, unknown> => send('trading', method, `/api/v1${path}`, { key: keys.alice, ...options });
  const b = (
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, string> } = {},
  ): Record<string, unknown> => send('api', method, `/trading-api${path}`, { key: keys.bob, ...options });
  a('GET', '/markets');
  a('GET', '/ticker/BTC-PERP');
  a('POST', '/orders', { body: { symbol: 'BTC-PERP', side: 'long', size: 20, leverage: 5, type: 'market' } });
  const restingA = a('POST', '/orders', {
    body: { symbol: 'ETH-PERP', side: 'long', size: 10, leverage: 2, type: 'limit', price: 1000 },
  })['order_id'] as string;
  a('POST', `/orders/${restingA}/cancel`);
  a('GET', '/positions');
  b('GET', '/price/BTC-USDC');
  b('POST', '/order', {
    body: { pair: 'BTC-USDC', side: 'buy', amount: '10.00', type: 'market', market_type: 'spot' },
  });
  const restingB = b('POST', '/order', {
    body: {
      pair: 'ETH-USDC',
      side: 'sell',
      amount: '5.00',
      type: 'limit',
      price: '9000.5',
      market_type: 'perp',
      leverage: 3,
    },
  })['order_id'] as string;
  b('GET', '/orders', { query: { status: 'open', pair: 'ETH-USDC', market_type: 'perp', limit: '10' } });
  b('DELETE', `/order/${restingB}`);
  b('POST', '/order', { body: { pair: 'SOL-USDC', side: 'sell', amount: 20, market_type: 'perp', leverage: 4 } });
  b('GET', '/portfolio');
}
