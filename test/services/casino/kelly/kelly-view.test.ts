/**
 * The Kelly records: GET /kelly/limits (every field on hand-computed cases, null where a value
 * is undefined, fixed rounding), PUT /kelly/config, the bet response's `kelly` object, and
 * POST /kelly/optimal (body parsing and answer), over fixtures and the real core modules.
 */
import { describe, expect, it } from 'vitest';
import { isFailure } from '../../../../src/core/errors.ts';
import { usdc } from '../../../../src/core/money.ts';
import { ratio } from '../../../../src/core/ratio.ts';
import { coinFlip } from '../../../../src/services/casino/games/coin-flip.ts';
import { crash } from '../../../../src/services/casino/games/crash.ts';
import { custom } from '../../../../src/services/casino/games/custom.ts';
import { dice } from '../../../../src/services/casino/games/dice.ts';
import { multiplier } from '../../../../src/services/casino/games/multiplier.ts';
import { roulette } from '../../../../src/services/casino/games/roulette.ts';
import { kellyInputs } from '../../../../src/services/casino/kelly/kelly-inputs.ts';
import { kellyMeasures } from '../../../../src/services/casino/kelly/kelly-measures.ts';
import { fixedFloat, fixedNumber } from '../../../../src/services/casino/kelly/kelly-numbers.ts';
import { kellyOptimalView, parseOptimalRequest } from '../../../../src/services/casino/kelly/kelly-optimal.ts';
import {
  kellyBetSummary,
  kellyConfigView,
  kellyLimitRecord,
  kellyLimitsView,
} from '../../../../src/services/casino/kelly/kelly-view.ts';
import { DEFAULT_RISK_FACTOR, riskFactorFromPercent } from '../../../../src/services/casino/kelly/risk-factor.ts';
import { coin196, dice98, lookupOf, playerEdge, pushOrLose, wheel } from './fixtures.ts';

const recordOf = (game: typeof coin196, bankrollMicro = usdc(100), riskFactor = DEFAULT_RISK_FACTOR) =>
  kellyLimitRecord(kellyMeasures({ bankrollMicro, riskFactor, distribution: game.distribution({}), bounds: game }));

describe('the limit record', () => {
  it('coin 1.96x at bankroll 100, risk 0.25: every field by hand', () => {
    // growth at f = 6.25/100: 0.5 ln(1 + 0.0625 × 0.96) + 0.5 ln(1 − 0.0625)
    const growth = 0.5 * Math.log(1.06) + 0.5 * Math.log(0.9375);
    expect(recordOf(coin196)).toEqual({
      max_bet: 12.5,
      kelly_fraction: -0.020833, // −1/48
      adjusted_fraction: 0.125,
      edge: 0.02,
      expected_value_per_bet: -0.125, // −0.02 × 6.25
      bets_until_ruin: 400, // 100 / (0.02 × 12.5)
      suggested_bet: 6.25,
      growth_rate: -0.003135,
    });
    expect(growth).toBeCloseTo(-0.0031348, 6);
  });

  it('dice 9.8x at 1/10', () => {
    expect(recordOf(dice98)).toMatchObject({
      max_bet: 2.5,
      kelly_fraction: -0.002273,
      adjusted_fraction: 0.025,
      edge: 0.02,
      expected_value_per_bet: -0.025,
      bets_until_ruin: 2000,
      suggested_bet: 1.25,
    });
  });

  it('the wheel: p = 1/4, edge 9.5%, growth from the full distribution', () => {
    const record = recordOf(wheel);
    expect(record).toMatchObject({
      max_bet: 6.25,
      kelly_fraction: -0.243421,
      adjusted_fraction: 0.0625,
      edge: 0.095,
      expected_value_per_bet: -0.296875,
      bets_until_ruin: 168,
      suggested_bet: 3.125,
    });
    const f = 3.125 / 100;
    const terms: Array<[number, number]> = [
      [0.35, 0],
      [0.25, 0.5],
      [0.15, 1],
      [0.1, 1.5],
      [0.08, 2],
      [0.04, 3],
      [0.02, 5],
      [0.01, 10],
    ];
    const growth = terms.reduce((sum, [p, m]) => sum + p * Math.log(1 + f * (m - 1)), 0);
    expect(record.growth_rate).toBeCloseTo(growth, 6);
  });

  it('a player-edge bet: positive kelly_fraction, positive EV, no expected ruin', () => {
    expect(recordOf(playerEdge)).toMatchObject({
      max_bet: 2.083333,
      kelly_fraction: 0.083333,
      adjusted_fraction: 0.020833,
      edge: -0.1,
      expected_value_per_bet: 0.104167,
      bets_until_ruin: null,
      suggested_bet: 1.041666,
    });
    expect(recordOf(playerEdge).growth_rate).toBeGreaterThan(0);
  });

  it('p = 0: kelly_fraction null, nothing allowed, growth 0', () => {
    expect(recordOf(pushOrLose)).toEqual({
      max_bet: 0,
      kelly_fraction: null,
      adjusted_fraction: 0,
      edge: 0.02,
      expected_value_per_bet: 0,
      bets_until_ruin: null,
      suggested_bet: 0,
      growth_rate: 0,
    });
  });

  it('caps suggested_bet at the game maximum, not max_bet', () => {
    const record = recordOf(coin196, usdc(1_000_000));
    expect(record.max_bet).toBe(125_000);
    expect(record.suggested_bet).toBe(10_000); // the game's maximum bet
    expect(record.bets_until_ruin).toBe(400);
  });
});

describe('fixed rounding', () => {
  it('rounds ratios half away from zero to 6 decimals', () => {
    expect(fixedNumber(ratio(1n, 3n))).toBe(0.333333);
    expect(fixedNumber(ratio(2n, 3n))).toBe(0.666667);
    expect(fixedNumber(ratio(-1n, 48n))).toBe(-0.020833);
    expect(fixedNumber(ratio(1n, 2_000_000n))).toBe(0.000001);
    expect(fixedNumber(ratio(-1n, 2_000_000n))).toBe(-0.000001);
    expect(fixedNumber(ratio(1n, 3_000_000n))).toBe(0);
    expect(fixedNumber(ratio(10n ** 30n, 3n))).toBe(3.333333333333333e29);
  });

  it('rounds floats the same way and renders non-finite as null', () => {
    expect(fixedFloat(-0.0031348)).toBe(-0.003135);
    expect(fixedFloat(Number.NEGATIVE_INFINITY)).toBeNull();
    expect(Object.is(fixedFloat(-1e-9), 0)).toBe(true);
  });
});

describe('GET /kelly/limits and PUT /kelly/config', () => {
  it('keys the records by variant, in game order', () => {
    const view = kellyLimitsView(usdc(100), DEFAULT_RISK_FACTOR, [coin196, dice98, wheel]);
    expect(view['bankroll']).toBe(100);
    expect(view['risk_factor']).toBe(0.25);
    expect(Object.keys(view['limits'] as object)).toEqual(['coin_flip:heads', 'dice:over:90', 'wheel']);
  });

  it('is byte-stable', () => {
    const games = [coin196, dice98, wheel, playerEdge, pushOrLose];
    expect(JSON.stringify(kellyLimitsView(usdc(37), riskFactorFromPercent(40), games))).toBe(
      JSON.stringify(kellyLimitsView(usdc(37), riskFactorFromPercent(40), games)),
    );
  });

  it('answers the config change with the new limits', () => {
    const view = kellyConfigView(usdc(100), riskFactorFromPercent(50), [coin196]);
    expect(view['risk_factor']).toBe(0.5);
    expect(view['message']).toBe('Risk factor updated to 0.5');
    expect(
      (view['new_limits'] as { limits: Record<string, { max_bet: number }> }).limits['coin_flip:heads']?.max_bet,
    ).toBe(25);
  });

  it('covers every variant of the real core modules without a failed assertion', () => {
    const view = kellyLimitsView(usdc(1_000), DEFAULT_RISK_FACTOR, [
      coinFlip,
      dice,
      custom,
      multiplier,
      roulette,
      crash,
    ]);
    const limits = view['limits'] as Record<string, { max_bet: number; edge: number; kelly_fraction: number | null }>;
    expect(Object.keys(limits).length).toBeGreaterThan(6);
    for (const [name, record] of Object.entries(limits)) {
      expect(record.edge, name).toBeGreaterThan(0);
      expect(record.max_bet, name).toBeLessThanOrEqual(250); // 1,000 × 0.25 × p, p ≤ 1
    }
    expect(limits['coin_flip:heads']?.max_bet).toBe(125);
  });
});

describe('the bet response kelly object', () => {
  it('sizes the next bet from the balance after this one', () => {
    const summary = kellyBetSummary({
      bankrollMicro: usdc(80),
      riskFactor: DEFAULT_RISK_FACTOR,
      inputs: kellyInputs(coin196.distribution({})),
      bounds: coin196,
    });
    expect(summary).toEqual({
      bankroll: 80,
      risk_factor: 0.25,
      max_bet_this_game: 10,
      bets_until_ruin: 400,
      suggested_bet: 5,
    });
  });
});

describe('POST /kelly/optimal', () => {
  const lookup = lookupOf([coinFlip, dice, custom]);
  const agent = { balanceMicro: usdc(100), riskFactor: DEFAULT_RISK_FACTOR };

  it('answers for a game and its parameters at the agent bankroll and risk', () => {
    const request = parseOptimalRequest({ game: 'dice', direction: 'over', threshold: 90 }, lookup);
    expect(isFailure(request)).toBe(false);
    if (isFailure(request)) return;
    expect(kellyOptimalView(request, agent)).toMatchObject({
      bankroll: 100,
      game: 'dice',
      variant: 'dice:over:90',
      win_probability: 0.1,
      payout_multiplier: 9.8,
      risk_factor: 0.25,
      max_bet: 2.5,
      suggested_bet: 1.25,
    });
  });

  it('takes the real platform names dice_over / dice_under and what-if risk and bankroll', () => {
    const request = parseOptimalRequest({ game: 'dice_under', threshold: 11, risk_factor: 0.5, bankroll: 40 }, lookup);
    if (isFailure(request)) throw new Error(request.message);
    expect(kellyOptimalView(request, agent)).toMatchObject({
      bankroll: 40,
      variant: 'dice:under:11',
      win_probability: 0.1,
      risk_factor: 0.5,
      max_bet: 2,
    });
  });

  it.each([
    [{ threshold: 50 }, /^game must be one of: coin_flip, dice/],
    [{ game: 'poker' }, /^game must be one of/],
    [{ game: 'wheel' }, /^game wheel is not available$/],
    [{ game: 'coin_flip', side: 'edge' }, /^side must be one of: heads, tails$/],
    [{ game: 'coin_flip', side: 'heads', amount: 1 }, /^unknown field: amount$/],
    [{ game: 'dice_over', threshold: 50, direction: 'under' }, /^unknown field: direction$/],
    [{ game: 'dice', direction: 'over', threshold: 100 }, /^threshold must be an integer from 1 to 99$/],
    [{ game: 'coin_flip', side: 'heads', risk_factor: 0.05 }, /^risk_factor must be a number from 0.1 to 1/],
    [{ game: 'coin_flip', side: 'heads', bankroll: -1 }, /^bankroll must be positive$/],
    [{ game: 'coin_flip', side: 'heads', bankroll: '100' }, /^bankroll must be a number$/],
    [{ game: 'coin_flip', side: 'heads', bankroll: 0.0000001 }, /^bankroll has more than 6 decimals$/],
  ])('refuses %j with 400', (body, message) => {
    const request = parseOptimalRequest(body, lookup);
    expect(isFailure(request)).toBe(true);
    if (isFailure(request)) {
      expect(request.status).toBe(400);
      expect(request.message).toMatch(message);
    }
  });

  it('refuses a body that is not an object, even one that looks like a failure', () => {
    expect(isFailure(parseOptimalRequest([1], lookup))).toBe(true);
    const request = parseOptimalRequest({ ok: false, game: 'coin_flip', side: 'heads' }, lookup);
    expect(isFailure(request) && request.message).toBe('unknown field: ok');
  });
});
