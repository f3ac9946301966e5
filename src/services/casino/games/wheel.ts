/**
 * Wheel (id wheel, POST /games/wheel, no parameters): 8 sectors exactly as casino.md prints them —
 * BUST 0x 35%, 0.5x 25%, 1x 15%, 1.5x 10%, 2x 8%, 3x 4%, 5x 2%, 10x 1% — so the return is 90.5%
 * and the edge exactly 19/200 = 9.5%.
 *
 * Draw mapping: roll = int(100); the sector is the first whose running percentage (35, 60, 75,
 * 85, 93, 97, 99, 100) exceeds the roll.
 *
 * The real casino compares a 0–100 roll with 0–1 probabilities (NOTES.md defect):
 * `wheelSpinDefective` reproduces it for a deliberately faulty target; afp's game never uses it.
 */
import { assert } from '../../../core/assert.ts';
import { ratio, ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';
import { chancesFromCounts, weightedIndex } from './chances.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { NO_PARAMS, type NoParams } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export interface WheelSector {
  readonly label: string;
  readonly multiplier: Ratio;
  /** Chance in percent (the sectors total 100). */
  readonly percent: number;
}

const sector = (label: string, multiplier: string, percent: number): WheelSector => ({
  label,
  multiplier: ratioFromDecimal(multiplier),
  percent,
});

export const WHEEL_SECTORS: readonly WheelSector[] = [
  sector('BUST', '0', 35),
  sector('0.5x', '0.5', 25),
  sector('1x', '1', 15),
  sector('1.5x', '1.5', 10),
  sector('2x', '2', 8),
  sector('3x', '3', 4),
  sector('5x', '5', 2),
  sector('10x', '10', 1),
];

const PERCENTS = WHEEL_SECTORS.map((entry) => entry.percent);

export interface WheelSpin {
  /** The roll as the spin reads it (fair: 0..99; defective: 0.00..99.99). */
  readonly roll: number;
  readonly sector: number;
}

/** A fair spin. */
export function wheelSpin(draws: Draws): WheelSpin {
  const roll = draws.int(100);
  return { roll, sector: weightedIndex(PERCENTS, roll) };
}

/**
 * DEFECT (the real casino's): a roll in [0, 100) — int(10000) hundredths — is compared with the
 * running probabilities as fractions of 1 (0.35, 0.60, …, 1.00). Only rolls below 1 reach a
 * sector as intended; every other roll matches none and falls back to the first sector, BUST
 * (afp's reading of the fallback): a spin returns 0.905% of the stake instead of 90.5%.
 */
export function wheelSpinDefective(draws: Draws): WheelSpin {
  const hundredths = draws.int(10_000);
  // roll < p  ⇔  hundredths / 100 < runningPercent / 100  ⇔  hundredths < runningPercent
  const sectorIndex = hundredths < 100 ? weightedIndex(PERCENTS, hundredths) : 0;
  return { roll: hundredths / 100, sector: sectorIndex };
}

export function wheelResult(spin: WheelSpin): GameResult {
  const landed = WHEEL_SECTORS[spin.sector];
  assert(landed !== undefined, `wheel sector ${spin.sector} exists`);
  return { multiplier: landed.multiplier, detail: { roll: spin.roll, sector: spin.sector, label: landed.label } };
}

/** The exact law of `wheelResult(wheelSpinDefective(draws))`: sector i with its percent in 10,000, BUST also with the 9,900 other rolls. */
export function wheelDefectiveDistribution(): Chance[] {
  const outcomes = WHEEL_SECTORS.map(
    (entry, index) => [BigInt(entry.percent + (index === 0 ? 9_900 : 0)), entry.multiplier] as const,
  );
  return chancesFromCounts(outcomes, 10_000n);
}

export const wheel: GameModule<NoParams> = {
  id: 'wheel',
  name: 'Wheel',
  path: 'wheel',
  advertisedEdgeText: 'about 9.5%',
  advertisedEdge: () => ratio(95n, 1000n),
  ...TABLE_BET_RANGE,
  ...NO_PARAMS,
  play: (_params, draws) => wheelResult(wheelSpin(draws)),
  distribution(): readonly Chance[] {
    return chancesFromCounts(
      WHEEL_SECTORS.map((entry) => [BigInt(entry.percent), entry.multiplier] as const),
      100n,
    );
  },
  variants: () => [{ name: 'wheel', params: {} }],
  variantName: () => 'wheel',
};
