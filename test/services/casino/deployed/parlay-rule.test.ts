// The deployed parlay's rule (services/casino/deployed/parlay-rule.ts) and its self-contradiction
// check (audit/fairness/deployed/parlay-contradiction.ts), without sockets: each leg is its own
// game's play on its own nonce; the law is the product of the legs' win chances at the one combined
// multiplier round2(Π × 0.90); an answer whose all_won, legs_won or payout deny its legs is named.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../../../src/core/errors.ts';
import { ratio } from '../../../../src/core/ratio.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { isUnreadable, RollSource } from '../../../../src/services/casino/deployed/deployed-rule.ts';
import { deployedRuleTable } from '../../../../src/services/casino/deployed/deployed-rule-table.ts';
import { parlayContradiction } from '../../../../src/audit/fairness/deployed/parlay-contradiction.ts';

const RULES = deployedRuleTable(PUBLISHED_DEPLOYED_RULES);
const SEED = 'a'.repeat(64);
const PARLAY = RULES.get('parlay');

describe('the deployed parlay rule', () => {
  test('legs play their own games on nonce, nonce + 1, …; a leg’s client seed is its own', () => {
    const params: JsonObject = {
      bets: [
        { game: 'coin_flip', params: { side: 'tails' } },
        { game: 'dice', params: { direction: 'over', threshold: 30, client_seed: 'own' } },
      ],
    };
    const play = PARLAY?.play(params, new RollSource(SEED, 'parlay_1', 7));
    if (play === undefined || isUnreadable(play)) throw new Error('the parlay plays');
    const legs = play.result['legs'] as { nonce: number; roll: number }[];
    expect(legs.map((leg) => leg.nonce)).toEqual([7, 8]);
    const coin = RULES.get('coin_flip')?.play({ side: 'tails' }, new RollSource(SEED, 'parlay_1', 7));
    expect(coin !== undefined && !isUnreadable(coin) ? coin.result['roll'] : null).toBe(legs[0]?.roll);
    const dice = RULES.get('dice')?.play({ direction: 'over', threshold: 30 }, new RollSource(SEED, 'own', 8));
    expect(dice !== undefined && !isUnreadable(dice) ? dice.result['roll'] : null).toBe(legs[1]?.roll);
    expect(play.noncesUsed).toBe(2);
    expect(play.result['combined_multiplier']).toBe(Math.round(1.99 * 1.4214 * 0.9 * 100) / 100);
  });

  test('its law: the product of the legs’ win chances at round2(Π × 0.90)', () => {
    const law = PARLAY?.law({
      bets: [
        { game: 'coin_flip', params: { side: 'heads' } },
        { game: 'coin_flip', params: { side: 'heads' } },
      ],
    });
    // heads iff r < 50: residues 0 … 4999, each of 429497 words (all below 7296).
    const heads = ratio(5000n * 429_497n, 2n ** 32n);
    expect(law?.[0]).toEqual([ratio(heads.num * heads.num, heads.den * heads.den), ratio(356, 100)]);
  });

  test('fewer than two legs, an unknown leg game or a leg that does not read: why', () => {
    const source = new RollSource(SEED, 'x', 0);
    expect(PARLAY?.play({ bets: [{ game: 'dice' }] }, source)).toEqual({
      why: 'bets must be an array of 2 to 5 legs',
    });
    expect(PARLAY?.play({ bets: [{ game: 'keno' }, { game: 'dice' }] }, source)).toMatchObject({
      why: expect.stringMatching(/^bets\[0\]\.game must be one of/) as unknown,
    });
    expect(
      PARLAY?.play({ bets: [{ game: 'dice', params: { threshold: 0 } }, { game: 'dice' }] }, source),
    ).toMatchObject({ why: expect.stringMatching(/^bets\[0\]: threshold/) as unknown });
  });
});

describe('a parlay answer against itself', () => {
  const coin: JsonObject = { game: 'coin_flip', side_chosen: 'heads', outcome: 'heads', won: true };
  const dice: JsonObject = { game: 'simple_dice', pick: 3, rolled: 3, won: true };
  const result: JsonObject = { legs: [coin, dice], all_won: true, legs_won: 2, combined_multiplier: 9.85 };

  test('consistent: none', () => {
    expect(parlayContradiction(result, { won: true, multiplier: 9.85 })).toBeNull();
  });

  test('all_won, legs_won, the payout or a leg’s own facts against the won flags', () => {
    expect(parlayContradiction({ ...result, all_won: false }, { multiplier: 0 })).toMatch(/^all_won is false/);
    expect(parlayContradiction({ ...result, legs_won: 1 }, { multiplier: 9.85 })).toMatch(/^legs_won is 1/);
    expect(parlayContradiction(result, { multiplier: 4 })).toMatch(
      /combined_multiplier is 9\.85, yet the parlay paid ×4/,
    );
    const lost: JsonObject[] = [coin, { ...dice, rolled: 5, won: false }];
    expect(parlayContradiction({ ...result, legs: lost, all_won: false, legs_won: 1 }, { multiplier: 9.85 })).toMatch(
      /a leg is lost/,
    );
    expect(
      parlayContradiction({ ...result, legs: [{ ...coin, outcome: 'tails' }, dice] }, { multiplier: 9.85 }),
    ).toMatch(/^legs\[0\] \(coin_flip\) states a loss by its own fields, yet its won is true/);
  });
});
