/**
 * The deployed trading service's risk rows (spec/DEPLOYED.md §5) over afp's trading model:
 *   POST /v1/trade/stop-loss, /v1/trade/take-profit { position_id, trigger_price }
 *        → 201 the pending trigger (`status: active`); setting a kind again replaces it;
 *   POST /v1/trade/check-limits → the caller's open positions against their triggers, its
 *        recent trigger firings, and its daily loss against its limit (reads only);
 *   GET, POST /v1/trade/risk-settings { max_leverage?, daily_loss_limit_usd? } → the settings;
 *   GET  /v1/markets/:coin/orderbook?depth= → a book derived from the quote (public).
 * The spec names these paths and the trigger fields only: every answer's other fields, and the
 * rules below, are afp's (docs/decisions/deployed-dialect.md "Deployed dialect: trading").
 * Triggers are afp's model (src/services/trading/position-triggers.ts): they fire on the clock at
 * the first tick the mark crosses them and close the whole position at the taker quote; a price
 * the mark is already at or through is refused 400 `invalid_trigger_price`. Refusals in the
 * deployment's names: 404 `position_not_found`, 403 `forbidden`, 400 `position_not_open`.
 * Risk settings are kept per agent in the model (risk-settings.ts): `max_leverage` 1 to 50 (an
 * order's leverage is clamped to it and to the market's maximum, so at most 10 in afp), a daily
 * loss limit (USD, > 0, null clears it) past which POST /v1/trade/open and /limit answer 403
 * `daily_loss_limit_reached` until the next UTC day.
 * The order book is not afp's execution (every order fills at the top quote whatever its size):
 * it shows `depth` levels a side (default 10, 1 to ORDERBOOK_DEPTH_MAX) from the quote's bid and
 * ask outwards in steps of half the spread, each level holding the 24-hour volume / 10 000 (at
 * least 1 000 USD) times its rank — deterministic, and it moves with the quote.
 */
import { assert } from '../../../core/assert.ts';
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import type { Market } from '../../../services/trading/market-catalogue.ts';
import type { TriggerKind, TriggerRecord } from '../../../services/trading/position-triggers.ts';
import { formatQty, qtyFor } from '../../../services/trading/price-scale.ts';
import { RISK_LEVERAGE_MAX, type RiskSettings } from '../../../services/trading/risk-settings.ts';
import type { Quote } from '../../../services/trading/trading-record.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { requiredAmount } from '../../validate.ts';
import { parsePrice } from '../trading/trading-parse.ts';
import { coinOf, coinOfSymbol, marketOfCoin, priceNumber } from './trading-view.ts';

export const ORDERBOOK_DEPTH_DEFAULT = 10;
export const ORDERBOOK_DEPTH_MAX = 50;
const LEVEL_UNIT_MIN_MICRO = 1_000_000_000n;
const LEVEL_UNIT_DIVISOR = 10_000n;
/** Recent trigger firings check-limits shows. */
const RECENT_TRIGGERS_MAX = 20;
/** A daily loss limit above this is refused (afp's orders are at most 1,000,000 USDC each). */
const DAILY_LOSS_LIMIT_MAX_MICRO = 1_000_000_000_000n;

function callerId(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

function fieldsOf(body: unknown): Record<string, unknown> | Failure {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    return deployedFailure(400, 'invalid_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

const wireKind = (kind: TriggerKind): string => (kind === 'stop-loss' ? 'stop_loss' : 'take_profit');

function triggerRow(trigger: TriggerRecord): JsonObject {
  return {
    trigger_id: trigger.id,
    position_id: trigger.positionId,
    coin: coinOfSymbol(trigger.symbol),
    side: trigger.side,
    type: wireKind(trigger.kind),
    trigger_price: priceNumber(trigger.triggerPrice),
    status: trigger.status === 'pending' ? 'active' : trigger.status,
    created_at: isoTime(trigger.createdAtMs),
    ...(trigger.endedAtMs === null ? {} : { ended_at: isoTime(trigger.endedAtMs) }),
    ...(trigger.firedMark === null ? {} : { fired_at_price: priceNumber(trigger.firedMark) }),
    ...(trigger.cause === null ? {} : { cause: trigger.cause }),
  };
}

interface TriggerInput {
  readonly positionId: string;
  readonly triggerPrice: bigint;
}

function triggerRoute(kind: TriggerKind): Route {
  return deployedRoute<TriggerInput, TriggerRecord>({
    id: `trading.deployed.${kind}`,
    service: 'trading',
    style: 'deployed',
    auth: 'bearer',
    summary: `Set (or replace) the ${kind} of an open position ({ position_id, trigger_price }): it closes the position when the mark crosses it.`,
    parse: (input: RouteInput) => {
      const fields = fieldsOf(input.body);
      if (isFailure(fields)) return fields;
      const id = fields['position_id'];
      if (typeof id !== 'string' || id.trim() === '' || id.length > 128)
        return deployedFailure(400, 'invalid_request', 'position_id is required');
      const price = parsePrice(fields['trigger_price'], 'trigger_price', 'number');
      if (isFailure(price)) return deployedFailure(400, 'invalid_price', price.message);
      return { positionId: id.trim(), triggerPrice: price };
    },
    run: (context, input) => {
      const set = context.platform.trading.setTrigger(
        { agentId: callerId(context), positionId: input.positionId, kind, triggerPrice: input.triggerPrice },
        context.nowMs,
      );
      if (set.ok) return set;
      if (set.code === 'NOT_FOUND') return renamed(set, 'position_not_found', 404);
      if (set.code === 'FORBIDDEN') return renamed(set, 'forbidden', 403);
      if (set.code === 'CONFLICT') return renamed(set, 'position_not_open', 400);
      return renamed(set, 'invalid_trigger_price', 400);
    },
    successStatus: 201,
    render: (trigger, context) => {
      const position = context.platform.trading.book.position(trigger.positionId);
      assert(position !== undefined, 'a trigger names a position');
      return {
        ...triggerRow(trigger),
        current_price: priceNumber(context.platform.trading.view(position, context.nowMs).markPrice),
        message: `${kind === 'stop-loss' ? 'Stop-loss' : 'Take-profit'} set: the position closes at the market when the price crosses ${priceNumber(trigger.triggerPrice)}.`,
      };
    },
  });
}

function settingsRow(settings: RiskSettings, agentId: string, context: RouteContext): JsonObject {
  const day = context.platform.trading.risk.dayOf(agentId, context.nowMs);
  return {
    agent_id: agentId,
    max_leverage: settings.maxLeverage,
    max_position_usd: 10_000,
    daily_loss_limit_usd: settings.dailyLossLimitMicro === null ? null : moneyA(settings.dailyLossLimitMicro),
    realized_pnl_today: moneyA(day.realizedMicro),
    day_started_at: isoTime(day.dayStartMs),
    daily_loss_limit_reached: context.platform.trading.risk.lossLimitReached(agentId, context.nowMs),
  };
}

const checkLimits = deployedRoute<null, null>({
  id: 'trading.deployed.check-limits',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary:
    'Your open positions against their stop-loss and take-profit, recent firings, and your daily loss against its limit (changes nothing).',
  parse: () => null,
  run: () => succeed(null),
  successStatus: 200,
  render: (_nothing, context) => {
    const agentId = callerId(context);
    const trading = context.platform.trading;
    const positions = trading.positions(agentId, context.nowMs).map((view) => {
      const pending = trading.triggers.pendingOf(view.position.id);
      const price = (kind: TriggerKind): number | null => {
        const found = pending.find((one) => one.kind === kind);
        return found === undefined ? null : priceNumber(found.triggerPrice);
      };
      return {
        position_id: view.position.id,
        coin: coinOfSymbol(view.position.symbol),
        side: view.position.side,
        current_price: priceNumber(view.markPrice),
        stop_loss: price('stop-loss'),
        take_profit: price('take-profit'),
        liquidation_price: priceNumber(view.liquidationPrice),
        unrealized_pnl: moneyA(view.unrealizedPnlMicro),
      };
    });
    const triggered = trading.triggers
      .ofAgent(agentId, RECENT_TRIGGERS_MAX * 2)
      .filter((one) => one.status === 'fired')
      .slice(0, RECENT_TRIGGERS_MAX);
    return {
      checked_at: isoTime(context.nowMs),
      positions,
      count: positions.length,
      triggered: triggered.map(triggerRow),
      limits: settingsRow(trading.risk.settingsOf(agentId), agentId, context),
    };
  },
});

const readSettings = deployedRoute<null, null>({
  id: 'trading.deployed.risk-settings',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your risk settings: leverage ceiling, daily loss limit, and the realized PnL of the day.',
  parse: () => null,
  run: () => succeed(null),
  successStatus: 200,
  render: (_nothing, context) =>
    settingsRow(context.platform.trading.risk.settingsOf(callerId(context)), callerId(context), context),
});

interface SettingsInput {
  readonly maxLeverage: number | undefined;
  /** undefined = keep, null = clear. */
  readonly dailyLossLimitMicro: Micro | null | undefined;
}

function parseSettings(input: RouteInput): SettingsInput | Failure {
  const fields = fieldsOf(input.body);
  if (isFailure(fields)) return fields;
  const leverage = fields['max_leverage'];
  if (
    leverage !== undefined &&
    (typeof leverage !== 'number' || !Number.isSafeInteger(leverage) || leverage < 1 || leverage > RISK_LEVERAGE_MAX)
  ) {
    return deployedFailure(
      400,
      'invalid_leverage',
      `max_leverage must be a whole number from 1 to ${RISK_LEVERAGE_MAX}`,
    );
  }
  const limit = fields['daily_loss_limit_usd'];
  let limitMicro: Micro | null | undefined;
  if (limit === null) limitMicro = null;
  else if (limit !== undefined) {
    const parsed = requiredAmount(limit, 'daily_loss_limit_usd', 'number');
    if (isFailure(parsed) || parsed > DAILY_LOSS_LIMIT_MAX_MICRO)
      return deployedFailure(
        400,
        'invalid_limit',
        'daily_loss_limit_usd must be a positive number of at most 6 decimals up to 1,000,000, or null to clear it',
      );
    limitMicro = parsed;
  }
  return { maxLeverage: leverage as number | undefined, dailyLossLimitMicro: limitMicro };
}

const writeSettings = deployedRoute<SettingsInput, RiskSettings>({
  id: 'trading.deployed.risk-settings.set',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary:
    'Change your risk settings ({ max_leverage?: 1–50, daily_loss_limit_usd?: number | null }); the fields not sent are kept (none sent: nothing changes).',
  parse: parseSettings,
  run: (context, input) => {
    const agentId = callerId(context);
    const risk = context.platform.trading.risk;
    const current = risk.settingsOf(agentId);
    return succeed(
      risk.set(agentId, {
        maxLeverage: input.maxLeverage ?? current.maxLeverage,
        dailyLossLimitMicro:
          input.dailyLossLimitMicro === undefined ? current.dailyLossLimitMicro : input.dailyLossLimitMicro,
      }),
    );
  },
  successStatus: 200,
  render: (settings, context) => ({
    ...settingsRow(settings, callerId(context), context),
    message: 'Risk settings updated.',
  }),
});

interface BookInput {
  readonly market: Market;
  readonly depth: number;
}

function bookSide(quote: Quote, depth: number, side: 'bid' | 'ask'): JsonObject[] {
  const step = (quote.ask - quote.bid) / 2n > 0n ? (quote.ask - quote.bid) / 2n : 1n;
  const unit =
    quote.volume24hMicro / LEVEL_UNIT_DIVISOR > LEVEL_UNIT_MIN_MICRO
      ? quote.volume24hMicro / LEVEL_UNIT_DIVISOR
      : LEVEL_UNIT_MIN_MICRO;
  const levels: JsonObject[] = [];
  for (let rank = 0; rank < depth; rank++) {
    const price = side === 'bid' ? quote.bid - step * BigInt(rank) : quote.ask + step * BigInt(rank);
    if (price <= 0n) break;
    const sizeUsd = unit * BigInt(rank + 1);
    levels.push({
      price: priceNumber(price),
      size: Number(formatQty(qtyFor(sizeUsd, price))),
      size_usd: moneyA(sizeUsd),
    });
  }
  return levels;
}

const orderbook = deployedRoute<{ coin: string; depth: number }, BookInput>({
  id: 'trading.deployed.orderbook',
  service: 'trading',
  style: 'deployed',
  auth: 'none',
  summary: `A market's order book derived from its quote (public; ?depth=1–${ORDERBOOK_DEPTH_MAX}, default ${ORDERBOOK_DEPTH_DEFAULT}).`,
  parse: (input) => {
    const text = input.query['depth'];
    const depth = text === undefined ? ORDERBOOK_DEPTH_DEFAULT : /^\d{1,3}$/.test(text) ? Number(text) : -1;
    if (depth < 1 || depth > ORDERBOOK_DEPTH_MAX)
      return deployedFailure(400, 'invalid_depth', `depth must be a whole number from 1 to ${ORDERBOOK_DEPTH_MAX}`);
    return { coin: input.params['coin'] ?? '', depth };
  },
  run: (_context, { coin, depth }) => {
    const market = marketOfCoin(coin);
    return market === undefined
      ? deployedFailure(404, 'market_not_found', `Market ${coin.slice(0, 64)} not found`)
      : succeed({ market, depth });
  },
  successStatus: 200,
  render: ({ market, depth }, context) => {
    const quote = context.platform.trading.quote(market, context.nowMs);
    return {
      coin: coinOf(market),
      ticker: market.symbol,
      bids: bookSide(quote, depth, 'bid'),
      asks: bookSide(quote, depth, 'ask'),
      mid: priceNumber(quote.mid),
      spread: priceNumber(quote.ask - quote.bid),
      depth,
      timestamp: context.nowMs,
      source: 'derived-from-quote',
    };
  },
});

export const deployedTradingRiskRoutes: readonly Route[] = [
  triggerRoute('stop-loss'),
  triggerRoute('take-profit'),
  checkLimits,
  readSettings,
  writeSettings,
  orderbook,
];
