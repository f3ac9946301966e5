/**
 * Exact Jacks or Better analysis: the expected return and the payout law of every hold, and the
 * optimal hold of any dealt hand, by the standard subset-table method.
 *
 * Tables: every one of the C(52,5) = 2,598,960 hands is classified once; for each of its 32
 * subsets X the hand's pay is added to paySum[X] (and, for the law tables, its class to
 * classCounts[X]). Subsets are indexed by size then colex rank (Σ C(card_i, i + 1) over the
 * sorted cards), 2,893,164 in all. The final hands from holding H of a dealt hand D are the
 * 5-card hands that contain H and none of the discarded cards D \ H, so by inclusion–exclusion
 * their pay total is Σ_{T ⊆ D\H} (−1)^|T| paySum[H ∪ T], over C(47, 5 − |H|) equally likely draws.
 *
 * Invariants: all arithmetic is on integers below 2^53 (pay totals ≤ 800·C(47,5) and their
 * cross products ≤ 2·10^15), so comparisons of expected returns are exact. The optimal hold
 * is a function of the SET of cards (ties go to the lowest hold mask over the sorted cards),
 * which is what lets enumerateOptimalPlay (sorted hands) state the law of play (dealt order).
 * Cost: paySum builds in a few seconds (23 MB); classCounts (116 MB) only when a law is asked.
 */
import { assert } from '../../../core/assert.ts';
import { add, ratio, ZERO, type Ratio } from '../../../core/ratio.ts';
import type { Card } from './cards.ts';
import type { Chance } from './game.ts';
import { HAND_CLASS_COUNT, PAY_TABLE, classifyHand, lawFromClassChances, popcount } from './video-poker-hand.ts';

const HAND_SIZE = 5;
const MASKS = 1 << HAND_SIZE;
const FULL_MASK = MASKS - 1;

/** BINOMIAL[n * 6 + k] = C(n, k) for n ≤ 52, k ≤ 5. */
const BINOMIAL = new Float64Array(53 * 6);
for (let n = 0; n <= 52; n++) {
  BINOMIAL[n * 6] = 1;
  for (let k = 1; k <= 5; k++)
    BINOMIAL[n * 6 + k] = n === 0 ? 0 : (BINOMIAL[(n - 1) * 6 + k - 1] ?? 0) + (BINOMIAL[(n - 1) * 6 + k] ?? 0);
}
const binomial = (n: number, k: number): number => BINOMIAL[n * 6 + k] ?? 0;

const SUBSET_OFFSETS = [0, 1, 2, 3, 4, 5].map((size) =>
  [0, 1, 2, 3, 4].filter((k) => k < size).reduce((sum, k) => sum + binomial(52, k), 0),
);
export const SUBSET_COUNT = [0, 1, 2, 3, 4, 5].reduce((sum, k) => sum + binomial(52, k), 0);
const MASK_SIZE = Int8Array.from({ length: MASKS }, (_, mask) => popcount(mask));
const MASK_SIGN = Int8Array.from({ length: MASKS }, (_, mask) => (popcount(mask) % 2 === 0 ? 1 : -1));
/** Draws for the discarded cards: C(47, discards). */
const DRAW_COUNTS = [0, 1, 2, 3, 4, 5].map((discards) => binomial(47, discards));

/** Per non-empty mask: its highest slot, which holds position `size` (the mask's size) in the subset. */
const MASK_HIGH_SLOT = Int8Array.from({ length: MASKS }, (_, mask) => 31 - Math.clz32(mask));
/** Per non-empty mask: the offset of its size less the offset of the size below. */
const MASK_OFFSET_STEP = Float64Array.from({ length: MASKS }, (_, mask) =>
  mask === 0 ? 0 : (SUBSET_OFFSETS[MASK_SIZE[mask] ?? 0] ?? 0) - (SUBSET_OFFSETS[(MASK_SIZE[mask] ?? 0) - 1] ?? 0),
);

/**
 * The indexes of the 32 subsets of five sorted cards, by mask over their positions. A mask's
 * index is its parent's (the mask without its highest slot) plus that card's colex term at
 * position `size` and the step between the two sizes' offsets: one sum per mask, not five.
 */
export function subsetIndexes(sorted: ArrayLike<number>, out: Int32Array): void {
  out[0] = SUBSET_OFFSETS[0] ?? 0;
  for (let mask = 1; mask < MASKS; mask++) {
    const high = MASK_HIGH_SLOT[mask] ?? 0;
    out[mask] =
      (out[mask ^ (1 << high)] ?? 0) +
      (MASK_OFFSET_STEP[mask] ?? 0) +
      (BINOMIAL[(sorted[high] ?? 0) * 6 + (MASK_SIZE[mask] ?? 0)] ?? 0);
  }
}

/** Calls `visit` once per 5-card hand (sorted, colex order) with its class and subset indexes. */
function forEachHand(visit: (handClass: number, indexes: Int32Array, sorted: Int32Array) => void): void {
  const sorted = new Int32Array(HAND_SIZE);
  const indexes = new Int32Array(MASKS);
  for (let e = 4; e < 52; e++)
    for (let d = 3; d < e; d++)
      for (let c = 2; c < d; c++)
        for (let b = 1; b < c; b++)
          for (let a = 0; a < b; a++) {
            sorted[0] = a;
            sorted[1] = b;
            sorted[2] = c;
            sorted[3] = d;
            sorted[4] = e;
            subsetIndexes(sorted, indexes);
            visit(classifyHand(a, b, c, d, e), indexes, sorted);
          }
}

let paySumTable: Float64Array | undefined;
let classCountTable: Int32Array | undefined;

/** paySum[X]: total pay of the 5-card hands containing subset X (built once, lazily). */
export function paySums(): Float64Array {
  if (paySumTable !== undefined) return paySumTable;
  const table = new Float64Array(SUBSET_COUNT);
  forEachHand((handClass, indexes) => {
    const pay = PAY_TABLE[handClass] ?? 0;
    if (pay === 0) return;
    for (let mask = 0; mask < MASKS; mask++) {
      const index = indexes[mask] ?? 0;
      table[index] = (table[index] ?? 0) + pay;
    }
  });
  paySumTable = table;
  return table;
}

/** classCounts[X * 10 + class]: how many 5-card hands containing X have that class. */
export function classCounts(): Int32Array {
  if (classCountTable !== undefined) return classCountTable;
  const table = new Int32Array(SUBSET_COUNT * HAND_CLASS_COUNT);
  forEachHand((handClass, indexes) => {
    for (let mask = 0; mask < MASKS; mask++) {
      const index = (indexes[mask] ?? 0) * HAND_CLASS_COUNT + handClass;
      table[index] = (table[index] ?? 0) + 1;
    }
  });
  classCountTable = table;
  return table;
}

/** Scratch for `bestHoldMask`: the 32 holds' pay totals of one hand (one hand at a time, no await). */
const holdTotals = new Float64Array(MASKS);

/**
 * The optimal hold mask over five SORTED cards whose subset indexes are given. Every hold's total
 * (`holdPayTotal`) at once: the alternating sums over supersets are a Möbius transform over the five
 * slots, 5 × 16 subtractions from the 32 subsets' pay sums instead of 243 look-ups (the same integers).
 */
function bestHoldMask(indexes: Int32Array, pay: Float64Array): number {
  for (let mask = 0; mask < MASKS; mask++) holdTotals[mask] = pay[indexes[mask] ?? 0] ?? 0;
  for (let slot = 0; slot < HAND_SIZE; slot++) {
    const bit = 1 << slot;
    for (let mask = 0; mask < MASKS; mask++)
      if ((mask & bit) === 0) holdTotals[mask] = (holdTotals[mask] ?? 0) - (holdTotals[mask | bit] ?? 0);
  }
  let bestMask = 0;
  let bestTotal = -1;
  let bestDraws = 1;
  for (let hold = 0; hold < MASKS; hold++) {
    const total = holdTotals[hold] ?? 0;
    const draws = DRAW_COUNTS[HAND_SIZE - (MASK_SIZE[hold] ?? 0)] ?? 1;
    if (total * bestDraws > bestTotal * draws) {
      bestMask = hold;
      bestTotal = total;
      bestDraws = draws;
    }
  }
  return bestMask;
}

/** Total pay over the C(47, discards) final hands of holding `hold` (inclusion–exclusion). */
function holdPayTotal(indexes: Int32Array, hold: number, pay: Float64Array): number {
  const discard = FULL_MASK ^ hold;
  let total = 0;
  for (let taken = discard; ; taken = (taken - 1) & discard) {
    total += (MASK_SIGN[taken] ?? 0) * (pay[indexes[hold | taken] ?? 0] ?? 0);
    if (taken === 0) break;
  }
  return total;
}

/** Class counts of the final hands when holding `hold` (mask over the sorted cards). */
function holdClassCounts(indexes: Int32Array, hold: number, counts: Int32Array, out: Float64Array): void {
  out.fill(0);
  const discard = FULL_MASK ^ hold;
  for (let taken = discard; ; taken = (taken - 1) & discard) {
    const sign = MASK_SIGN[taken] ?? 0;
    const base = (indexes[hold | taken] ?? 0) * HAND_CLASS_COUNT;
    for (let handClass = 0; handClass < HAND_CLASS_COUNT; handClass++)
      out[handClass] = (out[handClass] ?? 0) + sign * (counts[base + handClass] ?? 0);
    if (taken === 0) break;
  }
}

interface SortedHand {
  readonly indexes: Int32Array;
  /** order[i] = the dealt position of the i-th smallest card. */
  readonly order: number[];
}

function sortHand(hand: readonly Card[]): SortedHand {
  assert(hand.length === HAND_SIZE && new Set(hand).size === HAND_SIZE, 'a video poker hand is five distinct cards');
  const order = [0, 1, 2, 3, 4].sort((x, y) => (hand[x] ?? 0) - (hand[y] ?? 0));
  const indexes = new Int32Array(MASKS);
  subsetIndexes(
    order.map((position) => hand[position] ?? 0),
    indexes,
  );
  return { indexes, order };
}

const toPositions = (sorted: SortedHand, mask: number): number[] =>
  sorted.order.filter((_, slot) => (mask & (1 << slot)) !== 0).sort((x, y) => x - y);

function toMask(sorted: SortedHand, positions: readonly number[]): number {
  assert(
    positions.every((position) => Number.isSafeInteger(position) && position >= 0 && position < HAND_SIZE) &&
      new Set(positions).size === positions.length,
    'held positions are distinct, 0 to 4',
  );
  return sorted.order.reduce((mask, position, slot) => (positions.includes(position) ? mask | (1 << slot) : mask), 0);
}

/** The dealt positions (ascending) that the optimal strategy holds. */
export function optimalHolds(hand: readonly Card[]): number[] {
  const sorted = sortHand(hand);
  return toPositions(sorted, bestHoldMask(sorted.indexes, paySums()));
}

/** Exact expected total return of holding `positions` of `hand` (optimal play maximises it). */
export function holdExpectedReturn(hand: readonly Card[], positions: readonly number[]): Ratio {
  const sorted = sortHand(hand);
  const hold = toMask(sorted, positions);
  return ratio(holdPayTotal(sorted.indexes, hold, paySums()), DRAW_COUNTS[HAND_SIZE - (MASK_SIZE[hold] ?? 0)] ?? 1);
}

/** Exact law of the multiplier when holding `positions` of `hand` (classes with chance 0 left out). */
export function holdLaw(hand: readonly Card[], positions: readonly number[]): Chance[] {
  const sorted = sortHand(hand);
  const mask = toMask(sorted, positions);
  const out = new Float64Array(HAND_CLASS_COUNT);
  holdClassCounts(sorted.indexes, mask, classCounts(), out);
  const draws = DRAW_COUNTS[HAND_SIZE - (MASK_SIZE[mask] ?? 0)] ?? 1;
  return lawFromClassChances([...out].map((count) => ratio(count, draws)));
}

/**
 * The exact law of optimal play over all C(52,5) deals, class by class (probability of each
 * pay line, nothing included). `lowestCardMin` restricts the enumeration to deals whose lowest
 * card is at least that (a reduced case for tests); the probabilities are then conditional.
 */
export function enumerateOptimalPlay(lowestCardMin = 0): Ratio[] {
  const pay = paySums();
  const counts = classCounts();
  /** sums[discards * 10 + class]: Σ over deals of final hands of that class (integers < 2^53). */
  const sums = new Float64Array(6 * HAND_CLASS_COUNT);
  const out = new Float64Array(HAND_CLASS_COUNT);
  let deals = 0;
  forEachHand((_handClass, indexes, sorted) => {
    if ((sorted[0] ?? 0) < lowestCardMin) return;
    deals++;
    const hold = bestHoldMask(indexes, pay);
    holdClassCounts(indexes, hold, counts, out);
    const base = (HAND_SIZE - (MASK_SIZE[hold] ?? 0)) * HAND_CLASS_COUNT;
    for (let handClass = 0; handClass < HAND_CLASS_COUNT; handClass++)
      sums[base + handClass] = (sums[base + handClass] ?? 0) + (out[handClass] ?? 0);
  });
  return Array.from({ length: HAND_CLASS_COUNT }, (_, handClass) => {
    let chance = ZERO;
    for (let discards = 0; discards <= HAND_SIZE; discards++) {
      chance = add(
        chance,
        ratio(sums[discards * HAND_CLASS_COUNT + handClass] ?? 0, (DRAW_COUNTS[discards] ?? 1) * deals),
      );
    }
    return chance;
  });
}
