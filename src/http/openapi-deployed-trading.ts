/**
 * What the deployed trading rows (src/http/routes/deployed/trading-*.ts, spec/DEPLOYED.md §5) take
 * and answer, as zod definitions keyed by row id, spread into openapi-deployed.ts's tables. Request
 * objects are loose (the deployment ignores fields it does not read); success bodies are strict,
 * with `_info`. Held to the rows by test/http/openapi-contract.test.ts and openapi-responses.test.ts.
 */
import * as z from 'zod';
import { MARKETS } from '../services/trading/market-catalogue.ts';
import type { RequestContract } from './openapi-fields.ts';
import { instant, limitQuery, usdcNumber as usdc, withInfo } from './openapi-fields.ts';
import { coinOf } from './routes/deployed/trading-view.ts';
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX } from './routes/deployed/trading-orders.ts';

const COINS = MARKETS.filter((market) => market.kind === 'perp').map(coinOf);
const coin = z
  .enum(COINS as [string, ...string[]])
  .describe('A Hyperliquid coin name: BTC, ETH, xyz:TSLA (GET /v1/markets lists them)');
const side = z.enum(['long', 'short']);
const optionalText = (max: number): z.ZodOptional<z.ZodNullable<z.ZodString>> =>
  z.string().max(max).regex(/\S/).nullable().optional();
const price = (): z.ZodNumber => z.number().describe('A price in USDC per unit, up to 8 decimals');

const tradeBody = (limit: boolean): z.ZodType =>
  z.looseObject({
    coin,
    side,
    size_usd: z
      .number()
      .min(1)
      .max(10_000)
      .describe('Notional in USDC, 1 to 10 000 (over 10 000: 400 position_too_large), at most 6 decimals'),
    leverage: z
      .number()
      .min(1)
      .nullable()
      .optional()
      .describe('Default 5; floored and clamped to the market maximum (10 in afp)'),
    ...(limit
      ? { limit_price: z.number().positive().lt(1e12).describe('A positive price below 10^12 with at most 8 decimals') }
      : {}),
  });

export const TRADING_DEPLOYED_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'trading.deployed.register': {
    body: z.looseObject({
      referral_code: optionalText(256).describe('A known referral code links the referrer; an unknown one is ignored'),
      wallet_agent_id: optionalText(256).describe('Read and ignored by afp'),
      hl_wallet_address: optionalText(256).describe('Read and ignored by afp (afp trades against its own house)'),
      hl_signing_key: optionalText(256).describe('Read and ignored by afp'),
    }),
    bodyOptional: true,
  },
  'trading.deployed.market': {
    params: z.strictObject({ coin: z.string().describe('A coin name (unknown: 404 market_not_found)') }),
  },
  'trading.deployed.price': {
    params: z.strictObject({ coin: z.string().describe('A coin name (unknown: 404 market_not_found)') }),
  },
  'trading.deployed.open': { body: tradeBody(false) },
  'trading.deployed.limit': { body: tradeBody(true) },
  'trading.deployed.close': {
    body: z.looseObject({ position_id: z.string().max(128).regex(/\S/).describe('The position (pos_...)') }),
  },
  'trading.deployed.limit-cancel': {
    params: z.strictObject({ id: z.string().describe('The limit order (ord_...)') }),
    body: z.looseObject({}),
    bodyOptional: true,
  },
  'trading.deployed.history': {
    query: z.strictObject({ limit: limitQuery(HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX).optional() }),
  },
};

const marketFields = {
  coin: z.string(),
  ticker: z.string(),
  category: z.enum(['crypto', 'stock', 'commodity', 'index', 'forex']),
  price: price(),
  max_leverage: z.int().min(1),
  funding_rate: z.number().nullable().describe('The 8-hour rate as a fraction'),
  change_24h_pct: z.number(),
  volume_24h: usdc(),
};
const positionFields = {
  position_id: z.string(),
  coin: z.string(),
  side,
  size_usd: usdc(),
  entry_price: price(),
  current_price: price(),
  leverage: z.int().min(1),
  margin_used: usdc(),
  liquidation_price: price(),
  unrealized_pnl: usdc(),
  unrealized_pnl_percent: z.number(),
  status: z.literal('open'),
  opened_at: instant(),
};
const closedFields = {
  position_id: z.string(),
  coin: z.string(),
  side,
  size_usd: usdc(),
  entry_price: price(),
  exit_price: price().nullable(),
  leverage: z.int().min(1),
  pnl: usdc(),
  pnl_percent: z.number().describe('PnL over the margin, percent'),
  status: z.enum(['open', 'closed']),
  liquidated: z.literal(true).optional(),
  opened_at: instant(),
  closed_at: instant().nullable(),
};
const limitFields = {
  order_id: z.string(),
  coin: z.string(),
  side,
  size_usd: usdc(),
  limit_price: price().nullable(),
  leverage: z.int().min(1),
  status: z.enum(['pending', 'filled', 'cancelled']),
  fill_price: price().nullable(),
  fee: usdc(),
  created_at: instant(),
  filled_at: instant().nullable(),
};

export const TRADING_DEPLOYED_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'trading.deployed.register': withInfo({
    agent_id: z.string(),
    api_key: z.string().regex(/^sk_trade_[0-9a-f]{48}$/),
    referral_code: z.string(),
    tier: z.string(),
    deposit_address: z.string(),
    hl_wallet: z.null(),
    balance_usd: usdc(),
    created_at: instant(),
    message: z.string(),
    next_steps: z.array(z.string()),
  }),
  'trading.deployed.markets': withInfo({ markets: z.array(z.strictObject(marketFields)), count: z.int().min(0) }),
  'trading.deployed.funding-rates': withInfo({
    funding_rates: z.array(
      z.strictObject({ coin: z.string(), funding_rate: z.number().nullable(), next_funding_at: instant().nullable() }),
    ),
    interval_hours: z.literal(8),
  }),
  'trading.deployed.market': withInfo({
    ...marketFields,
    bid: price(),
    ask: price(),
    next_funding_at: instant().nullable(),
    open: z.boolean(),
  }),
  'trading.deployed.price': withInfo({
    coin: z.string(),
    ticker: z.string(),
    price: price(),
    timestamp: z.int().describe('Milliseconds since the epoch'),
  }),
  'trading.deployed.open': withInfo({
    ...positionFields,
    fee: usdc(),
    order_id: z.string(),
    position_size_usd: usdc().describe('The whole position after this trade'),
  }),
  'trading.deployed.close': withInfo({ ...closedFields, order_id: z.string(), fee: usdc(), balance_usd: usdc() }),
  'trading.deployed.limit': withInfo(limitFields),
  'trading.deployed.limit-orders': withInfo({ orders: z.array(z.strictObject(limitFields)), count: z.int().min(0) }),
  'trading.deployed.limit-cancel': withInfo({ ...limitFields, message: z.string() }),
  'trading.deployed.positions': withInfo({ positions: z.array(z.strictObject(positionFields)), count: z.int().min(0) }),
  'trading.deployed.history': withInfo({ trades: z.array(z.strictObject(closedFields)), count: z.int().min(0) }),
  'trading.deployed.portfolio': withInfo({
    agent_id: z.string(),
    balance_usd: usdc(),
    margin_used: usdc(),
    held_for_orders: usdc(),
    unrealized_pnl: usdc(),
    equity: usdc(),
    open_positions: z.int().min(0),
    pending_orders: z.int().min(0),
    positions: z.array(z.strictObject(positionFields)),
  }),
};

const TRADE_ERRORS = {
  400: [
    'invalid_coin',
    'invalid_side',
    'invalid_size',
    'position_too_large',
    'invalid_leverage',
    'insufficient_balance',
    'trade_failed',
  ],
  403: ['forbidden', 'daily_loss_limit_reached'],
  404: ['not_found'],
};

export const TRADING_DEPLOYED_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  'trading.deployed.register': { 400: ['invalid_request'] },
  'trading.deployed.market': { 404: ['market_not_found'] },
  'trading.deployed.price': { 404: ['market_not_found'] },
  'trading.deployed.open': TRADE_ERRORS,
  'trading.deployed.limit': { ...TRADE_ERRORS, 400: [...TRADE_ERRORS[400], 'invalid_price'] },
  'trading.deployed.close': {
    400: ['invalid_request', 'position_not_open', 'trade_failed'],
    403: ['forbidden'],
    404: ['position_not_found'],
  },
  'trading.deployed.limit-cancel': { 400: ['order_not_pending'], 403: ['forbidden'], 404: ['order_not_found'] },
  'trading.deployed.history': { 400: ['invalid_request'] },
};
