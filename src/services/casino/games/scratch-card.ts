/**
 * Scratch card (id scratch_card, POST /games/scratch-card, no parameters): 3 symbols revealed
 * from diamond, seven, star, clover, bell, cherry. Triples pay diamond 50x, seven 20x, star
 * 15x, clover 12x, bell 8x, cherry 5x; any pair 2x; otherwise nothing (casino.md).
 *
 * Three independent symbol draws cannot carry a house edge with these payouts: whatever the
 * symbol weights, the return is at least ≈121.4% (any pair alone returns 2 × 5/12 ≈ 83% even
 * with equal weights). So a card is printed from a prize table, as real scratch cards are: one
 * draw picks the card's class by the weights below (out of 10,000) — the edge is exactly
 * 1000/10000 = 10% — and further draws only lay out symbols that show that class.
 *
 * Draw mapping: class = int(10000) against running weights (triples diamond 10, seven 40,
 * star 90, clover 170, bell 290, cherry 490; pair 2605; no win 10000). Triple s: s s s. Pair:
 * symbol = int(6), the odd symbol = the int(5)-th of the other five (table order), its cell =
 * int(3). No win: sample(6, 3), three different symbols in draw order.
 */
import { assert } from '../../../core/assert.ts';
import { ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { chancesFromCounts, weightTotal, weightedIndex } from './chances.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { NO_PARAMS, type NoParams } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export const SCRATCH_SYMBOLS = ['diamond', 'seven', 'star', 'clover', 'bell', 'cherry'] as const;
export type ScratchSymbol = (typeof SCRATCH_SYMBOLS)[number];

export interface ScratchClass {
  /** 'triple_<symbol>', 'pair' or 'none'. */
  readonly name: string;
  readonly multiplier: Ratio;
  /** Cards of this class among 10,000. */
  readonly weight: number;
}

const triple = (symbol: ScratchSymbol, multiplier: bigint, weight: number): ScratchClass => ({
  name: `triple_${symbol}`,
  multiplier: ratio(multiplier),
  weight,
});

/** Triples in SCRATCH_SYMBOLS order, then pair, then no win. */
export const SCRATCH_CLASSES: readonly ScratchClass[] = [
  triple('diamond', 50n, 10),
  triple('seven', 20n, 30),
  triple('star', 15n, 50),
  triple('clover', 12n, 80),
  triple('bell', 8n, 120),
  triple('cherry', 5n, 200),
  { name: 'pair', multiplier: ratio(2n), weight: 2115 },
  { name: 'none', multiplier: ZERO, weight: 7395 },
];

const WEIGHTS = SCRATCH_CLASSES.map((entry) => entry.weight);
const TRIPLE_COUNT = SCRATCH_SYMBOLS.length;
const PAIR_CLASS = TRIPLE_COUNT;

function symbolAt(index: number): ScratchSymbol {
  const symbol = SCRATCH_SYMBOLS[index];
  assert(symbol !== undefined, `scratch symbol ${index} exists`);
  return symbol;
}

/** Lays out the 3 cells of a card of class `classIndex`. */
export function scratchCells(classIndex: number, draws: Draws): ScratchSymbol[] {
  if (classIndex < TRIPLE_COUNT) return [symbolAt(classIndex), symbolAt(classIndex), symbolAt(classIndex)];
  if (classIndex === PAIR_CLASS) {
    const paired = draws.int(TRIPLE_COUNT);
    const others = SCRATCH_SYMBOLS.filter((_, index) => index !== paired);
    const odd = others[draws.int(others.length)];
    assert(odd !== undefined, 'the odd symbol exists');
    const cells = [symbolAt(paired), symbolAt(paired), symbolAt(paired)];
    cells[draws.int(3)] = odd;
    return cells;
  }
  return draws.sample(TRIPLE_COUNT, 3).map(symbolAt);
}

export const scratchCard: GameModule<NoParams> = {
  id: 'scratch_card',
  name: 'Scratch Card',
  path: 'scratch-card',
  advertisedEdgeText: 'about 10%',
  advertisedEdge: () => ratio(10n, 100n),
  ...TABLE_BET_RANGE,
  ...NO_PARAMS,
  play(_params, draws): GameResult {
    const classDraw = draws.int(weightTotal(WEIGHTS));
    const classIndex = weightedIndex(WEIGHTS, classDraw);
    const card = SCRATCH_CLASSES[classIndex];
    assert(card !== undefined, 'the scratch class exists');
    const symbols = scratchCells(classIndex, draws);
    return {
      multiplier: card.multiplier,
      detail: { class_draw: classDraw, symbols, line: card.name === 'none' ? null : card.name },
    };
  },
  distribution(): readonly Chance[] {
    return chancesFromCounts(
      SCRATCH_CLASSES.map((entry) => [BigInt(entry.weight), entry.multiplier] as const),
      BigInt(weightTotal(WEIGHTS)),
    );
  },
  variants: () => [{ name: 'scratch_card', params: {} }],
  variantName: () => 'scratch_card',
};
