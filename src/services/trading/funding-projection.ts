/**
 * Where liquidations can happen ahead, with funding moving the margins (funding spans,
 * funding-spans.ts): the funding of each open position is run ahead over the window of instants
 * (funding-run.ts), which gives, before each instant, a bound on its liquidation price (above it
 * for a long, below for a short) and the instant funding itself liquidates it, if any. Per
 * market, the strictest bound of its positions over the window, which the planner (funding-plan.ts)
 * searches the price path against first; only where it is crossed, the strongest bound between
 * each two instants (boundsOf), which it then searches instant by instant.
 * Remembered, as memos of pure functions of a position's terms and the path (not state): a
 * position's projection while its side, quantity and entry are unchanged and its margin is the
 * one projected for the instant reached (the run ahead is a function of those), and a market's
 * bounds while the projections of its positions are the same objects — so a plan after one fill
 * runs ahead only the position the fill changed.
 * Limits: bounds are Float32 rounded outward (a bound too strict by 1e-7 costs an early tick,
 * never a late one); at most PROJECTIONS_MAX projections and MARKETS_MAX markets' bounds are kept
 * (each memo cleared whole when full).
 */
import { freshTally, liquidationBound, runFunding, type FundingTally, type FundingTrace } from './funding-run.ts';
import { WINDOW, termsOf, windowPrices, type FundingInstants } from './funding-window.ts';
import { marketBySymbol, type Market } from './market-catalogue.ts';
import type { PriceBook } from './price-book.ts';
import type { PositionRecord } from './trading-record.ts';

const PROJECTIONS_MAX = 4_096;
const MARKETS_MAX = 1_024;
/** Outward rounding of a Float32 bound (2^-22 relative, well above Float32's half ulp). */
const OUTWARD = 2 ** -22;

export interface ProjectionInput {
  readonly prices: PriceBook;
  readonly maintenanceBps: bigint;
  readonly instants: FundingInstants;
}

/** One position run ahead over a window from instant offset `fromOffset`. */
interface PositionProjection {
  readonly side: PositionRecord['side'];
  readonly qty: bigint;
  readonly entry: bigint;
  readonly window: number;
  readonly fromOffset: number;
  /** [o]: the margin before instant offset o (after o − 1), for o ≥ fromOffset (up to the liquidation). */
  readonly margins: Float64Array;
  /** [o]: the movements (payments and receipts) of the instants from fromOffset to o − 1. */
  readonly moves: Uint16Array;
  /** The liquidation price's bound at a margin. */
  readonly bound: (marginMicro: number) => number;
  /** The offset at which funding liquidates it, or -1. */
  readonly liquidatedAt: number;
  /** Its strictest bound from fromOffset to the liquidation or the window's end (at its lowest margin), rounded outward. */
  readonly strictest: number;
}

/** A market's strongest bounds between instants (and its first funding liquidation). */
export interface MarketProjection {
  readonly market: Market;
  readonly window: number;
  /** The first offset the bounds hold (before it: none). */
  readonly fromOffset: number;
  readonly parts: readonly PositionProjection[];
  /** The highest long bound at any offset (-Infinity: none); the lowest short bound (Infinity: none). */
  readonly strictestLong: number;
  readonly strictestShort: number;
  readonly liquidatedAt: number;
}

/** A market's bounds offset by offset: [o], the highest long bound before offset o (-Infinity: none); the lowest short bound (Infinity: none). */
export interface MarketBounds {
  readonly longBounds: Float32Array;
  readonly shortBounds: Float32Array;
}

const POSITIONS = new Map<PositionRecord, PositionProjection>();
const MARKETS = new WeakMap<PriceBook, Map<string, MarketProjection>>();

/** The last answer per price book: the positions it was for, their projections, the markets' bounds. */
interface LastAnswer {
  readonly positions: readonly PositionRecord[];
  readonly parts: readonly PositionProjection[];
  readonly window: number;
  readonly fromOffset: number;
  readonly markets: MarketProjection[];
}

const LAST = new WeakMap<PriceBook, LastAnswer>();
/** A market projection's bounds offset by offset, aggregated when a plan first needs them (most never do). */
const BOUNDS = new WeakMap<MarketProjection, MarketBounds>();

/**
 * The projections of the markets of `positions` over `window` from `fromOffset` (the first instant
 * not yet funded). The last answer is given again while the same positions, in the same order,
 * still hold their projections (a plan after an early tick, or a plan between two fills elsewhere).
 */
export function marketProjections(
  input: ProjectionInput,
  positions: readonly PositionRecord[],
  window: number,
  fromOffset: number,
): MarketProjection[] {
  const last = LAST.get(input.prices);
  if (
    last !== undefined &&
    last.window === window &&
    last.fromOffset <= fromOffset &&
    stillHeld(last, positions, fromOffset)
  )
    return last.markets;
  const parts: PositionProjection[] = [];
  const markets = projectMarkets(input, positions, { window, fromOffset }, parts);
  LAST.set(input.prices, { positions, parts, window, fromOffset, markets });
  return markets;
}

/** Whether `positions` are the last answer's, each with its projection valid from `fromOffset`. */
function stillHeld(last: LastAnswer, positions: readonly PositionRecord[], fromOffset: number): boolean {
  if (last.positions.length !== positions.length) return false;
  for (let index = 0; index < positions.length; index++) {
    const position = positions[index] as PositionRecord;
    const part = last.parts[index] as PositionProjection;
    if (last.positions[index] !== position || !validFrom(part, position, fromOffset)) return false;
  }
  return true;
}

function projectMarkets(
  input: ProjectionInput,
  positions: readonly PositionRecord[],
  { window, fromOffset }: { readonly window: number; readonly fromOffset: number },
  parts: PositionProjection[],
): MarketProjection[] {
  const byMarket = new Map<string, PositionProjection[]>();
  for (const position of positions) {
    const part = positionProjection(input, position, window, fromOffset);
    parts.push(part);
    const list = byMarket.get(position.symbol);
    if (list === undefined) byMarket.set(position.symbol, [part]);
    else list.push(part);
  }
  let memo = MARKETS.get(input.prices);
  if (memo === undefined) {
    memo = new Map();
    MARKETS.set(input.prices, memo);
  }
  const found: MarketProjection[] = [];
  for (const [symbol, parts] of byMarket) {
    let market = memo.get(symbol);
    if (
      market === undefined ||
      market.window !== window ||
      market.fromOffset > fromOffset ||
      !sameParts(market.parts, parts)
    ) {
      market = aggregate(marketBySymbol(symbol) as Market, { window, fromOffset }, parts);
      if (memo.size >= MARKETS_MAX) memo.clear();
      memo.set(symbol, market);
    }
    found.push(market);
  }
  return found;
}

function sameParts(a: readonly PositionProjection[], b: readonly PositionProjection[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

/** The market's projection from `fromOffset` on (a plan never looks back): its strictest bounds; the bounds per offset wait (boundsOf). */
function aggregate(
  market: Market,
  from: { readonly window: number; readonly fromOffset: number },
  parts: readonly PositionProjection[],
): MarketProjection {
  let strictestLong = -Infinity;
  let strictestShort = Infinity;
  let liquidatedAt = -1;
  for (const part of parts) {
    if (part.side === 'long') strictestLong = Math.max(strictestLong, part.strictest);
    else strictestShort = Math.min(strictestShort, part.strictest);
    if (part.liquidatedAt >= 0 && (liquidatedAt < 0 || part.liquidatedAt < liquidatedAt))
      liquidatedAt = part.liquidatedAt;
  }
  return { market, ...from, parts, strictestLong, strictestShort, liquidatedAt };
}

/**
 * The market's bounds offset by offset from its `fromOffset` on, aggregated once per projection:
 * none is stricter than the projection's strictest (each is a position's bound at one of the
 * margins the strictest is the lowest of). Late, yet from the right margins: a position projected
 * again (which reuses its buffer) makes its market's projection anew, so the parts of one in use
 * are their positions' latest.
 */
export function boundsOf(projection: MarketProjection): MarketBounds {
  const known = BOUNDS.get(projection);
  if (known !== undefined) return known;
  const longBounds = new Float32Array(WINDOW + 1).fill(-Infinity);
  const shortBounds = new Float32Array(WINDOW + 1).fill(Infinity);
  for (const part of projection.parts) {
    const into = part.side === 'long' ? longBounds : shortBounds;
    const long = into === longBounds;
    const end = part.liquidatedAt >= 0 ? part.liquidatedAt : WINDOW;
    for (let offset = Math.max(part.fromOffset, projection.fromOffset); offset <= end; offset++) {
      const bound = outward(part.bound(part.margins[offset] as number), long);
      const held = into[offset] as number;
      if (long ? bound > held : bound < held) into[offset] = bound;
    }
  }
  const bounds = { longBounds, shortBounds };
  BOUNDS.set(projection, bounds);
  return bounds;
}

/** A bound as a Float32, rounded outward (stricter). */
function outward(exact: number, long: boolean): number {
  return Math.fround(exact + (long ? 1 : -1) * (Math.abs(exact) * OUTWARD + 1));
}

/** The bound at the lowest margin of `margins` over offsets from..end (the bound is stricter as the margin falls). */
function strictestOf(
  bound: (marginMicro: number) => number,
  margins: Float64Array,
  { from, end, long }: { readonly from: number; readonly end: number; readonly long: boolean },
): number {
  let lowest = margins[from] as number;
  for (let offset = from + 1; offset <= end; offset++) lowest = Math.min(lowest, margins[offset] as number);
  // Twice outward: stricter than any offset's bound by at least a Float32 step, whatever the roundings in between.
  return outward(outward(bound(lowest), long), long);
}

/** A position's projection, remembered while its terms and window hold and it starts no later. */
/**
 * The funding of instant offsets [from, to) of `window` from a remembered projection of
 * `position`, when one holds them and starts from the tally's margin (else null: run them).
 */
export function projectedFunding(
  position: PositionRecord,
  window: number,
  range: { readonly from: number; readonly to: number },
  tally: FundingTally,
): boolean {
  const known = POSITIONS.get(position);
  if (
    known === undefined ||
    known.window !== window ||
    known.fromOffset > range.from ||
    !sameTerms(known, position) ||
    known.margins[range.from] !== tally.marginMicro
  )
    return false;
  const to = known.liquidatedAt >= range.from && known.liquidatedAt < range.to ? known.liquidatedAt + 1 : range.to;
  // Whole numbers below 2^53: the differences are exact.
  tally.netPaidMicro += (known.margins[range.from] as number) - (known.margins[to] as number);
  tally.movements += (known.moves[to] as number) - (known.moves[range.from] as number);
  tally.marginMicro = known.margins[to] as number;
  if (known.liquidatedAt >= range.from && known.liquidatedAt < range.to) tally.liquidatedAt = known.liquidatedAt;
  return true;
}

/** Whether `part` holds `position`'s funding from `fromOffset` on (same terms, the margin it projected there, not liquidated before). */
function validFrom(part: PositionProjection, position: PositionRecord, fromOffset: number): boolean {
  return (
    part.fromOffset <= fromOffset &&
    sameTerms(part, position) &&
    part.margins[fromOffset] === Number(position.marginMicro) &&
    (part.liquidatedAt < 0 || part.liquidatedAt >= fromOffset)
  );
}

/** Whether a projection was run for the position's terms (its margin is checked where it is used). */
function sameTerms(known: PositionProjection, position: PositionRecord): boolean {
  return known.side === position.side && known.qty === position.qty && known.entry === position.entryPrice;
}

function positionProjection(
  input: ProjectionInput,
  position: PositionRecord,
  window: number,
  fromOffset: number,
): PositionProjection {
  const known = POSITIONS.get(position);
  if (known !== undefined && known.window === window && validFrom(known, position, fromOffset)) return known;
  const market = marketBySymbol(position.symbol) as Market;
  const terms = termsOf(position, input.maintenanceBps);
  // The position's last projection is stale: its buffer is reused (a century's move projects each position once per window).
  const trace: FundingTrace = {
    margins: known?.margins ?? new Float64Array(WINDOW + 1),
    moves: known?.moves ?? new Uint16Array(WINDOW + 1),
  };
  const { margins, moves } = trace;
  const tally = freshTally(position.marginMicro);
  margins[fromOffset] = tally.marginMicro;
  moves[fromOffset] = 0;
  runFunding(
    terms,
    windowPrices(input.prices, market, window, input.instants),
    tally,
    { from: fromOffset, to: WINDOW },
    trace,
  );
  const bound = liquidationBound(terms);
  const end = tally.liquidatedAt >= 0 ? tally.liquidatedAt : WINDOW;
  const strictest = strictestOf(bound, margins, { from: fromOffset, end, long: position.side === 'long' });
  const projection = {
    side: position.side,
    qty: position.qty,
    entry: position.entryPrice,
    window,
    fromOffset,
    margins,
    moves,
    bound,
    liquidatedAt: tally.liquidatedAt,
    strictest,
  };
  if (POSITIONS.size >= PROJECTIONS_MAX) POSITIONS.clear();
  POSITIONS.set(position, projection);
  return projection;
}
