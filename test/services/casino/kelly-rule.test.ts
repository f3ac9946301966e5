// kelly-rule.ts answers from memos (inputs per variant, allowed fraction per risk factor, risk
// factor numbers): every value must be the one kelly/ computes afresh — the limit on every bet
// (kelly-limit.ts maxBetMicro) and the `kelly` object of every answer (kelly-view.ts
// kellyBetSummary) — over every variant of every game, many bankrolls and risk factors.
import { describe, expect, test } from 'vitest';
import { usdc } from '../../../src/core/money.ts';
import { Rng } from '../../../src/core/rng.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { GAMES } from '../../../src/services/casino/games/index.ts';
import {
  betKellySummary,
  kellyMaxBetMicro,
  riskFactorOf,
  variantInputs,
  variantNameOf,
} from '../../../src/services/casino/kelly-rule.ts';
import { kellyInputs } from '../../../src/services/casino/kelly/kelly-inputs.ts';
import { maxBetMicro } from '../../../src/services/casino/kelly/kelly-limit.ts';
import { kellyBetSummary } from '../../../src/services/casino/kelly/kelly-view.ts';
import { riskFactorFromPercent } from '../../../src/services/casino/kelly/risk-factor.ts';

const START = Date.UTC(2026, 0, 1);

function bankrolls(rng: Rng): bigint[] {
  const fixed = [-5n, 0n, 1n, 9_999n, 10_000n, 123_457n, usdc(1), usdc(1_000), usdc(1_000_000_000)];
  return [...fixed, ...Array.from({ length: 6 }, () => BigInt(rng.int(2_000_000_000)) * BigInt(1 + rng.int(1_000)))];
}

describe('kelly-rule memos give exactly the values of kelly/', () => {
  test('limits and bet summaries of every variant, for the default and chosen risk factors', () => {
    const platform = new Platform({ seed: 'kelly-rule', startMs: START });
    const state = platform.casino.state;
    const rng = new Rng('kelly-rule-test');
    const agents = ['default-risk', 'chosen-risk'];
    let compared = 0;
    for (const percent of [10, 25, 33, 50, 99, 100]) {
      state.riskFactors.set('chosen-risk', riskFactorFromPercent(percent));
      for (const game of GAMES) {
        for (const variant of game.variants()) {
          const inputs = kellyInputs(game.distribution(variant.params));
          expect(variantInputs(game, variant.params)).toEqual(inputs);
          for (const agentId of agents) {
            const riskFactor = riskFactorOf(state, agentId);
            for (const bankrollMicro of bankrolls(rng)) {
              expect(kellyMaxBetMicro(state, agentId, game, variant.params, bankrollMicro)).toBe(
                maxBetMicro(bankrollMicro, riskFactor, inputs),
              );
              expect(betKellySummary(state, agentId, game, variant.params, bankrollMicro)).toStrictEqual(
                kellyBetSummary({ bankrollMicro, riskFactor, inputs, bounds: game }),
              );
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1_000);
  });

  test("variant names: the game's own, whatever was asked before", () => {
    for (const game of GAMES) {
      for (const variant of game.variants()) {
        expect(variantNameOf(game, variant.params)).toBe(game.variantName(variant.params));
        expect(variantNameOf(game, variant.params)).toBe(variant.name);
      }
    }
    const dice = GAMES.find((game) => game.id === 'dice');
    expect(dice).toBeDefined();
    if (dice === undefined) return;
    expect(variantNameOf(dice, { direction: 'over', threshold: 50 })).toBe('dice:over:50');
    expect(variantNameOf(dice, { direction: 'over', threshold: 90 })).toBe('dice:over:90');
  });

  test('the default risk factor follows the configuration, one shared value per percent', () => {
    const platform = new Platform({ seed: 'kelly-rule', startMs: START });
    const state = platform.casino.state;
    expect(riskFactorOf(state, 'anyone')).toEqual(riskFactorFromPercent(25));
    expect(riskFactorOf(state, 'anyone')).toBe(riskFactorOf(state, 'someone-else'));
    const chosen = riskFactorFromPercent(40);
    state.riskFactors.set('anyone', chosen);
    expect(riskFactorOf(state, 'anyone')).toBe(chosen);
  });
});
