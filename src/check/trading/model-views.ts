/**
 * The trading views in the check model: A GET /api/v1/positions and B GET /trading-api/portfolio,
 * predicted exactly from the marks (mids) of an instant: mark, unrealized PnL = qty × (mark −
 * entry) floored and signed by side, liquidation price (model-positions.ts), size = qty × entry
 * (down); the portfolio's balance, margin, holds, unrealized PnL, spot value (qty × mid, down),
 * equity and spot rows. A view command reads the marks from the wire first; after time moves the
 * marks come from the price oracle (model-prices.ts) and the prediction is the same.
 */
import type { CheckModel, CheckStyle } from '../check-model.ts';
import { eq, list, money, object, type Matcher, type Prediction } from '../expectation.ts';
import { liquidationPriceOf, unrealizedOf } from './model-positions.ts';
import { NOTIONAL_DIVISOR, openOrdersOf, scaledMatcher, tradingMoney } from './model-trading.ts';
import { marketAt, type ModelPosition } from './trading-state.ts';

/** Mids read from the wire at the instant of a view, by market index. */
export type Marks = ReadonlyMap<number, bigint>;

function markOf(marks: Marks, market: number): bigint {
  const mark = marks.get(market);
  if (mark === undefined) throw new Error(`the view read no quote of market ${market}`);
  return mark;
}

function positionFields(
  model: Readonly<CheckModel>,
  style: CheckStyle,
  position: ModelPosition,
  marks: Marks,
): Matcher {
  const market = marketAt(position.market);
  const mark = markOf(marks, position.market);
  return object({
    ...(style === 'A'
      ? { symbol: eq(market.symbol), mark_price: scaledMatcher('A', mark) }
      : { pair: eq(market.pair), market_type: eq('perp'), current_price: scaledMatcher('B', mark) }),
    side: eq(position.side),
    [style === 'A' ? 'size' : 'amount']: money(style, (position.qty * position.entry) / NOTIONAL_DIVISOR),
    qty: scaledMatcher(style, position.qty),
    entry_price: scaledMatcher(style, position.entry),
    unrealized_pnl: money(style, unrealizedOf(position, mark)),
    margin: money(style, position.marginMicro),
    leverage: eq(position.leverage),
    liquidation_price: scaledMatcher(style, liquidationPriceOf(model, position)),
  });
}

/** The markets a view must quote first: those of the slot's positions (and, for B, its holdings). */
export function viewMarkets(model: Readonly<CheckModel>, slot: number, withHoldings: boolean): number[] {
  const markets = new Set<number>();
  for (const position of model.trading.positions) if (position.slot === slot) markets.add(position.market);
  if (withHoldings)
    for (const holding of model.trading.holdings)
      if (holding.slot === slot && holding.qty > 0n) markets.add(holding.market);
  return [...markets].sort((a, b) => a - b);
}

/** GET /api/v1/positions (A): the caller's open positions in opening order, valued at the marks. */
export function predictPositions(model: Readonly<CheckModel>, slot: number, marks: Marks): Prediction {
  const mine = model.trading.positions.filter((position) => position.slot === slot);
  return {
    expected: {
      status: 200,
      body: {
        count: eq(mine.length),
        positions: list(mine.map((position) => positionFields(model, 'A', position, marks))),
      },
    },
  };
}

/** GET /trading-api/portfolio (B): balance, margin, holds, unrealized PnL, spot value, equity, positions, holdings. */
export function predictPortfolio(model: Readonly<CheckModel>, slot: number, marks: Marks): Prediction {
  const agent = model.agents[slot];
  const balanceMicro = agent?.balanceMicro ?? 0n;
  const { marginMicro, heldMicro } = tradingMoney(model, slot);
  const mine = model.trading.positions.filter((position) => position.slot === slot);
  const unrealizedMicro = mine.reduce(
    (sum, position) => sum + unrealizedOf(position, markOf(marks, position.market)),
    0n,
  );
  const held = model.trading.holdings.filter((holding) => holding.slot === slot && holding.qty > 0n);
  const valued = held.map((holding) => ({
    holding,
    mark: markOf(marks, holding.market),
    valueMicro: (holding.qty * markOf(marks, holding.market)) / NOTIONAL_DIVISOR,
  }));
  const spotValueMicro = valued.reduce((sum, item) => sum + item.valueMicro, 0n);
  return {
    expected: {
      status: 200,
      body: {
        balance: money('B', balanceMicro),
        margin_used: money('B', marginMicro),
        held_for_orders: money('B', heldMicro),
        unrealized_pnl: money('B', unrealizedMicro),
        spot_value: money('B', spotValueMicro),
        equity: money('B', balanceMicro + marginMicro + heldMicro + unrealizedMicro + spotValueMicro),
        open_orders: eq(openOrdersOf(model, slot).length),
        positions: list(mine.map((position) => positionFields(model, 'B', position, marks))),
        spot: list(
          valued.map(({ holding, mark, valueMicro }) =>
            object({
              pair: eq(marketAt(holding.market).pair),
              market_type: eq('spot'),
              qty: scaledMatcher('B', holding.qty),
              reserved_qty: scaledMatcher('B', holding.reservedQty),
              entry_price: scaledMatcher('B', (holding.costMicro * NOTIONAL_DIVISOR) / holding.qty),
              current_price: scaledMatcher('B', mark),
              value: money('B', valueMicro),
              unrealized_pnl: money('B', valueMicro - holding.costMicro),
            }),
          ),
        ),
      },
    },
  };
}
