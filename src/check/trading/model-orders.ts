/**
 * Orders in the check model: placing (A POST /api/v1/orders, B POST /trading-api/order), cancel
 * and the B order list, predicted from the quote read from the wire at the same instant.
 * A market order (or a limit already marketable) fills at once at the ask (buy) or bid (sell) as a
 * taker (fee = size × 0.2%, up): perpetuals through model-positions.ts, spot through
 * model-spot.ts. A limit that is not marketable rests and holds margin + maker fee (perpetual; spot
 * in model-spot.ts); it fills later at its limit, at the tick the quote crosses it
 * (model-limit-book.ts); cancel (owner only, open only) returns the hold.
 * Refusals in precedence order: unknown market, a limit without price, leverage outside 1..10
 * (spot: not 1), size outside 1..1,000,000 (400); closed market (409 MARKET_CLOSED); funds (422);
 * cancel of an unknown (404), a foreign (403) or a closed order (409); list limit over 100 (400).
 */
import { basisPoints } from '../../core/money.ts';
import type { CheckModel, Style } from '../check-model.ts';
import { eq, failure, list, money, object, time, type Matcher, type Prediction } from '../expectation.ts';
import { limitPriceOf, orderBody, type PlaceInput } from './model-order-body.ts';
import { planPerpFill } from './model-positions.ts';
import { predictSpotPlace } from './model-spot.ts';
import {
  holdingOf,
  marginFor,
  marketAt,
  marketOpen,
  openOrdersOf,
  scaledMatcher,
  type ModelOrder,
  type Quote,
} from './model-trading.ts';

/** POST /api/v1/orders (A) or /trading-api/order (B), predicted from the quote read at the same instant. */
export function predictPlace(model: CheckModel, input: PlaceInput, quote: Quote | null): Prediction {
  const rules = model.config.trading;
  if (input.market === 'unknown' || quote === null) return failure(400, 'BAD_REQUEST');
  if (input.type === 'limit' && input.limit === 'missing') return failure(400, 'BAD_REQUEST');
  const leverageMax = marketAt(input.market).kind === 'spot' ? 1 : rules.leverageMax;
  if (!Number.isSafeInteger(input.leverage) || input.leverage < 1 || input.leverage > leverageMax)
    return failure(400, 'BAD_REQUEST');
  if (input.amountMicro < rules.orderMinMicro || input.amountMicro > rules.orderMaxMicro)
    return failure(400, 'BAD_REQUEST');
  const agent = model.agents[input.slot];
  if (agent === undefined) return failure(401, 'UNAUTHORIZED');
  const market = input.market;
  if (!marketOpen(model, market, model.nowMs)) return failure(409, 'MARKET_CLOSED');
  if (marketAt(market).kind === 'spot') return predictSpotPlace(model, { ...input, market }, quote);
  const limitPrice = limitPriceOf(input, quote);
  const takerPrice = input.side === 'buy' ? quote.ask : quote.bid;
  const marketable =
    limitPrice === null || (input.side === 'buy' ? takerPrice <= limitPrice : takerPrice >= limitPrice);
  if (!marketable) {
    if (limitPrice === null) return failure(400, 'BAD_REQUEST');
    if (openOrdersOf(model, input.slot).length >= rules.openOrdersPerAgentMax) return failure(400, 'BAD_REQUEST');
    const holdMicro =
      marginFor(input.amountMicro, input.leverage) + basisPoints(input.amountMicro, rules.makerFeeBps, 'up');
    if (agent.balanceMicro < holdMicro) return failure(422, 'INSUFFICIENT_BALANCE');
    return {
      expected: {
        status: 201,
        body: orderBody(input.style, input, {
          status: 'open',
          limitPrice,
          fillPrice: null,
          fillQty: null,
          feeMicro: 0n,
          pnlMicro: 0n,
        }),
      },
      commit: (body) => {
        agent.balanceMicro -= holdMicro;
        model.trading.orders.push({
          id: String(body['order_id']),
          slot: input.slot,
          market,
          side: input.side,
          amountMicro: input.amountMicro,
          leverage: input.leverage,
          limitPrice,
          status: 'open',
          holdMicro,
          holdQty: 0n,
        });
      },
    };
  }
  const feeMicro = basisPoints(input.amountMicro, rules.takerFeeBps, 'up');
  const plan = planPerpFill(model, {
    slot: input.slot,
    market,
    side: input.side,
    amountMicro: input.amountMicro,
    leverage: input.leverage,
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
        feeMicro: plan.feeMicro,
        pnlMicro: plan.pnlMicro,
      }),
    },
    commit: (body) => {
      plan.apply();
      model.trading.orders.push({
        id: String(body['order_id']),
        slot: input.slot,
        market,
        side: input.side,
        amountMicro: input.amountMicro,
        leverage: input.leverage,
        limitPrice,
        status: 'filled',
        holdMicro: 0n,
        holdQty: 0n,
      });
    },
  };
}

/** An order id no afp order has (afp issues `ord_` + hex), valid in form so it reaches the lookup. */
export const UNKNOWN_ORDER_ID = 'ord_nonexistent_0000';

/** POST /api/v1/orders/:id/cancel (A) or DELETE /trading-api/order/:id (B). */
export function predictCancel(
  model: CheckModel,
  style: Style,
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
      const agent = model.agents[order.slot];
      if (agent !== undefined) agent.balanceMicro += order.holdMicro;
      const holding = holdingOf(model, order.slot, order.market);
      if (holding !== undefined) holding.reservedQty -= order.holdQty;
      order.holdMicro = 0n;
      order.holdQty = 0n;
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
