/**
 * Spot in the check model (BTC-USDC): a buy pays size + taker fee for qty = size / ask (down); a
 * sell needs qty = size / bid (up) of the free holding and is paid size − fee; a resting buy holds
 * size + maker fee, a resting sell reserves its quantity (size / limit, up) and fills later at its
 * limit (model-limit-book.ts); leverage is 1. A holding keeps its units, its reserved units and
 * its cost (a sell takes cost pro rata, down).
 */
import { assert } from '../../core/assert.ts';
import { basisPoints, type Micro } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import { failure, type Prediction } from '../expectation.ts';
import { limitPriceOf, orderBody, type PlaceInput } from './model-order-body.ts';
import type { PerpPlan } from './model-positions.ts';
import {
  ceilDiv,
  chargeFee,
  holdingOf,
  NOTIONAL_DIVISOR,
  openOrdersOf,
  qtyFor,
  type ModelHolding,
  type OrderSide,
  type Quote,
} from './model-trading.ts';

/** A spot order on `input.market` (open, leverage 1, agent known), predicted from the quote. */
export function predictSpotPlace(model: CheckModel, input: PlaceInput & { market: number }, quote: Quote): Prediction {
  const rules = model.config.trading;
  const agent = model.agents[input.slot];
  if (agent === undefined) return failure(401, 'UNAUTHORIZED');
  const market = input.market;
  const limitPrice = limitPriceOf(input, quote);
  const takerPrice = input.side === 'buy' ? quote.ask : quote.bid;
  const marketable =
    limitPrice === null || (input.side === 'buy' ? takerPrice <= limitPrice : takerPrice >= limitPrice);
  const existing = holdingOf(model, input.slot, market);
  const free = existing === undefined ? 0n : existing.qty - existing.reservedQty;
  const push = (
    body: Readonly<Record<string, unknown>>,
    status: 'open' | 'filled',
    holdMicro: Micro,
    holdQty: bigint,
  ): void => {
    model.trading.orders.push({
      id: String(body['order_id']),
      slot: input.slot,
      market,
      side: input.side,
      amountMicro: input.amountMicro,
      leverage: input.leverage,
      limitPrice,
      status,
      holdMicro,
      holdQty,
    });
  };
  if (!marketable && limitPrice !== null) {
    if (openOrdersOf(model, input.slot).length >= rules.openOrdersPerAgentMax) return failure(400, 'BAD_REQUEST');
    const expected = {
      status: 201,
      body: orderBody(input.style, input, {
        status: 'open',
        limitPrice,
        fillPrice: null,
        fillQty: null,
        feeMicro: 0n,
        pnlMicro: 0n,
      }),
    };
    if (input.side === 'sell') {
      const qty = ceilDiv(input.amountMicro * NOTIONAL_DIVISOR, limitPrice);
      if (free < qty) return failure(422, 'INSUFFICIENT_BALANCE');
      return {
        expected,
        commit: (body) => {
          ensureHolding(model, input.slot, market).reservedQty += qty;
          push(body, 'open', 0n, qty);
        },
      };
    }
    const holdMicro = input.amountMicro + basisPoints(input.amountMicro, rules.makerFeeBps, 'up');
    if (agent.balanceMicro < holdMicro) return failure(422, 'INSUFFICIENT_BALANCE');
    return {
      expected,
      commit: (body) => {
        agent.balanceMicro -= holdMicro;
        push(body, 'open', holdMicro, 0n);
      },
    };
  }
  const feeMicro = basisPoints(input.amountMicro, rules.takerFeeBps, 'up');
  const plan = planSpotFill(model, {
    slot: input.slot,
    market,
    side: input.side,
    amountMicro: input.amountMicro,
    price: takerPrice,
    feeMicro,
  });
  if (plan.kind === 'refused')
    return plan.status === 400 ? failure(400, 'BAD_REQUEST') : failure(422, 'INSUFFICIENT_BALANCE');
  return {
    expected: {
      status: 201,
      body: orderBody(input.style, input, {
        status: 'filled',
        limitPrice,
        fillPrice: takerPrice,
        fillQty: plan.qty,
        feeMicro,
        pnlMicro: 0n,
      }),
    },
    commit: (body) => {
      plan.apply();
      push(body, 'filled', 0n, 0n);
    },
  };
}

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
  if (fill.side === 'buy') {
    const qty = qtyFor(fill.amountMicro, fill.price);
    if (qty <= 0n) return { kind: 'refused', status: 400 };
    if (agent.balanceMicro < fill.amountMicro + fill.feeMicro) return { kind: 'refused', status: 422 };
    return {
      kind: 'fill',
      qty,
      feeMicro: fill.feeMicro,
      pnlMicro: 0n,
      apply: () => {
        const bought = ensureHolding(model, fill.slot, fill.market);
        agent.balanceMicro -= fill.amountMicro;
        chargeFee(model, fill.slot, fill.feeMicro);
        bought.qty += qty;
        bought.costMicro += fill.amountMicro;
      },
    };
  }
  const qty = ceilDiv(fill.amountMicro * NOTIONAL_DIVISOR, fill.price);
  const existing = holdingOf(model, fill.slot, fill.market);
  const free = existing === undefined ? 0n : existing.qty - existing.reservedQty;
  if (free < qty) return { kind: 'refused', status: 422 };
  return {
    kind: 'fill',
    qty,
    feeMicro: fill.feeMicro,
    pnlMicro: 0n,
    apply: () => {
      const sold = ensureHolding(model, fill.slot, fill.market);
      agent.balanceMicro += fill.amountMicro;
      chargeFee(model, fill.slot, fill.feeMicro);
      sold.costMicro -= (sold.costMicro * qty) / sold.qty;
      sold.qty -= qty;
    },
  };
}

/** The slot's holding of the market, created empty on first use. */
function ensureHolding(model: CheckModel, slot: number, market: number): ModelHolding {
  const found = holdingOf(model, slot, market);
  if (found !== undefined) return found;
  const created: ModelHolding = { slot, market, qty: 0n, reservedQty: 0n, costMicro: 0n };
  model.trading.holdings.push(created);
  return created;
}
