/**
 * Mines (id mines, POST /games/mines): a 5×5 grid (cells 0..24, left to right, top to bottom)
 * hides `mines` mines (1..24); the agent reveals the first `reveals` cells (1..25 − mines) in
 * that order and wins unless one of them is a mine.
 *
 * A win pays exactly 0.975 × C(25, reveals) / C(25 − mines, reveals) — 0.975 over the chance of
 * winning, not rounded — so every parameter set returns exactly 97.5% (edge 2.5% as printed).
 * casino.md's samples: 1 mine 1 reveal "about 1.02x" (exact 1.015625x, agrees); 3 mines 5 reveals
 * "about 6x" (exact ≈ 1.967x) and 10 mines 10 reveals "about 130x" (exact ≈ 1061.3x) contradict
 * the 2.5% edge on a fair grid: afp follows the edge, the audit reports the samples.
 *
 * Draw mapping: mine cells = sample(25, mines) (partial Fisher–Yates over int); the bet loses at
 * the first revealed cell that holds a mine.
 */
import { succeed } from '../../../core/errors.ts';
import { ZERO, div, ratio, type Ratio } from '../../../core/ratio.ts';
import { binomial, chancesFromCounts } from './chances.ts';
import type { Chance, GameModule, GameResult, GameVariant } from './game.ts';
import { intParam, strictParams } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export const MINES_CELLS = 25;
export const MINES_MAX = 24;
/** Total return before the edge: 0.975 = 1 − 2.5%. */
export const MINES_RETURN: Ratio = ratio(39n, 40n);

export interface MinesParams {
  readonly mines: number;
  readonly reveals: number;
}

const FIELDS = ['mines', 'reveals'] as const;

/** P(no mine among the first `reveals` cells) = C(25 − mines, reveals) / C(25, reveals). */
export function minesWinChance(params: MinesParams): Ratio {
  return ratio(binomial(MINES_CELLS - params.mines, params.reveals), binomial(MINES_CELLS, params.reveals));
}

/** A win's total return: 0.975 / P(win). */
export const minesMultiplier = (params: MinesParams): Ratio => div(MINES_RETURN, minesWinChance(params));

const variant = (mines: number, reveals: number): GameVariant<MinesParams> => ({
  name: `mines:${mines}:${reveals}`,
  params: { mines, reveals },
});
const VARIANTS = [variant(1, 1), variant(3, 5), variant(10, 10), variant(1, 24), variant(24, 1), variant(5, 10)];

export const mines: GameModule<MinesParams> = {
  id: 'mines',
  name: 'Mines',
  path: 'mines',
  advertisedEdgeText: '2.5%',
  advertisedEdge: () => ratio(25n, 1000n),
  ...TABLE_BET_RANGE,
  ...strictParams(FIELDS, (params) => {
    const mineCount = intParam(params, 'mines', 1, MINES_MAX);
    if (typeof mineCount !== 'number') return mineCount;
    const reveals = intParam(params, 'reveals', 1, MINES_CELLS - mineCount);
    if (typeof reveals !== 'number') return reveals;
    return succeed({ mines: mineCount, reveals });
  }),
  play(params, draws): GameResult {
    const minePositions = draws.sample(MINES_CELLS, params.mines).sort((left, right) => left - right);
    const firstMine = minePositions[0] ?? MINES_CELLS;
    const hitCell = firstMine < params.reveals ? firstMine : null;
    const detail = {
      mines: params.mines,
      reveals: params.reveals,
      mine_positions: minePositions,
      hit_cell: hitCell,
      won: hitCell === null,
    };
    return { multiplier: hitCell === null ? minesMultiplier(params) : ZERO, detail };
  },
  distribution(params): readonly Chance[] {
    // Counted over the C(25, mines) equally likely mine sets: the winning ones avoid the revealed cells.
    const total = binomial(MINES_CELLS, params.mines);
    const winning = binomial(MINES_CELLS - params.reveals, params.mines);
    return chancesFromCounts(
      [
        [winning, minesMultiplier(params)],
        [total - winning, ZERO],
      ],
      total,
    );
  },
  variants: () => VARIANTS,
  variantName: (params) => `mines:${params.mines}:${params.reveals}`,
};
