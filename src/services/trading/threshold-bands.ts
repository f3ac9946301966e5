/**
 * The bands of the path's log (price-search.ts) inside which none of a market's thresholds acts:
 * the mid is monotone in the log's 0.01% steps, so each threshold on the mid (a limit, a trigger, a
 * liquidation price) becomes a step, found by search over the steps (tick-planner.ts plans with
 * the bands).
 * Remembered between plans, as memos of pure functions (not state; per price book, which fixes the
 * seed and the shocks): a market's bands for its last thresholds and shock stretch (a century's
 * move plans again after each of its 109,575 funding instants, mostly with the same orders and
 * triggers), a limit or trigger price's step (found once, not at every plan), and each side's last
 * liquidation step — liquidation prices move a little with every funding payment, so that search
 * starts from the step found last and usually checks two steps.
 * Limits: BAND_MEMO_MAX steps per price book and MARKETS_MAX markets' bands (each cleared whole
 * when full).
 */
import type { Market } from './market-catalogue.ts';
import type { PriceBook } from './price-book.ts';
import { LOG_PPM_MAX } from './price-path.ts';
import type { LogBand } from './price-search.ts';

const BPS_MAX = LOG_PPM_MAX / 100;
const BAND_MEMO_MAX = 100_000;
const MARKETS_MAX = 1_024;

/** One market's thresholds on the mid: the strongest of each kind (null = none of that kind). */
export interface MarketThresholds {
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

/** `always`: the liquidations' band; `whenOpen`: the orders' and triggers' (they act only while the market is open). */
export interface MarketBands {
  readonly always: LogBand;
  readonly whenOpen: LogBand;
}

/** A market's bands as last found, with what they were found for. */
interface Remembered {
  readonly thresholds: MarketThresholds;
  /** The shock stretch: the tick of the next shock after the plan's tick, or null. */
  readonly stretch: number | null;
  /** The steps of the liquidation band (-Infinity / Infinity: none). */
  readonly lowBps: number;
  readonly highBps: number;
  readonly bands: MarketBands;
}

interface BookMemo {
  /** `${symbol}|${stretch}|${kind}|${price}` → step. */
  readonly steps: Map<string, number>;
  readonly markets: Map<Market, Remembered>;
}

const MEMOS = new WeakMap<PriceBook, BookMemo>();

/** The bands of `thresholds` under the shocks of tick `tick`. */
export function thresholdBands(prices: PriceBook, thresholds: MarketThresholds, tick: number): MarketBands {
  const market = thresholds.market;
  let memo = MEMOS.get(prices);
  if (memo === undefined) {
    memo = { steps: new Map(), markets: new Map() };
    MEMOS.set(prices, memo);
  }
  const stretch = prices.nextShockTick(market, tick);
  const last = memo.markets.get(market);
  const sameStretch = last !== undefined && last.stretch === stretch;
  const sameOpen =
    sameStretch &&
    last.thresholds.buyLimit === thresholds.buyLimit &&
    last.thresholds.sellLimit === thresholds.sellLimit &&
    last.thresholds.fallTrigger === thresholds.fallTrigger &&
    last.thresholds.riseTrigger === thresholds.riseTrigger;
  if (
    sameOpen &&
    last.thresholds.longLiquidation === thresholds.longLiquidation &&
    last.thresholds.shortLiquidation === thresholds.shortLiquidation
  )
    return last.bands;
  const steps = new StepSearch(prices, market, tick);
  const whenOpen = sameOpen
    ? last.bands.whenOpen
    : openBand(steps, memo.steps, thresholds, `${market.symbol}|${stretch}`);
  const { longLiquidation, shortLiquidation } = thresholds;
  const lowBps =
    longLiquidation === null
      ? -Infinity
      : steps.lastLow(longLiquidation, (value) => value <= longLiquidation, hintOf(sameStretch ? last.lowBps : null));
  const highBps =
    shortLiquidation === null
      ? Infinity
      : steps.firstHigh(
          shortLiquidation,
          (value) => value >= shortLiquidation,
          hintOf(sameStretch ? last.highBps : null),
        );
  const bands = { always: { lowPpm: toLowPpm(lowBps), highPpm: toHighPpm(highBps) }, whenOpen };
  if (memo.markets.size >= MARKETS_MAX) memo.markets.clear();
  // The thresholds are the plan's own object (thresholdsByMarket builds one per plan), not changed after.
  memo.markets.set(market, { thresholds, stretch, lowBps, highBps, bands });
  return bands;
}

/** The band of the orders and triggers: each price's step remembered in `known` under `prefix` (market and shock stretch). */
function openBand(
  steps: StepSearch,
  known: Map<string, number>,
  thresholds: MarketThresholds,
  prefix: string,
): LogBand {
  const remembered = (kind: string, price: bigint, find: () => number): number => {
    const key = `${prefix}|${kind}|${price}`;
    let bps = known.get(key);
    if (bps === undefined) {
      bps = find();
      if (known.size >= BAND_MEMO_MAX) known.clear();
      known.set(key, bps);
    }
    return bps;
  };
  const half = (value: bigint): bigint => (value * BigInt(thresholds.market.spreadBps)) / 20_000n;
  const falls = (kind: string, price: bigint | null, holds: (value: bigint) => boolean): number =>
    price === null ? -Infinity : remembered(kind, price, () => steps.lastLow(price, holds));
  const rises = (kind: string, price: bigint | null, holds: (value: bigint) => boolean): number =>
    price === null ? Infinity : remembered(kind, price, () => steps.firstHigh(price, holds));
  const { buyLimit, sellLimit, fallTrigger, riseTrigger } = thresholds;
  const low = Math.max(
    falls('buy', buyLimit, (value) => value + half(value) <= (buyLimit as bigint)),
    falls('at-or-below', fallTrigger, (value) => value <= (fallTrigger as bigint)),
  );
  const high = Math.min(
    rises('sell', sellLimit, (value) => value - half(value) >= (sellLimit as bigint)),
    rises('at-or-above', riseTrigger, (value) => value >= (riseTrigger as bigint)),
  );
  return { lowPpm: toLowPpm(low), highPpm: toHighPpm(high) };
}

/** A step remembered as a hint, when it is one (a search that found none has no step to start from). */
function hintOf(bps: number | null): number | undefined {
  return bps !== null && Number.isFinite(bps) ? Math.max(-BPS_MAX, Math.min(BPS_MAX, bps)) : undefined;
}

/** A tick is at or below the band when its log's 0.01% step is at most `bps`. */
function toLowPpm(bps: number): number {
  return bps === -Infinity ? -Infinity : bps >= BPS_MAX ? LOG_PPM_MAX : bps * 100 + 99;
}

function toHighPpm(bps: number): number {
  return bps === Infinity ? Infinity : bps * 100;
}

/** Searches over the steps of one market's log under the shocks of one tick (mids computed once per search). */
class StepSearch {
  private readonly prices: PriceBook;
  private readonly market: Market;
  private readonly tick: number;
  private readonly mids = new Map<number, bigint>();

  constructor(prices: PriceBook, market: Market, tick: number) {
    this.prices = prices;
    this.market = market;
    this.tick = tick;
  }

  private mid(bps: number): bigint {
    let value = this.mids.get(bps);
    if (value === undefined) {
      value = this.prices.midOfLog(this.market, bps * 100, this.tick);
      this.mids.set(bps, value);
    }
    return value;
  }

  /**
   * Where a search starts without a hint: the step whose mid is near `price`. A hint only
   * (floating point is allowed here because it never decides: the steps around it are checked
   * exactly, and the answer is the one boundary of a monotone predicate wherever the search starts).
   */
  private guess(price: bigint): number {
    const ratio = Number(price) / Number(this.mid(0));
    const guess = Number.isFinite(ratio) && ratio > 0 ? Math.round(Math.log(ratio) * 10_000) : 0;
    return Math.max(-BPS_MAX, Math.min(BPS_MAX, guess));
  }

  /** The highest step at which `holds` (true at low mids, monotone) holds; -Infinity if none. `hint`: a step to start from. */
  lastLow(price: bigint, holds: (value: bigint) => boolean, hint?: number): number {
    // Gallop from the hint to a bracket [good, bad) (holds at good, not at bad), then halve it.
    let good = hint ?? this.guess(price);
    let bad: number;
    if (holds(this.mid(good))) {
      for (let stride = 1; ; stride *= 2) {
        if (good === BPS_MAX) return BPS_MAX;
        bad = Math.min(BPS_MAX, good + stride);
        if (!holds(this.mid(bad))) break;
        good = bad;
      }
    } else {
      for (let stride = 1; ; stride *= 2) {
        if (good === -BPS_MAX) return -Infinity;
        bad = good;
        good = Math.max(-BPS_MAX, good - stride);
        if (holds(this.mid(good))) break;
      }
    }
    while (bad - good > 1) {
      const middle = Math.floor((good + bad) / 2);
      if (holds(this.mid(middle))) good = middle;
      else bad = middle;
    }
    return good;
  }

  /** The lowest step from which `holds` (true at high mids, monotone) holds; Infinity if none. `hint`: a step to start from. */
  firstHigh(price: bigint, holds: (value: bigint) => boolean, hint?: number): number {
    const start = hint === undefined ? undefined : Math.max(-BPS_MAX, hint - 1);
    const below = this.lastLow(price, (value) => !holds(value), start);
    return below === -Infinity ? -BPS_MAX : below >= BPS_MAX ? Infinity : below + 1;
  }
}
