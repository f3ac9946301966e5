/**
 * The Kelly inputs and limit: p and payout from exact distributions (two-outcome, partial
 * returns, p = 0), the formula on hand-computed cases of both branches, rounding down to the
 * micro, and the 400 refusal carrying max_bet.
 */
import { describe, expect, it } from 'vitest';
import { usdc } from '../../../../src/core/money.ts';
import { ONE, add, mul, ratio, ratioText } from '../../../../src/core/ratio.ts';
import { kellyInputs } from '../../../../src/services/casino/kelly/kelly-inputs.ts';
import {
  allowedFraction,
  checkKellyLimit,
  kellyFraction,
  maxBetMicro,
} from '../../../../src/services/casino/kelly/kelly-limit.ts';
import { DEFAULT_RISK_FACTOR, riskFactorFromPercent } from '../../../../src/services/casino/kelly/risk-factor.ts';
import { coin196, dice98, playerEdge, pushOrLose, wheel } from './fixtures.ts';

const inputsOf = (game: typeof coin196) => kellyInputs(game.distribution({}));

describe('kellyInputs', () => {
  it('reads p and payout of a two-outcome game as they are', () => {
    const inputs = inputsOf(coin196);
    expect(ratioText(inputs.winProbability)).toBe('1/2');
    expect(ratioText(inputs.payout)).toBe('49/25'); // 1.96
    expect(ratioText(inputs.edge)).toBe('1/50'); // 2%
    expect(ratioText(inputs.partialReturn)).toBe('0');
  });

  it('reduces a multi-outcome game: p = P(m > 1), payout = E[m | m > 1], p·payout + partial = RTP', () => {
    const inputs = inputsOf(wheel);
    expect(ratioText(inputs.winProbability)).toBe('1/4'); // 10 + 8 + 4 + 2 + 1 percent
    expect(ratioText(inputs.payout)).toBe('63/25'); // (0.15 + 0.16 + 0.12 + 0.10 + 0.10) / 0.25 = 2.52
    expect(ratioText(inputs.partialReturn)).toBe('11/40'); // 0.5 × 0.25 + 1 × 0.15 = 0.275
    expect(ratioText(inputs.returnToPlayer)).toBe('181/200'); // 0.905
    expect(ratioText(inputs.edge)).toBe('19/200'); // 9.5%, casino.md's "about 9.5%"
    expect(add(mul(inputs.winProbability, inputs.payout), inputs.partialReturn)).toEqual(inputs.returnToPlayer);
  });

  it('gives p = 0 and payout 1 when no outcome beats the stake', () => {
    const inputs = inputsOf(pushOrLose);
    expect(ratioText(inputs.winProbability)).toBe('0');
    expect(inputs.payout).toEqual(ONE);
    expect(kellyFraction(inputs)).toBeNull();
  });

  it('refuses a distribution that does not sum to 1 (a bug in a game module)', () => {
    expect(() => kellyInputs([[ratio(1n, 2n), ONE]])).toThrow(/sum to exactly 1/);
  });
});

describe('the Kelly limit', () => {
  it('coin 1.96x, p = 1/2, bankroll 100, risk 0.25: f* < 0, max_bet = 100 × 0.25 × 0.5 = 12.5', () => {
    const inputs = inputsOf(coin196);
    expect(ratioText(kellyFraction(inputs) ?? ONE)).toBe('-1/48'); // (0.96 × 0.5 − 0.5) / 0.96
    expect(ratioText(allowedFraction(DEFAULT_RISK_FACTOR, inputs))).toBe('1/8');
    expect(maxBetMicro(usdc(100), DEFAULT_RISK_FACTOR, inputs)).toBe(12_500_000n);
  });

  it('dice 9.8x at 1/10: max_bet = 100 × 0.25 × 0.1 = 2.5', () => {
    const inputs = inputsOf(dice98);
    expect(ratioText(kellyFraction(inputs) ?? ONE)).toBe('-1/440'); // (8.8 × 0.1 − 0.9) / 8.8
    expect(maxBetMicro(usdc(100), DEFAULT_RISK_FACTOR, inputs)).toBe(2_500_000n);
  });

  it('the wheel uses p = 1/4: max_bet = 100 × 0.25 × 0.25 = 6.25', () => {
    expect(maxBetMicro(usdc(100), DEFAULT_RISK_FACTOR, inputsOf(wheel))).toBe(6_250_000n);
  });

  it('a player-edge bet takes the f* branch: 2.2x at 1/2 gives f* = 1/12, max_bet = 100 × 1/12 × 0.25', () => {
    const inputs = inputsOf(playerEdge);
    expect(ratioText(kellyFraction(inputs) ?? ONE)).toBe('1/12');
    expect(ratioText(allowedFraction(DEFAULT_RISK_FACTOR, inputs))).toBe('1/48');
    expect(maxBetMicro(usdc(100), DEFAULT_RISK_FACTOR, inputs)).toBe(2_083_333n); // 2.0833333… rounded down
    expect(maxBetMicro(usdc(100), ratio(1n), inputs)).toBe(8_333_333n); // full Kelly
  });

  it('rounds down to the micro', () => {
    const coin = inputsOf(coin196);
    expect(maxBetMicro(1_000_007n, DEFAULT_RISK_FACTOR, coin)).toBe(125_000n); // 125,000.875
    expect(maxBetMicro(7n, DEFAULT_RISK_FACTOR, coin)).toBe(0n); // 0.875
    expect(maxBetMicro(1_000_003n, riskFactorFromPercent(33), inputsOf(dice98))).toBe(33_000n); // 33,000.099
  });

  it('allows nothing on an empty or negative bankroll, or when p = 0', () => {
    const coin = inputsOf(coin196);
    expect(maxBetMicro(0n, DEFAULT_RISK_FACTOR, coin)).toBe(0n);
    expect(maxBetMicro(-5n, DEFAULT_RISK_FACTOR, coin)).toBe(0n);
    expect(maxBetMicro(usdc(100), DEFAULT_RISK_FACTOR, inputsOf(pushOrLose))).toBe(0n);
  });

  it('scales with the risk factor: 0.1 and 1.0 at the bounds', () => {
    const coin = inputsOf(coin196);
    expect(maxBetMicro(usdc(100), riskFactorFromPercent(10), coin)).toBe(5_000_000n);
    expect(maxBetMicro(usdc(100), riskFactorFromPercent(100), coin)).toBe(50_000_000n);
  });
});

describe('checkKellyLimit', () => {
  const base = { bankrollMicro: usdc(100), riskFactor: DEFAULT_RISK_FACTOR, inputs: inputsOf(coin196) };

  it('accepts a bet at the limit', () => {
    expect(checkKellyLimit({ ...base, amountMicro: 12_500_000n })).toBeNull();
    expect(checkKellyLimit({ ...base, amountMicro: 10_000n })).toBeNull();
  });

  it('refuses one micro above it with 400 and max_bet', () => {
    const failure = checkKellyLimit({ ...base, amountMicro: 12_500_001n });
    expect(failure).not.toBeNull();
    expect(failure?.status).toBe(400);
    expect(failure?.code).toBe('BAD_REQUEST');
    expect(failure?.extra).toEqual({ max_bet: 12.5 });
    expect(failure?.message).toContain('12.500001');
    expect(failure?.message).toContain('Kelly limit of 12.50');
  });

  it('refuses every bet on a p = 0 variant with max_bet 0', () => {
    const failure = checkKellyLimit({ ...base, inputs: inputsOf(pushOrLose), amountMicro: 10_000n });
    expect(failure?.extra).toEqual({ max_bet: 0 });
  });

  it('is exact where floats are not: 200 micro × 0.29 × 0.5 = 29, not 28', () => {
    expect(Math.floor(200 * 0.29 * 0.5)).toBe(28); // the float formula loses a micro
    expect(maxBetMicro(200n, riskFactorFromPercent(29), inputsOf(coin196))).toBe(29n);
  });
});
