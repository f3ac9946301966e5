/**
 * One position's funding over a run of consecutive funding instants, in one pass: what the
 * funding timer does instant by instant (funding-instant.ts: the notional at the mark rounded
 * down, a payment rounded up and at most the margin, a receipt rounded down, then the liquidation
 * check at that mark), for a clock move that crosses thousands of instants (issue 71 part 4;
 * docs/decisions/trading.md "Funding over a span").
 * Why numbers, not bigints: a century holds 109,575 instants per position, and a bigint
 * multiplication allocates. Every quantity here is an integer below 2^53 (guarded: a position or
 * a mark past FAST_MAX takes the exact path throughout), so sums, products of a notional by a rate
 * and the remainders are exact in doubles; the two steps that are not (the notional's division of
 * qty × mark, and the margin per unit of the liquidation check) are decided in doubles only when
 * the value is farther than its rounding error from the boundary, else in bigints (`exactStep`
 * is the reference the fast path must equal, and the property test compares both with stepping).
 * A run that no instant can liquidate nor pay out (checked once against the window's reach,
 * FastStep.far: most runs of a century) checks no instant for a liquidation.
 */
import type { Micro } from '../../core/money.ts';
import { crossesLiquidation, liquidationPrice } from './perp-math.ts';
import { notionalMicro, scaled } from './price-scale.ts';
import type { PositionSide } from './trading-record.ts';

/** Integers the fast path holds exactly, with room for one addition. */
export const FAST_MAX = 2 ** 52;
const DIVISOR = 1e10;
const DIVISOR_BIG = 10_000_000_000n;
/** Relative slack of a double against its exact value: far above the ~3 ulps of two operations. */
const RELATIVE_SLACK = 1e-13;
/** 1 + the relative slack of a run's reach (PriceReach: sums of 512 rounded products), far above its error (~1e-13). */
const REACH_SLACK = 1 + 1e-9;

/** The funding instants of one market: marks (exact integers as numbers) and the period's rate (ppm). */
export interface InstantPrices {
  readonly marks: Float64Array;
  readonly rates: Int32Array;
  /** Whether every mark is below FAST_MAX (else the exact path only, with the marks as bigints). */
  readonly fast: boolean;
  readonly exactMarks: readonly bigint[] | null;
  /** What any run over these instants can reach (fast marks only; null: every instant checks for a liquidation). */
  readonly reach: PriceReach | null;
}

/**
 * What a run over a window's instants can reach: the lowest and highest mark, and the sums of
 * mark × |rate| over the instants where longs pay (rate > 0) and where shorts pay (rate < 0). A
 * run checks against them once (FastStep.far) whether any instant can liquidate its position or
 * pay out its whole margin; when none can, no instant checks for a liquidation.
 */
export interface PriceReach {
  readonly lowMark: number;
  readonly highMark: number;
  readonly longPays: number;
  readonly shortPays: number;
}

/** The reach of instants whose marks and rates these are. */
export function priceReach(marks: Float64Array, rates: Int32Array): PriceReach {
  let lowMark = Infinity;
  let highMark = -Infinity;
  let longPays = 0;
  let shortPays = 0;
  for (let index = 0; index < marks.length; index++) {
    const mark = marks[index] as number;
    const rate = rates[index] as number;
    if (mark < lowMark) lowMark = mark;
    if (mark > highMark) highMark = mark;
    if (rate > 0) longPays += mark * rate;
    else if (rate < 0) shortPays -= mark * rate;
  }
  return { lowMark, highMark, longPays, shortPays };
}

/** What does not change over a run: the position's side, quantity, entry and maintenance. */
export interface FundingTerms {
  readonly side: PositionSide;
  readonly qty: bigint;
  readonly entry: bigint;
  readonly maintenanceBps: bigint;
}

/** A position's funding so far: the margin and the movements stepping would have made. */
export interface FundingTally {
  marginMicro: number;
  /** Paid out of the margin less received into it. */
  netPaidMicro: number;
  /** The payments and receipts (each a transfer when stepping). */
  movements: number;
  /** The instant index at which the position is liquidated (after its payment there), or -1. */
  liquidatedAt: number;
}

export function freshTally(marginMicro: Micro): FundingTally {
  return {
    marginMicro: Number(marginMicro),
    netPaidMicro: 0,
    movements: 0,
    liquidatedAt: -1,
  };
}

/** Whether a position's numbers fit the fast path (its margin is checked at every instant). */
export function fastTerms(terms: FundingTerms, marginMicro: Micro): boolean {
  return terms.qty > 0n && terms.qty < FAST_MAX && terms.entry < FAST_MAX && marginMicro < FAST_MAX;
}

/**
 * The reference: one instant exactly as the funding timer computes it. Returns the signed payment
 * (> 0 paid, < 0 received) and whether the position is liquidated after it.
 */
export function exactStep(
  terms: FundingTerms,
  marginMicro: Micro,
  mark: bigint,
  rate: number,
): { paymentMicro: Micro; liquidated: boolean } {
  const notional = notionalMicro(terms.qty, mark, 'down');
  const pays = (rate > 0 && terms.side === 'long') || (rate < 0 && terms.side === 'short');
  const ratePpm = BigInt(Math.abs(rate));
  let paymentMicro = 0n;
  if (pays) {
    const owed = scaled(notional, ratePpm, 1_000_000n, 'up');
    paymentMicro = owed < marginMicro ? owed : marginMicro;
  } else if (rate !== 0) paymentMicro = -scaled(notional, ratePpm, 1_000_000n, 'down');
  const margin = marginMicro - paymentMicro;
  const liquidation = liquidationPrice({ ...terms, marginMicro: margin });
  return { paymentMicro, liquidated: crossesLiquidation(terms.side, mark, liquidation) };
}

/**
 * A run's record instant by instant (the planner's liquidation prices between instants, and the
 * funding of any part of the run, funding-projection.ts): at [index + 1], the margin after instant
 * `index` and the movements from the run's first instant through it.
 */
export interface FundingTrace {
  readonly margins: Float64Array;
  readonly moves: Uint16Array;
}

/**
 * Runs instants [from, to) of `prices` on `tally`, stopping after a liquidation (its index in
 * `liquidatedAt`), recording each instant in `trace` when given. The loop keeps its numbers in
 * locals: it runs once per position and instant.
 */
export function runFunding(
  terms: FundingTerms,
  prices: InstantPrices,
  tally: FundingTally,
  range: { readonly from: number; readonly to: number },
  trace?: FundingTrace,
): void {
  const step = prices.fast && fastTerms(terms, BigInt(tally.marginMicro)) ? new FastStep(terms) : null;
  const { marks, rates } = prices;
  // Far from liquidation over the whole run: the payments alone (each below the margin, which stays under FAST_MAX).
  const far =
    step !== null && prices.reach !== null && step.far(tally.marginMicro, prices.reach, range.to - range.from);
  const start = tally.marginMicro;
  const margins = trace?.margins;
  const counts = trace?.moves;
  let margin = start;
  let moves = 0;
  let index = range.from;
  for (; index < range.to; index++) {
    const mark = marks[index] as number;
    const rate = rates[index] as number;
    let payment: number;
    let liquidated: boolean;
    if (step !== null && (far || margin < FAST_MAX)) {
      payment = step.payment(margin, mark, rate);
      liquidated = !far && step.liquidated(margin - payment, mark);
    } else {
      const exact = exactStep(terms, BigInt(margin), prices.exactMarks?.[index] ?? BigInt(mark), rate);
      payment = Number(exact.paymentMicro);
      liquidated = exact.liquidated;
    }
    if (payment !== 0) moves++;
    margin -= payment;
    if (margins !== undefined && counts !== undefined) {
      margins[index + 1] = margin;
      counts[index + 1] = moves;
    }
    if (liquidated) break;
  }
  tally.marginMicro = margin;
  tally.netPaidMicro += start - margin;
  tally.movements += moves;
  if (index < range.to) tally.liquidatedAt = index;
}

/** The fast path's constants of one position (see the header). */
class FastStep {
  private readonly qtyBig: bigint;
  /** qty / 10^10 and 10^10 / qty: multiplications in the loop, not divisions (both inside the slack). */
  private readonly perMark: number;
  private readonly perMargin: number;
  private readonly long: boolean;
  /** Long: entry + maintenance; short: entry − maintenance (the liquidation check's constant). */
  private readonly anchor: number;

  constructor(terms: FundingTerms) {
    this.qtyBig = terms.qty;
    this.perMark = Number(terms.qty) / DIVISOR;
    this.perMargin = DIVISOR / Number(terms.qty);
    this.long = terms.side === 'long';
    const maintenance = (terms.entry * terms.maintenanceBps) / 10_000n;
    this.anchor = Number(this.long ? terms.entry + maintenance : terms.entry - maintenance);
  }

  /** floor(qty × mark / 10^10), exactly. */
  private notional(mark: number): number {
    const value = this.perMark * mark;
    const floor = Math.floor(value);
    const slack = value * RELATIVE_SLACK + 1e-9;
    if (value - floor > slack && floor + 1 - value > slack) return floor;
    return Number((this.qtyBig * BigInt(mark)) / DIVISOR_BIG);
  }

  /** The signed payment of one instant (exactStep's), in numbers. */
  payment(marginMicro: number, mark: number, rate: number): number {
    if (rate === 0) return 0;
    const notional = this.notional(mark);
    const ratePpm = rate < 0 ? -rate : rate;
    const product = notional * ratePpm;
    if (product >= FAST_MAX) {
      const exact = BigInt(notional) * BigInt(ratePpm);
      const pays = rate > 0 === this.long;
      return pays ? Math.min(marginMicro, Number((exact + 999_999n) / 1_000_000n)) : -Number(exact / 1_000_000n);
    }
    let quotient = Math.floor(product * 1e-6);
    let rest = product - quotient * 1e6;
    if (rest < 0) {
      quotient--;
      rest += 1e6;
    } else if (rest >= 1e6) {
      quotient++;
      rest -= 1e6;
    }
    if (rate > 0 === this.long) {
      const owed = rest > 0 ? quotient + 1 : quotient;
      return owed < marginMicro ? owed : marginMicro;
    }
    return -quotient;
  }

  /**
   * Whether the liquidation price at `marginMicro` is crossed at `mark`: with y = margin × 10^10 /
   * qty, a long is liquidated when y < anchor − mark + 1, a short when y < mark − anchor + 1
   * (liquidationPrice floors y; both bounds are integers).
   */
  liquidated(marginMicro: number, mark: number): boolean {
    const bound = this.long ? this.anchor - mark + 1 : mark - this.anchor + 1;
    if (bound <= 0) return false;
    const perUnit = marginMicro * this.perMargin;
    const slack = (bound + perUnit) * RELATIVE_SLACK + 1e-6;
    if (bound - perUnit > slack) return true;
    if (perUnit - bound > slack) return false;
    return BigInt(marginMicro) * DIVISOR_BIG < BigInt(bound) * this.qtyBig;
  }

  /**
   * Whether no instant of a run of at most `count` of `reach`'s instants, from `marginMicro`, can
   * liquidate the position or pay out its whole margin: had every instant paid its most (qty ×
   * mark × |rate| / 10^16, plus one for rounding up) and received nothing, the margin would still
   * be positive, and at that margin no mark of the window crosses the liquidation price (see
   * `liquidated`); nor can receipts take the margin to FAST_MAX.
   */
  far(marginMicro: number, reach: PriceReach, count: number): boolean {
    const pays = (this.long ? reach.longPays : reach.shortPays) * 1e-6 * this.perMark * REACH_SLACK;
    const receives = (this.long ? reach.shortPays : reach.longPays) * 1e-6 * this.perMark * REACH_SLACK;
    const lowest = marginMicro - pays - count - 1;
    if (!(lowest > 0) || marginMicro + receives + 1 >= FAST_MAX) return false;
    const bound = this.long ? this.anchor - reach.lowMark + 1 : reach.highMark - this.anchor + 1;
    return lowest * this.perMargin > Math.abs(bound) * REACH_SLACK + 1;
  }

  /** The liquidation price at `marginMicro`, rounded away from safety (higher for a long, lower for a short): a plan's bound. */
  boundOf(marginMicro: number): number {
    const perUnit = marginMicro * this.perMargin;
    const slack = (this.anchor + perUnit) * RELATIVE_SLACK + 2;
    return this.long ? this.anchor - perUnit + slack : this.anchor + perUnit - slack;
  }
}

/** A position's liquidation price at `marginMicro`, as a plan's conservative bound (number). */
export function liquidationBound(terms: FundingTerms): (marginMicro: number) => number {
  const step = new FastStep(terms);
  return (marginMicro) => step.boundOf(marginMicro);
}
