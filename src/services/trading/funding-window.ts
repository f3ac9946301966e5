/**
 * The marks and funding rates of one market at its funding instants, computed once per market
 * and window of WINDOW instants and shared by every position in the market (funding-run.ts runs
 * them): a century's move asks for the mark at each of its 109,575 instants once per market, not
 * once per position.
 * Instant n is at n × fundingPeriodMs + lateMs (lateMs: one tick under the defect
 * `trading-funding-late`, else 0); its rate is the one quoted just before it (the period it ends),
 * its mark the mid at it, as trading.ts's funding timer reads them.
 * A memo of pure functions per price book (which fixes the seed and the shocks), not state: at
 * most KEPT windows per market (the oldest dropped first).
 */
import type { Market } from './market-catalogue.ts';
import { TICK_SHIFT_MAX } from './path-cursor.ts';
import { pathKeyOf, type PathKey } from './path-key.ts';
import type { PriceBook } from './price-book.ts';
import { FAST_MAX, priceReach, type FundingTerms, type InstantPrices } from './funding-run.ts';
import type { PositionRecord } from './trading-record.ts';

/** Instants per window (≈ 170 days of 8-hour periods): the longest a plan runs every position ahead at once. */
export const WINDOW = 512;

/** Windows kept per market (a move goes forward: the one in use and the one before). */
const KEPT = 2;
/** The logs of the window being computed (read within computeWindow only: one buffer, not one a window). */
const LOGS = new Float64Array(WINDOW);

/** A market's window of instants, kept: which instants (period, lateness) and which window. */
interface KeptWindow {
  readonly periodMs: number;
  readonly lateMs: number;
  readonly window: number;
  readonly prices: InstantPrices;
}

/** Per price book and market: its latest windows, newest last (looked up once per position and window: no key text). */
const MEMOS = new WeakMap<PriceBook, Map<Market, KeptWindow[]>>();

/** Window `window`'s instants of `market`. */
export function windowPrices(
  prices: PriceBook,
  market: Market,
  window: number,
  instants: { readonly periodMs: number; readonly lateMs: number },
): InstantPrices {
  let memo = MEMOS.get(prices);
  if (memo === undefined) {
    memo = new Map();
    MEMOS.set(prices, memo);
  }
  let kept = memo.get(market);
  if (kept === undefined) {
    kept = [];
    memo.set(market, kept);
  }
  const { periodMs, lateMs } = instants;
  for (const entry of kept)
    if (entry.window === window && entry.periodMs === periodMs && entry.lateMs === lateMs) return entry.prices;
  const computed = computeWindow(prices, market, window, instants);
  kept.push({ periodMs, lateMs, window, prices: computed });
  if (kept.length > KEPT) kept.shift();
  return computed;
}

function computeWindow(
  prices: PriceBook,
  market: Market,
  window: number,
  instants: { readonly periodMs: number; readonly lateMs: number },
): InstantPrices {
  const marks = new Float64Array(WINDOW);
  const rates = new Int32Array(WINDOW);
  const exactMarks: bigint[] = [];
  const key = pathKeyOf(prices.seedHash, market);
  // Without shocks the mid is the path's price (at least 1): read from the market's PathKey directly.
  const shockFree = prices.shockFree(market);
  const logs = shockFree ? windowLogs(prices, key, window, instants) : null;
  let fast = true;
  for (let offset = 0; offset < WINDOW; offset++) {
    const atMs = (window * WINDOW + offset) * instants.periodMs + instants.lateMs;
    const tick = prices.tickOf(atMs);
    // Shock-free, the mark is the path's step price (at least 1), read as a number: no bigint per instant.
    const mark =
      logs !== null
        ? key.stepNumber(logs[offset] as number)
        : shockFree
          ? key.stepNumber(key.cursor.at(tick))
          : markOf(prices.midAtTick(market, tick));
    if (mark >= FAST_MAX) fast = false;
    marks[offset] = mark;
    rates[offset] = key.fundingRatePpm(prices.fundingPeriodOf(atMs - 1));
  }
  if (fast) return { marks, rates, fast, exactMarks: null, reach: priceReach(marks, rates) };
  // A mark past FAST_MAX (a shocked or extreme price): the exact marks, read again.
  for (let offset = 0; offset < WINDOW; offset++) {
    const tick = prices.tickOf((window * WINDOW + offset) * instants.periodMs + instants.lateMs);
    const mark = shockFree ? key.priceAt(tick) : prices.midAtTick(market, tick);
    exactMarks.push(mark < 1n ? 1n : mark);
  }
  return { marks, rates, fast, exactMarks, reach: null };
}

/**
 * The path's logs at the window's instants, all at once (PathCursor.atEvery) when instants are a
 * whole number of ticks apart (8 hours of one-minute ticks: 480), else null (read one by one).
 */
function windowLogs(
  prices: PriceBook,
  key: PathKey,
  window: number,
  instants: { readonly periodMs: number; readonly lateMs: number },
): Float64Array | null {
  const stride = prices.wholeTicks(instants.periodMs);
  if (stride === null) return null;
  const first = prices.tickOf(window * WINDOW * instants.periodMs + instants.lateMs);
  if (first + stride * (WINDOW - 1) > TICK_SHIFT_MAX) return null;
  key.cursor.atEvery(first, stride, LOGS);
  return LOGS;
}

/** A shocked mid as a mark: at least 1, as a number (exact below FAST_MAX; past it the window reads the bigints again). */
function markOf(mid: bigint): number {
  return mid < 1n ? 1 : Number(mid);
}

/** Funding instant n is at n × periodMs + lateMs. */
export interface FundingInstants {
  readonly periodMs: number;
  readonly lateMs: number;
}

/** The index of the last funding instant at or before `ms`. */
export function instantAtOrBefore(ms: number, instants: FundingInstants): number {
  return Math.floor((ms - instants.lateMs) / instants.periodMs);
}

export function termsOf(position: PositionRecord, maintenanceBps: bigint): FundingTerms {
  return { side: position.side, qty: position.qty, entry: position.entryPrice, maintenanceBps };
}
