/**
 * The deployed trading service's trade rows (spec/DEPLOYED.md §5) over afp's TradingService:
 *   POST   /v1/trade/open  { coin, side: long|short, size_usd, leverage? } → position (`status: open`)
 *   POST   /v1/trade/close { position_id } → `exit_price`, `pnl`, `pnl_percent`, `status: closed`
 *   POST   /v1/trade/limit { coin, side, size_usd, limit_price, leverage? } → 201 `status: pending`
 *   GET    /v1/trade/limit-orders, DELETE /v1/trade/limit-orders/:id
 *   GET    /v1/trade/positions, /v1/trade/history?limit=, /v1/trade/portfolio
 * afp's model stays (docs/decisions/deployed-dialect.md "Deployed dialect: trading"): fees are afp's (taker 0.2% on
 * open and close, maker 0.1% on a resting limit fill), positions are netted per (agent, market),
 * liquidation runs. The deployment's rules on input: leverage default 5, a number ≥ 1, floored,
 * clamped to the market's maximum in afp (10 at most); `size_usd` over 10 000 → 400
 * `position_too_large`, below afp's 1 USDC minimum → 400 `invalid_size`. Refusals in the
 * deployment's names: a short balance 400 `insufficient_balance`, a closed market 400
 * `trade_failed`, another agent's position or order 403 `forbidden`.
 */
import { assert } from '../../../core/assert.ts';
import { isFailure, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { agentAccount } from '../../../core/ledger.ts';
import type { Micro } from '../../../core/money.ts';
import type { Market } from '../../../services/trading/market-catalogue.ts';
import { marginFor } from '../../../services/trading/perp-math.ts';
import {
  tradingHoldAccount,
  marginAccount,
  type OrderRecord,
  type PositionRecord,
  type PositionSide,
} from '../../../services/trading/trading-record.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { queryLimit, requiredAmount } from '../../validate.ts';
import { parsePrice } from '../trading/trading-parse.ts';
import {
  closedPositionRow,
  limitOrderRow,
  marketOfCoin,
  openPositionRow,
  priceNumber,
  sizeUsdOf,
} from './trading-view.ts';

export const LEVERAGE_DEFAULT = 5;
export const POSITION_USD_MAX_MICRO = 10_000_000_000n;
export const HISTORY_LIMIT_DEFAULT = 50;
export const HISTORY_LIMIT_MAX = 100;
const PENDING_LIST_MAX = 100;

function callerId(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

function fieldsOf(body: unknown): Record<string, unknown> {
  return (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
}

/** afp refusals in the deployment's names (a Failure already named passes as is). */
function tradeRefusal(failure: Failure): Failure {
  if (failure.extra?.['error'] !== undefined) return failure;
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'FORBIDDEN') return renamed(failure, 'forbidden', 403);
  if (failure.code === 'NOT_FOUND') return renamed(failure, 'not_found', 404);
  // A closed market, a refused order size, any other refusal of the trade: the deployment's catch-all.
  return renamed(failure, 'trade_failed', 400);
}

interface TradeInput {
  readonly market: Market;
  readonly side: PositionSide;
  readonly sizeMicro: Micro;
  readonly leverage: number;
  readonly limitPrice: bigint | null;
}

function parseTrade(input: RouteInput, limit: boolean): TradeInput | Failure {
  const fields = fieldsOf(input.body);
  const coin = fields['coin'];
  if (typeof coin !== 'string' || coin.trim() === '')
    return deployedFailure(400, 'invalid_coin', 'coin is required (e.g. BTC)');
  const market = marketOfCoin(coin.trim());
  if (market === undefined)
    return deployedFailure(400, 'invalid_coin', `Unknown coin ${coin.slice(0, 64)}: GET /v1/markets lists them`);
  const side = fields['side'];
  if (side !== 'long' && side !== 'short') return deployedFailure(400, 'invalid_side', 'side must be long or short');
  const sizeMicro = requiredAmount(fields['size_usd'], 'size_usd', 'number');
  if (isFailure(sizeMicro)) return deployedFailure(400, 'invalid_size', sizeMicro.message);
  if (sizeMicro > POSITION_USD_MAX_MICRO)
    return deployedFailure(400, 'position_too_large', 'Maximum position size is $10,000', { max_size_usd: 10_000 });
  if (sizeMicro < 1_000_000n) return deployedFailure(400, 'invalid_size', 'size_usd must be at least 1');
  const rawLeverage = fields['leverage'];
  if (
    rawLeverage !== undefined &&
    rawLeverage !== null &&
    (typeof rawLeverage !== 'number' || !Number.isFinite(rawLeverage) || rawLeverage < 1)
  ) {
    return deployedFailure(400, 'invalid_leverage', 'leverage must be a number of at least 1');
  }
  const leverage = Math.min(
    market.maxLeverage,
    Math.floor(typeof rawLeverage === 'number' ? rawLeverage : LEVERAGE_DEFAULT),
  );
  let limitPrice: bigint | null = null;
  if (limit) {
    const parsed = parsePrice(fields['limit_price'], 'limit_price', 'number');
    if (isFailure(parsed)) return deployedFailure(400, 'invalid_price', parsed.message);
    limitPrice = parsed;
  }
  return { market, side, sizeMicro, leverage, limitPrice };
}

/** Opens or adds to the caller's position on `input.side`; an open position on the other side is refused (close it first). */
function trade(context: RouteContext, input: TradeInput): Outcome<OrderRecord> {
  const agentId = callerId(context);
  const trading = context.platform.trading;
  const other = trading.book.openPosition(agentId, input.market.symbol);
  if (other !== undefined && other.side !== input.side) {
    return deployedFailure(
      400,
      'trade_failed',
      `You hold a ${other.side} position on this coin (${other.id}): close it first with POST /v1/trade/close`,
    );
  }
  // The agent's own risk settings (trading-risk.ts): its leverage ceiling, its daily loss limit.
  if (trading.risk.lossLimitReached(agentId, context.nowMs))
    return deployedFailure(
      403,
      'daily_loss_limit_reached',
      'Your daily loss limit is reached: new positions open again after 00:00 UTC (GET /v1/trade/risk-settings)',
    );
  const leverage = Math.min(input.leverage, trading.risk.settingsOf(agentId).maxLeverage);
  const command = {
    agentId,
    symbol: input.market.symbol,
    side: input.side === 'long' ? ('buy' as const) : ('sell' as const),
    type: input.limitPrice === null ? ('market' as const) : ('limit' as const),
    amountMicro: input.sizeMicro,
    leverage,
    limitPrice: input.limitPrice,
  };
  const placed = trading.place(command, context.nowMs);
  return placed.ok ? placed : tradeRefusal(placed);
}

const open = deployedRoute<TradeInput, OrderRecord>({
  id: 'trading.deployed.open',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Open (or add to) a perpetual position at the market ({ coin, side, size_usd, leverage? }).',
  parse: (input) => parseTrade(input, false),
  run: (context, input) => trade(context, input),
  successStatus: 200,
  render: (order, context) => {
    const trading = context.platform.trading;
    const position = trading.book.openPosition(order.agentId, order.symbol);
    assert(position !== undefined && order.fillPrice !== null, 'a filled open leaves an open position');
    return {
      ...openPositionRow(trading.view(position, context.nowMs), order.feeMicro),
      order_id: order.id,
      size_usd: moneyA(order.amountMicro),
      entry_price: priceNumber(order.fillPrice),
      position_size_usd: moneyA(sizeUsdOf(position)),
    };
  },
});

const close = deployedRoute<string, { order: OrderRecord; position: PositionRecord }>({
  id: 'trading.deployed.close',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Close a whole position at the market ({ position_id }).',
  parse: (input) => {
    const id = fieldsOf(input.body)['position_id'];
    return typeof id === 'string' && id.trim() !== '' && id.length <= 128
      ? id.trim()
      : deployedFailure(400, 'invalid_request', 'position_id is required');
  },
  run: (context, positionId) => {
    const closed = context.platform.trading.closePosition({ agentId: callerId(context), positionId }, context.nowMs);
    if (closed.ok) return closed;
    if (closed.code === 'NOT_FOUND') return renamed(closed, 'position_not_found', 404);
    if (closed.code === 'CONFLICT') return renamed(closed, 'position_not_open', 400);
    return tradeRefusal(closed);
  },
  successStatus: 200,
  render: ({ order, position }, context) => ({
    ...closedPositionRow(position, marginFor(sizeUsdOf(position), position.leverage)),
    order_id: order.id,
    fee: moneyA(order.feeMicro),
    balance_usd: moneyA(context.platform.ledger.balance(agentAccount(position.agentId))),
  }),
});

const limitOrder = deployedRoute<TradeInput, OrderRecord>({
  id: 'trading.deployed.limit',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary:
    'Place a limit order ({ coin, side, size_usd, limit_price, leverage? }): pending until the price crosses it.',
  parse: (input) => parseTrade(input, true),
  run: (context, input) => trade(context, input),
  successStatus: 201,
  render: (order) => limitOrderRow(order),
});

const pendingOrders = deployedRoute<null, readonly OrderRecord[]>({
  id: 'trading.deployed.limit-orders',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your pending limit orders.',
  parse: () => null,
  run: (context) =>
    context.platform.trading.list({
      agentId: callerId(context),
      status: 'open',
      symbols: null,
      limit: PENDING_LIST_MAX,
    }),
  successStatus: 200,
  render: (orders) => ({ orders: orders.map(limitOrderRow), count: orders.length }),
});

const cancelOrder = deployedRoute<string, OrderRecord>({
  id: 'trading.deployed.limit-cancel',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Cancel a pending limit order (its hold returns).',
  parse: (input) => input.params['id'] ?? '',
  run: (context, orderId) => {
    const cancelled = context.platform.trading.cancel({ agentId: callerId(context), orderId }, context.nowMs);
    if (cancelled.ok) return cancelled;
    if (cancelled.code === 'NOT_FOUND') return renamed(cancelled, 'order_not_found', 404);
    if (cancelled.code === 'CONFLICT') return renamed(cancelled, 'order_not_pending', 400);
    return tradeRefusal(cancelled);
  },
  successStatus: 200,
  render: (order) => ({ ...limitOrderRow(order), message: 'Limit order cancelled.' }),
});

const positions = deployedRoute<null, null>({
  id: 'trading.deployed.positions',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your open positions with mark price and unrealized PnL.',
  parse: () => null,
  run: () => succeed(null),
  successStatus: 200,
  render: (_nothing, context) => {
    const views = context.platform.trading.positions(callerId(context), context.nowMs);
    return { positions: views.map((view) => openPositionRow(view, null)), count: views.length };
  },
});

const history = deployedRoute<number, number>({
  id: 'trading.deployed.history',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your closed positions, newest first (?limit, up to 100).',
  parse: (input) => queryLimit(input.query, HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX),
  run: (_context, limit) => succeed(limit),
  successStatus: 200,
  render: (limit, context) => {
    // Ended positions only: the open ones among the newest are read and skipped.
    const ended = context.platform.trading.book
      .positionsOf(callerId(context), limit + context.platform.trading.book.openPositionsOf(callerId(context)).length)
      .filter((position) => position.status !== 'open')
      .slice(0, limit);
    return {
      trades: ended.map((position) => closedPositionRow(position, marginFor(sizeUsdOf(position), position.leverage))),
      count: ended.length,
    };
  },
});

const portfolio = deployedRoute<null, null>({
  id: 'trading.deployed.portfolio',
  service: 'trading',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your balance, margin in use, unrealized PnL, equity and open positions.',
  parse: () => null,
  run: () => succeed(null),
  successStatus: 200,
  render: (_nothing, context) => {
    const agentId = callerId(context);
    const { ledger, trading } = context.platform;
    const views = trading.positions(agentId, context.nowMs);
    const balance = ledger.balance(agentAccount(agentId));
    const margin = ledger.balance(marginAccount(agentId));
    const held = ledger.balance(tradingHoldAccount(agentId));
    const unrealized = views.reduce((sum, view) => sum + view.unrealizedPnlMicro, 0n);
    return {
      agent_id: agentId,
      balance_usd: moneyA(balance),
      margin_used: moneyA(margin),
      held_for_orders: moneyA(held),
      unrealized_pnl: moneyA(unrealized),
      equity: moneyA(balance + margin + held + unrealized),
      open_positions: views.length,
      pending_orders: trading.book.openOrdersOf(agentId),
      positions: views.map((view) => openPositionRow(view, null)),
    };
  },
});

export const deployedTradingOrderRoutes: readonly Route[] = [
  open,
  close,
  limitOrder,
  pendingOrders,
  cancelOrder,
  positions,
  history,
  portfolio,
];
