/**
 * The next trading tick that can act when funding is applied in spans (funding-spans.ts): no
 * funding timer re-plans after each instant, so one plan looks across instants — the orders' and
 * triggers' thresholds do not move (tick-planner.ts finds them), the liquidation prices move at
 * every instant (funding-projection.ts bounds them between instants), and funding itself may
 * liquidate at an instant. Per market, the path is searched against the strongest bound over a
 * run of instants at once, halving the run only where the search finds a crossing (price-search.ts
 * per stretch of shocks), so a quiet century costs a few searches per market and window, and a
 * crossing costs a descent to its interval. Bounds are conservative: an early tick plans again.
 * Limits: a plan stops at the end of its window of instants (funding-window.ts); SEGMENTS_MAX
 * shock stretches per search (past them the boundary reached is answered, an early tick).
 */
import { boundsOf, marketProjections, type MarketProjection, type ProjectionInput } from './funding-projection.ts';
import { instantAtOrBefore } from './funding-window.ts';
import { WINDOW } from './funding-window.ts';
import { firstTickOutside } from './price-search.ts';
import { thresholdBands } from './threshold-bands.ts';
import { nextActiveTick, type TickPlanInput } from './tick-planner.ts';

const SEGMENTS_MAX = 64;

/** Per market projection: the ticks searched and the first crossing found (null: none up to toTick). */
const CROSSINGS = new WeakMap<MarketProjection, { fromTick: number; toTick: number; hit: number | null }>();

/** One plan's ticks and instants: instant offsets `from`..`to` of `window` lie in [fromTick, toTick]. */
interface PlanRange {
  readonly window: number;
  readonly from: number;
  readonly to: number;
  readonly fromTick: number;
  readonly toTick: number;
  readonly tickOf: (offset: number) => number;
}

/**
 * A tick a plan found and what may act at it: a position liquidated by its price (liquidates), an
 * order filled or a trigger fired (trades); neither at a window's end.
 */
export interface PlannedTick {
  readonly tick: number;
  readonly liquidates: boolean;
  readonly trades: boolean;
}

/** The first tick in [fromTick, toTick] at which something may act, funding included; the end of the window when nothing can before it. */
export function nextActiveTickWithFunding(
  input: TickPlanInput & ProjectionInput,
  fromTick: number,
  toTick: number,
): PlannedTick | null {
  const { periodMs, lateMs } = input.instants;
  const tickOf = (index: number): number => (index * periodMs + lateMs) / input.tickMs;
  const first = instantAtOrBefore(fromTick * input.tickMs - 1, input.instants) + 1;
  const window = Math.floor(first / WINDOW);
  const lastTick = Math.min(toTick, tickOf(window * WINDOW + WINDOW - 1));
  const acting = nextActiveTick({ ...input, positions: [] }, fromTick, lastTick);
  const endTick = acting ?? lastTick;
  const last = Math.min(instantAtOrBefore(endTick * input.tickMs, input.instants), window * WINDOW + WINDOW - 1);
  const range: PlanRange = {
    window,
    from: first - window * WINDOW,
    to: last - window * WINDOW,
    fromTick,
    toTick: endTick,
    tickOf: (offset) => tickOf(window * WINDOW + offset),
  };
  let liquidation: number | null = null;
  for (const market of marketProjections(input, input.positions, window, range.from)) {
    const hit = firstLiquidation(input, market, range);
    if (hit !== null && (liquidation === null || hit < liquidation)) liquidation = hit;
  }
  const found = acting === null ? liquidation : liquidation === null ? acting : Math.min(acting, liquidation);
  if (found === null) return lastTick < toTick ? { tick: lastTick, liquidates: false, trades: false } : null;
  return { tick: found, liquidates: liquidation === found, trades: acting === found };
}

/** The first tick of the range at which a position of the market may be liquidated (by price or by funding). */
function firstLiquidation(input: TickPlanInput, market: MarketProjection, range: PlanRange): number | null {
  const byFunding =
    market.liquidatedAt >= range.from && market.liquidatedAt <= range.to ? range.tickOf(market.liquidatedAt) : null;
  const byPrice = priceCrossing(input, market, range);
  return byPrice === null ? byFunding : byFunding === null ? byPrice : Math.min(byPrice, byFunding);
}

/**
 * The first tick of the range whose mid crosses a bound, remembered per market projection (its
 * bounds never change): a later plan of the same bounds starting no earlier reuses a crossing not
 * yet passed, or searches only past the ticks already found clear.
 */
function priceCrossing(input: TickPlanInput, market: MarketProjection, range: PlanRange): number | null {
  const known = CROSSINGS.get(market);
  if (known !== undefined && range.fromTick >= known.fromTick) {
    if (known.hit !== null && known.hit >= range.fromTick) return known.hit <= range.toTick ? known.hit : null;
    if (known.hit === null && range.toTick <= known.toTick) return null;
  }
  const clearTo = known !== undefined && known.hit === null && range.fromTick >= known.fromTick ? known.toTick : -1;
  const fromTick = Math.max(range.fromTick, clearTo + 1);
  const from = Math.max(range.from, offsetAfter(range, fromTick));
  const searched = { ...range, from, fromTick };
  // No bound per offset is crossed before the strictest is: the descent starts in the interval where it is.
  const first = strictestCrossing(input, market, searched);
  let hit: number | null = null;
  if (first !== null) {
    const lo = offsetAfter(searched, first);
    // Intervals: before offset o for o in lo..to+1 (the last one after the range's last instant).
    hit = descend(input, market, { ...searched, from: lo, fromTick: first }, lo, Math.min(range.to + 1, WINDOW));
  }
  CROSSINGS.set(market, {
    fromTick: known !== undefined && clearTo >= 0 ? known.fromTick : range.fromTick,
    toTick: range.toTick,
    hit,
  });
  return hit;
}

/** The offset of the first instant of the range at or after `tick` (range.to + 1 when none). */
function offsetAfter(range: PlanRange, tick: number): number {
  let offset = range.from;
  while (offset <= range.to && range.tickOf(offset) < tick) offset++;
  return offset;
}

/**
 * The first tick of the range at which the mid crosses the market's strictest bounds (null: none;
 * then it crosses none of the bounds per offset either, and the descent and its aggregation are
 * not needed: most markets in most windows). No bound per offset is crossed before it.
 */
function strictestCrossing(input: TickPlanInput, market: MarketProjection, range: PlanRange): number | null {
  if (market.strictestLong === -Infinity && market.strictestShort === Infinity) return null;
  if (range.toTick < range.fromTick) return null;
  const bounds = { long: market.strictestLong, short: market.strictestShort };
  return crossing(input, market, bounds, range.fromTick, range.toTick);
}

/** The first crossing in the intervals before offsets lo..hi, halving where the strongest bound is crossed. */
function descend(
  input: TickPlanInput,
  market: MarketProjection,
  range: PlanRange,
  lo: number,
  hi: number,
): number | null {
  const { longBounds, shortBounds } = boundsOf(market);
  let long = -Infinity;
  let short = Infinity;
  for (let offset = lo; offset <= hi; offset++) {
    long = Math.max(long, longBounds[offset] as number);
    short = Math.min(short, shortBounds[offset] as number);
  }
  if (long === -Infinity && short === Infinity) return null;
  const fromTick = lo === range.from ? range.fromTick : range.tickOf(lo - 1);
  const toTick = hi > range.to ? range.toTick : Math.min(range.toTick, range.tickOf(hi));
  if (toTick < fromTick) return null;
  const hit = crossing(input, market, { long, short }, fromTick, toTick);
  if (hit === null || lo === hi) return hit;
  const middle = Math.floor((lo + hi) / 2);
  return descend(input, market, range, lo, middle) ?? descend(input, market, range, middle + 1, hi);
}

/** The first tick in [fromTick, toTick] whose mid is at or through a bound, stretch of shocks by stretch. */
function crossing(
  input: TickPlanInput,
  projection: MarketProjection,
  bounds: { long: number; short: number },
  fromTick: number,
  toTick: number,
): number | null {
  const market = projection.market;
  const thresholds = {
    market,
    buyLimit: null,
    sellLimit: null,
    fallTrigger: null,
    riseTrigger: null,
    longLiquidation: bounds.long < 1 ? null : BigInt(Math.ceil(bounds.long)),
    shortLiquidation: bounds.short === Infinity ? null : BigInt(Math.max(0, Math.floor(bounds.short))),
  };
  let tick = fromTick;
  for (let segment = 0; segment < SEGMENTS_MAX && tick <= toTick; segment++) {
    const shockTick = input.prices.nextShockTick(market, tick);
    const segmentEnd = shockTick === null ? toTick : Math.min(toTick, shockTick - 1);
    const band = thresholdBands(input.prices, thresholds, tick).always;
    const hit = firstTickOutside(input.prices.seedHash, market, { fromTick: tick, toTick: segmentEnd }, band);
    if (hit !== null) return hit;
    tick = segmentEnd + 1;
  }
  return tick <= toTick ? tick : null;
}
