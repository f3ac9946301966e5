/**
 * Risk-factor parsing for PUT /kelly/config and the what-ifs: JSON numbers 0.1..1.0 with at
 * most two decimals, exact; everything else a 400 naming the field.
 */
import { describe, expect, it } from 'vitest';
import { isFailure } from '../../../../src/core/errors.ts';
import { ratioText } from '../../../../src/core/ratio.ts';
import {
  DEFAULT_RISK_FACTOR,
  parseRiskFactor,
  riskFactorFromPercent,
  riskFactorNumber,
  riskFactorPercent,
} from '../../../../src/services/casino/kelly/risk-factor.ts';

describe('parseRiskFactor', () => {
  it.each([
    [0.1, '1/10'],
    [1.0, '1'],
    [1, '1'],
    [0.25, '1/4'],
    [0.33, '33/100'],
    [0.5, '1/2'],
    [0.99, '99/100'],
  ])('accepts %s exactly', (value, text) => {
    const parsed = parseRiskFactor(value);
    expect(isFailure(parsed)).toBe(false);
    if (!isFailure(parsed)) expect(ratioText(parsed)).toBe(text);
  });

  it.each<[unknown, string]>([
    [0.09, 'below the minimum'],
    [1.01, 'above the maximum'],
    [0.125, 'three decimals'],
    [0, 'zero'],
    [-0.5, 'negative'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'infinity'],
    [1e-7, 'exponent notation'],
    ['0.5', 'a string'],
    [true, 'a boolean'],
    [[0.5], 'an array'],
  ])('refuses %s (%s) with 400 naming risk_factor', (value, _why) => {
    const parsed = parseRiskFactor(value);
    expect(isFailure(parsed)).toBe(true);
    if (isFailure(parsed)) {
      expect(parsed.status).toBe(400);
      expect(parsed.code).toBe('BAD_REQUEST');
      expect(parsed.message).toBe('risk_factor must be a number from 0.1 to 1 with at most 2 decimals');
    }
  });

  it('says a missing value is required', () => {
    const parsed = parseRiskFactor(undefined);
    expect(isFailure(parsed) && parsed.message).toBe('risk_factor is required');
    expect(isFailure(parseRiskFactor(null))).toBe(true);
  });
});

describe('risk factor as a whole percent', () => {
  it('round-trips the stored percent and renders as a number', () => {
    expect(ratioText(DEFAULT_RISK_FACTOR)).toBe('1/4');
    expect(riskFactorPercent(DEFAULT_RISK_FACTOR)).toBe(25);
    expect(riskFactorPercent(riskFactorFromPercent(10))).toBe(10);
    expect(riskFactorNumber(riskFactorFromPercent(33))).toBe(0.33);
  });

  it('asserts the stored bounds (a stored value outside them is a bug)', () => {
    expect(() => riskFactorFromPercent(9)).toThrow();
    expect(() => riskFactorFromPercent(101)).toThrow();
    expect(() => riskFactorFromPercent(12.5)).toThrow();
  });
});
