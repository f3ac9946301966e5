/**
 * Spot fills in the check model (BTC-USDC): a buy pays size + fee for qty = size / price (down); a
 * sell needs qty = size / price (up) of the free holding and is paid size − fee; leverage is 1. A
 * holding keeps its units, its reserved units and its cost (a sell takes cost pro rata, down).
 * What a resting spot order holds is in model-holds.ts.
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import { ensureHolding, freeQtyOf } from './model-holds.ts';
import { unrealizedFill, type PerpPlan } from './model-positions.ts';
import { ceilDiv, chargeFee, NOTIONAL_DIVISOR, modelQtyFor } from './model-trading.ts';
import type { OrderSide } from '../../services/trading/trading-record.ts';

/**
 * What a spot fill at `fill.price` does, or why it is refused: a buy of qty = size / price (down)
 * pays size + fee (400 when it buys nothing, 422 without the funds); a sell of qty = size / price
 * (up) needs that much of the free holding (422) and is paid size, then charged the fee.
 */
export function planSpotFill(
  model: CheckModel,
  fill: { slot: number; market: number; side: OrderSide; amountMicro: Micro; price: bigint; feeMicro: Micro },
): PerpPlan {
  const agent = model.agents[fill.slot];
  assert(agent !== undefined, `a fill is an agent's (a${fill.slot})`);
  const buy = fill.side === 'buy';
  const qty = buy
    ? modelQtyFor(fill.amountMicro, fill.price)
    : ceilDiv(fill.amountMicro * NOTIONAL_DIVISOR, fill.price);
  if (buy && qty <= 0n) return { kind: 'refused', status: 400 };
  if (buy ? agent.balanceMicro < fill.amountMicro + fill.feeMicro : freeQtyOf(model, fill.slot, fill.market) < qty)
    return { kind: 'refused', status: 422 };
  return unrealizedFill(qty, fill.feeMicro, () => {
    const holding = ensureHolding(model, fill.slot, fill.market);
    agent.balanceMicro += buy ? -fill.amountMicro : fill.amountMicro;
    chargeFee(model, fill.slot, fill.feeMicro);
    if (buy) holding.costMicro += fill.amountMicro;
    else holding.costMicro -= (holding.costMicro * qty) / holding.qty;
    holding.qty += buy ? qty : -qty;
  });
}
