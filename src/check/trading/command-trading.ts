/**
 * Trading commands of `afp check` and their rows of the command table: orders (A and B; market,
 * limit far from the quote so it rests, limit through the quote so it fills, limit without price;
 * leverage 1, 5, 10 and the refused 0 and 11; an unknown market; sizes around the balance and one
 * that closes the agent's position), cancels (A and B; by the owner, another agent, an unknown id,
 * a closed order), and the views (A positions, B portfolio, B orders with limit 1..100 and 101).
 * Spot (BTC-USDC): buys, sells, resting orders; 'close' sells the free holding. Closures: every
 * quote read checks `open` against the model's closures; orders inside a window are 409.
 * An order first reads the quote (A ticker, B price) with the same key at the same instant and
 * predicts from it: the model never prices a market itself; a view (A positions, B portfolio)
 * first reads the quote of every market it values and predicts mark, unrealized PnL, liquidation
 * price, spot value and equity from those mids.
 * Time: funding (00/08/16 UTC) and liquidation run at ticks the model cannot price, so after the
 * shared advance-time row moves the clock, `syncTradingAfterAdvance` re-reads every trading
 * agent's portfolio and checks what the wire lets it check exactly: holds and open orders
 * unchanged (resting orders rest far from any reachable price), positions unchanged in side,
 * quantity and entry or gone (liquidated), margins unchanged unless a funding instant passed (then
 * within the funding bound), balances never negative (and exactly as modelled: neither funding nor
 * liquidation touches a balance); then it adopts the wire's margins. Runs need an exact clock.
 */
import fc from 'fast-check';
import type { ApiResult } from '../../client/client.ts';
import { parseDecimal, type Micro } from '../../core/money.ts';
import type { CheckModel, Style } from '../check-model.ts';
import { SCOPES, type Charge } from '../model-limits.ts';
import { CheckMismatch, expectAnswer, keyed, type CheckSystem, type CommandSpec } from '../model-command.ts';
import {
  fundingInstants,
  holdingOf,
  marketAt,
  marketOpen,
  viewMarkets,
  type Marks,
  limitPriceOf,
  parseScaled,
  positionOf,
  predictCancel,
  predictListOrders,
  predictPlace,
  predictPortfolio,
  predictPositions,
  qtyFor,
  scaledText,
  tradingMoney,
  tradingSlots,
  TRADING_MARKETS,
  UNKNOWN_ORDER_ID,
  type LimitKind,
  type ModelOrder,
  type OrderSide,
  type PlaceInput,
  type Quote,
} from './model-trading.ts';

function ready(model: Readonly<CheckModel>, style: Style, slot: number): boolean {
  return model.capabilities.trading && model.capabilities.exactTime && (style === 'B' || model.capabilities.styleA) && model.agents[slot] !== undefined;
}

function scopesOf(style: Style, order: boolean): Charge['scopes'] {
  if (style === 'A') return SCOPES.styleA;
  return order ? SCOPES.tradingOrderB : SCOPES.tradingB;
}

/**
 * Reads the quote of a market from the wire: A ticker (numbers) or B price (decimal strings);
 * its `open` must be what the model's closures say at this instant.
 */
async function readQuote(model: Readonly<CheckModel>, system: CheckSystem, style: Style, slot: number, market: number, label: string): Promise<Quote> {
  const names = marketAt(market);
  const client = keyed(model, system, slot).trading;
  const answer = style === 'A' ? await client.tickerA(names.symbol) : await client.priceB(names.pair, { market_type: names.kind });
  const body = answer.body as Readonly<Record<string, unknown>>;
  const bid = parseScaled(body['bid']);
  const ask = parseScaled(body['ask']);
  const mid = parseScaled(style === 'A' ? body['mark_price'] : body['mid']);
  const at = new Date(model.nowMs).toISOString();
  if (answer.status !== 200 || bid === null || ask === null || mid === null || bid <= 0n || ask < bid) {
    throw new CheckMismatch(`${label}: the quote of ${names.symbol} at ${at} is not a quote: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  }
  const open = marketOpen(model, market, model.nowMs);
  if (body['open'] !== open) throw new CheckMismatch(`${label}: the quote of ${names.symbol} at ${at}: open: expected ${String(open)} (closures ${JSON.stringify(model.trading.closures)}), got ${JSON.stringify(body['open'])}`);
  return { bid, ask, mid };
}

/** The mids of the markets a view values, read at the view's instant. */
async function readMarks(model: Readonly<CheckModel>, system: CheckSystem, style: Style, slot: number, label: string): Promise<Marks> {
  const marks = new Map<number, bigint>();
  for (const market of viewMarkets(model, slot, style === 'B')) marks.set(market, (await readQuote(model, system, style, slot, market, label)).mid);
  return marks;
}

/** Size drawn: a fixed amount, or 'close' — the notional of the agent's position at the quote (a close, or a tiny flip). */
export type SizeKind = Micro | 'close';

export interface PlaceCommandInput {
  readonly style: Style;
  readonly slot: number;
  readonly market: number | 'unknown';
  readonly side: OrderSide | 'close';
  readonly type: 'market' | 'limit';
  readonly limit: LimitKind;
  readonly size: SizeKind;
  readonly leverage: number;
}

/** Whether 'close' has something to close: a perpetual position, or a spot holding with free units. */
function closable(model: Readonly<CheckModel>, slot: number, market: number | 'unknown'): boolean {
  if (market === 'unknown') return false;
  if (marketAt(market).kind === 'perp') return positionOf(model, slot, market) !== undefined;
  const holding = holdingOf(model, slot, market);
  return holding !== undefined && holding.qty > holding.reservedQty;
}

function resolvePlace(model: Readonly<CheckModel>, input: PlaceCommandInput, quote: Quote | null): PlaceInput {
  if (input.size === 'close' && input.market !== 'unknown' && marketAt(input.market).kind === 'spot') {
    // Sells the free holding: the largest amount whose quantity (size / bid, rounded up) it covers.
    const holding = holdingOf(model, input.slot, input.market);
    const free = holding === undefined ? 0n : holding.qty - holding.reservedQty;
    const amountMicro = quote === null ? 0n : (free * quote.bid) / 10_000_000_000n;
    return { style: input.style, slot: input.slot, market: input.market, side: 'sell', type: input.type, limit: input.limit, amountMicro, leverage: input.leverage };
  }
  const position = input.market === 'unknown' ? undefined : positionOf(model, input.slot, input.market);
  const side: OrderSide = input.side !== 'close' ? input.side : position?.side === 'long' ? 'sell' : 'buy';
  let amountMicro: Micro = 2_000_000n;
  if (input.size !== 'close') amountMicro = input.size;
  else if (position !== undefined && quote !== null) {
    const price = side === 'buy' ? quote.ask : quote.bid;
    // The smallest amount whose quantity covers the position: (qty × price) / 10^10 rounded up.
    amountMicro = (position.qty * price + 9_999_999_999n) / 10_000_000_000n;
    while (qtyFor(amountMicro, price) < position.qty) amountMicro += 1n;
  }
  return { style: input.style, slot: input.slot, market: input.market, side, type: input.type, limit: input.limit, amountMicro, leverage: input.leverage };
}

function orderBodyOf(style: Style, input: PlaceInput, limitPrice: bigint | null): Record<string, unknown> {
  const names = marketAt(input.market);
  const price = limitPrice === null ? {} : { price: style === 'A' ? Number(scaledText(limitPrice)) : scaledText(limitPrice) };
  if (style === 'A') {
    const side = names.kind === 'spot' ? input.side : input.side === 'buy' ? 'long' : 'short';
    return { symbol: names.symbol, side, size: Number(input.amountMicro) / 1_000_000, leverage: input.leverage, type: input.type, ...price };
  }
  return { pair: names.pair, market_type: names.kind, side: input.side, amount: `${input.amountMicro / 1_000_000n}.${(input.amountMicro % 1_000_000n).toString().padStart(6, '0')}`, leverage: input.leverage, type: input.type, ...price };
}

export function placeOrderCommand(input: PlaceCommandInput): CommandSpec {
  const marketText = marketAt(input.market).symbol;
  const sizeText = input.size === 'close' ? 'close' : scaledText(input.size * 100n);
  const label = `placeOrder${input.style}(a${input.slot}, ${marketText}, ${input.side}, ${input.type}${input.type === 'limit' ? ` ${input.limit}` : ''}, ${sizeText}, x${input.leverage})`;
  return {
    label,
    applicable: (model) => ready(model, input.style, input.slot) && (input.size !== 'close' || closable(model, input.slot, input.market)),
    charges: () => [{ slot: input.slot, scopes: scopesOf(input.style, false) }, { slot: input.slot, scopes: scopesOf(input.style, true) }],
    // Fees reach the referrer's payable, swept into its balance later: every slot may move.
    parties: () => [0, 1, 2, 3],
    execute: async (model, system) => {
      const quote = input.market === 'unknown' ? null : await readQuote(model, system, input.style, input.slot, input.market, label);
      const resolved = resolvePlace(model, input, quote);
      const limitPrice = quote === null ? (input.type === 'limit' && input.limit !== 'missing' ? 100_000_000n : null) : limitPriceOf(resolved, quote);
      const prediction = predictPlace(model, resolved, quote);
      const client = keyed(model, system, input.slot).trading;
      const body = orderBodyOf(input.style, resolved, limitPrice);
      const answer = input.style === 'A' ? await client.orderA(body) : await client.orderB(body);
      const detail = quote === null ? '' : ` (bid ${scaledText(quote.bid)}, ask ${scaledText(quote.ask)}, amount ${scaledText(resolved.amountMicro * 100n)})`;
      expectAnswer(`${label}${detail}`, model, answer, prediction);
    },
  };
}

export type CancelRole = 'owner' | 'outsider';
/** Which order: the k-th placed (modulo the count; open ones first when `open`), or an unknown id. */
export type OrderRef = { readonly index: number; readonly open: boolean } | 'unknown';

function resolveOrder(model: Readonly<CheckModel>, ref: OrderRef): ModelOrder | undefined {
  if (ref === 'unknown') return undefined;
  const pool = ref.open ? model.trading.orders.filter((order) => order.status === 'open') : model.trading.orders;
  const from = pool.length > 0 ? pool : model.trading.orders;
  return from.length === 0 ? undefined : from[ref.index % from.length];
}

function cancelCaller(model: Readonly<CheckModel>, order: ModelOrder | undefined, role: CancelRole): number | undefined {
  const owner = order?.slot ?? 0;
  const slot = role === 'owner' ? owner : [1, 2, 3, 0].map((offset) => (owner + offset) % 4).find((candidate) => candidate !== owner && model.agents[candidate] !== undefined);
  return slot !== undefined && model.agents[slot] !== undefined ? slot : undefined;
}

export function cancelOrderCommand(input: { style: Style; role: CancelRole; order: OrderRef }): CommandSpec {
  const refText = input.order === 'unknown' ? 'unknown order' : `order#${input.order.index}${input.order.open ? ' open' : ''}`;
  const label = `cancelOrder${input.style}(${input.role}, ${refText})`;
  const caller = (model: Readonly<CheckModel>): number | undefined => cancelCaller(model, resolveOrder(model, input.order), input.role);
  return {
    label,
    applicable: (model) => {
      const slot = caller(model);
      return slot !== undefined && ready(model, input.style, slot);
    },
    charges: (model) => [{ slot: caller(model) ?? 0, scopes: scopesOf(input.style, false) }],
    parties: (model) => [caller(model) ?? 0],
    execute: async (model, system) => {
      const slot = caller(model);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no caller`);
      const order = resolveOrder(model, input.order);
      const prediction = predictCancel(model, input.style, slot, order);
      const client = keyed(model, system, slot).trading;
      const id = order?.id ?? UNKNOWN_ORDER_ID;
      const answer = input.style === 'A' ? await client.cancelA(id) : await client.cancelB(id);
      expectAnswer(`${label} (a${slot}, ${id})`, model, answer, prediction);
    },
  };
}

export type TradingView = 'positionsA' | 'portfolioB' | 'ordersB';

export function tradingViewCommand(view: TradingView, slot: number, limit: number): CommandSpec {
  const style: Style = view === 'positionsA' ? 'A' : 'B';
  const label = view === 'ordersB' ? `ordersB(a${slot}, limit ${limit})` : `${view}(a${slot})`;
  return {
    label,
    applicable: (model) => ready(model, style, slot),
    // A view first quotes every market it values (A ticker, B price), then reads itself.
    charges: (model) => [
      ...(view === 'ordersB' ? [] : viewMarkets(model, slot, style === 'B').map(() => ({ slot, scopes: scopesOf(style, false) }))),
      { slot, scopes: view === 'positionsA' ? SCOPES.tradingPositionsA : SCOPES.tradingB },
    ],
    parties: () => [slot],
    execute: async (model, system) => {
      const client = keyed(model, system, slot).trading;
      switch (view) {
        case 'positionsA': {
          const marks = await readMarks(model, system, 'A', slot, label);
          return expectAnswer(label, model, await client.positionsA(), predictPositions(model, slot, marks));
        }
        case 'portfolioB': {
          const marks = await readMarks(model, system, 'B', slot, label);
          return expectAnswer(label, model, await client.portfolioB(), predictPortfolio(model, slot, marks));
        }
        case 'ordersB':
          return expectAnswer(label, model, await client.ordersB({ limit }), predictListOrders(model, slot, limit, null));
      }
    },
  };
}

/** What the advance-time row sends after moving the clock: one portfolio read per trading agent. */
export function tradingSyncCharges(model: Readonly<CheckModel>): Charge[] {
  if (!model.capabilities.trading) return [];
  return tradingSlots(model).map((slot) => ({ slot, scopes: SCOPES.tradingB }));
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function moneyOf(value: unknown): Micro | null {
  if (typeof value !== 'string' || !/^-?\d+\.\d{2,6}$/.test(value)) return null;
  const parsed = parseDecimal(value);
  return typeof parsed === 'bigint' ? parsed : null;
}

/** Funding moves a margin by at most the rate's bound (0.05% of the notional) per instant; twice that for the mark's moves. */
const FUNDING_BOUND_BPS = 10n;

/**
 * After the clock moved from `fromMs`: re-reads every trading agent's portfolio, checks it against
 * the model (exactly where funding and liquidation cannot reach, loosely where they can) and adopts
 * the wire's margins and liquidations.
 */
export async function syncTradingAfterAdvance(model: CheckModel, system: CheckSystem, fromMs: number): Promise<void> {
  if (!model.capabilities.trading) return;
  const instants = fundingInstants(model, fromMs, model.nowMs);
  for (const slot of tradingSlots(model)) {
    const agent = model.agents[slot];
    if (agent === undefined) continue;
    const label = `advanceTime, then the portfolio of a${slot} (${agent.id}) at ${new Date(model.nowMs).toISOString()}`;
    const answer: ApiResult<unknown> = await keyed(model, system, slot).trading.portfolioB();
    const problems: string[] = [];
    const balance = moneyOf(field(answer.body, 'balance'));
    const held = moneyOf(field(answer.body, 'held_for_orders'));
    const positions = field(answer.body, 'positions');
    if (answer.status !== 200 || balance === null || held === null || !Array.isArray(positions)) throw new CheckMismatch(`${label}: not a portfolio: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    if (balance < 0n) problems.push(`balance ${scaledText(balance * 100n)} is negative`);
    const expected = tradingMoney(model, slot);
    if (held !== expected.heldMicro) problems.push(`held_for_orders: expected ${scaledText(expected.heldMicro * 100n)}, got ${scaledText(held * 100n)} (resting orders rest far from any reachable price)`);
    const openOrders = field(answer.body, 'open_orders');
    const modelOpen = model.trading.orders.filter((order) => order.slot === slot && order.status === 'open').length;
    if (openOrders !== modelOpen) problems.push(`open_orders: expected ${modelOpen}, got ${JSON.stringify(openOrders)}`);
    const mine = model.trading.positions.filter((position) => position.slot === slot);
    let next = 0;
    const survivors = new Set<unknown>();
    for (const wire of positions) {
      const pair = field(wire, 'pair');
      const side = field(wire, 'side');
      const qty = parseScaled(field(wire, 'qty'));
      const entry = parseScaled(field(wire, 'entry_price'));
      const margin = moneyOf(field(wire, 'margin'));
      const mark = parseScaled(field(wire, 'current_price'));
      // Wire positions are the model's in order, some possibly gone (liquidated): skip those.
      while (next < mine.length) {
        const candidate = mine[next];
        if (candidate !== undefined && TRADING_MARKETS[candidate.market]?.pair === pair && candidate.side === side && candidate.qty === qty && candidate.entry === entry) break;
        next += 1;
      }
      const position = mine[next];
      if (position === undefined || margin === null || mark === null) {
        problems.push(`position ${JSON.stringify(wire).slice(0, 160)} is not one the model holds (no position opens while time moves)`);
        continue;
      }
      next += 1;
      survivors.add(position);
      if (margin < 0n) problems.push(`${String(pair)} margin ${scaledText(margin * 100n)} is negative`);
      if (instants === 0 && margin !== position.marginMicro) problems.push(`${String(pair)} margin: expected ${scaledText(position.marginMicro * 100n)} (no funding instant passed), got ${scaledText(margin * 100n)}`);
      const bound = BigInt(instants) * (((position.qty * mark) / 10_000_000_000n) * FUNDING_BOUND_BPS / 10_000n + 1n);
      const moved = margin - position.marginMicro;
      if (moved > bound || -moved > bound) problems.push(`${String(pair)} margin moved by ${scaledText(moved * 100n)}, more than ${instants} funding instant(s) allow (${scaledText(bound * 100n)})`);
      position.marginMicro = margin;
    }
    if (problems.length > 0) throw new CheckMismatch(`${label}: ${problems.join('; ')}`);
    const gone = mine.filter((position) => !survivors.has(position));
    model.trading.liquidations += gone.length;
    model.trading.positions = model.trading.positions.filter((position) => position.slot !== slot || survivors.has(position));
  }
}

/** a0 and a1 act most (registered first). */
const slot = fc.constantFrom(0, 0, 0, 1, 1, 2, 3);
const style = fc.constantFrom<Style>('A', 'B');
const market = fc.constantFrom<number | 'unknown'>(0, 0, 0, 1, 1, 2, 2, 'unknown');
/** Sizes: the minimum, a few USDC, just over a 10.00 balance at leverage 1, and a large notional needing leverage. */
const size = fc.constantFrom<SizeKind>(1_000_000n, 2_500_000n, 2_500_000n, 5_000_000n, 10_000_001n, 40_000_000n, 'close', 'close');
const leverage = fc.constantFrom(1, 1, 2, 5, 10, 10, 0, 11);
const orderKind = fc.constantFrom<{ type: 'market' | 'limit'; limit: LimitKind }>(
  { type: 'market', limit: 'far' },
  { type: 'market', limit: 'far' },
  { type: 'market', limit: 'far' },
  { type: 'limit', limit: 'far' },
  { type: 'limit', limit: 'far' },
  { type: 'limit', limit: 'through' },
  { type: 'limit', limit: 'missing' },
);

/** The trading rows of the command table (command-table.ts adds them to its own). */
export const TRADING_SPECS: readonly { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
  {
    weight: 7,
    arbitrary: fc
      .record({ style, slot, market, side: fc.constantFrom<OrderSide | 'close'>('buy', 'sell'), kind: orderKind, size, leverage })
      // Spot takes leverage 1: a drawn 5 or 10 becomes 1 there (2, 0 and 11 stay, for the 400s), so spot orders mostly fill.
      .map(({ kind, size: drawn, side, leverage: drawnLeverage, ...rest }) => {
        const spot = rest.market !== 'unknown' && marketAt(rest.market).kind === 'spot';
        const leverage = spot && drawnLeverage >= 5 ? 1 : drawnLeverage;
        return placeOrderCommand({ ...rest, ...kind, leverage, side: drawn === 'close' ? 'close' : side, size: drawn });
      }),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ style, role: fc.constantFrom<CancelRole>('owner', 'owner', 'owner', 'outsider'), order: fc.oneof({ weight: 9, arbitrary: fc.record({ index: fc.integer({ min: 0, max: 7 }), open: fc.boolean() }) }, { weight: 1, arbitrary: fc.constant<OrderRef>('unknown') }) })
      .map(cancelOrderCommand),
  },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom<TradingView>('positionsA', 'portfolioB', 'portfolioB', 'ordersB'), slot, fc.constantFrom(1, 2, 100, 101)).map(([view, actor, limit]) => tradingViewCommand(view, actor, limit)) },
];
