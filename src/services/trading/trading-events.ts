/**
 * The events trading emits about orders and liquidations (`trading.order`, `trading.cancelled`,
 * `trading.liquidated`), each from its record. Why a file of its own: an event's fields are the
 * run's public record (reports and digests read them); the service, the fills and the settlement
 * all emit them the same way.
 */
import type { Micro } from '../../core/money.ts';
import type { ServiceContext } from '../shared/context.ts';
import { formatPrice } from './price-scale.ts';
import type { OrderRecord, PositionRecord } from './trading-record.ts';

export function emitOrder(context: ServiceContext, order: OrderRecord, atMs: number): void {
  context.emit({
    type: 'trading.order',
    atMs,
    orderId: order.id,
    agentId: order.agentId,
    symbol: order.symbol,
    side: order.side,
    orderType: order.type,
    status: order.status,
    amountMicro: order.amountMicro,
    feeMicro: order.feeMicro,
    fillPrice: order.fillPrice === null ? null : formatPrice(order.fillPrice),
  });
}

export function emitCancelled(
  context: ServiceContext,
  order: OrderRecord,
  cause: 'agent' | 'unfundable',
  atMs: number,
): void {
  context.emit({
    type: 'trading.cancelled',
    atMs,
    orderId: order.id,
    agentId: order.agentId,
    symbol: order.symbol,
    cause,
  });
}

/** `held`: the margin the position held; `shortfall`: the loss beyond it, which the insurance fund covers. */
export function emitLiquidated(
  context: ServiceContext,
  position: PositionRecord,
  at: { mark: bigint; held: Micro; shortfall: Micro },
  atMs: number,
): void {
  context.emit({
    type: 'trading.liquidated',
    atMs,
    positionId: position.id,
    agentId: position.agentId,
    symbol: position.symbol,
    markPrice: formatPrice(at.mark),
    marginMicro: at.held,
    shortfallMicro: at.shortfall,
  });
}
