/**
 * The trading service's rejection cases of the conformance suite, as data: for every trading row
 * of styles A and B, the generic bad inputs its shape admits (wrong method, malformed JSON, a
 * wrong content type, a non-object body, an unknown field or query parameter, a missing, unknown
 * or malformed key), then the order bodies each style must refuse (bad types, unknown market or
 * pair, leverage outside 1..10, a limit order without a price, a spot order with leverage, a size
 * outside 1..1,000,000, an order larger than the balance), the unknown market and pair in a path
 * (404) and an unknown order to cancel (404). Each must answer exactly its 4xx `{ error, code }`
 * and leave the caller's and counterparty's balances as they were (the runner checks).
 * Non-goals: rate limits (429), closures (409 needs a scenario) and cancelling another agent's
 * order (403 needs an order first): those are in test/http/trading/.
 */
import { TRADING_ENDPOINTS, type TradingEndpointId } from '../../client/trading-client.ts';
import type { HttpMethod } from '../../client/transport.ts';
import type { ExpectedRejection, RejectionCase } from '../conformance-case.ts';
import { rejectionMaker } from '../rejection-maker.ts';
import { transportRejections } from '../transport-rejections.ts';

type Body = Readonly<Record<string, unknown>>;

const BAD_REQUEST: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };
const NOT_FOUND: ExpectedRejection = { status: 404, code: 'NOT_FOUND' };

/** Path parameters that parse (the rejections come before any lookup). */
const PATH_VALUES: Readonly<Record<string, string>> = {
  id: 'ord_0000000000000000',
  symbol: 'BTC-PERP',
  pair: 'BTC-USDC',
};

/** A valid body per order row (the unknown-field and key cases extend it). */
const VALID_ORDER: Readonly<Partial<Record<TradingEndpointId, Body>>> = {
  'trading.A.order': { symbol: 'BTC-PERP', side: 'long', size: 1, leverage: 2 },
  'trading.B.order': { pair: 'BTC-USDC', side: 'buy', amount: '1.00', type: 'market' },
};

/** The path of `endpoint` with its parameters: `params` first, else values that parse. */
function pathOf(endpoint: TradingEndpointId, params: Readonly<Record<string, string>> = {}): string {
  return TRADING_ENDPOINTS[endpoint].path.replace(
    /:([A-Za-z_]+)/g,
    (_match, name: string) => params[name] ?? PATH_VALUES[name] ?? 'x',
  );
}

const rejection = rejectionMaker<TradingEndpointId>((endpoint, _world, extra) => {
  const row = TRADING_ENDPOINTS[endpoint];
  return { mount: row.mount, method: row.method, path: pathOf(endpoint), ...extra };
});

function genericCases(endpoint: TradingEndpointId): RejectionCase[] {
  return transportRejections(
    TRADING_ENDPOINTS[endpoint].method as HttpMethod,
    VALID_ORDER[endpoint],
    (name, expect, extra, auth) => rejection(endpoint, name, expect, extra, auth),
  );
}

/** Order bodies style A must refuse, by name. */
const BAD_ORDERS_A: ReadonlyArray<readonly [string, Body, ExpectedRejection?]> = [
  ['an unknown market', { symbol: 'NOPE-PERP', side: 'long', size: 1 }],
  ['a symbol not a string', { symbol: 7, side: 'long', size: 1 }],
  ['no symbol', { side: 'long', size: 1 }],
  ['an unknown side', { symbol: 'BTC-PERP', side: 'up', size: 1 }],
  ['no side', { symbol: 'BTC-PERP', size: 1 }],
  ['size as a string', { symbol: 'BTC-PERP', side: 'long', size: '1' }],
  ['no size', { symbol: 'BTC-PERP', side: 'long' }],
  ['size 0', { symbol: 'BTC-PERP', side: 'long', size: 0 }],
  ['size below the 1.00 minimum', { symbol: 'BTC-PERP', side: 'long', size: 0.5 }],
  ['size above 1,000,000', { symbol: 'BTC-PERP', side: 'long', size: 1_000_001 }],
  ['size with 7 decimals', { symbol: 'BTC-PERP', side: 'long', size: 1.0000001 }],
  ['leverage 0', { symbol: 'BTC-PERP', side: 'long', size: 1, leverage: 0 }],
  ['leverage 11', { symbol: 'BTC-PERP', side: 'long', size: 1, leverage: 11 }],
  ['leverage 1.5', { symbol: 'BTC-PERP', side: 'long', size: 1, leverage: 1.5 }],
  ['leverage as a string', { symbol: 'BTC-PERP', side: 'long', size: 1, leverage: '2' }],
  ['leverage 2 on a spot pair', { symbol: 'ETH-USDC', side: 'buy', size: 1, leverage: 2 }],
  ['an unknown type', { symbol: 'BTC-PERP', side: 'long', size: 1, type: 'stop' }],
  ['a limit order without a price', { symbol: 'BTC-PERP', side: 'long', size: 1, type: 'limit' }],
  ['a market order with a price', { symbol: 'BTC-PERP', side: 'long', size: 1, type: 'market', price: 100 }],
  ['a negative limit price', { symbol: 'BTC-PERP', side: 'long', size: 1, type: 'limit', price: -5 }],
  ['a limit price with 9 decimals', { symbol: 'BTC-PERP', side: 'long', size: 1, type: 'limit', price: 1.123456789 }],
  ['a limit price as a string', { symbol: 'BTC-PERP', side: 'long', size: 1, type: 'limit', price: '100' }],
  [
    'a position larger than the balance',
    { symbol: 'BTC-PERP', side: 'long', size: 100 },
    { status: 422, code: 'INSUFFICIENT_BALANCE' },
  ],
  [
    'a spot sell without the holding',
    { symbol: 'ETH-USDC', side: 'sell', size: 1 },
    { status: 422, code: 'INSUFFICIENT_BALANCE' },
  ],
];

/** Order bodies style B must refuse, by name. */
const BAD_ORDERS_B: ReadonlyArray<readonly [string, Body, ExpectedRejection?]> = [
  ['an unknown pair', { pair: 'NOPE-USDC', side: 'buy', amount: '1.00' }],
  ["a pair in A's symbol form", { pair: 'BTC-PERP', side: 'buy', amount: '1.00' }],
  ['a perpetual-only pair without market_type perp', { pair: 'TSLA-USDC', side: 'buy', amount: '1.00' }],
  ['an unknown market_type', { pair: 'BTC-USDC', side: 'buy', amount: '1.00', market_type: 'future' }],
  ['a side long (B takes buy/sell)', { pair: 'BTC-USDC', side: 'long', amount: '1.00' }],
  ['no side', { pair: 'BTC-USDC', amount: '1.00' }],
  ['no amount', { pair: 'BTC-USDC', side: 'buy' }],
  ['amount not a decimal', { pair: 'BTC-USDC', side: 'buy', amount: 'one' }],
  ['amount as a boolean', { pair: 'BTC-USDC', side: 'buy', amount: true }],
  ['amount 0.99', { pair: 'BTC-USDC', side: 'buy', amount: '0.99' }],
  ['leverage 11 on a perpetual', { pair: 'BTC-USDC', market_type: 'perp', side: 'buy', amount: '1.00', leverage: 11 }],
  ['leverage 0 on a perpetual', { pair: 'BTC-USDC', market_type: 'perp', side: 'buy', amount: '1.00', leverage: 0 }],
  ['leverage 3 on spot', { pair: 'BTC-USDC', side: 'buy', amount: '1.00', leverage: 3 }],
  ['a limit order without a price', { pair: 'BTC-USDC', side: 'buy', amount: '1.00', type: 'limit' }],
  ['a limit price not a decimal', { pair: 'BTC-USDC', side: 'buy', amount: '1.00', type: 'limit', price: '1e3' }],
  ['a limit price of 0', { pair: 'BTC-USDC', side: 'buy', amount: '1.00', type: 'limit', price: '0' }],
  [
    'a spot buy larger than the balance',
    { pair: 'BTC-USDC', side: 'buy', amount: '50.00' },
    { status: 422, code: 'INSUFFICIENT_BALANCE' },
  ],
  [
    'a perpetual position larger than the balance',
    { pair: 'ETH-USDC', market_type: 'perp', side: 'sell', amount: '30.00', leverage: 2 },
    { status: 422, code: 'INSUFFICIENT_BALANCE' },
  ],
];

function otherCases(): RejectionCase[] {
  return [
    ...BAD_ORDERS_A.map(([name, body, expect]) => rejection('trading.A.order', name, expect ?? BAD_REQUEST, { body })),
    ...BAD_ORDERS_B.map(([name, body, expect]) => rejection('trading.B.order', name, expect ?? BAD_REQUEST, { body })),
    rejection('trading.A.ticker', 'an unknown market', NOT_FOUND, {
      path: pathOf('trading.A.ticker', { symbol: 'NOPE-PERP' }),
    }),
    rejection('trading.B.price', 'an unknown pair', NOT_FOUND, {
      path: pathOf('trading.B.price', { pair: 'NOPE-USDC' }),
    }),
    rejection('trading.B.price', 'an unknown market_type', BAD_REQUEST, { query: { market_type: 'future' } }),
    rejection('trading.B.orders', 'an unknown status', BAD_REQUEST, { query: { status: 'pending' } }),
    rejection('trading.B.orders', 'limit 0', BAD_REQUEST, { query: { limit: '0' } }),
    rejection('trading.B.orders', 'limit 101', BAD_REQUEST, { query: { limit: '101' } }),
    rejection('trading.B.orders', 'an unknown pair', BAD_REQUEST, { query: { pair: 'NOPE-USDC' } }),
    rejection('trading.B.orders', 'market_type without a pair', BAD_REQUEST, { query: { market_type: 'perp' } }),
    rejection('trading.A.cancel', 'an unknown order', NOT_FOUND, {}),
    rejection('trading.A.cancel', 'a malformed order id', BAD_REQUEST, {
      path: pathOf('trading.A.cancel', { id: 'bad*id' }),
    }),
    rejection('trading.A.cancel', 'a body with a field', BAD_REQUEST, { body: { reason: 'x' } }),
    rejection('trading.B.cancel', 'an unknown order', NOT_FOUND, {}),
  ];
}

export const TRADING_REJECTION_CASES: readonly RejectionCase[] = [
  ...(Object.keys(TRADING_ENDPOINTS) as TradingEndpointId[]).flatMap(genericCases),
  ...otherCases(),
];
