/**
 * Parsing of the trading rows' inputs, styles A and B: every field typed and bounded, unknown
 * fields and query parameters refused (400), before anything runs. Markets are resolved here
 * (A: `symbol` `<asset>-PERP` or `<base>-USDC`; B: `pair` `<base>-USDC` with `market_type`, spot
 * by default), so an unknown market or pair is a 400 naming the field and changes nothing.
 * Prices are exact decimals with at most 8 places (a JSON number read through its shortest text,
 * or in B a decimal string); no float reaches the service.
 */
import { fail, isFailure, type Failure } from '../../../core/errors.ts';
import { isReference } from '../../../core/reference.ts';
import {
  marketByPair,
  marketBySymbol,
  type Market,
  type MarketKind,
} from '../../../services/trading/market-catalogue.ts';
import { PRICE_DECIMALS } from '../../../services/trading/price-scale.ts';
import type { OrderSide, OrderStatus, OrderType } from '../../../services/trading/trading-record.ts';
import type { RouteInput } from '../../route.ts';
import {
  bodyOnly,
  objectBody,
  optionalInteger,
  requiredAmount,
  requiredString,
  knownQuery,
  NO_KEYS,
  queryEnum,
  type AmountSyntax,
} from '../../validate.ts';

export interface OrderInput {
  readonly market: Market;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly amountMicro: bigint;
  readonly leverage: number;
  readonly limitPrice: bigint | null;
}

export interface IdInput {
  readonly orderId: string;
}

export interface ListInput {
  readonly status: OrderStatus | null;
  /** Symbols the list is restricted to; null = every market. */
  readonly symbols: readonly string[] | null;
  readonly limit: number;
}

const ORDER_FIELDS_A: readonly string[] = ['symbol', 'side', 'size', 'leverage', 'type', 'price'];
const ORDER_FIELDS_B: readonly string[] = ['pair', 'side', 'amount', 'type', 'price', 'market_type', 'leverage'];
const SIDES_A: readonly string[] = ['long', 'short', 'buy', 'sell'];
const TYPES: readonly OrderType[] = ['market', 'limit'];
const MARKET_TYPES: readonly MarketKind[] = ['spot', 'perp'];
const LIST_STATUSES: readonly (OrderStatus | 'all')[] = ['open', 'filled', 'cancelled', 'all'];
export const LIST_QUERY_B: readonly string[] = ['status', 'pair', 'limit', 'market_type'];
export const PRICE_QUERY_B: readonly string[] = ['market_type'];
const PRICE_TEXT = new RegExp(`^(\\d{1,12})(?:\\.(\\d{1,${PRICE_DECIMALS}}))?$`);
const PRICE_ONE_TEXT_LENGTH = PRICE_DECIMALS;

/** A positive price with at most 8 decimals: a JSON number, or in B also a decimal string. */
export function parsePrice(value: unknown, name: string, syntax: AmountSyntax): bigint | Failure {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return fail('BAD_REQUEST', `${name} must be a positive number`);
    text = String(value);
  } else if (typeof value === 'string' && syntax === 'number-or-decimal-string') text = value.trim();
  else return fail('BAD_REQUEST', `${name} must be a number`);
  const match = PRICE_TEXT.exec(text);
  if (match === null)
    return fail(
      'BAD_REQUEST',
      `${name} must be a positive decimal with at most ${PRICE_DECIMALS} decimals (no exponent)`,
    );
  const [, whole = '0', fraction = ''] = match;
  const price =
    BigInt(whole) * 10n ** BigInt(PRICE_ONE_TEXT_LENGTH) + BigInt(fraction.padEnd(PRICE_ONE_TEXT_LENGTH, '0'));
  if (price <= 0n) return fail('BAD_REQUEST', `${name} must be positive`);
  return price;
}

function choice<T extends string>(
  value: unknown,
  name: string,
  allowed: readonly T[],
  fallback: T | null,
): T | Failure {
  if (value === undefined || value === null) return fallback ?? fail('BAD_REQUEST', `${name} is required`);
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    return fail('BAD_REQUEST', `${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Type, price and leverage, shared by both styles once the market is known. */
function orderTail(
  fields: Readonly<Record<string, unknown>>,
  market: Market,
  syntax: AmountSyntax,
): Pick<OrderInput, 'type' | 'limitPrice' | 'leverage'> | Failure {
  const type = choice(fields['type'], 'type', TYPES, 'market');
  if (isFailure(type)) return type;
  const rawPrice = fields['price'];
  if (type === 'limit' && (rawPrice === undefined || rawPrice === null))
    return fail('BAD_REQUEST', 'price is required for a limit order');
  if (type === 'market' && rawPrice !== undefined && rawPrice !== null)
    return fail('BAD_REQUEST', 'price is only for limit orders');
  const limitPrice = type === 'limit' ? parsePrice(rawPrice, 'price', syntax) : null;
  if (isFailure(limitPrice)) return limitPrice;
  const leverage = optionalInteger(fields['leverage'], 'leverage', 1, market.maxLeverage);
  if (isFailure(leverage)) {
    return market.kind === 'spot'
      ? fail('BAD_REQUEST', 'leverage applies to perpetuals only (spot orders take 1 or none)')
      : fail('BAD_REQUEST', `leverage must be a whole number from 1 to ${market.maxLeverage}`);
  }
  return { type, limitPrice, leverage: leverage ?? 1 };
}

export function parseOrderA(body: unknown): OrderInput | Failure {
  const fields = objectBody(body, ORDER_FIELDS_A);
  if (isFailure(fields)) return fields;
  const symbol = requiredString(fields['symbol'], 'symbol', 32);
  if (isFailure(symbol)) return symbol;
  const market = marketBySymbol(symbol);
  if (market === undefined) return fail('BAD_REQUEST', `unknown market ${symbol} (GET /api/v1/markets lists them)`);
  const sideText = choice(fields['side'], 'side', SIDES_A, null);
  if (isFailure(sideText)) return sideText;
  const amountMicro = requiredAmount(fields['size'], 'size', 'number');
  if (isFailure(amountMicro)) return amountMicro;
  const tail = orderTail(fields, market, 'number');
  if (isFailure(tail)) return tail;
  return { market, side: sideText === 'long' || sideText === 'buy' ? 'buy' : 'sell', amountMicro, ...tail };
}

export function parseOrderB(body: unknown): OrderInput | Failure {
  const fields = objectBody(body, ORDER_FIELDS_B);
  if (isFailure(fields)) return fields;
  const pair = requiredString(fields['pair'], 'pair', 32);
  if (isFailure(pair)) return pair;
  const marketType = choice(fields['market_type'], 'market_type', MARKET_TYPES, 'spot');
  if (isFailure(marketType)) return marketType;
  const market = marketByPair(pair, marketType);
  if (market === undefined)
    return fail(
      'BAD_REQUEST',
      `unknown ${marketType} pair ${pair} (pairs are <base>-USDC; GET /price/{pair} shows one)`,
    );
  const side = choice<OrderSide>(fields['side'], 'side', ['buy', 'sell'], null);
  if (isFailure(side)) return side;
  const amountMicro = requiredAmount(fields['amount'], 'amount', 'number-or-decimal-string');
  if (isFailure(amountMicro)) return amountMicro;
  const tail = orderTail(fields, market, 'number-or-decimal-string');
  if (isFailure(tail)) return tail;
  return { market, side, amountMicro, ...tail };
}

function orderId(value: unknown): string | Failure {
  if (typeof value !== 'string' || !isReference(value))
    return fail('BAD_REQUEST', "order id must be 1 to 64 characters of A-Z, a-z, 0-9, '_', '.' or '-'");
  return value;
}

/** A path `:id`, no query, and an empty body (cancel rows). */
export function parseOrderId(input: RouteInput): IdInput | Failure {
  const body = bodyOnly(input, NO_KEYS);
  if (isFailure(body)) return body;
  const id = orderId(input.params['id']);
  return isFailure(id) ? id : { orderId: id };
}

/** No query, no body (positions, markets, portfolio). */
export function parseNothing(input: RouteInput): null | Failure {
  const body = bodyOnly(input, NO_KEYS);
  return isFailure(body) ? body : null;
}

export function parseList(input: RouteInput, limits: { fallback: number; max: number }): ListInput | Failure {
  const unknown = knownQuery(input.query, LIST_QUERY_B);
  if (unknown !== null) return unknown;
  const status = queryEnum(input.query, 'status', LIST_STATUSES, 'all');
  if (isFailure(status)) return status;
  const marketType =
    input.query['market_type'] === undefined ? null : queryEnum(input.query, 'market_type', MARKET_TYPES, 'spot');
  if (isFailure(marketType)) return marketType;
  const pair = input.query['pair'];
  let symbols: string[] | null = null;
  if (pair !== undefined) {
    symbols = (marketType === null ? MARKET_TYPES : [marketType]).flatMap(
      (kind) => marketByPair(pair, kind)?.symbol ?? [],
    );
    if (symbols.length === 0) return fail('BAD_REQUEST', `unknown pair ${pair}`);
  } else if (marketType !== null) return fail('BAD_REQUEST', 'market_type filters a pair: send pair too');
  const text = input.query['limit'];
  let limit = limits.fallback;
  if (text !== undefined) {
    if (!/^\d{1,6}$/.test(text)) return fail('BAD_REQUEST', 'limit must be a whole number');
    limit = Number(text);
    if (limit < 1 || limit > limits.max) return fail('BAD_REQUEST', `limit must be between 1 and ${limits.max}`);
  }
  return { status: status === 'all' ? null : status, symbols, limit };
}

/** `GET /price/:pair?market_type=`: the spot market when one exists, else the perpetual. */
export function parsePricePair(input: RouteInput): { pair: string; marketType: MarketKind | null } | Failure {
  const unknown = knownQuery(input.query, PRICE_QUERY_B);
  if (unknown !== null) return unknown;
  const marketType =
    input.query['market_type'] === undefined ? null : queryEnum(input.query, 'market_type', MARKET_TYPES, 'spot');
  if (isFailure(marketType)) return marketType;
  const body = objectBody(input.body, NO_KEYS);
  if (isFailure(body)) return body;
  const pair = input.params['pair'] ?? '';
  if (pair.length === 0 || pair.length > 32) return fail('BAD_REQUEST', 'pair must be 1 to 32 characters');
  return { pair, marketType };
}

/** `GET /api/v1/ticker/:symbol`. */
export function parseSymbol(input: RouteInput): string | Failure {
  const none = parseNothing(input);
  if (none !== null) return none;
  const symbol = input.params['symbol'] ?? '';
  if (symbol.length === 0 || symbol.length > 32) return fail('BAD_REQUEST', 'symbol must be 1 to 32 characters');
  return symbol;
}
