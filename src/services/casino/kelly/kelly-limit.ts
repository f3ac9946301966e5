/**
 * The Kelly limit on a bet (NOTES.md "Kelly limit"), exact.
 *
 * With b = payout − 1 and f* = (b·p − (1 − p)) / b:
 *   f* ≤ 0 (every house-edge bet): allowed fraction = risk_factor × p
 *   f* > 0:                        allowed fraction = f* × risk_factor
 *   max_bet = bankroll × allowed fraction, rounded DOWN to the micro.
 * A bet above max_bet is refused with 400 and `max_bet` in the body.
 *
 * With p and payout from kelly-inputs.ts, f* > 0 needs p·payout > 1: the winning outcomes alone
 * return more than the stake, which no positive-edge game does, so real games always take the
 * first branch; the second exists for the rule's sake (and player-edge test fixtures).
 * When p = 0 (no outcome returns more than the stake) f* is undefined (b = 0): afp answers
 * `kellyFraction` null and an allowed fraction of risk_factor × 0 = 0, the first branch's value.
 *
 * Invariants: every value is a Ratio or a bigint; a bankroll ≤ 0 allows nothing; the limit
 * never exceeds bankroll × risk_factor (f* ≤ 1 and p ≤ 1).
 */
import { fail, type Failure } from '../../../core/errors.ts';
import { formatDecimal, toNumber, type Micro } from '../../../core/money.ts';
import { ONE, ZERO, applyToMicro, compare, div, isZero, mul, sub, type Ratio } from '../../../core/ratio.ts';
import type { KellyInputs } from './kelly-inputs.ts';

/** f* = (b·p − (1 − p)) / b = (p·payout − 1) / (payout − 1); null when p = 0. */
export function kellyFraction(inputs: KellyInputs): Ratio | null {
  if (isZero(inputs.winProbability)) return null;
  const b = sub(inputs.payout, ONE);
  const q = sub(ONE, inputs.winProbability);
  return div(sub(mul(b, inputs.winProbability), q), b);
}

/** The share of the bankroll a single bet may stake (the record's `adjusted_fraction`). */
export function allowedFraction(riskFactor: Ratio, inputs: KellyInputs): Ratio {
  const fStar = kellyFraction(inputs);
  if (fStar === null || compare(fStar, ZERO) <= 0) return mul(riskFactor, inputs.winProbability);
  return mul(fStar, riskFactor);
}

/** The largest bet the Kelly rule allows, in micro-USDC, rounded down. */
export function maxBetMicro(bankrollMicro: Micro, riskFactor: Ratio, inputs: KellyInputs): Micro {
  if (bankrollMicro <= 0n) return 0n;
  return applyToMicro(bankrollMicro, allowedFraction(riskFactor, inputs));
}

export interface KellyCheck {
  readonly amountMicro: Micro;
  /** The balance before the bet. */
  readonly bankrollMicro: Micro;
  readonly riskFactor: Ratio;
  readonly inputs: KellyInputs;
}

/**
 * null when the bet is within the limit; otherwise 400 BAD_REQUEST with `max_bet` (a JSON
 * number, style A; a style-B route re-renders it as a decimal string if it wants).
 */
export function checkKellyLimit(check: KellyCheck): Failure | null {
  const limitMicro = maxBetMicro(check.bankrollMicro, check.riskFactor, check.inputs);
  if (check.amountMicro <= limitMicro) return null;
  return fail(
    'BAD_REQUEST',
    `amount ${formatDecimal(check.amountMicro)} exceeds the Kelly limit of ${formatDecimal(limitMicro)} for this bet (bankroll ${formatDecimal(check.bankrollMicro)})`,
    { max_bet: toNumber(limitMicro) },
  );
}
