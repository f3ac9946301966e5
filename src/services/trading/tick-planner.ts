/**
 * The next trading tick that can act: the first tick boundary after an instant at which a resting
 * limit order fills (its market open), a pending stop-loss or take-profit fires (its market open),
 * or an open position is liquidated. Every one of those is a threshold on the market's mid, and
 * the mid is monotone in the path's log (price-path.ts), so each becomes a band of the log
 * (a binary search over the log's 0.01% steps) and the first tick outside the band is found by
 * search (price-search.ts), per stretch of constant price shocks. A tick between two such
 * boundaries would change nothing, so the service arms its tick at the boundary found instead of
 * every minute (trading.ts): the same fills at the same instants as stepping, at a cost that
 * follows the events crossed, not the minutes.
 * Conservative by design: where a search gives up (OPEN_STEPS closures in a row, SEGMENTS_MAX
 * shock stretches) it answers the boundary it reached, and the tick there simply plans again —
 * an early tick is a no-op, a late one would be a bug.
 * Funding changes margins, hence liquidation prices: the funding timer plans again after paying
 * (trading.ts), so a plan only has to hold until the next funding instant.
 */
import type { Market } from './market-catalogue.ts';
import { marketBySymbol } from './market-catalogue.ts';
import { LOG_PPM_MAX } from './price-path.ts';
import { firstTickOutside, type LogBand } from './price-search.ts';
import type { PriceBook } from './price-book.ts';
import type { TriggerRecord } from './position-triggers.ts';
import type { OrderRecord, PositionRecord } from './trading-record.ts';

const BPS_MAX = LOG_PPM_MAX / 100;
const SEGMENTS_MAX = 64;
const OPEN_STEPS = 64;

/** One market's thresholds on the mid: the strongest of each kind (null = none of that kind). */
interface MarketThresholds {
  market: Market;
  /** Resting buys: the highest limit (fills when ask ≤ it); sells: the lowest (bid ≥ it). */
  buyLimit: bigint | null;
  sellLimit: bigint | null;
  /** Triggers firing when the mid falls to (≤) or rises to (≥) their price. */
  fallTrigger: bigint | null;
  riseTrigger: bigint | null;
  /** Liquidations: longs when the mid is ≤, shorts when ≥. */
  longLiquidation: bigint | null;
  shortLiquidation: bigint | null;
}

export interface TickPlanInput {
  readonly prices: PriceBook;
  readonly tickMs: number;
  readonly orders: readonly OrderRecord[];
  readonly triggers: readonly TriggerRecord[];
  readonly positions: readonly PositionRecord[];
  readonly liquidationOf: (position: PositionRecord) => bigint;
}

/** The first tick in [fromTick, toTick] at which something may act, or null when nothing can. */
export function nextActiveTick(input: TickPlanInput, fromTick: number, toTick: number): number | null {
  let first: number | null = null;
  for (const thresholds of thresholdsByMarket(input).values()) {
    const found = searchMarket(input, thresholds, fromTick, first === null ? toTick : first - 1);
    if (found !== null && (first === null || found < first)) first = found;
  }
  return first;
}

function thresholdsByMarket(input: TickPlanInput): Map<string, MarketThresholds> {
  const byMarket = new Map<string, MarketThresholds>();
  const of = (symbol: string): MarketThresholds => {
    let entry = byMarket.get(symbol);
    if (entry === undefined) {
      const market = marketBySymbol(symbol) as Market;
      entry = {
        market,
        buyLimit: null,
        sellLimit: null,
        fallTrigger: null,
        riseTrigger: null,
        longLiquidation: null,
        shortLiquidation: null,
      };
      byMarket.set(symbol, entry);
    }
    return entry;
  };
  for (const order of input.orders) {
    const entry = of(order.symbol);
    const limit = order.limitPrice as bigint;
    if (order.side === 'buy')
      entry.buyLimit = entry.buyLimit === null || limit > entry.buyLimit ? limit : entry.buyLimit;
    else entry.sellLimit = entry.sellLimit === null || limit < entry.sellLimit ? limit : entry.sellLimit;
  }
  for (const trigger of input.triggers) {
    const entry = of(trigger.symbol);
    const price = trigger.triggerPrice;
    if ((trigger.kind === 'stop-loss') === (trigger.side === 'long'))
      entry.fallTrigger = entry.fallTrigger === null || price > entry.fallTrigger ? price : entry.fallTrigger;
    else entry.riseTrigger = entry.riseTrigger === null || price < entry.riseTrigger ? price : entry.riseTrigger;
  }
  for (const position of input.positions) {
    const entry = of(position.symbol);
    const price = input.liquidationOf(position);
    if (position.side === 'long') {
      if (price > 0n)
        entry.longLiquidation =
          entry.longLiquidation === null || price > entry.longLiquidation ? price : entry.longLiquidation;
    } else
      entry.shortLiquidation =
        entry.shortLiquidation === null || price < entry.shortLiquidation ? price : entry.shortLiquidation;
  }
  return byMarket;
}

/** The first tick in [fromTick, toTick] at which a threshold of this market acts, stretch of shocks by stretch. */
function searchMarket(
  input: TickPlanInput,
  thresholds: MarketThresholds,
  fromTick: number,
  toTick: number,
): number | null {
  let tick = fromTick;
  for (let segment = 0; segment < SEGMENTS_MAX && tick <= toTick; segment++) {
    const shockTick = input.prices.nextShockTick(thresholds.market, tick);
    const segmentEnd = shockTick === null ? toTick : Math.min(toTick, shockTick - 1);
    const segmentBands = bands(input, thresholds, tick);
    const always = firstTickOutside(
      input.prices.seedHash,
      thresholds.market,
      { fromTick: tick, toTick: segmentEnd },
      segmentBands.always,
    );
    const whenOpen = firstOpenCrossing(input, thresholds, segmentBands.whenOpen, {
      fromTick: tick,
      toTick: always ?? segmentEnd,
    });
    if (always !== null || whenOpen !== null)
      return Math.min(always ?? Number.MAX_SAFE_INTEGER, whenOpen ?? Number.MAX_SAFE_INTEGER);
    tick = segmentEnd + 1;
  }
  return tick <= toTick ? tick : null;
}

/** The first tick in the range at which an order or trigger threshold is crossed while the market is open. */
function firstOpenCrossing(
  input: TickPlanInput,
  thresholds: MarketThresholds,
  band: LogBand,
  range: { fromTick: number; toTick: number },
): number | null {
  if (band.lowPpm === -Infinity && band.highPpm === Infinity) return null;
  let tick = range.fromTick;
  for (let step = 0; step < OPEN_STEPS; step++) {
    const hit = firstTickOutside(
      input.prices.seedHash,
      thresholds.market,
      { fromTick: tick, toTick: range.toTick },
      band,
    );
    if (hit === null || input.prices.isOpen(thresholds.market, hit * input.tickMs)) return hit;
    const openMs = input.prices.openFrom(thresholds.market, hit * input.tickMs);
    if (openMs === null) return hit + 1;
    tick = Math.ceil(openMs / input.tickMs);
    if (tick > range.toTick) return null;
  }
  return tick;
}

/** The log bands of a market's thresholds under the shocks of tick `tick`. */
function bands(
  input: TickPlanInput,
  thresholds: MarketThresholds,
  tick: number,
): { always: LogBand; whenOpen: LogBand } {
  const market = thresholds.market;
  const memo = new Map<number, bigint>();
  const mid = (bps: number): bigint => {
    let value = memo.get(bps);
    if (value === undefined) {
      value = input.prices.midOfLog(market, bps * 100, tick);
      memo.set(bps, value);
    }
    return value;
  };
  const half = (value: bigint): bigint => (value * BigInt(market.spreadBps)) / 20_000n;
  const known = bandMemo(input.prices);
  const segment = `${market.symbol}|${input.prices.nextShockTick(market, tick) ?? 'last'}`;
  const remembered = (kind: string, price: bigint, find: () => number): number => {
    const key = `${segment}|${kind}|${price}`;
    let bps = known.get(key);
    if (bps === undefined) {
      bps = find();
      if (known.size >= BAND_MEMO_MAX) known.clear();
      known.set(key, bps);
    }
    return bps;
  };
  const { buyLimit, sellLimit, fallTrigger, riseTrigger, longLiquidation, shortLiquidation } = thresholds;
  const falls = (kind: string, price: bigint | null, holds: (value: bigint) => boolean): number =>
    price === null ? -Infinity : remembered(kind, price, () => lastLowBps(mid, price, holds));
  const rises = (kind: string, price: bigint | null, holds: (value: bigint) => boolean): number =>
    price === null ? Infinity : remembered(kind, price, () => firstHighBps(mid, price, holds));
  const openLow = Math.max(
    falls('buy', buyLimit, (value) => value + half(value) <= (buyLimit as bigint)),
    falls('at-or-below', fallTrigger, (value) => value <= (fallTrigger as bigint)),
  );
  const openHigh = Math.min(
    rises('sell', sellLimit, (value) => value - half(value) >= (sellLimit as bigint)),
    rises('at-or-above', riseTrigger, (value) => value >= (riseTrigger as bigint)),
  );
  // Liquidation prices move with every funding payment: found afresh (a memo would only fill up).
  const low =
    longLiquidation === null ? -Infinity : lastLowBps(mid, longLiquidation, (value) => value <= longLiquidation);
  const high =
    shortLiquidation === null ? Infinity : firstHighBps(mid, shortLiquidation, (value) => value >= shortLiquidation);
  return {
    always: { lowPpm: toLowPpm(low), highPpm: toHighPpm(high) },
    whenOpen: { lowPpm: toLowPpm(openLow), highPpm: toHighPpm(openHigh) },
  };
}

/**
 * Steps found, per price book (its seed and shocks) and key (market, shock stretch, kind, price):
 * a memo of a pure function, not state — a limit order's step is found once, not at every plan.
 * Cleared whole when BAND_MEMO_MAX keys are held.
 */
const BAND_MEMOS = new WeakMap<PriceBook, Map<string, number>>();
const BAND_MEMO_MAX = 100_000;

function bandMemo(prices: PriceBook): Map<string, number> {
  let memo = BAND_MEMOS.get(prices);
  if (memo === undefined) {
    memo = new Map();
    BAND_MEMOS.set(prices, memo);
  }
  return memo;
}

/** A tick is at or below the band when its log's 0.01% step is at most `bps`. */
function toLowPpm(bps: number): number {
  return bps === -Infinity ? -Infinity : bps >= BPS_MAX ? LOG_PPM_MAX : bps * 100 + 99;
}

function toHighPpm(bps: number): number {
  return bps === Infinity ? Infinity : bps * 100;
}

/**
 * Where a search over the log's steps starts: the step whose mid is near `price`. A hint only
 * (floating point is allowed here because it never decides: the steps around it are checked
 * exactly, and the answer is the one boundary of a monotone predicate wherever the search starts).
 */
function hintBps(mid: (bps: number) => bigint, price: bigint): number {
  const ratio = Number(price) / Number(mid(0));
  const guess = Number.isFinite(ratio) && ratio > 0 ? Math.round(Math.log(ratio) * 10_000) : 0;
  return Math.max(-BPS_MAX, Math.min(BPS_MAX, guess));
}

/** The highest step at which `holds` (true at low mids, monotone) holds; -Infinity if none. */
function lastLowBps(mid: (bps: number) => bigint, price: bigint, holds: (value: bigint) => boolean): number {
  // Gallop from the hint to a bracket [good, bad) (holds at good, not at bad), then halve it.
  let good = hintBps(mid, price);
  let bad: number;
  if (holds(mid(good))) {
    for (let stride = 1; ; stride *= 2) {
      if (good === BPS_MAX) return BPS_MAX;
      bad = Math.min(BPS_MAX, good + stride);
      if (!holds(mid(bad))) break;
      good = bad;
    }
  } else {
    for (let stride = 1; ; stride *= 2) {
      if (good === -BPS_MAX) return -Infinity;
      bad = good;
      good = Math.max(-BPS_MAX, good - stride);
      if (holds(mid(good))) break;
    }
  }
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (holds(mid(middle))) good = middle;
    else bad = middle;
  }
  return good;
}

/** The lowest step from which `holds` (true at high mids, monotone) holds; Infinity if none. */
function firstHighBps(mid: (bps: number) => bigint, price: bigint, holds: (value: bigint) => boolean): number {
  const below = lastLowBps(mid, price, (value) => !holds(value));
  return below === -Infinity ? -BPS_MAX : below >= BPS_MAX ? Infinity : below + 1;
}
