/**
 * Slots (id slots, POST /games/slots, no parameters): 3 reels of 7 symbols; one payline, and
 * only its highest matching line pays. casino.md's payouts as printed: three 7s 250x, three BAR
 * 50x, three BELL 25x, three CHERRY 10x, three LEMON, ORANGE or GRAPE 5x, BAR BAR 5x, two CHERRY
 * 2x, one CHERRY on reel 1 1x (a push). afp's choices: partial lines read from the left — BAR BAR
 * is BAR on reels 1 and 2, two CHERRY is CHERRY on reels 1 and 2 — and every reel has the same
 * 100 weighted stops below, which give an edge of 4027/100000 = 4.027% ("about 4%").
 *
 * Draw mapping: per reel, left to right, stop = int(100); the symbol is the first of
 * 7, BAR, BELL, CHERRY, LEMON, ORANGE, GRAPE whose running weight (3, 9, 23, 58, 72, 86, 100)
 * exceeds the stop.
 */
import { assert } from '../../../core/assert.ts';
import { ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { chancesFromCounts, weightTotal, weightedIndex, type CountedOutcome } from './chances.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { NO_PARAMS, type NoParams } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export const SLOTS_SYMBOLS = ['7', 'BAR', 'BELL', 'CHERRY', 'LEMON', 'ORANGE', 'GRAPE'] as const;
export type SlotsSymbol = (typeof SLOTS_SYMBOLS)[number];

type ReelWeights = readonly number[];

/** Stops per symbol (in SLOTS_SYMBOLS order) of each reel, left to right; each reel totals 100. */
export const SLOTS_REEL_WEIGHTS: readonly [ReelWeights, ReelWeights, ReelWeights] = [
  [3, 6, 14, 35, 14, 14, 14],
  [3, 6, 14, 35, 14, 14, 14],
  [3, 6, 14, 35, 14, 14, 14],
];

export type SlotsReels = readonly [SlotsSymbol, SlotsSymbol, SlotsSymbol];

export interface SlotsLine {
  readonly name: string;
  readonly multiplier: Ratio;
  matches(reels: SlotsReels): boolean;
}

const three =
  (symbol: SlotsSymbol) =>
  (reels: SlotsReels): boolean =>
    reels.every((reel) => reel === symbol);
const leftTwo =
  (symbol: SlotsSymbol) =>
  (reels: SlotsReels): boolean =>
    reels[0] === symbol && reels[1] === symbol;

/** The paylines, highest first: the first that matches pays, no other. */
export const SLOTS_LINES: readonly SlotsLine[] = [
  { name: 'three_7', multiplier: ratio(250n), matches: three('7') },
  { name: 'three_bar', multiplier: ratio(50n), matches: three('BAR') },
  { name: 'three_bell', multiplier: ratio(25n), matches: three('BELL') },
  { name: 'three_cherry', multiplier: ratio(10n), matches: three('CHERRY') },
  { name: 'three_lemon', multiplier: ratio(5n), matches: three('LEMON') },
  { name: 'three_orange', multiplier: ratio(5n), matches: three('ORANGE') },
  { name: 'three_grape', multiplier: ratio(5n), matches: three('GRAPE') },
  { name: 'bar_bar', multiplier: ratio(5n), matches: leftTwo('BAR') },
  { name: 'two_cherry', multiplier: ratio(2n), matches: leftTwo('CHERRY') },
  { name: 'one_cherry', multiplier: ratio(1n), matches: (reels) => reels[0] === 'CHERRY' },
];

export function slotsLine(reels: SlotsReels): SlotsLine | null {
  return SLOTS_LINES.find((line) => line.matches(reels)) ?? null;
}

function symbolAt(index: number): SlotsSymbol {
  const symbol = SLOTS_SYMBOLS[index];
  assert(symbol !== undefined, `slots symbol ${index} exists`);
  return symbol;
}

function spinReel(weights: ReelWeights, draws: Draws): { stop: number; symbol: SlotsSymbol } {
  const stop = draws.int(weightTotal(weights));
  return { stop, symbol: symbolAt(weightedIndex(weights, stop)) };
}

/** Every symbol combination with its weight (the product of its three stops' weights). */
function* weightedCombinations(): Generator<CountedOutcome> {
  const [first, second, third] = SLOTS_REEL_WEIGHTS;
  for (const [i, wi] of first.entries()) {
    for (const [j, wj] of second.entries()) {
      for (const [k, wk] of third.entries()) {
        const line = slotsLine([symbolAt(i), symbolAt(j), symbolAt(k)]);
        yield [BigInt(wi * wj * wk), line === null ? ZERO : line.multiplier];
      }
    }
  }
}

export const slots: GameModule<NoParams> = {
  id: 'slots',
  name: 'Slots',
  path: 'slots',
  advertisedEdgeText: 'about 4%',
  advertisedEdge: () => ratio(4n, 100n),
  ...TABLE_BET_RANGE,
  minBetMicro: 100_000n,
  ...NO_PARAMS,
  play(_params, draws): GameResult {
    const spins = [
      spinReel(SLOTS_REEL_WEIGHTS[0], draws),
      spinReel(SLOTS_REEL_WEIGHTS[1], draws),
      spinReel(SLOTS_REEL_WEIGHTS[2], draws),
    ] as const;
    const reels: SlotsReels = [spins[0].symbol, spins[1].symbol, spins[2].symbol];
    const line = slotsLine(reels);
    const detail = { stops: spins.map((spin) => spin.stop), reels: [...reels], line: line?.name ?? null };
    return { multiplier: line === null ? ZERO : line.multiplier, detail };
  },
  distribution(): readonly Chance[] {
    const total = SLOTS_REEL_WEIGHTS.reduce((product, weights) => product * BigInt(weightTotal(weights)), 1n);
    return chancesFromCounts(weightedCombinations(), total);
  },
  variants: () => [{ name: 'slots', params: {} }],
  variantName: () => 'slots',
};
