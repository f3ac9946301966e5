/**
 * The Kelly risk factor: the share of the Kelly bet an agent allows itself (fractional Kelly).
 *
 * NOTES.md: default 0.25; `PUT /kelly/config` accepts 0.1 to 1.0. afp holds it as an exact
 * Ratio with at most two decimals (0.10, 0.11, ... 1.00: a whole percent), so the limit it
 * feeds is exact and the service can store it as an integer percent (CasinoConfig
 * `kellyRiskPercentDefault`). Style A sends JSON numbers: a string ("0.5") is refused, as is a
 * value with more than two decimals (0.125) — refusing is clearer than silently rounding.
 */
import { assert } from '../../../core/assert.ts';
import { fail, type Failure } from '../../../core/errors.ts';
import { ratio, ratioToNumber, type Ratio } from '../../../core/ratio.ts';
import { decimalParam } from '../games/params.ts';

export const RISK_PERCENT_MIN = 10;
export const RISK_PERCENT_MAX = 100;
export const RISK_PERCENT_DEFAULT = 25;

export function riskFactorFromPercent(percent: number): Ratio {
  assert(
    Number.isSafeInteger(percent) && percent >= RISK_PERCENT_MIN && percent <= RISK_PERCENT_MAX,
    'risk percent in [10, 100]',
  );
  return ratio(BigInt(percent), 100n);
}

/** The whole percent of a risk factor (0.25 → 25). */
export function riskFactorPercent(riskFactor: Ratio): number {
  const scaled = riskFactor.num * 100n;
  assert(scaled % riskFactor.den === 0n, 'a risk factor has at most two decimals');
  const percent = Number(scaled / riskFactor.den);
  assert(percent >= RISK_PERCENT_MIN && percent <= RISK_PERCENT_MAX, 'risk percent in [10, 100]');
  return percent;
}

export const DEFAULT_RISK_FACTOR: Ratio = riskFactorFromPercent(RISK_PERCENT_DEFAULT);

/** The value of a `risk_factor` body field: a JSON number 0.1..1.0, at most two decimals. */
export function parseRiskFactor(value: unknown, field = 'risk_factor'): Ratio | Failure {
  if (value === undefined || value === null) return fail('BAD_REQUEST', `${field} is required`);
  return decimalParam({ [field]: value }, field, '0.1', '1', 2);
}

/** Presentation: 0.25. */
export const riskFactorNumber = (riskFactor: Ratio): number => ratioToNumber(riskFactor);
