// deployedAnswerContradiction: an answer's own facts against its own outcome and payout, for the
// games the live test does not rewrite; facts only (a label's wording or case is never one).
import { describe, expect, test } from 'vitest';
import { deployedAnswerContradiction } from '../../../src/audit/fairness/deployed/answer-contradiction.ts';

const won = (multiplier: number) => ({ won: multiplier > 0, multiplier });

describe('deployedAnswerContradiction', () => {
  test('hilo: card2 above card1 on a higher guess, unpaid; strings spelling the cards read as numbers', () => {
    expect(
      deployedAnswerContradiction('hilo', { card1: '3', card2: 9, guess: 'higher', result: 'LOSS' }, won(0)),
    ).toMatch(/card1 3, card2 9 and guess higher make a win, yet the bet paid ×0/);
    expect(
      deployedAnswerContradiction('hilo', { card1: '3', card2: 9, guess: 'higher', result: 'nope' }, won(1.3)),
    ).toBeNull();
  });

  test('roulette: the colour of the number (any case), and the bet won by it', () => {
    expect(
      deployedAnswerContradiction(
        'roulette',
        { number: 17, color: 'BLACK', bet_type: 'number', bet_value: 17 },
        won(36),
      ),
    ).toBeNull();
    expect(deployedAnswerContradiction('roulette', { number: 17, color: 'Red', bet_type: 'red' }, won(2))).toMatch(
      /color "Red" where number 17 is black/,
    );
    expect(deployedAnswerContradiction('roulette', { number: 17, color: 'black', bet_type: 'red' }, won(2))).toMatch(
      /number 17 loses bet_type red/,
    );
    expect(
      deployedAnswerContradiction('roulette', { number: 0, color: 'green', bet_type: 'red' }, won(0.5)),
    ).toBeNull();
  });

  test('baccarat: values from the hands, the winner from the values', () => {
    const hands = { player_hand: [3, 4], player_value: 7, banker_hand: [9, 0], banker_value: 9, bet_on: 'banker' };
    expect(deployedAnswerContradiction('baccarat', { ...hands, outcome: 'banker' }, won(1.95))).toBeNull();
    expect(deployedAnswerContradiction('baccarat', { ...hands, outcome: 'player' }, won(1.95))).toMatch(
      /outcome "player" where player_value 7 and banker_value 9 make banker/,
    );
    expect(
      deployedAnswerContradiction('baccarat', { ...hands, player_value: 8, outcome: 'banker' }, won(1.95)),
    ).toMatch(/player_value 8 where player_hand \[3,4\] counts 7/);
    // Hands written as ranks (K = 13, 10 = 10) count as the points they are: no contradiction.
    const ranks = {
      player_hand: [13, 5],
      player_value: 5,
      banker_hand: [10, 12, 8],
      banker_value: 8,
      bet_on: 'banker',
    };
    expect(deployedAnswerContradiction('baccarat', { ...ranks, outcome: 'banker' }, won(1.95))).toBeNull();
  });

  test('plinko, slots, scratch card and wheel: the shown multiplier against the answer’s own table, whatever table it states', () => {
    expect(
      deployedAnswerContradiction('plinko', { slot: 2, multiplier: 5, payout_table: [9, 4, 5, 4, 9] }, won(5)),
    ).toBeNull();
    expect(
      deployedAnswerContradiction('plinko', { slot: 2, multiplier: 9, payout_table: [9, 4, 5, 4, 9] }, won(9)),
    ).toMatch(/slot 2 is ×5/);
    // A deployment that counts its slots from 1: slot 3 is the table's third line.
    expect(
      deployedAnswerContradiction('plinko', { slot: 3, multiplier: 5, payout_table: [9, 4, 5, 4, 9] }, won(5)),
    ).toBeNull();
    const reels = ['BAR', 'BAR', 'BAR'];
    expect(
      deployedAnswerContradiction('slots', { reels, multiplier: 30, payout_table: { 'BAR BAR BAR': 30 } }, won(30)),
    ).toBeNull();
    expect(
      deployedAnswerContradiction('slots', { reels, multiplier: 50, payout_table: { 'BAR BAR BAR': 30 } }, won(50)),
    ).toMatch(/line "BAR BAR BAR" ×30/);
    const symbols = ['⭐', '⭐', '⭐'];
    expect(
      deployedAnswerContradiction(
        'scratch_card',
        { symbols, payout_multiplier: 9, payout_table: { '⭐⭐⭐': 10 } },
        won(9),
      ),
    ).toMatch(/×10, yet the bet shows ×9/);
    const table = [
      { sector: 'BUST', multiplier: 0, probability: 0.5 },
      { sector: '3x', multiplier: 3, probability: 0.5 },
    ];
    expect(deployedAnswerContradiction('wheel', { sector: 'bust', multiplier: 0, wheel: table }, won(0))).toBeNull();
    expect(deployedAnswerContradiction('wheel', { sector: '3X', multiplier: 2, wheel: table }, won(2))).toMatch(
      /sector "3X" is ×3 in its own wheel table/,
    );
  });

  test('blackjack: a soft or hard total of the cards (numbers or letters) is the cards’; a bust is never paid', () => {
    const hand = { player_cards: ['A', 6], player_total: 7, dealer_cards: [10, 'K'], dealer_total: 20 };
    expect(deployedAnswerContradiction('blackjack', { ...hand, outcome: 'dealer_wins' }, won(0))).toBeNull();
    expect(deployedAnswerContradiction('blackjack', { ...hand, player_total: 15 }, won(0))).toMatch(
      /player_total 15 where player_cards \["A",6\] total 17/,
    );
    expect(deployedAnswerContradiction('blackjack', { player_cards: ['K', 'Q', 5], player_total: 25 }, won(2))).toMatch(
      /total 25 \(bust\), yet the bet paid ×2/,
    );
  });
});

describe('honest encodings a deployment may choose are no contradiction', () => {
  test('mines: the mine hit written apart from the safe cells (hit_at_cell)', () => {
    const result = { mine_positions: [2], revealed_cells: [0, 1], hit_mine: true, hit_at_cell: 2 };
    expect(deployedAnswerContradiction('mines', result, won(0))).toBeNull();
    expect(deployedAnswerContradiction('mines', { ...result, hit_at_cell: 3 }, won(0))).toMatch(
      /hit_at_cell 3 is not one of mine_positions/,
    );
  });

  test('blackjack: cards as ranks (J Q K = 11 12 13) or as values (ace 11)', () => {
    const ranks = { player_cards: [10, 8], player_total: 18, dealer_cards: [11, 7], dealer_total: 17 };
    expect(deployedAnswerContradiction('blackjack', ranks, won(2))).toBeNull();
    const values = { player_cards: [11, 8], player_total: 19, dealer_cards: [10, 7], dealer_total: 17 };
    expect(deployedAnswerContradiction('blackjack', values, won(2))).toBeNull();
    expect(deployedAnswerContradiction('blackjack', { ...ranks, dealer_total: 19 }, won(2))).toMatch(
      /dealer_total 19 where dealer_cards \[11,7\] total 18 or 8 or 17/,
    );
  });

  test('baccarat: the side named in any case or by its initial', () => {
    const hands = { player_hand: [0, 4], player_value: 4, banker_hand: [2, 6], banker_value: 8 };
    expect(
      deployedAnswerContradiction('baccarat', { ...hands, bet_on: 'Banker', outcome: 'Banker' }, won(1.9)),
    ).toBeNull();
    expect(deployedAnswerContradiction('baccarat', { ...hands, bet_on: 'B', outcome: 'B' }, won(1.9))).toBeNull();
    expect(deployedAnswerContradiction('baccarat', { ...hands, bet_on: 'PLAYER' }, won(1.9))).toMatch(
      /bet_on player where the hands make banker/,
    );
  });

  test('a table shown rounded (2 places) against the multiplier paid exactly, and the reverse', () => {
    const table = [5.54, 2.08, 1.09, 0.99, 0.5, 0.99, 1.09, 2.08, 5.54];
    expect(
      deployedAnswerContradiction('plinko', { slot: 0, multiplier: 5.544, payout_table: table }, won(5.544)),
    ).toBeNull();
    expect(deployedAnswerContradiction('plinko', { slot: 0, multiplier: 5.6, payout_table: table }, won(5.6))).toMatch(
      /slot 0 is ×5.54/,
    );
    const keno = { picks: [1, 2], drawn: [1, 5], matches: 1, payout_table: { '0': 0, '1': 1.99, '2': 9 } };
    expect(deployedAnswerContradiction('keno', keno, won(1.9899999))).toBeNull();
  });
  test('a -1 "no cell" sentinel, the American 00, and a keno table keyed by picks', () => {
    expect(
      deployedAnswerContradiction(
        'mines',
        { mine_positions: [18], revealed_cells: [0], hit_mine: false, hit_at_cell: -1 },
        won(1.0156),
      ),
    ).toBeNull();
    expect(
      deployedAnswerContradiction(
        'roulette',
        { bet_type: 'number', bet_value: 0, number: '00', color: 'green' },
        won(0),
      ),
    ).toBeNull();
    const byPicks = { picks: [1], drawn: [5], matches: 0, payout_table: { '1': { '0': 0, '1': 3 }, '10': { '0': 2 } } };
    expect(deployedAnswerContradiction('keno', byPicks, won(0))).toBeNull();
  });
  test('blackjack: the totals of two played-out hands against the payout', () => {
    const hands = { player_cards: ['10', '8'], player_total: 18, dealer_cards: ['10', '9'], dealer_total: 19 };
    expect(deployedAnswerContradiction('blackjack', hands, won(0))).toBeNull();
    expect(deployedAnswerContradiction('blackjack', hands, won(2))).toMatch(
      /player_total 18 against dealer_total 19 is a loss, yet the bet paid ×2/,
    );
    const swapped = { player_cards: ['10', '9'], player_total: 19, dealer_cards: ['10', '8'], dealer_total: 18 };
    expect(deployedAnswerContradiction('blackjack', swapped, won(0))).toMatch(/is a win, yet the bet paid ×0/);
    const dealerBust = { ...hands, dealer_cards: ['10', '6', 'K'], dealer_total: 26 };
    expect(deployedAnswerContradiction('blackjack', dealerBust, won(2))).toBeNull();
    expect(deployedAnswerContradiction('blackjack', dealerBust, won(0))).toMatch(/is a win/);
    // A surrender's half, a hidden hole card and equal totals are not judged.
    expect(deployedAnswerContradiction('blackjack', hands, won(0.5))).toBeNull();
    expect(deployedAnswerContradiction('blackjack', { ...hands, dealer_cards: ['10', '?'] }, won(2))).toBeNull();
    expect(deployedAnswerContradiction('blackjack', { ...hands, dealer_total: 18 }, won(0))).toMatch(
      /dealer_total 18 where dealer_cards/,
    );
  });
});

describe("a lost bet's multiplier as placed is no payment (DEPLOYED.md §2.4)", () => {
  // What the deployment writes on a lost bet: won false, amount_won 0, payout_multiplier the bet's own.
  const lost = (multiplier: number) => ({ won: false, multiplier, paidMicro: 0n, amountMicro: 370_000n });

  test('the five games the deployment showed it on: roulette, mines, hilo, baccarat, blackjack', () => {
    expect(
      deployedAnswerContradiction('roulette', { number: 17, color: 'black', bet_type: 'red' }, lost(1.99)),
    ).toBeNull();
    expect(
      deployedAnswerContradiction(
        'mines',
        { mine_positions: [0, 5, 9], revealed_cells: [0], hit_mine: true, hit_at_cell: 0 },
        lost(2.3),
      ),
    ).toBeNull();
    expect(deployedAnswerContradiction('hilo', { card1: 9, card2: 3, guess: 'higher' }, lost(2.88))).toBeNull();
    const hands = { player_hand: [3, 4], player_value: 7, banker_hand: [9, 0], banker_value: 9, bet_on: 'player' };
    expect(deployedAnswerContradiction('baccarat', { ...hands, outcome: 'banker' }, lost(1.98))).toBeNull();
    const played = { player_cards: ['10', '8'], player_total: 18, dealer_cards: ['10', '9'], dealer_total: 19 };
    expect(deployedAnswerContradiction('blackjack', played, lost(2))).toBeNull();
    expect(
      deployedAnswerContradiction('blackjack', { player_cards: ['K', 'Q', 5], player_total: 25 }, lost(1)),
    ).toBeNull();
  });

  test('what the answer credited still counts: a loss credited the stake or more, a win credited nothing', () => {
    const creditedLoss = { won: false, multiplier: 1.99, paidMicro: 740_000n, amountMicro: 370_000n };
    expect(
      deployedAnswerContradiction('roulette', { number: 17, color: 'black', bet_type: 'red' }, creditedLoss),
    ).toMatch(/number 17 loses bet_type red, yet the bet paid ×2 \(won false, amount_won 0\.74\)/);
    expect(deployedAnswerContradiction('hilo', { card1: 3, card2: 9, guess: 'higher' }, lost(1.3))).toMatch(
      /make a win, yet the bet paid ×0 \(won false, amount_won 0\.00\)/,
    );
  });
});
