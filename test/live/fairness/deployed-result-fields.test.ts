// The deployed rules write every `result` field spec/DEPLOYED.md §2.5 lists (what the stand-in puts
// on the wire), and the deployed scheme compares only the fields whose value the document fixes: a
// deployment that words its labels, notes, tables and stated chances its own way still verifies.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../../src/core/errors.ts';
import { DEPLOYED_SCHEME } from '../../../src/audit/fairness/deployed-scheme.ts';
import type { SchemeBet } from '../../../src/audit/fairness/scheme.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { hmacHex } from '../../../src/services/casino/deployed/deployed-roll.ts';
import { deployedRuleTable } from '../../../src/services/casino/deployed/deployed-rule-table.ts';
import { isUnreadable, RollSource, type DeployedPlay } from '../../../src/services/casino/deployed/deployed-rule.ts';

const SEED = 'c0ffee'.repeat(10) + 'abcd';
const RULES = deployedRuleTable(PUBLISHED_DEPLOYED_RULES);

/** §2.5's `result` fields, as the document lists them (video poker and parlay aside: not in this table). */
const LISTED: ReadonlyArray<readonly [game: string, params: JsonObject, fields: string]> = [
  ['coin_flip', { side: 'heads' }, 'side_chosen outcome roll'],
  ['dice', { direction: 'over', threshold: 50 }, 'direction threshold dice_value win_probability roll'],
  ['multiplier', { target_multiplier: 2 }, 'target_multiplier crash_point win_probability roll'],
  ['crash', { cash_out_at: 2 }, 'cash_out_at crash_point cashed_out win_probability roll'],
  ['roulette', { bet_type: 'red' }, 'bet_type bet_value number color win_probability roll'],
  ['roulette', { bet_type: 'number', bet_value: 17 }, 'bet_type bet_value number color win_probability roll'],
  ['custom', { win_probability: 50 }, 'win_probability_pct payout_multiplier roll threshold'],
  ['simple_dice', { pick: 3 }, 'pick rolled won payout_if_win house_edge_pct note'],
  [
    'blackjack',
    { action: 'stand' },
    'action player_cards player_total dealer_cards dealer_total outcome win_probability roll',
  ],
  ['plinko', { rows: 8, risk: 'low' }, 'rows risk path slot multiplier payout_table roll'],
  ['slots', {}, 'reels payline multiplier payout_table roll'],
  ['hilo', { guess: 'higher' }, 'card1 card1_name card2 card2_name guess result payout_applied house_edge_pct note'],
  [
    'keno',
    { picks: [1, 20, 41] },
    'picks drawn matches spots_picked spots_drawn range payout_multiplier payout_table note',
  ],
  ['scratch_card', {}, 'symbols win_type payout_multiplier payout_table note'],
  ['wheel', {}, 'sector multiplier won house_edge_pct wheel note'],
  [
    'mines',
    { mines: 3, reveals: 3 },
    'mines_count reveals_count mine_positions revealed_cells hit_mine hit_at_cell win_probability payout_on_win note',
  ],
  [
    'baccarat',
    { bet_on: 'banker' },
    'bet_on outcome player_hand player_value banker_hand banker_value natural won note',
  ],
];

function play(game: string, params: JsonObject, nonce: number): DeployedPlay {
  const played = RULES.get(game)?.play(params, new RollSource(SEED, 'fields', nonce));
  if (played === undefined || isUnreadable(played)) throw new Error(`${game} does not play`);
  return played;
}

function betOf(game: string, params: JsonObject, nonce: number, result: JsonObject, multiplier: number): SchemeBet {
  return {
    betId: `bet_${game}_${nonce}`,
    game,
    params,
    amountMicro: 1_000_000n,
    paidMicro: BigInt(Math.round(multiplier * 1_000_000)),
    multiplier,
    result,
    clientSeed: 'fields',
    nonce,
    seedHash: createHash('sha256').update(SEED).digest('hex'),
    resultHash: hmacHex(SEED, `fields:${nonce}`),
  };
}

describe('the deployed rules write every result field §2.5 lists', () => {
  test.each(LISTED)('%s %j: %s', (game, params, fields) => {
    for (let nonce = 0; nonce < 40; nonce += 1)
      expect(Object.keys(play(game, params, nonce).result), `${game} nonce ${nonce}`).toEqual(fields.split(' '));
  });

  test('the stated figures: dice, multiplier, roulette and mines chances round4, blackjack 0.42, hilo 4%, keno says 20', () => {
    expect(play('dice', { direction: 'under', threshold: 10 }, 0).result['win_probability']).toBe(0.1);
    expect(play('multiplier', { target_multiplier: 3 }, 0).result['win_probability']).toBe(0.3317);
    expect(play('crash', { cash_out_at: 1.5 }, 0).result['win_probability']).toBe(0.6633);
    expect(play('roulette', { bet_type: 'red' }, 0).result['win_probability']).toBe(0.4865);
    expect(play('roulette', { bet_type: 'dozen_2' }, 0).result['win_probability']).toBe(0.3243);
    expect(play('roulette', { bet_type: 'number', bet_value: 0 }, 0).result['win_probability']).toBe(0.027);
    expect(play('roulette', { bet_type: 'red' }, 0).result['bet_value']).toBeNull();
    expect(play('blackjack', { action: 'hit' }, 0).result['win_probability']).toBe(0.42);
    expect(play('mines', { mines: 3, reveals: 5 }, 0).result['win_probability']).toBe(0.4957);
    expect(play('hilo', { guess: 'lower' }, 0).result['house_edge_pct']).toBe(4);
    expect(play('keno', { picks: [5] }, 0).result).toMatchObject({ spots_picked: 1, spots_drawn: 20, range: '1-80' });
    expect(play('keno', { picks: [5, 6] }, 0).result['payout_table']).toEqual({ 2: 16 });
    expect(play('plinko', { rows: 8, risk: 'low' }, 0).result['payout_table']).toEqual([
      5.6, 2.1, 1.1, 1, 0.5, 1, 1.1, 2.1, 5.6,
    ]);
  });

  test('labels follow the outcome: roulette colour, blackjack outcome, hilo names and result, mines hit cell', () => {
    const colours = new Set<unknown>();
    const outcomes = new Set<unknown>();
    for (let nonce = 0; nonce < 400; nonce += 1) {
      const roulette = play('roulette', { bet_type: 'red' }, nonce);
      const pocket = roulette.result['number'] as number;
      colours.add(roulette.result['color']);
      expect(roulette.result['color'] === 'red').toBe(roulette.multiplierNumber > 0);
      if (pocket === 0) expect(roulette.result['color']).toBe('green');
      const blackjack = play('blackjack', { action: 'stand' }, nonce);
      outcomes.add(blackjack.result['outcome']);
      expect(['bust', 'lose', 'dealer_blackjack'].includes(blackjack.result['outcome'] as string)).toBe(
        blackjack.multiplierNumber === 0,
      );
      const hilo = play('hilo', { guess: 'higher' }, nonce).result;
      expect(hilo['result']).toBe(
        hilo['card1'] === hilo['card2'] ? 'push' : (hilo['payout_applied'] as number) > 0 ? 'win' : 'lose',
      );
      const mines = play('mines', { mines: 5, reveals: 4 }, nonce).result;
      expect(mines['hit_at_cell'] === null).toBe(mines['hit_mine'] === false);
    }
    expect(colours).toEqual(new Set(['red', 'black', 'green']));
    expect(outcomes.has('win') && outcomes.has('lose')).toBe(true);
  });
});

describe('the deployed scheme compares only what §2.5 fixes', () => {
  /** A deployment's own forms of every label, note, table and stated figure. */
  const REWORDED: JsonObject = {
    win_probability: 50,
    payout_table: 'see docs',
    note: 'another note',
    house_edge_pct: 3.5,
    color: 'GREEN',
    outcome: 'player_wins',
    payline: ['x'],
    card1_name: 'Ace',
    card2_name: 'King',
    result: 'WIN',
    payout_applied: '1.9x',
    matches: [1, 20],
    spots_picked: 3,
    spots_drawn: 6,
    range: [1, 80],
    win_type: 'three of a kind',
    sector: 7,
    wheel: null,
    player_hand: ['A♠'],
    banker_hand: ['K♦'],
    payout_if_win: 5.5,
  };
  const OUTCOME_WORDS: Readonly<Record<string, readonly string[]>> = {
    // coin flip's and baccarat's `outcome` is their outcome (heads/tails, player/banker/tie): compared.
    coin_flip: ['outcome'],
    baccarat: ['outcome'],
  };

  test.each(LISTED)('%s %j: reworded labels verify; a changed outcome field does not', (game, params) => {
    for (let nonce = 0; nonce < 10; nonce += 1) {
      const played = play(game, params, nonce);
      const reworded: JsonObject = { ...played.result };
      for (const [field, value] of Object.entries(REWORDED))
        if (field in reworded && !(OUTCOME_WORDS[game] ?? []).includes(field)) reworded[field] = value;
      // The deployment may leave out a field that has no value for the bet (hit_at_cell on a win).
      for (const [field, value] of Object.entries(played.result)) if (value === null) delete reworded[field];
      const verdict = DEPLOYED_SCHEME.verify(betOf(game, params, nonce, reworded, played.multiplierNumber), SEED);
      expect(verdict.outcome, `${game} nonce ${nonce}`).toEqual({ status: 'ok' });
    }
  });

  test('roulette: a changed pocket still fails, whatever the labels', () => {
    const played = play('roulette', { bet_type: 'red' }, 3);
    const changed = { ...played.result, number: ((played.result['number'] as number) + 1) % 37, color: 'x' };
    const verdict = DEPLOYED_SCHEME.verify(betOf('roulette', { bet_type: 'red' }, 3, changed, 0), SEED);
    expect(verdict.outcome.status).toBe('failed');
  });
});
