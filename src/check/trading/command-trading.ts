/**
 * Trading commands of `afp check` and their rows of the command table: orders (A and B; market,
 * limit far from the quote so it rests, near it so it fills at a later tick, through the quote so
 * it fills at once, limit without price; leverage 1, 5, 10 and the refused 0 and 11; an unknown
 * market; sizes around the balance and one that closes the agent's position), cancels (A and B;
 * by the owner, another agent, an unknown id, a closed order), and the views (A positions, B
 * portfolio, B orders with limit 1..100 and 101).
 * Spot (BTC-USDC): buys, sells, resting orders; 'close' sells the free holding. Closures: every
 * quote read checks `open` against the model's closures; orders inside a window are 409.
 * An order first reads the quote (A ticker, B price) with the same key at the same instant and
 * predicts from it; a view (A positions, B portfolio) first reads the quote of every market it
 * values and predicts mark, unrealized PnL, liquidation price, spot value and equity from those
 * mids. Time: after the shared advance-time row moves the clock, the model has run every tick in
 * between exactly (model-trading-time.ts, priced by the oracle of model-prices.ts) and
 * `syncTradingAfterAdvance` compares every trading agent's portfolio with it, field for field.
 * Runs need an exact clock and the target's seed.
 */
import fc from 'fast-check';
import type { Micro } from '../../core/money.ts';
import type { CheckModel, CheckStyle } from '../check-model.ts';
import { SCOPES, type Charge } from '../model-limits.ts';
import { expectAnswer, inFaultWindow, keyed, type CheckSystem, type CommandSpec } from '../model-command.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { limitPriceOf, type LimitKind, type PlaceInput } from './model-order-body.ts';
import { predictCancel, predictListOrders, predictPlace, UNKNOWN_ORDER_ID } from './model-orders.ts';
import { predictPortfolio, predictPositions, viewMarkets, type Marks } from './model-views.ts';
import {
  holdingOf,
  marketOpen,
  parseScaled,
  positionOf,
  modelQtyFor,
  scaledText,
  tradingSlots,
} from './model-trading.ts';
import { marketAt, type ModelOrder, type ModelQuote } from './trading-state.ts';
import type { OrderSide } from '../../services/trading/trading-record.ts';

function ready(model: Readonly<CheckModel>, style: CheckStyle, slot: number): boolean {
  return (
    model.capabilities.trading &&
    model.capabilities.exactTime &&
    (style === 'B' || model.capabilities.styleA) &&
    model.agents[slot] !== undefined
  );
}

function scopesOf(style: CheckStyle, order: boolean): Charge['scopes'] {
  if (style === 'A') return SCOPES.styleA;
  return order ? SCOPES.tradingOrderB : SCOPES.tradingB;
}

/**
 * Reads the quote of a market from the wire: A ticker (numbers) or B price (decimal strings);
 * its `open` must be what the model's closures say at this instant. 'fault': the read met one of
 * the target's fault windows (the command's other requests will too, and change nothing).
 */
async function readQuote(
  model: Readonly<CheckModel>,
  system: CheckSystem,
  style: CheckStyle,
  slot: number,
  market: number,
  label: string,
): Promise<ModelQuote | 'fault'> {
  const names = marketAt(market);
  const client = keyed(model, system, slot).trading;
  const answer =
    style === 'A' ? await client.tickerA(names.symbol) : await client.priceB(names.pair, { market_type: names.kind });
  const body = answer.body as Readonly<Record<string, unknown>>;
  const bid = parseScaled(body['bid']);
  const ask = parseScaled(body['ask']);
  const mid = parseScaled(style === 'A' ? body['mark_price'] : body['mid']);
  const at = new Date(model.nowMs).toISOString();
  if (inFaultWindow(model, answer)) return 'fault';
  if (answer.status !== 200 || bid === null || ask === null || mid === null || bid <= 0n || ask < bid) {
    throw new CheckMismatch(
      `${label}: the quote of ${names.symbol} at ${at} is not a quote: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
    );
  }
  const open = marketOpen(model, market, model.nowMs);
  if (body['open'] !== open)
    throw new CheckMismatch(
      `${label}: the quote of ${names.symbol} at ${at}: open: expected ${String(open)} (closures ${JSON.stringify(model.trading.closures)}), got ${JSON.stringify(body['open'])}`,
    );
  return { bid, ask, mid };
}

/** The mids of the markets a view values, read at the view's instant. */
async function readMarks(
  model: Readonly<CheckModel>,
  system: CheckSystem,
  style: CheckStyle,
  slot: number,
  label: string,
): Promise<Marks | 'fault'> {
  const marks = new Map<number, bigint>();
  for (const market of viewMarkets(model, slot, style === 'B')) {
    const quote = await readQuote(model, system, style, slot, market, label);
    if (quote === 'fault') return 'fault';
    marks.set(market, quote.mid);
  }
  return marks;
}

/** Size drawn: a fixed amount, or 'close' — the notional of the agent's position at the quote (a close, or a tiny flip). */
export type SizeKind = Micro | 'close';

export interface PlaceCommandInput {
  readonly style: CheckStyle;
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

function resolvePlace(model: Readonly<CheckModel>, input: PlaceCommandInput, quote: ModelQuote | null): PlaceInput {
  if (input.size === 'close' && input.market !== 'unknown' && marketAt(input.market).kind === 'spot') {
    // Sells the free holding: the largest amount whose quantity (size / bid, rounded up) it covers.
    const holding = holdingOf(model, input.slot, input.market);
    const free = holding === undefined ? 0n : holding.qty - holding.reservedQty;
    const amountMicro = quote === null ? 0n : (free * quote.bid) / 10_000_000_000n;
    return {
      style: input.style,
      slot: input.slot,
      market: input.market,
      side: 'sell',
      type: input.type,
      limit: input.limit,
      amountMicro,
      leverage: input.leverage,
    };
  }
  const position = input.market === 'unknown' ? undefined : positionOf(model, input.slot, input.market);
  const side: OrderSide = input.side !== 'close' ? input.side : position?.side === 'long' ? 'sell' : 'buy';
  let amountMicro: Micro = 2_000_000n;
  if (input.size !== 'close') amountMicro = input.size;
  else if (position !== undefined && quote !== null) {
    const price = side === 'buy' ? quote.ask : quote.bid;
    // The smallest amount whose quantity covers the position: (qty × price) / 10^10 rounded up.
    amountMicro = (position.qty * price + 9_999_999_999n) / 10_000_000_000n;
    while (modelQtyFor(amountMicro, price) < position.qty) amountMicro += 1n;
  }
  return {
    style: input.style,
    slot: input.slot,
    market: input.market,
    side,
    type: input.type,
    limit: input.limit,
    amountMicro,
    leverage: input.leverage,
  };
}

function orderBodyOf(style: CheckStyle, input: PlaceInput, limitPrice: bigint | null): Record<string, unknown> {
  const names = marketAt(input.market);
  const price =
    limitPrice === null ? {} : { price: style === 'A' ? Number(scaledText(limitPrice)) : scaledText(limitPrice) };
  if (style === 'A') {
    const side = names.kind === 'spot' ? input.side : input.side === 'buy' ? 'long' : 'short';
    return {
      symbol: names.symbol,
      side,
      size: Number(input.amountMicro) / 1_000_000,
      leverage: input.leverage,
      type: input.type,
      ...price,
    };
  }
  return {
    pair: names.pair,
    market_type: names.kind,
    side: input.side,
    amount: `${input.amountMicro / 1_000_000n}.${(input.amountMicro % 1_000_000n).toString().padStart(6, '0')}`,
    leverage: input.leverage,
    type: input.type,
    ...price,
  };
}

export function placeOrderCommand(input: PlaceCommandInput): CommandSpec {
  const marketText = marketAt(input.market).symbol;
  const sizeText = input.size === 'close' ? 'close' : scaledText(input.size * 100n);
  const label = `placeOrder${input.style}(a${input.slot}, ${marketText}, ${input.side}, ${input.type}${input.type === 'limit' ? ` ${input.limit}` : ''}, ${sizeText}, x${input.leverage})`;
  return {
    label,
    applicable: (model) =>
      ready(model, input.style, input.slot) && (input.size !== 'close' || closable(model, input.slot, input.market)),
    charges: () => [
      { slot: input.slot, scopes: scopesOf(input.style, false) },
      { slot: input.slot, scopes: scopesOf(input.style, true) },
    ],
    // Fees reach the referrer's payable, swept into its balance later: every slot may move.
    parties: () => [0, 1, 2, 3],
    execute: async (model, system) => {
      const quote =
        input.market === 'unknown'
          ? null
          : await readQuote(model, system, input.style, input.slot, input.market, label);
      // The trading service is in a fault window: the order would meet it too, and nothing moves.
      if (quote === 'fault') return;
      const resolved = resolvePlace(model, input, quote);
      const limitPrice =
        quote === null
          ? input.type === 'limit' && input.limit !== 'missing'
            ? 100_000_000n
            : null
          : limitPriceOf(resolved, quote);
      const prediction = predictPlace(model, resolved, quote);
      const client = keyed(model, system, input.slot).trading;
      const body = orderBodyOf(input.style, resolved, limitPrice);
      const answer = input.style === 'A' ? await client.orderA(body) : await client.orderB(body);
      const detail =
        quote === null
          ? ''
          : ` (bid ${scaledText(quote.bid)}, ask ${scaledText(quote.ask)}, amount ${scaledText(resolved.amountMicro * 100n)})`;
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

function cancelCaller(
  model: Readonly<CheckModel>,
  order: ModelOrder | undefined,
  role: CancelRole,
): number | undefined {
  const owner = order?.slot ?? 0;
  const slot =
    role === 'owner'
      ? owner
      : [1, 2, 3, 0]
          .map((offset) => (owner + offset) % 4)
          .find((candidate) => candidate !== owner && model.agents[candidate] !== undefined);
  return slot !== undefined && model.agents[slot] !== undefined ? slot : undefined;
}

export function cancelOrderCommand(input: { style: CheckStyle; role: CancelRole; order: OrderRef }): CommandSpec {
  const refText =
    input.order === 'unknown' ? 'unknown order' : `order#${input.order.index}${input.order.open ? ' open' : ''}`;
  const label = `cancelOrder${input.style}(${input.role}, ${refText})`;
  const caller = (model: Readonly<CheckModel>): number | undefined =>
    cancelCaller(model, resolveOrder(model, input.order), input.role);
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
  const style: CheckStyle = view === 'positionsA' ? 'A' : 'B';
  const label = view === 'ordersB' ? `ordersB(a${slot}, limit ${limit})` : `${view}(a${slot})`;
  return {
    label,
    applicable: (model) => ready(model, style, slot),
    // A view first quotes every market it values (A ticker, B price), then reads itself.
    charges: (model) => [
      ...(view === 'ordersB'
        ? []
        : viewMarkets(model, slot, style === 'B').map(() => ({ slot, scopes: scopesOf(style, false) }))),
      { slot, scopes: view === 'positionsA' ? SCOPES.tradingPositionsA : SCOPES.tradingB },
    ],
    parties: () => [slot],
    execute: async (model, system) => {
      const client = keyed(model, system, slot).trading;
      switch (view) {
        case 'positionsA': {
          const marks = await readMarks(model, system, 'A', slot, label);
          if (marks === 'fault') return;
          return expectAnswer(label, model, await client.positionsA(), predictPositions(model, slot, marks));
        }
        case 'portfolioB': {
          const marks = await readMarks(model, system, 'B', slot, label);
          if (marks === 'fault') return;
          return expectAnswer(label, model, await client.portfolioB(), predictPortfolio(model, slot, marks));
        }
        case 'ordersB':
          return expectAnswer(
            label,
            model,
            await client.ordersB({ limit }),
            predictListOrders(model, slot, limit, null),
          );
      }
    },
  };
}

/** What the advance-time row sends after moving the clock: one portfolio read per trading agent. */
export function tradingSyncCharges(model: Readonly<CheckModel>): Charge[] {
  if (!model.capabilities.trading) return [];
  return tradingSlots(model).map((slot) => ({ slot, scopes: SCOPES.tradingB }));
}

/**
 * After the clock moved (the model has run the ticks: model-trading-time.ts): reads the B
 * portfolio of every agent that had anything open in trading before the move and compares it
 * exactly with the model's, valued at the oracle's marks of the new instant: balances, margins
 * after funding, positions liquidated or not, resting orders filled or not, holds and holdings.
 */
export async function syncTradingAfterAdvance(
  model: CheckModel,
  system: CheckSystem,
  step: { label: string; slots: readonly number[] },
): Promise<void> {
  const prices = model.trading.prices;
  if (!model.capabilities.trading || prices === null) return;
  for (const slot of step.slots) {
    const agent = model.agents[slot];
    if (agent === undefined) continue;
    const label = `${step.label}, then the portfolio of a${slot} (${agent.id}) (${model.trading.liquidations} liquidation(s) so far)`;
    const marks = new Map(viewMarkets(model, slot, true).map((market) => [market, prices.mid(market, model.nowMs)]));
    expectAnswer(
      label,
      model,
      await keyed(model, system, slot).trading.portfolioB(),
      predictPortfolio(model, slot, marks),
    );
  }
}

/** a0 and a1 act most (registered first). */
const slot = fc.constantFrom(0, 0, 0, 1, 1, 2, 3);
const style = fc.constantFrom<CheckStyle>('A', 'B');
const market = fc.constantFrom<number | 'unknown'>(0, 0, 0, 1, 1, 2, 2, 'unknown');
/** Sizes: the minimum, a few USDC, just over a 10.00 balance at leverage 1, and a large notional needing leverage. */
const size = fc.constantFrom<SizeKind>(
  1_000_000n,
  2_500_000n,
  2_500_000n,
  5_000_000n,
  10_000_001n,
  40_000_000n,
  'close',
  'close',
);
const leverage = fc.constantFrom(1, 1, 2, 5, 10, 10, 0, 11);
const orderKind = fc.constantFrom<{ type: 'market' | 'limit'; limit: LimitKind }>(
  { type: 'market', limit: 'far' },
  { type: 'market', limit: 'far' },
  { type: 'market', limit: 'far' },
  { type: 'limit', limit: 'far' },
  { type: 'limit', limit: 'near' },
  { type: 'limit', limit: 'through' },
  { type: 'limit', limit: 'missing' },
);

/** The trading rows of the command table (command-table.ts adds them to its own). */
export const TRADING_SPECS: readonly { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
  {
    weight: 7,
    arbitrary: fc
      .record({
        style,
        slot,
        market,
        side: fc.constantFrom<OrderSide | 'close'>('buy', 'sell'),
        kind: orderKind,
        size,
        leverage,
      })
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
      .record({
        style,
        role: fc.constantFrom<CancelRole>('owner', 'owner', 'owner', 'outsider'),
        order: fc.oneof(
          { weight: 9, arbitrary: fc.record({ index: fc.integer({ min: 0, max: 7 }), open: fc.boolean() }) },
          { weight: 1, arbitrary: fc.constant<OrderRef>('unknown') },
        ),
      })
      .map(cancelOrderCommand),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom<TradingView>('positionsA', 'portfolioB', 'portfolioB', 'ordersB'),
        slot,
        fc.constantFrom(1, 2, 100, 101),
      )
      .map(([view, actor, limit]) => tradingViewCommand(view, actor, limit)),
  },
];
