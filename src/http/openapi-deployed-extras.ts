/**
 * The definitions of the deployed stand-in's trading risk rows (routes/deployed/trading-risk.ts),
 * domains discovery rows (routes/deployed/domains-discovery.ts) and casino referral rows
 * (routes/deployed/casino-referral.ts), spread into
 * openapi-deployed.ts's tables like openapi-deployed-trading.ts and -domains.ts: what each row
 * takes (text inputs checked by the rows' own parsers, so the two cannot drift), what it answers,
 * its refusals. Request objects are loose (the deployment ignores fields it does not read);
 * success bodies strict, with `_info`.
 */
import * as z from 'zod';
import { isFailure } from '../core/errors.ts';
import { CHECK_ROW_FIELDS, VALUATION_FIELDS } from './openapi-deployed-domains.ts';
import type { RequestContract } from './openapi-fields.ts';
import { instant, usdcNumber as usdc, withInfo } from './openapi-fields.ts';
import {
  BULK_CHECK_MAX,
  EXPIRING_DAYS_MAX,
  parseSearchText,
  parseValueNames,
} from './routes/deployed/domains-discovery.ts';
import { parseRegistrable } from './routes/deployed/domains.ts';
import { ORDERBOOK_DEPTH_MAX } from './routes/deployed/trading-risk.ts';
import { RISK_LEVERAGE_MAX } from '../services/trading/risk-settings.ts';

const price = (): z.ZodNumber => z.number().describe('A price in USDC per unit, up to 8 decimals');
const side = z.enum(['long', 'short']);
const triggerBody = z.looseObject({
  position_id: z.string().max(128).regex(/\S/).describe('Your open position (pos_...)'),
  trigger_price: z
    .number()
    .positive()
    .lt(1e12)
    .describe(
      'A positive price below 10^12 with at most 8 decimals, on the side of the mark that does not fire at once',
    ),
});
const searchText = z
  .string()
  .refine((value) => !isFailure(parseSearchText(value)))
  .describe('A label (agent) or a label with a sold TLD (agent.ai)');

export const EXTRAS_DEPLOYED_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'trading.deployed.stop-loss': { body: triggerBody },
  'trading.deployed.take-profit': { body: triggerBody },
  'trading.deployed.check-limits': { body: z.looseObject({}), bodyOptional: true },
  'trading.deployed.risk-settings.set': {
    body: z.looseObject({
      max_leverage: z
        .int()
        .min(1)
        .max(RISK_LEVERAGE_MAX)
        .optional()
        .describe(
          `Your leverage ceiling, 1 to ${RISK_LEVERAGE_MAX} (orders are also clamped to the market maximum, 10 in afp)`,
        ),
      daily_loss_limit_usd: z
        .number()
        .positive()
        .max(1_000_000)
        .nullable()
        .optional()
        .describe(
          'The realized loss of a UTC day at which new positions are refused (at most 6 decimals); null clears it',
        ),
    }),
    bodyOptional: true,
  },
  'trading.deployed.orderbook': {
    params: z.strictObject({ coin: z.string().describe('A coin name (unknown: 404 market_not_found)') }),
    query: z.looseObject({
      depth: z
        .int()
        .min(1)
        .max(ORDERBOOK_DEPTH_MAX)
        .optional()
        .describe(`Levels a side, 1 to ${ORDERBOOK_DEPTH_MAX} (default 10)`),
    }),
  },
  'domains.deployed.search': { query: z.looseObject({ q: searchText }) },
  'domains.deployed.bulk-check': {
    body: z.looseObject({
      domains: z
        .array(z.string().refine((value) => !isFailure(parseRegistrable(value, 'domains'))))
        .min(1)
        .max(BULK_CHECK_MAX)
        .describe(`1 to ${BULK_CHECK_MAX} names of sold TLDs`),
    }),
  },
  'domains.deployed.expiring': {
    query: z.looseObject({
      days: z
        .int()
        .min(1)
        .max(EXPIRING_DAYS_MAX)
        .optional()
        .describe(`Within this many days, 1 to ${EXPIRING_DAYS_MAX} (default 30)`),
    }),
  },
  'domains.deployed.suggest': {
    query: z.looseObject({ q: searchText.describe('A keyword (a label; a TLD given is ignored)') }),
  },
  'domains.deployed.portfolio-value': {
    query: z.looseObject({
      names: z
        .string()
        .refine((value) => !isFailure(parseValueNames(value)))
        .describe('1 to 50 comma-separated names, any TLD'),
    }),
  },
};

const triggerFields = {
  trigger_id: z.string(),
  position_id: z.string(),
  coin: z.string(),
  side,
  type: z.enum(['stop_loss', 'take_profit']),
  trigger_price: price(),
  status: z.enum(['active', 'fired', 'cancelled']),
  created_at: instant(),
  ended_at: instant().optional(),
  fired_at_price: price().optional(),
  cause: z.enum(['replaced', 'position-ended']).optional(),
};
const settingsFields = {
  agent_id: z.string(),
  max_leverage: z.int().min(1).max(RISK_LEVERAGE_MAX),
  max_position_usd: z.literal(10_000),
  daily_loss_limit_usd: usdc().nullable(),
  realized_pnl_today: usdc().describe('Realized PnL of the current UTC day (fees not counted)'),
  day_started_at: instant(),
  daily_loss_limit_reached: z.boolean(),
};
const checkRow = z.strictObject(CHECK_ROW_FIELDS);
const bookLevel = z.strictObject({ price: price(), size: z.number().describe('Coin units'), size_usd: usdc() });
const valuation = z.strictObject(VALUATION_FIELDS);

export const EXTRAS_DEPLOYED_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'casino.deployed.referral.code': withInfo({
    referral_code: z.string(),
    commission_rate: z.number().min(0).max(1).describe('The level-1 share of a losing stake (0.1)'),
    share_message: z.string(),
  }),
  'casino.deployed.referral.stats': withInfo({
    total_referrals: z.int().min(0).describe('Agents registered with your code (level 1)'),
    total_earned_usd: usdc(),
    last_30_days_usd: usdc(),
    by_level: z.array(
      z.strictObject({
        level: z.int().min(1).max(3),
        rate: z.number().min(0).max(1),
        count: z.int().min(0).describe('Level 1 only: levels 2 and 3 read 0, as on the deployment'),
        earned_usd: usdc(),
      }),
    ),
    grow_tip: z.string(),
    referrals: z.array(z.strictObject({ agent_id: z.string(), level: z.literal(1) })),
  }),
  'trading.deployed.stop-loss': withInfo({ ...triggerFields, current_price: price(), message: z.string() }),
  'trading.deployed.take-profit': withInfo({ ...triggerFields, current_price: price(), message: z.string() }),
  'trading.deployed.check-limits': withInfo({
    checked_at: instant(),
    positions: z.array(
      z.strictObject({
        position_id: z.string(),
        coin: z.string(),
        side,
        current_price: price(),
        stop_loss: price().nullable(),
        take_profit: price().nullable(),
        liquidation_price: price(),
        unrealized_pnl: usdc(),
      }),
    ),
    count: z.int().min(0),
    triggered: z.array(z.strictObject(triggerFields)),
    limits: z.strictObject(settingsFields),
  }),
  'trading.deployed.risk-settings': withInfo(settingsFields),
  'trading.deployed.risk-settings.set': withInfo({ ...settingsFields, message: z.string() }),
  'trading.deployed.orderbook': withInfo({
    coin: z.string(),
    ticker: z.string(),
    bids: z.array(bookLevel),
    asks: z.array(bookLevel),
    mid: price(),
    spread: price(),
    depth: z.int().min(1),
    timestamp: z.int(),
    source: z.literal('derived-from-quote'),
  }),
  'domains.deployed.search': withInfo({
    query: z.string(),
    results: z.array(checkRow),
    count: z.int(),
    available_count: z.int(),
  }),
  'domains.deployed.bulk-check': withInfo({ results: z.array(checkRow), count: z.int(), available_count: z.int() }),
  'domains.deployed.expiring': withInfo({
    domains: z.array(
      z.strictObject({
        domain: z.string(),
        expires_at: instant(),
        days_left: z.int().min(0),
        status: z.literal('active'),
      }),
    ),
    count: z.int(),
    total: z.int(),
    days: z.int(),
  }),
  'domains.deployed.suggest': withInfo({
    keyword: z.string(),
    suggestions: z.array(z.strictObject({ ...checkRow.shape, score: z.number(), estimated_value_usd: usdc() })),
    count: z.int(),
  }),
  'domains.deployed.portfolio-value': withInfo({
    domains: z.array(valuation),
    count: z.int(),
    total_estimated_value_usd: usdc(),
    total_floor_price_usd: usdc(),
  }),
};

const TRIGGER_ERRORS = {
  400: ['invalid_request', 'invalid_price', 'invalid_trigger_price', 'position_not_open'],
  403: ['forbidden'],
  404: ['position_not_found'],
};

export const EXTRAS_DEPLOYED_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  'trading.deployed.stop-loss': TRIGGER_ERRORS,
  'trading.deployed.take-profit': TRIGGER_ERRORS,
  'trading.deployed.risk-settings.set': { 400: ['invalid_request', 'invalid_leverage', 'invalid_limit'] },
  'trading.deployed.orderbook': { 400: ['invalid_depth'], 404: ['market_not_found'] },
  'domains.deployed.search': { 400: ['missing_query', 'invalid_query', 'invalid_domain'] },
  'domains.deployed.bulk-check': { 400: ['missing_domains', 'too_many_domains', 'invalid_domain'] },
  'domains.deployed.expiring': { 400: ['invalid_days'] },
  'domains.deployed.suggest': { 400: ['missing_query', 'invalid_query'] },
  'domains.deployed.portfolio-value': { 400: ['missing_names', 'too_many_names', 'invalid_domain'] },
};
