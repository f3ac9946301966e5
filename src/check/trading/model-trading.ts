/**
 * The trading part of the reference model of `afp check`, written from the wire contract alone
 * (spec/platform.md "Trading", NOTES.md, docs/decisions.md "## Trading"); it never imports the
 * trading service. Prices are a pure function of (seed, asset, tick) in the service: the model
 * does not re-implement that, a command reads the quote from the wire (ticker / price) at the same
 * instant and predicts from it.
 *
 * Rules predicted (perpetuals BTC-PERP and ETH-PERP): a market order (or a limit already
 * marketable) fills at once at the ask (buy) or bid (sell) with the taker fee (notional × 0.2%,
 * rounded up) and fill_qty = size / price rounded down to 8 decimals; an opening or adding fill
 * debits margin = size / leverage (rounded up) plus the fee; an opposite fill reduces, closes or
 * flips the netted position: the released margin (pro rata, down) returns with the PnL
 * (qty × move, down), a loss beyond the released margin taken from the balance, the fee as far as
 * the balance holds; a flip opens the remainder at the order's leverage. A limit order that is not
 * marketable rests and holds margin + maker fee; cancel (owner only, open only) returns the hold.
 * The referrer's 20% (down) of every fee accrues to its payable (swept as the other services').
 * Refusals: unknown market, leverage outside 1..10, a limit without price (400), funds (422),
 * cancel of an unknown (404), a foreign (403) or a closed order (409), list limit over 100 (400).
 * Loose (docs/decisions.md "Trading: check"): funding and liquidation run on ticks the model cannot
 * price; after time moves the model re-reads positions and margins from the wire and checks what
 * the wire lets it check exactly (model-trading-time in command-trading.ts).
 * Non-goals: spot markets, market closures, the 50-open-order cap (a run never reaches it).
 */
import { basisPoints, type Micro } from '../../core/money.ts';
import type { CheckModel, Style } from '../check-model.ts';
import { payFeeShares } from '../model-referral.ts';
import { eq, failure, list, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';

/** The markets a run trades: two crypto majors (perpetuals, leverage up to 10). */
export const TRADING_MARKETS: readonly { readonly symbol: string; readonly pair: string }[] = [
  { symbol: 'BTC-PERP', pair: 'BTC-USDC' },
  { symbol: 'ETH-PERP', pair: 'ETH-USDC' },
];
/** A market nobody lists, valid in form (the 400 answers). */
export const UNKNOWN_MARKET = { symbol: 'NOPE-PERP', pair: 'NOPE-USDC' } as const;

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
}

export function createTradingModel(): TradingModel {
  return { orders: [], positions: [], liquidations: 0 };
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

/** The body fields of an order answer, per style. */
function orderBody(style: Style, input: PlaceInput, fields: { status: string; limitPrice: bigint | null; fillPrice: bigint | null; fillQty: bigint | null; feeMicro: Micro; pnlMicro: Micro }): Record<string, Matcher> {
  const market = TRADING_MARKETS[input.market as number] ?? UNKNOWN_MARKET;
  const common = { order_id: text(), status: eq(fields.status), type: eq(input.type), leverage: eq(input.leverage), price: scaledMatcher(style, fields.limitPrice), fill_qty: scaledMatcher(style, fields.fillQty) };
  if (style === 'A') {
    return { ...common, symbol: eq(market.symbol), side: eq(input.side === 'buy' ? 'long' : 'short'), size: money('A', input.amountMicro), entry_price: scaledMatcher('A', fields.fillPrice), fee: money('A', fields.feeMicro), realized_pnl: money('A', fields.pnlMicro) };
  }
  return { ...common, pair: eq(market.pair), market_type: eq('perp'), side: eq(input.side), amount: money('B', input.amountMicro), fill_price: scaledMatcher('B', fields.fillPrice), fee: money('B', fields.feeMicro), realized_pnl: money('B', fields.pnlMicro) };
}

/** POST /api/v1/orders (A) or /trading-api/order (B), predicted from the quote read at the same instant. */
export function predictPlace(model: CheckModel, input: PlaceInput, quote: Quote | null): Prediction {
  const rules = model.config.trading;
  if (input.market === 'unknown' || quote === null) return failure(400, 'BAD_REQUEST');
  if (input.type === 'limit' && input.limit === 'missing') return failure(400, 'BAD_REQUEST');
  if (!Number.isSafeInteger(input.leverage) || input.leverage < 1 || input.leverage > rules.leverageMax) return failure(400, 'BAD_REQUEST');
  if (input.amountMicro < rules.orderMinMicro || input.amountMicro > rules.orderMaxMicro) return failure(400, 'BAD_REQUEST');
  const agent = model.agents[input.slot];
  if (agent === undefined) return failure(401, 'UNAUTHORIZED');
  const market = input.market;
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
        model.trading.orders.push({ id: String(body['order_id']), slot: input.slot, market, side: input.side, amountMicro: input.amountMicro, leverage: input.leverage, limitPrice, status: 'open', holdMicro });
      },
    };
  }
  const qty = qtyFor(input.amountMicro, takerPrice);
  if (qty <= 0n) return failure(400, 'BAD_REQUEST');
  const feeMicro = basisPoints(input.amountMicro, rules.takerFeeBps, 'up');
  const side: PositionSide = input.side === 'buy' ? 'long' : 'short';
  const position = positionOf(model, input.slot, market);
  const record = (body: Readonly<Record<string, unknown>>): void => {
    model.trading.orders.push({ id: String(body['order_id']), slot: input.slot, market, side: input.side, amountMicro: input.amountMicro, leverage: input.leverage, limitPrice, status: 'filled', holdMicro: 0n });
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
  const market = TRADING_MARKETS[order.market] ?? UNKNOWN_MARKET;
  const side = style === 'A' ? eq(order.side === 'buy' ? 'long' : 'short') : eq(order.side);
  const body: Record<string, Matcher> = style === 'A'
    ? { order_id: eq(order.id), status: eq('cancelled'), symbol: eq(market.symbol), side, size: money('A', order.amountMicro), price: scaledMatcher('A', order.limitPrice), fee: money('A', 0n), cancelled_at: time(model.nowMs) }
    : { order_id: eq(order.id), status: eq('cancelled'), pair: eq(market.pair), side, amount: money('B', order.amountMicro), price: scaledMatcher('B', order.limitPrice), fee: money('B', 0n), ts: time(model.nowMs) };
  return {
    expected: { status: 200, body },
    commit: () => {
      const agent = model.agents[order.slot];
      if (agent !== undefined) agent.balanceMicro += order.holdMicro;
      order.holdMicro = 0n;
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

function positionFields(style: Style, position: ModelPosition): Matcher {
  const market = TRADING_MARKETS[position.market] ?? UNKNOWN_MARKET;
  return object({
    ...(style === 'A' ? { symbol: eq(market.symbol) } : { pair: eq(market.pair), market_type: eq('perp') }),
    side: eq(position.side),
    qty: scaledMatcher(style, position.qty),
    entry_price: scaledMatcher(style, position.entry),
    margin: money(style, position.marginMicro),
    leverage: eq(position.leverage),
  });
}

/** GET /api/v1/positions (A): the caller's open positions in opening order. */
export function predictPositions(model: Readonly<CheckModel>, slot: number): Prediction {
  const mine = model.trading.positions.filter((position) => position.slot === slot);
  return { expected: { status: 200, body: { count: eq(mine.length), positions: list(mine.map((position) => positionFields('A', position))) } } };
}

/** GET /trading-api/portfolio (B): balance, margin, holds, open orders and positions. */
export function predictPortfolio(model: Readonly<CheckModel>, slot: number): Prediction {
  const agent = model.agents[slot];
  const { marginMicro, heldMicro } = tradingMoney(model, slot);
  const mine = model.trading.positions.filter((position) => position.slot === slot);
  return {
    expected: {
      status: 200,
      body: {
        balance: money('B', agent?.balanceMicro ?? 0n),
        margin_used: money('B', marginMicro),
        held_for_orders: money('B', heldMicro),
        open_orders: eq(openOrdersOf(model, slot).length),
        positions: list(mine.map((position) => positionFields('B', position))),
      },
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
