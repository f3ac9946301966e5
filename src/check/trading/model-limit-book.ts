/**
 * Resting limit orders in the check model (spec "limit orders stay open until the price crosses
 * them, then fill at the limit"; docs/decisions/trading.md "Trading"): at every tick, in placement order,
 * an open order on a market that is open at that instant fills when the quote of the tick has
 * crossed its limit (a buy when ask ≤ limit, a sell when bid ≥ limit): its hold returns to the
 * agent, then it fills at its limit as a maker (fee = size × 0.1%, up) through the same fill rules
 * as a taker (model-positions.ts, model-spot.ts). A fill that no longer fits (a flip whose margin
 * the agent lost since) cancels the order, its hold already returned. Runs after the tick's
 * funding and liquidations. Quotes come from the price oracle; the fill is the model's.
 */
import { assert } from '../../core/assert.ts';
import { basisPoints } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import { releaseHold } from './model-holds.ts';
import { planPerpFill } from './model-positions.ts';
import { planSpotFill } from './model-spot.ts';
import { marketOpen } from './model-trading.ts';
import { marketAt } from './trading-state.ts';

/** Fills every open order the quote of tick `atMs` has crossed; `feeCharged` hears of each fee paid. */
export function fillCrossedOrders(model: CheckModel, atMs: number, feeCharged: (atMs: number) => void): void {
  const prices = model.trading.prices;
  assert(prices !== null, 'limit fills are priced by the oracle');
  for (const order of model.trading.orders.filter((placed) => placed.status === 'open')) {
    const limit = order.limitPrice;
    assert(limit !== null, 'an open order is a limit order');
    if (!marketOpen(model, order.market, atMs)) continue;
    const quote = prices.quote(order.market, atMs);
    if (order.side === 'buy' ? quote.ask > limit : quote.bid < limit) continue;
    releaseHold(model, order);
    const fill = {
      slot: order.slot,
      market: order.market,
      side: order.side,
      amountMicro: order.amountMicro,
      price: limit,
      feeMicro: basisPoints(order.amountMicro, model.config.trading.makerFeeBps, 'up'),
    };
    const plan =
      marketAt(order.market).kind === 'spot'
        ? planSpotFill(model, fill)
        : planPerpFill(model, { ...fill, leverage: order.leverage });
    if (plan.kind === 'refused') {
      order.status = 'cancelled';
      continue;
    }
    plan.apply();
    order.status = 'filled';
    if (plan.feeMicro > 0n) feeCharged(atMs);
  }
}
