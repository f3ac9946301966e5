/**
 * Everything GET /kelly/limits and POST /kelly/optimal report about one game variant, computed
 * from the exact distribution; kelly-view.ts only renders it. Definitions (docs/decisions/casino.md):
 *
 * - kelly_fraction    f* of kelly-limit.ts (negative for every house-edge game; null when p = 0).
 * - adjusted_fraction the share of the bankroll one bet may stake: risk_factor × p when f* ≤ 0,
 *                     f* × risk_factor otherwise.
 * - max_bet           floor(bankroll × adjusted_fraction): the Kelly limit itself (the game's own
 *                     min/max bet of the game table apply separately).
 * - edge              the house edge 1 − E[multiplier].
 * - suggested_bet     half the Kelly limit (as the real platform), rounded down to the micro and
 *                     capped at the game's maximum bet; below the game's minimum bet it means the
 *                     bankroll is too small to play this variant under the rule.
 * - expected_value_per_bet  −edge × suggested_bet (USDC; negative for house-edge games).
 * - bets_until_ruin   floor(bankroll / (edge × max_bet)): how many bets at max_bet it takes for
 *                     the expected loss to equal the bankroll (drift only, variance ignored);
 *                     null when edge ≤ 0 or max_bet = 0 (no expected ruin).
 * - growth_rate       E[ln(1 + f·(m − 1))] with f = suggested_bet / bankroll, over the exact
 *                     distribution, in float (presentation only); null if some outcome would
 *                     take the whole bankroll (ln 0).
 */
import type { Micro } from '../../../core/money.ts';
import { ZERO, compare, ratio, ratioToNumber, mul, sub, type Ratio } from '../../../core/ratio.ts';
import type { Chance } from '../games/game.ts';
import { kellyInputs, type KellyInputs } from './kelly-inputs.ts';
import { allowedFraction, kellyFraction, maxBetMicro } from './kelly-limit.ts';

export interface BetBounds {
  readonly minBetMicro: Micro;
  readonly maxBetMicro: Micro;
}

export interface KellyMeasureOptions {
  readonly bankrollMicro: Micro;
  readonly riskFactor: Ratio;
  readonly distribution: readonly Chance[];
  readonly bounds: BetBounds;
}

export interface KellyMeasures {
  readonly inputs: KellyInputs;
  readonly kellyFraction: Ratio | null;
  readonly adjustedFraction: Ratio;
  readonly maxBetMicro: Micro;
  readonly suggestedBetMicro: Micro;
  /** In micro-USDC, exact (a Ratio: the expectation is fractional). */
  readonly expectedValuePerBetMicro: Ratio;
  readonly betsUntilRuin: bigint | null;
  readonly growthRate: number;
}

export function kellyMeasures(options: KellyMeasureOptions): KellyMeasures {
  const inputs = kellyInputs(options.distribution);
  const limitMicro = maxBetMicro(options.bankrollMicro, options.riskFactor, inputs);
  const suggestedBetMicro = suggestedBet(limitMicro, options.bounds);
  return {
    inputs,
    kellyFraction: kellyFraction(inputs),
    adjustedFraction: allowedFraction(options.riskFactor, inputs),
    maxBetMicro: limitMicro,
    suggestedBetMicro,
    expectedValuePerBetMicro: mul(sub(ZERO, inputs.edge), ratio(suggestedBetMicro)),
    betsUntilRuin: betsUntilRuin(options.bankrollMicro, limitMicro, inputs.edge),
    growthRate: growthRate(options.distribution, options.bankrollMicro, suggestedBetMicro),
  };
}

/** Half the limit, rounded down, capped at the game's maximum bet. */
export function suggestedBet(limitMicro: Micro, bounds: BetBounds): Micro {
  const half = limitMicro / 2n;
  return half > bounds.maxBetMicro ? bounds.maxBetMicro : half;
}

/** floor(bankroll / (edge × max_bet)); null when there is no expected loss. */
export function betsUntilRuin(bankrollMicro: Micro, limitMicro: Micro, edge: Ratio): bigint | null {
  if (limitMicro <= 0n || bankrollMicro <= 0n || compare(edge, ZERO) <= 0) return null;
  // bankroll / (edge.num / edge.den × limit) = bankroll × edge.den / (edge.num × limit)
  return (bankrollMicro * edge.den) / (edge.num * limitMicro);
}

/** Expected log growth per bet when staking `stakeMicro` of `bankrollMicro`, in float. */
export function growthRate(distribution: readonly Chance[], bankrollMicro: Micro, stakeMicro: Micro): number {
  if (bankrollMicro <= 0n || stakeMicro <= 0n) return 0;
  const fraction = ratioToNumber(ratio(stakeMicro, bankrollMicro));
  let total = 0;
  for (const [probability, multiplier] of distribution) {
    if (probability.num === 0n) continue;
    total += ratioToNumber(probability) * Math.log1p(fraction * (ratioToNumber(multiplier) - 1));
  }
  return total;
}
