/**
 * Multiplier (id multiplier, POST /games/multiplier): name a target 1.01x..1000x (at most two
 * decimals); win, paid the target, when the crash point EXCEEDS it (strictly, per casino.md).
 *
 * Draw mapping: crash cents from one fraction52 draw (crash-point.ts); win when crash cents >
 * target cents. P(win) = P(crash ≥ target + 0.01), so the edge is a little above the law's 0.5%
 * (target 2: about 1%): the strict rule as printed, which the audit reports.
 */
import { isFailure, succeed } from '../../../core/errors.ts';
import { ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { centsText, centsToNumber, crashPointCents, probabilityCrashAtLeast, ratioToCents } from './crash-point.ts';
import { hitOrMiss } from './chances.ts';
import type { Chance, GameModule, GameResult } from './game.ts';
import { decimalParam } from './params.ts';
import { CORE_GAME_EDGE, WIDE_BET_RANGE } from './game-terms.ts';

export interface MultiplierParams {
  /** The target in cents: 101..100000. */
  readonly targetCents: number;
}

const targetRatio = (params: MultiplierParams): Ratio => ratio(BigInt(params.targetCents), 100n);

export const multiplier: GameModule<MultiplierParams> = {
  id: 'multiplier',
  name: 'Multiplier',
  path: 'multiplier',
  ...CORE_GAME_EDGE,
  ...WIDE_BET_RANGE,
  paramFields: ['target_multiplier'],
  parse(params) {
    const target = decimalParam(params, 'target_multiplier', '1.01', '1000', 2);
    if (isFailure(target)) return target;
    return succeed({ targetCents: ratioToCents(target) });
  },
  play(params, draws): GameResult {
    const crashCents = crashPointCents(draws);
    const win = crashCents > params.targetCents;
    return {
      multiplier: win ? targetRatio(params) : ZERO,
      detail: { crash_point: centsToNumber(crashCents), target_multiplier: centsToNumber(params.targetCents), win },
    };
  },
  distribution(params): readonly Chance[] {
    const winChance = probabilityCrashAtLeast(params.targetCents + 1);
    return hitOrMiss(winChance, targetRatio(params));
  },
  variants: () => [
    { name: 'multiplier:2', params: { targetCents: 200 } },
    { name: 'multiplier:10', params: { targetCents: 1_000 } },
    { name: 'multiplier:100', params: { targetCents: 10_000 } },
  ],
  variantName: (params) => `multiplier:${centsText(params.targetCents)}`,
};
