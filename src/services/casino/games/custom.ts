/**
 * Custom (id custom, POST /games/custom): choose a win probability 1..99 percent.
 *
 * Draw mapping: win when int(100) < win_probability. A win pays exactly 0.98 / (p / 100) =
 * 98 / p, so every bet returns 98% (edge 2%, advertised 0.5%: the audit reports it). At p = 99
 * a win pays 98/99x, less than the stake: the payout formula applies as printed.
 */
import { succeed } from '../../../core/errors.ts';
import { ONE, ZERO, ratio, sub, type Ratio } from '../../../core/ratio.ts';
import type { Chance, GameModule, GameResult } from './game.ts';
import { intParam, percent } from './params.ts';

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
  advertisedEdgeText: '0.5%',
  advertisedEdge: () => ratio(5n, 1000n),
  minBetMicro: 10_000n,
  maxBetMicro: 10_000_000_000n,
  paramFields: ['win_probability'],
  parse(params) {
    const winProbability = intParam(params, 'win_probability', 1, 99);
    if (typeof winProbability !== 'number') return winProbability;
    return succeed({ winProbability });
  },
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
    return [
      [winChance, customMultiplier(params)],
      [sub(ONE, winChance), ZERO],
    ];
  },
  variants: () => [
    { name: 'custom:50', params: { winProbability: 50 } },
    { name: 'custom:10', params: { winProbability: 10 } },
    { name: 'custom:90', params: { winProbability: 90 } },
  ],
  variantName: (params) => `custom:${params.winProbability}`,
};
