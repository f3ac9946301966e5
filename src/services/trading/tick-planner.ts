/**
 * The next trading tick that can act: the first tick boundary after an instant at which a resting
 * limit order fills (its market open), a pending stop-loss or take-profit fires (its market open),
 * or an open position is liquidated. Every one of those is a threshold on the market's mid, and
 * the mid is monotone in the path's log (price-path.ts), so each becomes a band of the log
 * (threshold-bands.ts: a search over the log's 0.01% steps) and the first tick outside the band is found by
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
import { firstTickOutside, type LogBand } from './price-search.ts';
import type { PriceBook } from './price-book.ts';
import type { TriggerRecord } from './position-triggers.ts';
import { thresholdBands, type MarketThresholds } from './threshold-bands.ts';
import type { OrderRecord, PositionRecord } from './trading-record.ts';

const SEGMENTS_MAX = 64;
const OPEN_STEPS = 64;

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
    const found = rememberedSearch(input, thresholds, fromTick, first === null ? toTick : first - 1);
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

/** A market's last search without shocks ahead: its bands, the ticks searched and the first tick found (null: none). */
interface Searched {
  readonly always: LogBand;
  readonly whenOpen: LogBand;
  readonly fromTick: number;
  readonly toTick: number;
  readonly hit: number | null;
}

/** Per price book and market (a memo of pure functions: the path, the bands and the closures fix the answer). */
const SEARCHED = new WeakMap<PriceBook, Map<Market, Searched>>();

/**
 * searchMarket, remembered while the market's bands stay the same and no shock lies ahead: a plan
 * starting later reuses a first tick not yet passed, or searches only past the ticks found quiet
 * (the planner's horizon grows fourfold after each plan that found nothing).
 */
function rememberedSearch(
  input: TickPlanInput,
  thresholds: MarketThresholds,
  fromTick: number,
  toTick: number,
): number | null {
  if (input.prices.nextShockTick(thresholds.market, fromTick) !== null)
    return searchMarket(input, thresholds, fromTick, toTick);
  const bands = thresholdBands(input.prices, thresholds, fromTick);
  let memo = SEARCHED.get(input.prices);
  if (memo === undefined) {
    memo = new Map();
    SEARCHED.set(input.prices, memo);
  }
  const known = memo.get(thresholds.market);
  const same = known !== undefined && sameBand(known.always, bands.always) && sameBand(known.whenOpen, bands.whenOpen);
  if (same && fromTick >= known.fromTick) {
    if (known.hit !== null && known.hit >= fromTick) return known.hit <= toTick ? known.hit : null;
    if (known.hit === null && toTick <= known.toTick) return null;
  }
  const quietTo = same && known.hit === null && fromTick >= known.fromTick ? known.toTick : fromTick - 1;
  const hit = searchMarket(input, thresholds, Math.max(fromTick, quietTo + 1), toTick);
  const start = quietTo >= fromTick ? (known as Searched).fromTick : fromTick;
  memo.set(thresholds.market, { ...bands, fromTick: start, toTick, hit });
  return hit;
}

function sameBand(a: LogBand, b: LogBand): boolean {
  return a.lowPpm === b.lowPpm && a.highPpm === b.highPpm;
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
    const segmentBands = thresholdBands(input.prices, thresholds, tick);
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
