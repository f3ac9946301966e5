/**
 * An order as the check model draws it (PlaceInput), its limit price at a quote, and the body its
 * answer must match, per style. Why apart from model-orders.ts: the command file draws orders
 * (PlaceInput, limit kinds) without the predictions, and the predictions read these as data.
 */
import type { Micro } from '../../core/money.ts';
import type { CheckStyle } from '../check-model.ts';
import { eq, money, text, type Matcher } from '../expectation.ts';
import { scaledMatcher } from './model-trading.ts';
import { marketAt, type ModelQuote } from './trading-state.ts';
import type { OrderSide } from '../../services/trading/trading-record.ts';

/** How a limit price is drawn: far from the quote (rests), near it (rests, fills within hours), through it (marketable), or missing (400). */
export type LimitKind = 'far' | 'near' | 'through' | 'missing';

export interface PlaceInput {
  readonly style: CheckStyle;
  readonly slot: number;
  /** An index of TRADING_MARKETS, or 'unknown'. */
  readonly market: number | 'unknown';
  readonly side: OrderSide;
  readonly type: 'market' | 'limit';
  readonly limit: LimitKind;
  readonly amountMicro: Micro;
  readonly leverage: number;
}

/**
 * The limit price of a limit order at this quote, at whole cents (exact as a JSON number): far =
 * a fifth of the bid (buy) or five times the ask (sell), a move no run reaches; near = 0.3% below
 * the bid (buy) or above the ask (sell), which the price path crosses within hours; through =
 * twice the ask (buy) or half the bid (sell), so it fills at once at the quote.
 */
export function limitPriceOf(input: PlaceInput, quote: ModelQuote): bigint | null {
  if (input.type !== 'limit' || input.limit === 'missing') return null;
  const cent = 1_000_000n;
  const raw = {
    far: input.side === 'buy' ? quote.bid / 5n : quote.ask * 5n,
    near: input.side === 'buy' ? (quote.bid * 9_970n) / 10_000n : (quote.ask * 10_030n) / 10_000n,
    through: input.side === 'buy' ? quote.ask * 2n : quote.bid / 2n,
  }[input.limit];
  return (raw / cent) * cent;
}

/** The body fields of an order answer, per style (a perpetual's A side is long/short, spot's buy/sell). */
export function orderBody(
  style: CheckStyle,
  input: PlaceInput,
  fields: {
    status: string;
    limitPrice: bigint | null;
    fillPrice: bigint | null;
    fillQty: bigint | null;
    feeMicro: Micro;
    pnlMicro: Micro;
  },
): Record<string, Matcher> {
  const market = marketAt(input.market);
  const common = {
    order_id: text(),
    status: eq(fields.status),
    type: eq(input.type),
    leverage: eq(input.leverage),
    price: scaledMatcher(style, fields.limitPrice),
    fill_qty: scaledMatcher(style, fields.fillQty),
  };
  if (style === 'A') {
    const side = market.kind === 'spot' ? input.side : input.side === 'buy' ? 'long' : 'short';
    return {
      ...common,
      symbol: eq(market.symbol),
      side: eq(side),
      size: money('A', input.amountMicro),
      entry_price: scaledMatcher('A', fields.fillPrice),
      fee: money('A', fields.feeMicro),
      realized_pnl: money('A', fields.pnlMicro),
    };
  }
  return {
    ...common,
    pair: eq(market.pair),
    market_type: eq(market.kind),
    side: eq(input.side),
    amount: money('B', input.amountMicro),
    fill_price: scaledMatcher('B', fields.fillPrice),
    fee: money('B', fields.feeMicro),
    realized_pnl: money('B', fields.pnlMicro),
  };
}
