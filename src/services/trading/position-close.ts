/**
 * Closing a whole position at the taker quote, as the agent asks (`POST /v1/trade/close`) or as
 * its stop-loss or take-profit fires at a tick, and setting those triggers. Why a file of its own:
 * a close is one order with its own checks (owner, open, market open) and its own fee rule (never
 * more than the balance left); the trigger is the same close, asked for ahead of time.
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import { agentAccount } from '../../core/ledger.ts';
import { accrueFeeShares } from '../shared/referral-programme.ts';
import { marketBySymbol } from './market-catalogue.ts';
import { chargeOrderFee, newOrder } from './order-fills.ts';
import { feeFor, pnlMicro } from './perp-math.ts';
import { settleClose } from './position-settlement.ts';
import { triggerCrossed, type TriggerKind, type TriggerRecord } from './position-triggers.ts';
import { formatPrice, notionalMicro } from './price-scale.ts';
import type { TradingDesk } from './trading-desk.ts';
import { emitOrder } from './trading-events.ts';
import type { OrderRecord, PositionRecord } from './trading-record.ts';

/** Closes the whole of one open position at the taker quote (TradingService.closePosition; a fired trigger). */
export function closePositionAt(
  desk: TradingDesk,
  command: { agentId: string; positionId: string },
  nowMs: number,
): Outcome<{ order: OrderRecord; position: PositionRecord }> {
  const record = desk.book.position(command.positionId);
  if (record === undefined) return fail('NOT_FOUND', `position ${command.positionId} not found`);
  if (record.agentId !== command.agentId)
    return fail('FORBIDDEN', 'only the agent that holds this position may close it');
  const position = desk.book.openPosition(record.agentId, record.symbol);
  if (record.status !== 'open' || position === undefined || position.id !== record.id)
    return fail('CONFLICT', `position is already ${record.status}`);
  const market = marketBySymbol(position.symbol);
  assert(market !== undefined, 'a position names a listed market');
  if (!desk.prices.isOpen(market, nowMs))
    return fail('MARKET_CLOSED', `market ${market.symbol} is not accepting orders`);
  const quote = desk.prices.quote(market, nowMs);
  const price = position.side === 'long' ? quote.bid : quote.ask;
  const amountMicro = notionalMicro(position.qty, price, 'down');
  const order = newOrder(
    desk,
    {
      agentId: position.agentId,
      symbol: position.symbol,
      side: position.side === 'long' ? 'sell' : 'buy',
      type: 'market',
      amountMicro,
      leverage: position.leverage,
      limitPrice: null,
    },
    market,
    nowMs,
  );
  const pnl = pnlMicro(position.side, position.qty, position.entryPrice, price);
  const qty = position.qty;
  settleClose(desk, position, {
    closeQty: qty,
    released: position.marginMicro,
    pnl,
    price,
    reference: order.id,
    nowMs,
  });
  order.realizedPnlMicro = pnl;
  const available = desk.context.ledger.balance(agentAccount(order.agentId));
  const fee = feeFor(amountMicro, desk.config.takerFeeBps);
  chargeOrderFee(desk, order, fee < available ? fee : available);
  order.fillQty = qty;
  order.fillPrice = price;
  order.liquidity = 'taker';
  order.filledAtMs = nowMs;
  order.status = 'filled';
  desk.book.addOrder(order);
  accrueFeeShares(desk.context, {
    service: 'trading',
    payerId: order.agentId,
    feeMicro: order.feeMicro,
    reference: order.id,
  });
  emitOrder(desk.context, order, nowMs);
  return succeed({ order, position });
}

/**
 * Sets (or replaces) the stop-loss or take-profit of an open position (position-triggers.ts).
 * Owner only (403), unknown position 404, ended 409; a price the mark is already at or through
 * is refused 400 (it would fire at once: close the position instead).
 */
export function setPositionTrigger(
  desk: TradingDesk,
  command: { agentId: string; positionId: string; kind: TriggerKind; triggerPrice: bigint },
  nowMs: number,
): Outcome<TriggerRecord> {
  const record = desk.book.position(command.positionId);
  if (record === undefined) return fail('NOT_FOUND', `position ${command.positionId} not found`);
  if (record.agentId !== command.agentId)
    return fail('FORBIDDEN', 'only the agent that holds this position may set its triggers');
  if (record.status !== 'open') return fail('CONFLICT', `position is already ${record.status}`);
  if (command.triggerPrice <= 0n) return fail('BAD_REQUEST', 'trigger price must be positive');
  const market = marketBySymbol(record.symbol);
  assert(market !== undefined, 'a position names a listed market');
  const mark = desk.prices.mid(market, nowMs);
  if (triggerCrossed({ kind: command.kind, side: record.side, triggerPrice: command.triggerPrice }, mark)) {
    const where = (command.kind === 'stop-loss') === (record.side === 'long') ? 'below' : 'above';
    return fail(
      'BAD_REQUEST',
      `a ${record.side} position's ${command.kind} must be ${where} the mark price ${formatPrice(mark)}`,
    );
  }
  const replaced = desk.triggers.pendingOfKind(record.id, command.kind);
  if (replaced !== undefined) {
    desk.triggers.end(replaced.id, nowMs, { cancelled: 'replaced' });
    desk.context.emit({
      type: 'trading.trigger-cancelled',
      atMs: nowMs,
      triggerId: replaced.id,
      positionId: record.id,
      agentId: record.agentId,
      cause: 'replaced',
    });
  }
  const trigger = desk.triggers.add({
    id: desk.context.ids.next('trg_', 16),
    agentId: record.agentId,
    positionId: record.id,
    symbol: record.symbol,
    kind: command.kind,
    side: record.side,
    triggerPrice: command.triggerPrice,
    createdAtMs: nowMs,
  });
  desk.context.emit({
    type: 'trading.trigger-set',
    atMs: nowMs,
    triggerId: trigger.id,
    positionId: record.id,
    agentId: record.agentId,
    symbol: record.symbol,
    kind: trigger.kind,
    triggerPrice: formatPrice(trigger.triggerPrice),
  });
  desk.armSoon(nowMs);
  return succeed(trigger);
}

/** Pending triggers whose mark is at or through them at this tick close their position (open markets only). */
export function fireTriggers(desk: TradingDesk, atMs: number): void {
  for (const trigger of desk.triggers.pendingList()) {
    if (desk.triggers.trigger(trigger.id)?.status !== 'pending') continue;
    const market = marketBySymbol(trigger.symbol);
    assert(market !== undefined, 'a trigger names a listed market');
    const mark = desk.prices.mid(market, atMs);
    if (!desk.prices.isOpen(market, atMs) || !triggerCrossed(trigger, mark)) continue;
    desk.triggers.end(trigger.id, atMs, { fired: mark });
    const closed = closePositionAt(desk, { agentId: trigger.agentId, positionId: trigger.positionId }, atMs);
    assert(closed.ok, 'a pending trigger names an open position on an open market');
    desk.context.emit({
      type: 'trading.trigger-fired',
      atMs,
      triggerId: trigger.id,
      positionId: trigger.positionId,
      agentId: trigger.agentId,
      symbol: trigger.symbol,
      kind: trigger.kind,
      triggerPrice: formatPrice(trigger.triggerPrice),
      markPrice: formatPrice(mark),
      exitPrice: formatPrice(closed.value.order.fillPrice ?? mark),
    });
  }
}
