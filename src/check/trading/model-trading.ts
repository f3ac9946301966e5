/**
 * The trading part of the reference model of `afp check`, written from the wire contract alone
 * (spec/platform.md "Trading", NOTES.md, docs/decisions.md "## Trading"); it never imports the
 * trading service. Prices are a pure function of (seed, asset, tick) in the service: the model
 * does not re-implement that, a command reads the quote from the wire (ticker / price) at the same
 * instant and predicts from it.
 *
 * Rules predicted (perpetuals BTC-PERP and ETH-PERP, spot BTC-USDC): a market order (or a limit already
 * marketable) fills at once at the ask (buy) or bid (sell) with the taker fee (notional × 0.2%,
 * rounded up) and fill_qty = size / price rounded down to 8 decimals; an opening or adding fill
 * debits margin = size / leverage (rounded up) plus the fee; an opposite fill reduces, closes or
 * flips the netted position: the released margin (pro rata, down) returns with the PnL
 * (qty × move, down), a loss beyond the released margin taken from the balance, the fee as far as
 * the balance holds; a flip opens the remainder at the order's leverage. A limit order that is not
 * marketable rests and holds margin + maker fee; cancel (owner only, open only) returns the hold.
 * The referrer's 20% (down) of every fee accrues to its payable (swept as the other services').
 * Spot (model-trading-spot.ts): a buy pays size + taker fee for qty = size / ask (down); a sell
 * needs qty = size / bid (up) of the free holding and is paid size − fee; a resting spot buy holds
 * size + maker fee, a resting sell reserves its quantity (size / limit, up); leverage is 1.
 * Closures: the target's market closures (in-process the platform's, live GET /_afp/platform)
 * refuse orders with 409 MARKET_CLOSED inside [from, until), after the 400s; quotes say `open`.
 * Views: positions and portfolio predicted exactly from the quotes read at the same instant: mark
 * = mid, unrealized PnL = qty × (mark − entry) floored (signed by side), liquidation price
 * entry ∓ margin/qty ± entry × maintenance (at least 0); spot value = qty × mid (down).
 * Refusals: unknown market, leverage outside 1..10 (spot: not 1), a limit without price (400),
 * closed market (409), funds (422), cancel of an unknown (404), a foreign (403) or a closed order
 * (409), list limit over 100 (400).
 * Loose (docs/decisions.md "Trading: check"): funding and liquidation run on ticks the model cannot
 * price; after time moves the model re-reads positions and margins from the wire and checks what
 * the wire lets it check exactly (model-trading-time in command-trading.ts).
 * Non-goals: the 50-open-order cap (a run never reaches it), weekend closures (no check market
 * is a stock or an index), funding_paid (funding is re-read, not predicted).
 */
import { basisPoints, type Micro } from '../../core/money.ts';
import type { CheckModel, Style } from '../check-model.ts';
import { payFeeShares } from '../model-referral.ts';
import { eq, failure, list, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';

export type MarketKind = 'perp' | 'spot';
export interface TradingMarket {
  readonly symbol: string;
  readonly pair: string;
  readonly kind: MarketKind;
}
/** The markets a run trades: two crypto majors as perpetuals (leverage up to 10) and BTC spot. */
export const TRADING_MARKETS: readonly TradingMarket[] = [
  { symbol: 'BTC-PERP', pair: 'BTC-USDC', kind: 'perp' },
  { symbol: 'ETH-PERP', pair: 'ETH-USDC', kind: 'perp' },
  { symbol: 'BTC-USDC', pair: 'BTC-USDC', kind: 'spot' },
];
/** A market nobody lists, valid in form (the 400 answers). */
export const UNKNOWN_MARKET: TradingMarket = { symbol: 'NOPE-PERP', pair: 'NOPE-USDC', kind: 'perp' };

export function marketAt(market: number | 'unknown'): TradingMarket {
  return market === 'unknown' ? UNKNOWN_MARKET : (TRADING_MARKETS[market] ?? UNKNOWN_MARKET);
}

/** Prices and quantities carry 8 decimals; notional = qty × price / 10^10 micro-USDC. */
const SCALE = 100_000_000n;
const NOTIONAL_DIVISOR = 10_000_000_000n;

export type OrderSide = 'buy' | 'sell';
export type PositionSide = 'long' | 'short';

export interface ModelOrder {
  readonly id: string;
  readonly slot: number;
  readonly market: number;
  readonly side: OrderSide;
  readonly amountMicro: Micro;
  readonly leverage: number;
  readonly limitPrice: bigint | null;
  status: 'open' | 'cancelled' | 'filled';
  holdMicro: Micro;
  /** Units of a spot holding reserved by a resting sell. */
  holdQty: bigint;
}

/** A spot holding of (slot, market): units owned, units reserved by resting sells, their cost. */
export interface ModelHolding {
  readonly slot: number;
  readonly market: number;
  qty: bigint;
  reservedQty: bigint;
  costMicro: Micro;
}

/** A window in which a market (or every market, `*`) refuses orders. */
export interface ModelClosure {
  readonly symbol: string;
  readonly fromMs: number;
  readonly untilMs: number;
}

export interface ModelPosition {
  readonly slot: number;
  readonly market: number;
  readonly side: PositionSide;
  qty: bigint;
  entry: bigint;
  marginMicro: Micro;
  leverage: number;
}

export interface TradingModel {
  /** Every order placed in this run, in placing order (filled, open, cancelled). */
  readonly orders: ModelOrder[];
  /** Open positions, in opening order. */
  positions: ModelPosition[];
  /** Positions that disappeared at a tick (liquidated), counted when the model re-read the wire. */
  liquidations: number;
  /** Spot holdings, in first-use order. */
  readonly holdings: ModelHolding[];
  /** The target's market closures, learned when the run starts. */
  readonly closures: readonly ModelClosure[];
}

export function createTradingModel(closures: readonly ModelClosure[] = []): TradingModel {
  return { orders: [], positions: [], liquidations: 0, holdings: [], closures };
}

/** Whether the market accepts orders at `nowMs`: outside every closure window of it (or of `*`). */
export function marketOpen(model: Readonly<CheckModel>, market: number, nowMs: number): boolean {
  const symbol = TRADING_MARKETS[market]?.symbol;
  return !model.trading.closures.some((closure) => (closure.symbol === '*' || closure.symbol === symbol) && nowMs >= closure.fromMs && nowMs < closure.untilMs);
}

/** The closures' edges still ahead: advance-time lands on them exactly and 1 ms either side. */
export function tradingBoundaries(model: Readonly<CheckModel>): number[] {
  return model.trading.closures.flatMap((closure) => [closure.fromMs, closure.untilMs]).filter((ms) => ms > model.nowMs);
}

export interface Quote {
  readonly bid: bigint;
  readonly ask: bigint;
  readonly mid: bigint;
}

/** An 8-decimal price or quantity from the wire (a decimal string, or an A number); null when malformed. */
export function parseScaled(value: unknown): bigint | null {
  const textValue = typeof value === 'number' ? String(value) : value;
  if (typeof textValue !== 'string') return null;
  const match = /^(-?)(\d{1,15})(?:\.(\d{1,8}))?$/.exec(textValue);
  if (match === null) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const magnitude = BigInt(whole) * SCALE + BigInt(fraction.padEnd(8, '0'));
  return sign === '-' ? -magnitude : magnitude;
}

/** The wire's text of an 8-decimal value: at least 2 and at most 8 decimals (95000.00, 0.00650123). */
export function scaledText(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  let fraction = (magnitude % SCALE).toString().padStart(8, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${magnitude / SCALE}.${fraction}`;
}

/** A price or quantity as its style shows it: A a JSON number, B a decimal string. */
function scaledMatcher(style: Style, value: bigint | null): Matcher {
  if (value === null) return eq(null);
  return style === 'A' ? eq(Number(scaledText(value))) : eq(scaledText(value));
}

function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator !== numerator && numerator < 0n ? quotient - 1n : quotient;
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator !== numerator && numerator > 0n ? quotient + 1n : quotient;
}

export const qtyFor = (amountMicro: Micro, price: bigint): bigint => (amountMicro * NOTIONAL_DIVISOR) / price;
export const marginFor = (amountMicro: Micro, leverage: number): Micro => ceilDiv(amountMicro, BigInt(leverage));
const pnlOf = (side: PositionSide, qty: bigint, entry: bigint, price: bigint): Micro => floorDiv(qty * (side === 'long' ? price - entry : entry - price), NOTIONAL_DIVISOR);

export function positionOf(model: Readonly<CheckModel>, slot: number, market: number): ModelPosition | undefined {
  return model.trading.positions.find((position) => position.slot === slot && position.market === market);
}

export function openOrdersOf(model: Readonly<CheckModel>, slot: number): ModelOrder[] {
  return model.trading.orders.filter((order) => order.slot === slot && order.status === 'open');
}

/** The money a slot has in trading besides its balance: margins of its positions and holds of its open orders. */
export function tradingMoney(model: Readonly<CheckModel>, slot: number): { marginMicro: Micro; heldMicro: Micro } {
  const marginMicro = model.trading.positions.filter((position) => position.slot === slot).reduce((sum, position) => sum + position.marginMicro, 0n);
  const heldMicro = openOrdersOf(model, slot).reduce((sum, order) => sum + order.holdMicro, 0n);
  return { marginMicro, heldMicro };
}

/** A fee: out of the payer's balance, 20% (down) of it to the payer's referrer's payable, half and a quarter of that to the next two up. */
function chargeFee(model: CheckModel, slot: number, feeMicro: Micro): void {
  const agent = model.agents[slot];
  if (agent === undefined || feeMicro === 0n) return;
  agent.balanceMicro -= feeMicro;
  model.feeIncomeMicro += feeMicro;
  payFeeShares(model, { payerSlot: slot, feeMicro: feeMicro, levelOneBps: model.config.trading.referralShareBps });
}

/** How a limit price is drawn: far from the quote (rests), through it (marketable), or missing (400). */
export type LimitKind = 'far' | 'through' | 'missing';

export interface PlaceInput {
  readonly style: Style;
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
 * a fifth of the bid (buy) or five times the ask (sell), a move no run reaches; through = twice
 * the ask (buy) or half the bid (sell), so it fills at once at the quote.
 */
export function limitPriceOf(input: PlaceInput, quote: Quote): bigint | null {
  if (input.type !== 'limit' || input.limit === 'missing') return null;
  const cent = 1_000_000n;
  const raw = input.limit === 'far' ? (input.side === 'buy' ? quote.bid / 5n : quote.ask * 5n) : input.side === 'buy' ? quote.ask * 2n : quote.bid / 2n;
  return (raw / cent) * cent;
}

/** The body fields of an order answer, per style (a perpetual's A side is long/short, spot's buy/sell). */
function orderBody(style: Style, input: PlaceInput, fields: { status: string; limitPrice: bigint | null; fillPrice: bigint | null; fillQty: bigint | null; feeMicro: Micro; pnlMicro: Micro }): Record<string, Matcher> {
  const market = marketAt(input.market);
  const common = { order_id: text(), status: eq(fields.status), type: eq(input.type), leverage: eq(input.leverage), price: scaledMatcher(style, fields.limitPrice), fill_qty: scaledMatcher(style, fields.fillQty) };
  if (style === 'A') {
    const side = market.kind === 'spot' ? input.side : input.side === 'buy' ? 'long' : 'short';
    return { ...common, symbol: eq(market.symbol), side: eq(side), size: money('A', input.amountMicro), entry_price: scaledMatcher('A', fields.fillPrice), fee: money('A', fields.feeMicro), realized_pnl: money('A', fields.pnlMicro) };
  }
  return { ...common, pair: eq(market.pair), market_type: eq(market.kind), side: eq(input.side), amount: money('B', input.amountMicro), fill_price: scaledMatcher('B', fields.fillPrice), fee: money('B', fields.feeMicro), realized_pnl: money('B', fields.pnlMicro) };
}

/** POST /api/v1/orders (A) or /trading-api/order (B), predicted from the quote read at the same instant. */
export function predictPlace(model: CheckModel, input: PlaceInput, quote: Quote | null): Prediction {
  const rules = model.config.trading;
  if (input.market === 'unknown' || quote === null) return failure(400, 'BAD_REQUEST');
  if (input.type === 'limit' && input.limit === 'missing') return failure(400, 'BAD_REQUEST');
  const leverageMax = marketAt(input.market).kind === 'spot' ? 1 : rules.leverageMax;
  if (!Number.isSafeInteger(input.leverage) || input.leverage < 1 || input.leverage > leverageMax) return failure(400, 'BAD_REQUEST');
  if (input.amountMicro < rules.orderMinMicro || input.amountMicro > rules.orderMaxMicro) return failure(400, 'BAD_REQUEST');
  const agent = model.agents[input.slot];
  if (agent === undefined) return failure(401, 'UNAUTHORIZED');
  const market = input.market;
  if (!marketOpen(model, market, model.nowMs)) return failure(409, 'MARKET_CLOSED');
  if (marketAt(market).kind === 'spot') return predictSpotPlace(model, { ...input, market }, quote);
  const limitPrice = limitPriceOf(input, quote);
  const takerPrice = input.side === 'buy' ? quote.ask : quote.bid;
  const marketable = limitPrice === null || (input.side === 'buy' ? takerPrice <= limitPrice : takerPrice >= limitPrice);
  if (!marketable) {
    if (limitPrice === null) return failure(400, 'BAD_REQUEST');
    if (openOrdersOf(model, input.slot).length >= rules.openOrdersPerAgentMax) return failure(400, 'BAD_REQUEST');
    const holdMicro = marginFor(input.amountMicro, input.leverage) + basisPoints(input.amountMicro, rules.makerFeeBps, 'up');
    if (agent.balanceMicro < holdMicro) return failure(422, 'INSUFFICIENT_BALANCE');
    return {
      expected: { status: 201, body: orderBody(input.style, input, { status: 'open', limitPrice, fillPrice: null, fillQty: null, feeMicro: 0n, pnlMicro: 0n }) },
      commit: (body) => {
        agent.balanceMicro -= holdMicro;
        model.trading.orders.push({ id: String(body['order_id']), slot: input.slot, market, side: input.side, amountMicro: input.amountMicro, leverage: input.leverage, limitPrice, status: 'open', holdMicro, holdQty: 0n });
      },
    };
  }
  const qty = qtyFor(input.amountMicro, takerPrice);
  if (qty <= 0n) return failure(400, 'BAD_REQUEST');
  const feeMicro = basisPoints(input.amountMicro, rules.takerFeeBps, 'up');
  const side: PositionSide = input.side === 'buy' ? 'long' : 'short';
  const position = positionOf(model, input.slot, market);
  const record = (body: Readonly<Record<string, unknown>>): void => {
    model.trading.orders.push({ id: String(body['order_id']), slot: input.slot, market, side: input.side, amountMicro: input.amountMicro, leverage: input.leverage, limitPrice, status: 'filled', holdMicro: 0n, holdQty: 0n });
  };
  if (position === undefined || position.side === side) {
    const marginMicro = marginFor(input.amountMicro, input.leverage);
    if (agent.balanceMicro < marginMicro + feeMicro) return failure(422, 'INSUFFICIENT_BALANCE');
    return {
      expected: { status: 201, body: orderBody(input.style, input, { status: 'filled', limitPrice, fillPrice: takerPrice, fillQty: qty, feeMicro, pnlMicro: 0n }) },
      commit: (body) => {
        agent.balanceMicro -= marginMicro;
        openOrAdd(model, { slot: input.slot, market, side, qty, price: takerPrice, marginMicro, leverage: input.leverage, position });
        chargeFee(model, input.slot, feeMicro);
        record(body);
      },
    };
  }
  const closeQty = qty < position.qty ? qty : position.qty;
  const remainingQty = qty - closeQty;
  const released = closeQty === position.qty ? position.marginMicro : (position.marginMicro * closeQty) / position.qty;
  const pnl = pnlOf(position.side, closeQty, position.entry, takerPrice);
  const remainderMargin = remainingQty > 0n ? marginFor(ceilDiv(remainingQty * takerPrice, NOTIONAL_DIVISOR), input.leverage) : 0n;
  if (remainingQty > 0n && agent.balanceMicro + released + pnl < remainderMargin + feeMicro) return failure(422, 'INSUFFICIENT_BALANCE');
  // The settlement, planned on copies: the fee is what the balance holds after it, at most the fee.
  let balance = agent.balanceMicro;
  if (pnl >= 0n) balance += released + pnl;
  else {
    const loss = -pnl;
    const fromMargin = loss < released ? loss : released;
    balance += released - fromMargin;
    const rest = loss - fromMargin;
    balance -= rest < balance ? rest : balance;
  }
  balance -= remainderMargin;
  const charged = feeMicro < balance ? feeMicro : balance;
  return {
    expected: { status: 201, body: orderBody(input.style, input, { status: 'filled', limitPrice, fillPrice: takerPrice, fillQty: qty, feeMicro: charged, pnlMicro: pnl }) },
    commit: (body) => {
      agent.balanceMicro = balance;
      position.qty -= closeQty;
      position.marginMicro -= released;
      if (position.qty === 0n) model.trading.positions = model.trading.positions.filter((open) => open !== position);
      if (remainingQty > 0n) openOrAdd(model, { slot: input.slot, market, side, qty: remainingQty, price: takerPrice, marginMicro: remainderMargin, leverage: input.leverage, position: undefined });
      chargeFee(model, input.slot, charged);
      record(body);
    },
  };
}

function openOrAdd(model: CheckModel, lot: { slot: number; market: number; side: PositionSide; qty: bigint; price: bigint; marginMicro: Micro; leverage: number; position: ModelPosition | undefined }): void {
  const position = lot.position;
  if (position === undefined) {
    model.trading.positions.push({ slot: lot.slot, market: lot.market, side: lot.side, qty: lot.qty, entry: lot.price, marginMicro: lot.marginMicro, leverage: lot.leverage });
    return;
  }
  const total = position.qty + lot.qty;
  position.entry = (position.qty * position.entry + lot.qty * lot.price + total / 2n) / total;
  position.qty = total;
  position.marginMicro += lot.marginMicro;
  position.leverage = lot.leverage;
}

/** An order id no afp order has (afp issues `ord_` + hex), valid in form so it reaches the lookup. */
export const UNKNOWN_ORDER_ID = 'ord_nonexistent_0000';

/** POST /api/v1/orders/:id/cancel (A) or DELETE /trading-api/order/:id (B). */
export function predictCancel(model: CheckModel, style: Style, callerSlot: number, order: ModelOrder | undefined): Prediction {
  if (order === undefined) return failure(404, 'NOT_FOUND');
  if (order.slot !== callerSlot) return failure(403, 'FORBIDDEN');
  if (order.status !== 'open') return failure(409, 'CONFLICT');
  const market = marketAt(order.market);
  const side = style === 'A' && market.kind === 'perp' ? eq(order.side === 'buy' ? 'long' : 'short') : eq(order.side);
  const body: Record<string, Matcher> = style === 'A'
    ? { order_id: eq(order.id), status: eq('cancelled'), symbol: eq(market.symbol), side, size: money('A', order.amountMicro), price: scaledMatcher('A', order.limitPrice), fee: money('A', 0n), cancelled_at: time(model.nowMs) }
    : { order_id: eq(order.id), status: eq('cancelled'), pair: eq(market.pair), side, amount: money('B', order.amountMicro), price: scaledMatcher('B', order.limitPrice), fee: money('B', 0n), ts: time(model.nowMs) };
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
export function predictListOrders(model: Readonly<CheckModel>, slot: number, limit: number, status: 'open' | null): Prediction {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > model.config.trading.listLimitMax) return failure(400, 'BAD_REQUEST');
  const mine = model.trading.orders.filter((order) => order.slot === slot && (status === null || order.status === status)).reverse().slice(0, limit);
  return { expected: { status: 200, body: { count: eq(mine.length), orders: list(mine.map((order) => object({ order_id: eq(order.id), status: eq(order.status), amount: money('B', order.amountMicro) }))) } } };
}

/** Mids read from the wire at the instant of a view, by market index. */
export type Marks = ReadonlyMap<number, bigint>;

function markOf(marks: Marks, market: number): bigint {
  const mark = marks.get(market);
  if (mark === undefined) throw new Error(`the view read no quote of market ${market}`);
  return mark;
}

/** The liquidation price the wire shows: entry ∓ margin per unit ± maintenance × entry, at least 0. */
export function liquidationPriceOf(model: Readonly<CheckModel>, position: ModelPosition): bigint {
  const marginPerUnit = (position.marginMicro * NOTIONAL_DIVISOR) / position.qty;
  const maintenance = (position.entry * model.config.trading.maintenanceBps) / 10_000n;
  const price = position.side === 'long' ? position.entry - marginPerUnit + maintenance : position.entry + marginPerUnit - maintenance;
  return price > 0n ? price : 0n;
}

export function unrealizedOf(position: ModelPosition, mark: bigint): Micro {
  return pnlOf(position.side, position.qty, position.entry, mark);
}

function positionFields(model: Readonly<CheckModel>, style: Style, position: ModelPosition, marks: Marks): Matcher {
  const market = marketAt(position.market);
  const mark = markOf(marks, position.market);
  return object({
    ...(style === 'A' ? { symbol: eq(market.symbol), mark_price: scaledMatcher('A', mark) } : { pair: eq(market.pair), market_type: eq('perp'), current_price: scaledMatcher('B', mark) }),
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
  if (withHoldings) for (const holding of model.trading.holdings) if (holding.slot === slot && holding.qty > 0n) markets.add(holding.market);
  return [...markets].sort((a, b) => a - b);
}

/** GET /api/v1/positions (A): the caller's open positions in opening order, valued at the marks. */
export function predictPositions(model: Readonly<CheckModel>, slot: number, marks: Marks): Prediction {
  const mine = model.trading.positions.filter((position) => position.slot === slot);
  return { expected: { status: 200, body: { count: eq(mine.length), positions: list(mine.map((position) => positionFields(model, 'A', position, marks))) } } };
}

/** GET /trading-api/portfolio (B): balance, margin, holds, unrealized PnL, spot value, equity, positions, holdings. */
export function predictPortfolio(model: Readonly<CheckModel>, slot: number, marks: Marks): Prediction {
  const agent = model.agents[slot];
  const balanceMicro = agent?.balanceMicro ?? 0n;
  const { marginMicro, heldMicro } = tradingMoney(model, slot);
  const mine = model.trading.positions.filter((position) => position.slot === slot);
  const unrealizedMicro = mine.reduce((sum, position) => sum + unrealizedOf(position, markOf(marks, position.market)), 0n);
  const held = model.trading.holdings.filter((holding) => holding.slot === slot && holding.qty > 0n);
  const valued = held.map((holding) => ({ holding, mark: markOf(marks, holding.market), valueMicro: (holding.qty * markOf(marks, holding.market)) / NOTIONAL_DIVISOR }));
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
        spot: list(valued.map(({ holding, mark, valueMicro }) => object({
          pair: eq(marketAt(holding.market).pair),
          market_type: eq('spot'),
          qty: scaledMatcher('B', holding.qty),
          reserved_qty: scaledMatcher('B', holding.reservedQty),
          entry_price: scaledMatcher('B', (holding.costMicro * NOTIONAL_DIVISOR) / holding.qty),
          current_price: scaledMatcher('B', mark),
          value: money('B', valueMicro),
          unrealized_pnl: money('B', valueMicro - holding.costMicro),
        }))),
      },
    },
  };
}

export function holdingOf(model: Readonly<CheckModel>, slot: number, market: number): ModelHolding | undefined {
  return model.trading.holdings.find((holding) => holding.slot === slot && holding.market === market);
}

/** A spot order on `input.market` (open, leverage 1, agent known), predicted from the quote. */
function predictSpotPlace(model: CheckModel, input: PlaceInput & { market: number }, quote: Quote): Prediction {
  const rules = model.config.trading;
  const agent = model.agents[input.slot];
  if (agent === undefined) return failure(401, 'UNAUTHORIZED');
  const market = input.market;
  const limitPrice = limitPriceOf(input, quote);
  const takerPrice = input.side === 'buy' ? quote.ask : quote.bid;
  const marketable = limitPrice === null || (input.side === 'buy' ? takerPrice <= limitPrice : takerPrice >= limitPrice);
  const existing = holdingOf(model, input.slot, market);
  const free = existing === undefined ? 0n : existing.qty - existing.reservedQty;
  const holding = (): ModelHolding => {
    const found = holdingOf(model, input.slot, market);
    if (found !== undefined) return found;
    const created: ModelHolding = { slot: input.slot, market, qty: 0n, reservedQty: 0n, costMicro: 0n };
    model.trading.holdings.push(created);
    return created;
  };
  const push = (body: Readonly<Record<string, unknown>>, status: 'open' | 'filled', holdMicro: Micro, holdQty: bigint): void => {
    model.trading.orders.push({ id: String(body['order_id']), slot: input.slot, market, side: input.side, amountMicro: input.amountMicro, leverage: input.leverage, limitPrice, status, holdMicro, holdQty });
  };
  if (!marketable && limitPrice !== null) {
    if (openOrdersOf(model, input.slot).length >= rules.openOrdersPerAgentMax) return failure(400, 'BAD_REQUEST');
    const expected = { status: 201, body: orderBody(input.style, input, { status: 'open', limitPrice, fillPrice: null, fillQty: null, feeMicro: 0n, pnlMicro: 0n }) };
    if (input.side === 'sell') {
      const qty = ceilDiv(input.amountMicro * NOTIONAL_DIVISOR, limitPrice);
      if (free < qty) return failure(422, 'INSUFFICIENT_BALANCE');
      return { expected, commit: (body) => { holding().reservedQty += qty; push(body, 'open', 0n, qty); } };
    }
    const holdMicro = input.amountMicro + basisPoints(input.amountMicro, rules.makerFeeBps, 'up');
    if (agent.balanceMicro < holdMicro) return failure(422, 'INSUFFICIENT_BALANCE');
    return { expected, commit: (body) => { agent.balanceMicro -= holdMicro; push(body, 'open', holdMicro, 0n); } };
  }
  const feeMicro = basisPoints(input.amountMicro, rules.takerFeeBps, 'up');
  const filled = (qty: bigint): Prediction['expected'] => ({ status: 201, body: orderBody(input.style, input, { status: 'filled', limitPrice, fillPrice: takerPrice, fillQty: qty, feeMicro, pnlMicro: 0n }) });
  if (input.side === 'buy') {
    const qty = qtyFor(input.amountMicro, takerPrice);
    if (qty <= 0n) return failure(400, 'BAD_REQUEST');
    if (agent.balanceMicro < input.amountMicro + feeMicro) return failure(422, 'INSUFFICIENT_BALANCE');
    return {
      expected: filled(qty),
      commit: (body) => {
        const bought = holding();
        agent.balanceMicro -= input.amountMicro;
        chargeFee(model, input.slot, feeMicro);
        bought.qty += qty;
        bought.costMicro += input.amountMicro;
        push(body, 'filled', 0n, 0n);
      },
    };
  }
  const qty = ceilDiv(input.amountMicro * NOTIONAL_DIVISOR, takerPrice);
  if (free < qty) return failure(422, 'INSUFFICIENT_BALANCE');
  return {
    expected: filled(qty),
    commit: (body) => {
      const sold = holding();
      agent.balanceMicro += input.amountMicro;
      chargeFee(model, input.slot, feeMicro);
      sold.costMicro -= (sold.costMicro * qty) / sold.qty;
      sold.qty -= qty;
      push(body, 'filled', 0n, 0n);
    },
  };
}

/** Slots with anything open in trading (what a tick or a funding instant can move). */
export function tradingSlots(model: Readonly<CheckModel>): number[] {
  const slots = new Set<number>();
  for (const position of model.trading.positions) slots.add(position.slot);
  for (const order of model.trading.orders) if (order.status === 'open') slots.add(order.slot);
  return [...slots].sort((a, b) => a - b);
}

/** Funding instants (00/08/16 UTC) in (fromMs, toMs]. */
export function fundingInstants(model: Readonly<CheckModel>, fromMs: number, toMs: number): number {
  const period = model.config.trading.fundingPeriodMs;
  return Math.floor(toMs / period) - Math.floor(fromMs / period);
}
