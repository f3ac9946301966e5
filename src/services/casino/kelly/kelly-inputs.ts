/**
 * Kelly inputs of one game variant, read exactly from its multiplier distribution (game.ts).
 *
 * The Kelly rule of NOTES.md is stated for a two-outcome bet: win probability `p`, total-return
 * payout. Most games have more outcomes (partial returns, pushes, several prizes), so afp reduces
 * a distribution to the rule's two numbers this way, exactly:
 *   p      = P(multiplier > 1)                 (the bet returns more than the stake)
 *   payout = E[multiplier | multiplier > 1]    (the average total return of those outcomes)
 * and keeps the rest as `partialReturn` = Σ P·m over the outcomes with m ≤ 1 (busts return 0,
 * pushes 1, half-backs 0.5), so that p · payout + partialReturn = RTP = E[multiplier].
 * For a two-outcome game (coin flip, dice, custom) this is exactly the game's own p and payout.
 *
 * Invariants: probabilities are non-negative and sum to exactly 1 (asserted: a distribution
 * that does not is a bug in the game module); when p = 0 (no outcome beats the stake, e.g.
 * dice under 99 paying 1x) the payout is 1 by definition and the Kelly fraction is undefined
 * (kelly-limit.ts answers a zero limit).
 */
import { assert } from '../../../core/assert.ts';
import { ONE, ZERO, add, compare, div, isZero, mul, sub, type Ratio } from '../../../core/ratio.ts';
import type { Chance } from '../games/game.ts';

export interface KellyInputs {
  /** p = P(multiplier > 1). */
  readonly winProbability: Ratio;
  /** E[multiplier | multiplier > 1]; 1 when p = 0. Total return, stake included. */
  readonly payout: Ratio;
  /** Σ P·m over the outcomes with m ≤ 1. */
  readonly partialReturn: Ratio;
  /** E[multiplier] = p · payout + partialReturn. */
  readonly returnToPlayer: Ratio;
  /** House edge = 1 − RTP (positive for every real game; negative for a player-edge fixture). */
  readonly edge: Ratio;
}

/** Distributions larger than this are a bug in a game module (a limit on the work here). */
export const MAX_DISTRIBUTION_OUTCOMES = 100_000;

export function kellyInputs(distribution: readonly Chance[]): KellyInputs {
  assert(
    distribution.length > 0 && distribution.length <= MAX_DISTRIBUTION_OUTCOMES,
    'a distribution has 1 to 100,000 outcomes',
  );
  let total = ZERO;
  let winProbability = ZERO;
  let winReturn = ZERO;
  let partialReturn = ZERO;
  for (const [probability, multiplier] of distribution) {
    assert(probability.num >= 0n && multiplier.num >= 0n, 'probabilities and multipliers are non-negative');
    total = add(total, probability);
    const weighted = mul(probability, multiplier);
    if (compare(multiplier, ONE) > 0) {
      winProbability = add(winProbability, probability);
      winReturn = add(winReturn, weighted);
    } else {
      partialReturn = add(partialReturn, weighted);
    }
  }
  assert(compare(total, ONE) === 0, 'distribution probabilities sum to exactly 1');
  const payout = isZero(winProbability) ? ONE : div(winReturn, winProbability);
  const returnToPlayer = add(winReturn, partialReturn);
  return { winProbability, payout, partialReturn, returnToPlayer, edge: sub(ONE, returnToPlayer) };
}
