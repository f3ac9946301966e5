// DeployedCasinoRules: each override changes exactly the game it names. Every game is played on the
// same draws (a fixed seed, client seed and 200 nonces) under the published rules and under one
// override; only the named game's plays may differ, and they must differ somewhere.
import { describe, expect, test } from 'vitest';
import {
  PUBLISHED_DEPLOYED_RULES,
  withRuleOverrides,
  type RuleOverrides,
} from '../../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { deployedDraw } from '../../../../src/services/casino/deployed/deployed-draw.ts';
import { isUnreadable } from '../../../../src/services/casino/deployed/deployed-rule.ts';
import { deployedRuleTable } from '../../../../src/services/casino/deployed/deployed-rule-table.ts';
import type { JsonObject } from '../../../../src/core/errors.ts';

const SEED = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';
const NONCES = 200;
const PARAMS: Readonly<Record<string, JsonObject>> = {
  coin_flip: { side: 'heads' },
  dice: { direction: 'under', threshold: 40 },
  simple_dice: { pick: 4 },
  multiplier: { target_multiplier: 1.5 },
  roulette: { bet_type: 'red' },
  custom: { win_probability: 60 },
  blackjack: { action: 'stand' },
  crash: { cash_out_at: 1.3 },
  plinko: { rows: 8, risk: 'low' },
  slots: {},
  hilo: { guess: 'higher' },
  keno: { picks: [1, 20, 21, 40, 41] },
  scratch_card: {},
  video_poker: { holds: [] },
  wheel: {},
  mines: { mines: 2, reveals: 2 },
  baccarat: { bet_on: 'banker' },
  parlay: {
    bets: [
      { game: 'coin_flip', params: { side: 'heads' } },
      { game: 'simple_dice', params: { guess: 2 } },
    ],
  },
};
/** The games whose rules the parlay's legs above play: an override of one changes the parlay too. */
const PARLAY_LEGS: readonly string[] = ['coin_flip', 'simple_dice'];

/** Every game's plays (multiplier and result) on the fixed draws, by game. */
function plays(overrides: RuleOverrides): Map<string, unknown[]> {
  const rules = withRuleOverrides(PUBLISHED_DEPLOYED_RULES, overrides);
  const byGame = new Map<string, unknown[]>();
  for (const game of deployedRuleTable(rules).keys()) {
    const list: unknown[] = [];
    for (let nonce = 0; nonce < NONCES; nonce += 1) {
      const drawn = deployedDraw(rules, { game, params: PARAMS[game] ?? {}, seedHex: SEED, clientSeed: 'unit', nonce });
      expect(isUnreadable(drawn) ? drawn.why : null, game).toBeNull();
      if (!isUnreadable(drawn))
        list.push([
          String(drawn.result.multiplier.num),
          String(drawn.result.multiplier.den),
          drawn.result.detail,
          drawn.noncesUsed,
        ]);
    }
    byGame.set(game, list);
  }
  return byGame;
}

const OVERRIDES: ReadonlyArray<readonly [game: string, overrides: RuleOverrides]> = [
  ['coin_flip', { casino: { coin_flip: { payout: 1.97 } } }],
  ['coin_flip', { casino: { coin_flip: { headsBelow: 60 } } }],
  ['dice', { casino: { dice: { edgeFactor: 0.99 } } }],
  ['multiplier', { casino: { multiplier: { edgeFactor: 0.97 } } }],
  ['crash', { casino: { crash: { edgeFactor: 0.97 } } }],
  ['custom', { casino: { custom: { edgeFactor: 0.975 } } }],
  ['simple_dice', { casino: { simple_dice: { payout: 5.8 } } }],
  ['roulette', { casino: { roulette: { evenMoney: 1.98 } } }],
  ['blackjack', { casino: { blackjack: { win: 0.95, push: 0.9 } } }],
  ['baccarat', { casino: { baccarat: { banker: 1.95 } } }],
  ['plinko', { casino: { plinko: { tables: { low: { 8: [5, 2, 1.2, 1, 0.4] } } } } }],
  ['slots', { casino: { slots: { triples: { LEMON: 4 }, twoCherries: 3, cherryFirst: 0.5 } } }],
  ['hilo', { casino: { hilo: { edgeFactor: 0.99 } } }],
  ['keno', { casino: { keno: { paytable: { 5: { 4: 20, 5: 900 } } } } }],
  ['keno', { casino: { keno: { draw: 'uniform' } } }],
  ['scratch_card', { casino: { scratch_card: { pair: 1.5 } } }],
  ['wheel', { casino: { wheel: { compare: 'fraction' } } }],
  ['mines', { casino: { mines: { edgeFactor: 0.99 } } }],
  ['video_poker', { casino: { video_poker: { paytable: [800, 50, 25, 9, 6, 4, 3, 2, 2] } } }],
];

describe('DeployedCasinoRules overrides', () => {
  const published = plays({});

  test.each(OVERRIDES.map(([game, overrides]) => [game, JSON.stringify(overrides), overrides] as const))(
    '%s: %s changes that game only',
    (game, _text, overrides) => {
      const changed = plays(overrides);
      for (const [other, list] of published) {
        if (other === game || (other === 'parlay' && PARLAY_LEGS.includes(game)))
          expect(changed.get(other), other).not.toEqual(list);
        else expect(changed.get(other), other).toEqual(list);
      }
    },
  );

  test('money and display overrides change no game; the published value is never mutated', () => {
    const before = JSON.stringify(PUBLISHED_DEPLOYED_RULES);
    const rules = withRuleOverrides(PUBLISHED_DEPLOYED_RULES, {
      money: { floatNoise: true },
      display: { amountWonPlaces: 3 },
    });
    expect(rules.money.floatNoise).toBe(true);
    expect(rules.display).toEqual({ amountWonPlaces: 3, newBalancePlaces: 2, multiplierOnLoss: true });
    expect(plays({ money: { floatNoise: true }, display: { amountWonPlaces: 3 } })).toEqual(published);
    expect(JSON.stringify(PUBLISHED_DEPLOYED_RULES)).toBe(before);
  });

  test('the uniform keno draw draws 20 distinct numbers of 1..80 and advances the counter by min(attempts, 25)', () => {
    const rules = withRuleOverrides(PUBLISHED_DEPLOYED_RULES, { casino: { keno: { draw: 'uniform' } } });
    for (let nonce = 0; nonce < 20; nonce += 1) {
      const drawn = deployedDraw(rules, {
        game: 'keno',
        params: { picks: [5] },
        seedHex: SEED,
        clientSeed: 'uniform',
        nonce,
      });
      if (isUnreadable(drawn)) throw new Error(drawn.why);
      const numbers = drawn.result.detail['drawn'] as number[];
      expect(new Set(numbers).size).toBe(20);
      expect(numbers.every((number) => number >= 1 && number <= 80)).toBe(true);
      expect(drawn.noncesUsed).toBeGreaterThanOrEqual(20);
      expect(drawn.noncesUsed).toBeLessThanOrEqual(25);
    }
    const deployed = deployedDraw(PUBLISHED_DEPLOYED_RULES, {
      game: 'keno',
      params: { picks: [5] },
      seedHex: SEED,
      clientSeed: 'uniform',
      nonce: 0,
    });
    if (isUnreadable(deployed)) throw new Error(deployed.why);
    expect((deployed.result.detail['drawn'] as number[]).length).toBeLessThanOrEqual(8);
    expect(deployed.noncesUsed).toBe(25);
  });

  test('mines: revealing stops at the first mine (revealed_cells ends at hit_at_cell on a loss, DEPLOYED.md §2.5)', () => {
    let losses = 0;
    for (let nonce = 0; nonce < 60; nonce += 1) {
      const drawn = deployedDraw(PUBLISHED_DEPLOYED_RULES, {
        game: 'mines',
        params: { mines: 10, reveals: 8 },
        seedHex: SEED,
        clientSeed: 'mines',
        nonce,
      });
      if (isUnreadable(drawn)) throw new Error(drawn.why);
      const detail = drawn.result.detail;
      const revealed = detail['revealed_cells'] as number[];
      if (detail['hit_mine'] === true) {
        losses += 1;
        expect(revealed.at(-1)).toBe(detail['hit_at_cell']);
        expect((detail['mine_positions'] as number[]).filter((cell) => revealed.includes(cell))).toEqual([
          detail['hit_at_cell'],
        ]);
      } else {
        expect(revealed).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      }
    }
    expect(losses).toBeGreaterThan(30);
  });
});
