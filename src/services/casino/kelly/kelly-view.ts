/**
 * The JSON records of the Kelly endpoints (style A): one limit record per game variant, the
 * GET /kelly/limits and PUT /kelly/config bodies, and the `kelly` object of a bet response.
 *
 * Field meanings are defined in kelly-measures.ts. Rendering is fixed (kelly-numbers.ts): money
 * is exact micro-USDC as a JSON number (`toNumber`); fractions, the edge and the growth rate are
 * rounded to 6 decimals, half away from zero; null marks an undefined value (kelly_fraction when
 * no outcome beats the stake, bets_until_ruin when no loss is expected).
 * Invariants: the limits are keyed by variant name (game.ts `GameVariant.name`), in registry
 * order then variant order; the view is a pure function of its inputs (byte-stable).
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { MICRO_PER_USDC, toNumber, type Micro } from '../../../core/money.ts';
import { ratio, type Ratio } from '../../../core/ratio.ts';
import type { GameModule } from '../games/game.ts';
import type { KellyInputs } from './kelly-inputs.ts';
import { maxBetMicro } from './kelly-limit.ts';
import { betsUntilRuin, kellyMeasures, suggestedBet, type BetBounds, type KellyMeasures } from './kelly-measures.ts';
import { fixedFloat, fixedNumber } from './kelly-numbers.ts';
import { riskFactorNumber } from './risk-factor.ts';

export type KellyLimitRecord = {
  max_bet: number;
  kelly_fraction: number | null;
  adjusted_fraction: number;
  edge: number;
  expected_value_per_bet: number;
  bets_until_ruin: number | null;
  suggested_bet: number;
  growth_rate: number | null;
};

export function kellyLimitRecord(measures: KellyMeasures): KellyLimitRecord {
  return {
    max_bet: toNumber(measures.maxBetMicro),
    kelly_fraction: measures.kellyFraction === null ? null : fixedNumber(measures.kellyFraction),
    adjusted_fraction: fixedNumber(measures.adjustedFraction),
    edge: fixedNumber(measures.inputs.edge),
    expected_value_per_bet: fixedNumber(microToUsdc(measures.expectedValuePerBetMicro)),
    bets_until_ruin: measures.betsUntilRuin === null ? null : Number(measures.betsUntilRuin),
    suggested_bet: toNumber(measures.suggestedBetMicro),
    growth_rate: fixedFloat(measures.growthRate),
  };
}

const microToUsdc = (micro: Ratio): Ratio => ratio(micro.num, micro.den * MICRO_PER_USDC);

/** Every variant of every game, at this bankroll and risk factor. */
export function kellyLimits(
  bankrollMicro: Micro,
  riskFactor: Ratio,
  games: readonly GameModule[],
): Record<string, KellyLimitRecord> {
  const limits: Record<string, KellyLimitRecord> = {};
  for (const game of games) {
    for (const variant of game.variants()) {
      assert(!(variant.name in limits), `variant names are unique: ${variant.name}`);
      const measures = kellyMeasures({
        bankrollMicro,
        riskFactor,
        distribution: game.distribution(variant.params),
        bounds: game,
      });
      limits[variant.name] = kellyLimitRecord(measures);
    }
  }
  return limits;
}

/** GET /kelly/limits: `{ bankroll, risk_factor, limits: { <variant>: record } }`. */
export function kellyLimitsView(bankrollMicro: Micro, riskFactor: Ratio, games: readonly GameModule[]): JsonObject {
  return {
    bankroll: toNumber(bankrollMicro),
    risk_factor: riskFactorNumber(riskFactor),
    limits: kellyLimits(bankrollMicro, riskFactor, games),
  };
}

/** PUT /kelly/config: `{ risk_factor, message, new_limits }` (the real platform's shape). */
export function kellyConfigView(bankrollMicro: Micro, riskFactor: Ratio, games: readonly GameModule[]): JsonObject {
  const factor = riskFactorNumber(riskFactor);
  return {
    risk_factor: factor,
    message: `Risk factor updated to ${factor}`,
    new_limits: kellyLimitsView(bankrollMicro, riskFactor, games),
  };
}

export type KellyBetSummary = {
  bankroll: number;
  risk_factor: number;
  max_bet_this_game: number;
  bets_until_ruin: number | null;
  suggested_bet: number;
};

/** What the `kelly` object of a bet response is computed from (inputs: cache them per variant). */
export interface KellyBetSummaryOptions {
  /** The balance after the bet. */
  readonly bankrollMicro: Micro;
  readonly riskFactor: Ratio;
  readonly inputs: KellyInputs;
  readonly bounds: BetBounds;
}

/**
 * The `kelly` object of a bet response: the limits for the NEXT bet on the same variant, from
 * the balance after this one (what the agent needs to size its next bet). Cheap: no
 * distribution walk, no logarithms, so it can run on every bet.
 */
export function kellyBetSummary(options: KellyBetSummaryOptions): KellyBetSummary {
  const limitMicro = maxBetMicro(options.bankrollMicro, options.riskFactor, options.inputs);
  const ruin = betsUntilRuin(options.bankrollMicro, limitMicro, options.inputs.edge);
  return {
    bankroll: toNumber(options.bankrollMicro),
    risk_factor: riskFactorNumber(options.riskFactor),
    max_bet_this_game: toNumber(limitMicro),
    bets_until_ruin: ruin === null ? null : Number(ruin),
    suggested_bet: toNumber(suggestedBet(limitMicro, options.bounds)),
  };
}
