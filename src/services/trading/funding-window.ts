/**
 * The marks and funding rates of one market at its funding instants, computed once per market
 * and window of WINDOW instants and shared by every position in the market (funding-run.ts runs
 * them): a century's move asks for the mark at each of its 109,575 instants once per market, not
 * once per position.
 * Instant n is at n × fundingPeriodMs + lateMs (lateMs: one tick under the defect
 * `trading-funding-late`, else 0); its rate is the one quoted just before it (the period it ends),
 * its mark the mid at it, as trading.ts's funding timer reads them.
 * A memo of pure functions per price book (which fixes the seed and the shocks), not state: at
 * most WINDOWS_MAX windows (all dropped past that).
 */
import type { Market } from './market-catalogue.ts';
import type { PriceBook } from './price-book.ts';
import { FAST_MAX, type FundingTerms, type InstantPrices } from './funding-run.ts';
import type { PositionRecord } from './trading-record.ts';

/** Instants per window (≈ 1.9 years of 8-hour periods). */
export const WINDOW = 2_048;
const WINDOWS_MAX = 1_024;
const FAST_MAX_BIG = BigInt(FAST_MAX);

const MEMOS = new WeakMap<PriceBook, Map<string, InstantPrices>>();

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
  const key = `${market.symbol}|${window}|${instants.periodMs}|${instants.lateMs}`;
  let found = memo.get(key);
  if (found === undefined) {
    const marks = new Float64Array(WINDOW);
    const rates = new Int32Array(WINDOW);
    const exact: bigint[] = [];
    for (let offset = 0; offset < WINDOW; offset++) {
      const atMs = (window * WINDOW + offset) * instants.periodMs + instants.lateMs;
      const mark = prices.mid(market, atMs);
      exact.push(mark);
      marks[offset] = Number(mark);
      rates[offset] = prices.fundingRatePpm(market, atMs - 1);
    }
    const fast = exact.every((mark) => mark < FAST_MAX_BIG);
    found = { marks, rates, fast, exactMarks: fast ? null : exact };
    if (memo.size >= WINDOWS_MAX) memo.clear();
    memo.set(key, found);
  }
  return found;
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
