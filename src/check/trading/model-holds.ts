/**
 * What a resting limit order holds in the check model, and how the hold is taken and given back.
 * A perpetual holds margin + maker fee (up) of the balance, a spot buy size + maker fee, a spot
 * sell reserves its quantity (size / limit, up) of the free holding. One shape (funds and units)
 * covers both kinds, so placing (model-orders.ts), cancelling and filling at the limit
 * (model-limit-book.ts) take and return it the same way.
 */
import { assert } from '../../core/assert.ts';
import { basisPoints, type Micro } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import { ceilDiv, holdingOf, modelMarginFor, NOTIONAL_DIVISOR } from './model-trading.ts';
import { marketAt, type ModelHolding, type ModelOrder } from './trading-state.ts';
import type { OrderSide } from '../../services/trading/trading-record.ts';

/** Funds taken from the balance and units reserved of a spot holding while an order rests. */
export interface RestingHold {
  readonly holdMicro: Micro;
  readonly holdQty: bigint;
}

/** The hold of a limit order resting at `limitPrice`. */
export function restingHold(
  model: Readonly<CheckModel>,
  order: { market: number; side: OrderSide; amountMicro: Micro; leverage: number },
  limitPrice: bigint,
): RestingHold {
  const makerFeeMicro = basisPoints(order.amountMicro, model.config.trading.makerFeeBps, 'up');
  if (marketAt(order.market).kind === 'perp')
    return { holdMicro: modelMarginFor(order.amountMicro, order.leverage) + makerFeeMicro, holdQty: 0n };
  if (order.side === 'sell')
    return { holdMicro: 0n, holdQty: ceilDiv(order.amountMicro * NOTIONAL_DIVISOR, limitPrice) };
  return { holdMicro: order.amountMicro + makerFeeMicro, holdQty: 0n };
}

/** The units of the slot's spot holding not reserved by its resting sells. */
export function freeQtyOf(model: Readonly<CheckModel>, slot: number, market: number): bigint {
  const holding = holdingOf(model, slot, market);
  return holding === undefined ? 0n : holding.qty - holding.reservedQty;
}

/** Whether the slot has what the hold takes (its balance, the free units of its holding). */
export function holdFits(model: Readonly<CheckModel>, slot: number, market: number, hold: RestingHold): boolean {
  const agent = model.agents[slot];
  assert(agent !== undefined, `a hold is an agent's (a${slot})`);
  return agent.balanceMicro >= hold.holdMicro && freeQtyOf(model, slot, market) >= hold.holdQty;
}

/** Takes the hold: funds out of the balance, units reserved of the holding. */
export function takeHold(model: CheckModel, slot: number, market: number, hold: RestingHold): void {
  const agent = model.agents[slot];
  assert(agent !== undefined, `a hold is an agent's (a${slot})`);
  agent.balanceMicro -= hold.holdMicro;
  if (hold.holdQty > 0n) ensureHolding(model, slot, market).reservedQty += hold.holdQty;
}

/** Returns a resting order's hold (funds, or reserved units of a spot sell) to its agent. */
export function releaseHold(model: CheckModel, order: ModelOrder): void {
  const agent = model.agents[order.slot];
  assert(agent !== undefined, `an order is an agent's (a${order.slot})`);
  agent.balanceMicro += order.holdMicro;
  const holding = holdingOf(model, order.slot, order.market);
  if (holding !== undefined) holding.reservedQty -= order.holdQty;
  order.holdMicro = 0n;
  order.holdQty = 0n;
}

/** The slot's holding of the market, created empty on first use. */
export function ensureHolding(model: CheckModel, slot: number, market: number): ModelHolding {
  const found = holdingOf(model, slot, market);
  if (found !== undefined) return found;
  const created: ModelHolding = { slot, market, qty: 0n, reservedQty: 0n, costMicro: 0n };
  model.trading.holdings.push(created);
  return created;
}
