/**
 * The trading reads and limit orders of a recording as afp operations (route-operations.ts's rows
 * for them): a market's price (style A's ticker, style B's price), a limit order placed in either
 * style, style B's order list and portfolio, and a cancel in either style. Why: a trading
 * scenario's traffic is mostly these, and a deployment offers each (DEPLOYED.md §5: the market
 * price, `/v1/trade/limit`, `/v1/trade/limit-orders`, `/v1/trade/portfolio`).
 * A limit order is told apart from a market order by its recorded `type` (`when`), so it is listed
 * before the market order's row of the same route. A spot pair's price is its coin's perpetual's
 * on a deployment that trades perpetuals only.
 */
import type { Micro } from '../core/money.ts';
import { parseDecimal, parseNumber } from '../core/money.ts';
import type { OperationInput, OperationName } from '../live.ts';
import { isObject } from './json-pointer.ts';
import type { AnyRouteOperation, RecordedCall, RouteOperation } from './route-operations-types.ts';

const LEVERAGE_MAX = 100;

function row<O extends OperationName>(
  route: string,
  op: O,
  input: RouteOperation<O>['input'],
  when?: RouteOperation<O>['when'],
): RouteOperation<O> {
  return when === undefined ? { route, op, input } : { route, op, input, when };
}

function field(body: unknown, name: string): unknown {
  return isObject(body) ? body[name] : undefined;
}

function money(value: unknown): Micro | null {
  const parsed =
    typeof value === 'number' ? parseNumber(value) : typeof value === 'string' ? parseDecimal(value) : null;
  return typeof parsed === 'bigint' && parsed > 0n ? parsed : null;
}

function price(value: unknown): number | null {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : NaN;
  return Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}

/** `BTC-USDC` (a style B pair, spot or perpetual) → `BTC-PERP`. */
function perpetualOfPair(pair: string | undefined): string | null {
  if (pair === undefined || !/^[A-Z0-9]{1,12}-USDC$/.test(pair)) return null;
  return `${pair.slice(0, -'-USDC'.length)}-PERP`;
}

function isLimit(call: RecordedCall): boolean {
  return field(call.body, 'type') === 'limit';
}

function limitInput(
  symbol: string | null,
  side: 'long' | 'short' | null,
  body: unknown,
  sizeField: string,
): OperationInput<'trading.limit'> | null {
  const sizeMicro = money(field(body, sizeField));
  const limitPrice = price(field(body, 'price'));
  const leverage = field(body, 'leverage') ?? 1;
  if (symbol === null || side === null || sizeMicro === null || limitPrice === null) return null;
  if (typeof leverage !== 'number' || !Number.isSafeInteger(leverage) || leverage < 1 || leverage > LEVERAGE_MAX)
    return null;
  return { symbol, side, sizeMicro, limitPrice, leverage };
}

/** A market order (the recorded `type`, market when absent) on a spot pair. */
function isSpotMarket(call: RecordedCall, spot: boolean): boolean {
  return spot && (field(call.body, 'type') ?? 'market') === 'market';
}

/** A spot pair's market order: buy or sell, the USDC amount; null when the body does not say one. */
function spotInput(pair: string | null, body: unknown, sizeField: string): OperationInput<'trading.spot'> | null {
  const side = field(body, 'side');
  const sizeMicro = money(field(body, sizeField));
  const leverage = field(body, 'leverage') ?? 1;
  if (pair === null || !/^[A-Za-z0-9]{1,12}-USDC$/.test(pair) || sizeMicro === null || leverage !== 1) return null;
  return side === 'buy' || side === 'sell' ? { pair, side, sizeMicro } : null;
}

function sideOf(body: unknown): 'long' | 'short' | null {
  const side = field(body, 'side');
  return side === 'long' || side === 'buy' ? 'long' : side === 'short' || side === 'sell' ? 'short' : null;
}

function symbolA(body: unknown): string | null {
  const symbol = field(body, 'symbol');
  return typeof symbol === 'string' && symbol !== '' ? symbol : null;
}

function cancelInput(id: string | undefined, order: (orderId: string) => string): { orderId: string } | null {
  return id === undefined || id === '' ? null : { orderId: order(id) };
}

export const TRADING_ROUTE_OPERATIONS: readonly AnyRouteOperation[] = [
  row(
    'trading.A.order',
    'trading.limit',
    (call) => limitInput(symbolA(call.body), sideOf(call.body), call.body, 'size'),
    isLimit,
  ),
  row(
    'trading.B.order',
    'trading.limit',
    (call) => {
      const pair = field(call.body, 'pair');
      return limitInput(
        perpetualOfPair(typeof pair === 'string' ? pair : undefined),
        sideOf(call.body),
        call.body,
        'amount',
      );
    },
    (call) => isLimit(call) && field(call.body, 'market_type') === 'perp',
  ),
  row(
    'trading.A.order',
    'trading.spot',
    (call) => spotInput(symbolA(call.body), call.body, 'size'),
    (call) => isSpotMarket(call, !(symbolA(call.body) ?? '').endsWith('-PERP')),
  ),
  row(
    'trading.B.order',
    'trading.spot',
    (call) => {
      const pair = field(call.body, 'pair');
      return spotInput(typeof pair === 'string' ? pair : null, call.body, 'amount');
    },
    (call) => isSpotMarket(call, (field(call.body, 'market_type') ?? 'spot') !== 'perp'),
  ),
  row('trading.A.ticker', 'trading.price', (call) => {
    const symbol = call.params['symbol'];
    if (symbol === undefined || symbol === '') return null;
    return { symbol: symbol.endsWith('-PERP') ? symbol : (perpetualOfPair(symbol) ?? symbol) };
  }),
  row('trading.B.price', 'trading.price', (call) => {
    const symbol = perpetualOfPair(call.params['pair']);
    return symbol === null ? null : { symbol };
  }),
  row('trading.B.orders', 'trading.orders', () => ({})),
  row('trading.B.portfolio', 'trading.balance', () => ({})),
  row('trading.A.cancel', 'trading.cancel', (call, ids) => cancelInput(call.params['id'], ids.order)),
  row('trading.B.cancel', 'trading.cancel', (call, ids) => cancelInput(call.params['id'], ids.order)),
];
