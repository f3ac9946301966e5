/**
 * Dice (id dice, POST /games/dice): roll 1..100, bet over or under a threshold 1..99.
 *
 * Draw mapping: roll = int(100) + 1. "over T" wins when roll > T (100 − T winning rolls),
 * "under T" when roll < T (T − 1 winning rolls). A win pays exactly 98 / (winning rolls), so
 * every bet returns 98% (edge 2%, against the advertised 0.5%: the audit reports it). Over 50
 * pays 1.96x and over 90 pays 9.8x, as casino.md prints. A bet with no winning roll (under 1)
 * is refused. Near-certain bets pay 1x or less (under 99: 1x; over 1: 98/99x): the payout rule
 * applies as is.
 */
import { fail, succeed } from '../../../core/errors.ts';
import { ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { hitOrMiss } from './chances.ts';
import type { Chance, GameModule, GameResult } from './game.ts';
import { enumParam, intParam } from './params.ts';
import { CORE_GAME_EDGE, WIDE_BET_RANGE } from './game-terms.ts';

export const DICE_DIRECTIONS = ['over', 'under'] as const;
export type DiceDirection = (typeof DICE_DIRECTIONS)[number];

export interface DiceParams {
  readonly direction: DiceDirection;
  readonly threshold: number;
}

/** How many of the 100 rolls win. */
export function diceWinningRolls(params: DiceParams): number {
  return params.direction === 'over' ? 100 - params.threshold : params.threshold - 1;
}

export function diceWins(params: DiceParams, roll: number): boolean {
  return params.direction === 'over' ? roll > params.threshold : roll < params.threshold;
}

/** Total return of a winning roll: 98 / winning rolls. */
export function diceMultiplier(params: DiceParams): Ratio {
  return ratio(98n, BigInt(diceWinningRolls(params)));
}

export const dice: GameModule<DiceParams> = {
  id: 'dice',
  name: 'Dice',
  path: 'dice',
  ...CORE_GAME_EDGE,
  ...WIDE_BET_RANGE,
  paramFields: ['direction', 'threshold'],
  parse(params) {
    const direction = enumParam(params, 'direction', DICE_DIRECTIONS);
    if (typeof direction !== 'string') return direction;
    const threshold = intParam(params, 'threshold', 1, 99);
    if (typeof threshold !== 'number') return threshold;
    const parsed: DiceParams = { direction, threshold };
    if (diceWinningRolls(parsed) === 0)
      return fail('BAD_REQUEST', 'threshold: under 1 has no winning roll (rolls are 1 to 100)');
    return succeed(parsed);
  },
  play(params, draws): GameResult {
    const roll = draws.int(100) + 1;
    const win = diceWins(params, roll);
    return {
      multiplier: win ? diceMultiplier(params) : ZERO,
      detail: { roll, direction: params.direction, threshold: params.threshold, win },
    };
  },
  distribution(params): readonly Chance[] {
    const winChance = ratio(BigInt(diceWinningRolls(params)), 100n);
    return hitOrMiss(winChance, diceMultiplier(params));
  },
  variants: () => [
    { name: 'dice:over:50', params: { direction: 'over', threshold: 50 } },
    { name: 'dice:over:90', params: { direction: 'over', threshold: 90 } },
    { name: 'dice:under:10', params: { direction: 'under', threshold: 10 } },
  ],
  variantName: (params) => `dice:${params.direction}:${params.threshold}`,
};
