/**
 * Orders in the check model: placing (A POST /api/v1/orders, B POST /trading-api/order), cancel
 * and the B order list, predicted from the quote read from the wire at the same instant.
 * A market order (or a limit already marketable) fills at once at the ask (buy) or bid (sell) as a
 * taker (fee = size × 0.2%, up): perpetuals through model-positions.ts, spot through
 * model-spot.ts. A limit that is not marketable rests and holds what model-holds.ts says (margin or
 * size, + maker fee; a spot sell its units); it fills later at its limit, at the tick the quote
 * crosses it (model-limit-book.ts); cancel (owner only, open only) returns the hold.
 * Refusals in precedence order: unknown market, a limit without price, leverage outside 1..10
 * (spot: not 1), size outside 1..1,000,000 (400); closed market (409 MARKET_CLOSED); funds (422);
 * cancel of an unknown (404), a foreign (403) or a closed order (409); list limit over 100 (400).
 */
import { basisPoints } from '../../core/money.ts';
import type { CheckModel, CheckStyle } from '../check-model.ts';
import { eq, failure, list, money, object, time, type Matcher, type Prediction } from '../expectation.ts';
import { limitPriceOf, orderBody, type PlaceInput } from './model-order-body.ts';
import { holdFits, releaseHold, restingHold, takeHold, type RestingHold } from './model-holds.ts';
import { planPerpFill } from './model-positions.ts';
import { planSpotFill } from './model-spot.ts';
import { marketOpen, openOrdersOf, scaledMatcher } from './model-trading.ts';
import { marketAt, type ModelOrder, type ModelQuote } from './trading-state.ts';

/** POST /api/v1/orders (A) or /trading-api/order (B), predicted from the quote read at the same instant. */
export function predictPlace(model: CheckModel, input: PlaceInput, quote: ModelQuote | null): Prediction {
  const rules = model.config.trading;
  if (input.market === 'unknown' || quote === null) return failure(400, 'BAD_REQUEST');
  if (input.type === 'limit' && input.limit === 'missing') return failure(400, 'BAD_REQUEST');
  const leverageMax = marketAt(input.market).kind === 'spot' ? 1 : rules.leverageMax;
  if (!Number.isSafeInteger(input.leverage) || input.leverage < 1 || input.leverage > leverageMax)
    return failure(400, 'BAD_REQUEST');
  if (input.amountMicro < rules.orderMinMicro || input.amountMicro > rules.orderMaxMicro)
    return failure(400, 'BAD_REQUEST');
  if (model.agents[input.slot] === undefined) return failure(401, 'UNAUTHORIZED');
  const order = { ...input, market: input.market };
  if (!marketOpen(model, order.market, model.nowMs)) return failure(409, 'MARKET_CLOSED');
  const limitPrice = limitPriceOf(input, quote);
  const takerPrice = input.side === 'buy' ? quote.ask : quote.bid;
  const marketable =
    limitPrice === null || (input.side === 'buy' ? takerPrice <= limitPrice : takerPrice >= limitPrice);
  if (!marketable && limitPrice !== null) {
    if (openOrdersOf(model, input.slot).length >= rules.openOrdersPerAgentMax) return failure(400, 'BAD_REQUEST');
    const hold = restingHold(model, order, limitPrice);
    if (!holdFits(model, order.slot, order.market, hold)) return failure(422, 'INSUFFICIENT_BALANCE');
    const resting = { status: 'open', limitPrice, fillPrice: null, fillQty: null, feeMicro: 0n, pnlMicro: 0n };
    return {
      expected: { status: 201, body: orderBody(input.style, input, resting) },
      commit: (body) => {
        takeHold(model, order.slot, order.market, hold);
        recordOrder(model, { id: String(body['order_id']), order, limitPrice, status: 'open', hold });
      },
    };
  }
  const fill = { ...order, price: takerPrice, feeMicro: basisPoints(input.amountMicro, rules.takerFeeBps, 'up') };
  const plan = marketAt(order.market).kind === 'spot' ? planSpotFill(model, fill) : planPerpFill(model, fill);
  if (plan.kind === 'refused')
    return plan.status === 400 ? failure(400, 'BAD_REQUEST') : failure(422, 'INSUFFICIENT_BALANCE');
  const fields = {
    status: 'filled',
    limitPrice,
    fillPrice: takerPrice,
    fillQty: plan.qty,
    feeMicro: plan.feeMicro,
    pnlMicro: plan.pnlMicro,
  };
  return {
    expected: { status: 201, body: orderBody(input.style, input, fields) },
    commit: (body) => {
      plan.apply();
      recordOrder(model, { id: String(body['order_id']), order, limitPrice, status: 'filled', hold: NO_HOLD });
    },
  };
}

const NO_HOLD: RestingHold = { holdMicro: 0n, holdQty: 0n };

/** Adds a placed order to the model's list, with what it holds while it rests. */
function recordOrder(
  model: CheckModel,
  placed: { id: string; order: PlaceInput & { market: number }; limitPrice: bigint | null } & {
    status: 'open' | 'filled';
    hold: RestingHold;
  },
): void {
  const { order } = placed;
  model.trading.orders.push({
    id: placed.id,
    slot: order.slot,
    market: order.market,
    side: order.side,
    amountMicro: order.amountMicro,
    leverage: order.leverage,
    limitPrice: placed.limitPrice,
    status: placed.status,
    holdMicro: placed.hold.holdMicro,
    holdQty: placed.hold.holdQty,
  });
}

/** An order id no afp order has (afp issues `ord_` + hex), valid in form so it reaches the lookup. */
export const UNKNOWN_ORDER_ID = 'ord_nonexistent_0000';

/** POST /api/v1/orders/:id/cancel (A) or DELETE /trading-api/order/:id (B). */
export function predictCancel(
  model: CheckModel,
  style: CheckStyle,
  callerSlot: number,
  order: ModelOrder | undefined,
): Prediction {
  if (order === undefined) return failure(404, 'NOT_FOUND');
  if (order.slot !== callerSlot) return failure(403, 'FORBIDDEN');
  if (order.status !== 'open') return failure(409, 'CONFLICT');
  const market = marketAt(order.market);
  const side = style === 'A' && market.kind === 'perp' ? eq(order.side === 'buy' ? 'long' : 'short') : eq(order.side);
  const body: Record<string, Matcher> =
    style === 'A'
      ? {
          order_id: eq(order.id),
          status: eq('cancelled'),
          symbol: eq(market.symbol),
          side,
          size: money('A', order.amountMicro),
          price: scaledMatcher('A', order.limitPrice),
          fee: money('A', 0n),
          cancelled_at: time(model.nowMs),
        }
      : {
          order_id: eq(order.id),
          status: eq('cancelled'),
          pair: eq(market.pair),
          side,
          amount: money('B', order.amountMicro),
          price: scaledMatcher('B', order.limitPrice),
          fee: money('B', 0n),
          ts: time(model.nowMs),
        };
  return {
    expected: { status: 200, body },
    commit: () => {
      releaseHold(model, order);
      order.status = 'cancelled';
    },
  };
}

/** GET /trading-api/orders?limit=: the caller's orders newest first, at most `limit` (1..100). */
export function predictListOrders(
  model: Readonly<CheckModel>,
  slot: number,
  limit: number,
  status: 'open' | null,
): Prediction {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > model.config.trading.listLimitMax)
    return failure(400, 'BAD_REQUEST');
  const mine = model.trading.orders
    .filter((order) => order.slot === slot && (status === null || order.status === status))
    .reverse()
    .slice(0, limit);
  return {
    expected: {
      status: 200,
      body: {
        count: eq(mine.length),
        orders: list(
          mine.map((order) =>
            object({ order_id: eq(order.id), status: eq(order.status), amount: money('B', order.amountMicro) }),
          ),
        ),
      },
    },
  };
}
