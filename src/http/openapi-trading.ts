/**
 * The trading rows' OpenAPI definitions: what each row takes (zod, the same bounds the rows'
 * parse applies: trading-parse.ts), its success body (trading-render.ts) and its domain error
 * codes. Joined into the tables of openapi-requests.ts, openapi-responses.ts and openapi.ts.
 * Cross-field rules the schemas cannot say are in the descriptions: `price` only and always with
 * type limit; leverage only on perpetuals (spot takes 1); B's market_type filter needs a pair.
 */
import * as z from 'zod';
import type { ErrorCode } from '../core/errors.ts';
import { DEFAULT_TRADING_CONFIG } from '../services/trading/trading-config.ts';
import { MARKETS, pairOf } from '../services/trading/market-catalogue.ts';
import {
  amountNumber,
  amountNumberOrText,
  instant,
  limitQuery,
  listLimitQuery,
  named,
  optional,
  reference,
  usdcNumber as usdc,
  usdcString as money,
  withInfo,
  type RequestContract,
} from './openapi-fields.ts';

const config = DEFAULT_TRADING_CONFIG;
const nullable = <T extends z.ZodType>(schema: T): z.ZodNullable<T> => schema.nullable();
const count = (): z.ZodInt => z.int().min(0);
const SYMBOLS = MARKETS.map((market) => market.symbol) as [string, ...string[]];
const PAIRS = [...new Set(MARKETS.map(pairOf))] as [string, ...string[]];
const priceText = (): z.ZodString =>
  z
    .string()
    .regex(/^\d+\.\d{2,8}$/)
    .describe('A price as a decimal string, 2 to 8 decimals');
const qtyText = (): z.ZodString =>
  z
    .string()
    .regex(/^\d+\.\d{2,8}$/)
    .describe('Units of base asset, 2 to 8 decimals');
const priceNumber = (): z.ZodNumber =>
  z.number().positive().max(1e12).describe('A positive price, at most 8 decimals (no exponent)');
const leverage = optional(
  z
    .int()
    .min(1)
    .max(config.leverageMax)
    .describe(`Perpetuals: 1 to ${config.leverageMax} (default 1); spot takes 1 or none`),
);
const orderType = optional(z.enum(['market', 'limit']).describe('Default market'));
const marketType = z.enum(['spot', 'perp']);
const orderId = z.strictObject({ id: reference().describe('The order id (ord_...)') });

export const TRADING_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'trading.A.order': {
    body: z.strictObject({
      symbol: z.enum(SYMBOLS).describe('<asset>-PERP, or a spot pair <base>-USDC (GET /api/v1/markets)'),
      side: z.enum(['long', 'short', 'buy', 'sell']),
      size: amountNumber().describe(
        `Size in USDC (notional), ${config.orderMinMicro / 1_000_000n} to ${config.orderMaxMicro / 1_000_000n}`,
      ),
      leverage,
      type: orderType,
      price: optional(priceNumber().describe('Required with type limit, refused with market')),
    }),
  },
  'trading.A.cancel': { params: orderId },
  'trading.A.positions': { query: listLimitQuery('every open position') },
  'trading.A.markets': { query: listLimitQuery('every market') },
  'trading.B.portfolio': { query: listLimitQuery('every position and holding; limit cuts each list') },
  'trading.A.ticker': {
    params: z.strictObject({ symbol: z.string().min(1).max(32).describe('A market symbol (BTC-PERP, ETH-USDC)') }),
  },
  'trading.B.order': {
    body: z.strictObject({
      pair: z.enum(PAIRS).describe('<base>-USDC'),
      side: z.enum(['buy', 'sell']),
      amount: amountNumberOrText().describe('Size in USDC (quote currency)'),
      type: orderType,
      price: optional(
        z
          .union([priceNumber(), z.string().regex(/^\s*\d{1,12}(\.\d{1,8})?\s*$/)])
          .describe('Required with type limit, refused with market'),
      ),
      market_type: optional(marketType.describe('Default spot')),
      leverage,
    }),
  },
  'trading.B.price': {
    params: z.strictObject({ pair: z.string().min(1).max(32).describe('<base>-USDC') }),
    query: z.strictObject({
      market_type: marketType.optional().describe('Default: spot when the pair trades spot, else perp'),
    }),
  },
  'trading.B.orders': {
    query: z.strictObject({
      status: z.enum(['open', 'filled', 'cancelled', 'all']).optional().describe('Default all'),
      pair: z.enum(PAIRS).optional(),
      market_type: marketType.optional().describe('With pair: only that market type'),
      limit: limitQuery(config.listLimitDefault, config.listLimitMax).optional(),
    }),
  },
  'trading.B.cancel': { params: orderId },
};

const orderStatus = z.enum(['open', 'filled', 'cancelled']);
const orderA = named(
  'OrderA',
  z.strictObject({
    order_id: z.string(),
    status: orderStatus,
    symbol: z.string(),
    side: z.enum(['long', 'short', 'buy', 'sell']),
    type: z.enum(['market', 'limit']),
    size: usdc(),
    leverage: z.int().min(1),
    price: nullable(z.number()),
    entry_price: nullable(z.number()).describe('The fill price; null while open'),
    fill_qty: nullable(z.number()),
    fee: usdc(),
    realized_pnl: usdc(),
    created_at: instant(),
    filled_at: nullable(instant()),
    cancelled_at: nullable(instant()),
  }),
);
const orderBShape = {
  order_id: z.string(),
  status: orderStatus,
  pair: z.string(),
  market_type: marketType,
  side: z.enum(['buy', 'sell']),
  type: z.enum(['market', 'limit']),
  amount: money(),
  leverage: z.int().min(1),
  price: nullable(priceText()),
  fill_price: nullable(priceText()),
  fill_qty: nullable(qtyText()),
  fee: money(),
  realized_pnl: money(),
  ts: instant(),
  created_at: instant(),
};
const orderB = named('OrderB', z.strictObject(orderBShape));
const positionA = named(
  'PositionA',
  z.strictObject({
    position_id: z.string(),
    symbol: z.string(),
    side: z.enum(['long', 'short']),
    size: usdc(),
    qty: z.number(),
    entry_price: z.number(),
    mark_price: z.number(),
    unrealized_pnl: usdc(),
    margin: usdc(),
    leverage: z.int().min(1),
    liquidation_price: z.number(),
    funding_paid: usdc(),
    opened_at: instant(),
  }),
);
const positionB = named(
  'PositionB',
  z.strictObject({
    position_id: z.string(),
    pair: z.string(),
    market_type: z.literal('perp'),
    side: z.enum(['long', 'short']),
    amount: money(),
    qty: qtyText(),
    entry_price: priceText(),
    current_price: priceText(),
    unrealized_pnl: money(),
    margin: money(),
    leverage: z.int().min(1),
    liquidation_price: priceText(),
    funding_paid: money(),
    opened_at: instant(),
  }),
);
const holding = named(
  'SpotHolding',
  z.strictObject({
    pair: z.string(),
    market_type: z.literal('spot'),
    qty: qtyText(),
    reserved_qty: qtyText(),
    entry_price: priceText(),
    current_price: priceText(),
    value: money(),
    unrealized_pnl: money(),
  }),
);
const market = named(
  'Market',
  z.strictObject({
    symbol: z.string(),
    base: z.string(),
    type: marketType,
    category: z.enum(['crypto', 'stock', 'commodity', 'index', 'forex']),
    mark_price: z.number(),
    max_leverage: z.int().min(1),
    funding_rate: nullable(z.number()).describe('Per 8 hours, as a fraction (0.0001 = 0.01%); null for spot'),
    open: z.boolean(),
  }),
);

export const TRADING_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'trading.A.order': withInfo(orderA.shape),
  'trading.A.cancel': withInfo(orderA.shape),
  'trading.A.positions': withInfo({ positions: z.array(positionA), count: count() }),
  'trading.A.markets': withInfo({ markets: z.array(market), count: count() }),
  'trading.A.ticker': withInfo({
    symbol: z.string(),
    mark_price: z.number(),
    bid: z.number(),
    ask: z.number(),
    change_24h: z.number().describe('Percent over 24 hours'),
    volume_24h: usdc(),
    funding_rate: nullable(z.number()),
    next_funding_at: nullable(instant()),
    open: z.boolean(),
  }),
  'trading.B.order': withInfo(orderBShape),
  'trading.B.price': withInfo({
    pair: z.string(),
    market_type: marketType,
    bid: priceText(),
    ask: priceText(),
    mid: priceText(),
    change_24h: z
      .string()
      .regex(/^-?\d+\.\d{2}$/)
      .describe('Percent over 24 hours'),
    volume_24h: money(),
    funding_rate: nullable(z.string()).describe('Per 8 hours, as a fraction; null for spot'),
    next_funding_at: nullable(instant()),
    open: z.boolean(),
  }),
  'trading.B.orders': withInfo({ orders: z.array(orderB), count: count() }),
  'trading.B.cancel': withInfo(orderBShape),
  'trading.B.portfolio': withInfo({
    balance: money(),
    margin_used: money(),
    held_for_orders: money(),
    unrealized_pnl: money(),
    spot_value: money(),
    equity: money(),
    positions: z.array(positionB),
    spot: z.array(holding),
    open_orders: count(),
  }),
};

const PLACE: readonly ErrorCode[] = ['MARKET_CLOSED', 'INSUFFICIENT_BALANCE'];
const CANCEL: readonly ErrorCode[] = ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'];

export const TRADING_DOMAIN_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  'trading.A.order': PLACE,
  'trading.A.cancel': CANCEL,
  'trading.A.positions': [],
  'trading.A.markets': [],
  'trading.A.ticker': ['NOT_FOUND'],
  'trading.B.order': PLACE,
  'trading.B.price': ['NOT_FOUND'],
  'trading.B.orders': [],
  'trading.B.cancel': CANCEL,
  'trading.B.portfolio': [],
};
