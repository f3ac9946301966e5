/**
 * Custom (id custom, POST /games/custom): choose a win probability 1..99 percent.
 *
 * Draw mapping: win when int(100) < win_probability. A win pays exactly 0.98 / (p / 100) =
 * 98 / p, so every bet returns 98% (edge 2%, advertised 0.5%: the audit reports it). At p = 99
 * a win pays 98/99x, less than the stake: the payout formula applies as printed.
 */
import { ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { hitOrMiss } from './chances.ts';
import type { Chance, GameModule, GameResult } from './game.ts';
import { intParam, oneParam, percent } from './params.ts';
import { CORE_GAME_EDGE, WIDE_BET_RANGE } from './game-terms.ts';

export interface CustomParams {
  /** Percent, 1..99. */
  readonly winProbability: number;
}

export function customMultiplier(params: CustomParams): Ratio {
  return ratio(98n, BigInt(params.winProbability));
}

export const custom: GameModule<CustomParams> = {
  id: 'custom',
  name: 'Custom',
  path: 'custom',
  ...CORE_GAME_EDGE,
  ...WIDE_BET_RANGE,
  paramFields: ['win_probability'],
  parse: (params) => oneParam('winProbability', intParam(params, 'win_probability', 1, 99)),
  play(params, draws): GameResult {
    const roll = draws.int(100);
    const win = roll < params.winProbability;
    return {
      multiplier: win ? customMultiplier(params) : ZERO,
      detail: { roll, win_probability: params.winProbability, win },
    };
  },
  distribution(params): readonly Chance[] {
    const winChance = percent(params.winProbability);
    return hitOrMiss(winChance, customMultiplier(params));
  },
  variants: () => [
    { name: 'custom:50', params: { winProbability: 50 } },
    { name: 'custom:10', params: { winProbability: 10 } },
    { name: 'custom:90', params: { winProbability: 90 } },
  ],
  variantName: (params) => `custom:${params.winProbability}`,
};
