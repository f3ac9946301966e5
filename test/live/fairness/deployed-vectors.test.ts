// The deployed fairness scheme against hand-worked vectors: every roll is computed here with
// node:crypto from spec/DEPLOYED.md §2.3 (HMAC-SHA256(seed hex, "<cs>:<nonce>"), first 8 hex
// digits, % 10000, / 100), and every outcome below was worked out by hand from §2.5's formulas
// (the working is in the comments); the scheme must agree on all four checks. The parameters are
// read back from each vector's result as they are from the deployment's audit answer. Then a
// tampered seed, a tampered outcome and a wrong payout, each caught by its own check and only by it.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/core/errors.ts';
import { parseDecimal } from '../../../src/core/money.ts';
import { ratioFromDecimal, ratioText, ZERO, type Ratio } from '../../../src/core/ratio.ts';
import { DEPLOYED_SCHEME } from '../../../src/audit/fairness/deployed-scheme.ts';
import type { SchemeBet, SchemeVerdict } from '../../../src/audit/fairness/scheme.ts';
import { GAME_IDS } from '../../../src/services/casino/games/game.ts';

const SEED = createHash('sha256').update('afp deployed vectors').digest('hex');
const COMMITMENT = createHash('sha256').update(SEED).digest('hex');
const hmac = (message: string): string => createHmac('sha256', SEED).update(message).digest('hex');
const roll = (clientSeed: string, nonce: number): number =>
  (parseInt(hmac(`${clientSeed}:${nonce}`).slice(0, 8), 16) % 10_000) / 100;

function micro(text: string): bigint {
  const value = parseDecimal(text);
  if (typeof value !== 'bigint') throw new Error(`amount ${text}`);
  return value;
}

interface Vector {
  readonly game: string;
  readonly params: JsonObject;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly result: JsonValue;
  /** The rule's total-return multiplier (exact decimal text). */
  readonly multiplier: string;
  readonly amount?: string;
  readonly paid: string;
}

function betOf(vector: Vector): SchemeBet {
  const multiplier = Number(vector.multiplier);
  return {
    betId: `bet_${vector.game}_${vector.clientSeed}_${vector.nonce}`,
    game: vector.game,
    params: vector.params,
    amountMicro: micro(vector.amount ?? '1.00'),
    paidMicro: micro(vector.paid),
    multiplier: multiplier === 0 ? null : multiplier,
    result: vector.result,
    clientSeed: vector.clientSeed,
    nonce: vector.nonce,
    seedHash: COMMITMENT,
    resultHash: hmac(`${vector.clientSeed}:${vector.nonce}`),
  };
}

const statuses = (verdict: SchemeVerdict): string[] => [
  verdict.commitment.status,
  verdict.resultHash.status,
  verdict.outcome.status,
  verdict.payout.status,
];
const text = (value: Ratio | null): string | null => (value === null ? null : ratioText(value));

test('the vectors’ rolls, computed here with node:crypto', () => {
  expect([0, 1, 2, 3, 4, 5].map((nonce) => roll('v1', nonce))).toEqual([25.73, 53.67, 49.04, 4.12, 57.56, 73.17]);
  expect([0, 1].map((nonce) => roll('v2', nonce))).toEqual([84.63, 16.9]);
  expect([0, 1, 2].map((nonce) => roll('v3', nonce))).toEqual([49.05, 72.28, 53.68]);
  expect(roll('v4', 4)).toBe(0.35);
});

const VECTORS: readonly Vector[] = [
  // coin flip, v1:0 r = 25.73 < 50 → heads.
  {
    game: 'coin_flip',
    params: { side: 'heads' },
    clientSeed: 'v1',
    nonce: 0,
    result: { side_chosen: 'heads', outcome: 'heads', roll: 25.73 },
    multiplier: '1.99',
    paid: '1.99',
  },
  {
    game: 'coin_flip',
    params: { side: 'tails' },
    clientSeed: 'v1',
    nonce: 0,
    result: { side_chosen: 'tails', outcome: 'heads', roll: 25.73 },
    multiplier: '0',
    paid: '0',
  },
  // dice, v1:1 r = 53.67 → v = 54. over 50: p = 0.5, round4(2 × 0.995) = 1.99.
  {
    game: 'dice',
    params: { direction: 'over', threshold: 50 },
    clientSeed: 'v1',
    nonce: 1,
    result: { direction: 'over', threshold: 50, dice_value: 54, win_probability: 0.5, roll: 53.67 },
    multiplier: '1.99',
    paid: '1.99',
  },
  // over 53: p = 0.47, 0.995 / 0.47 = 2.11702… → 2.117; 1.00 × 2.117 shows 2.12.
  {
    game: 'dice',
    params: { direction: 'over', threshold: 53 },
    clientSeed: 'v1',
    nonce: 1,
    result: { direction: 'over', threshold: 53, dice_value: 54, roll: 53.67 },
    multiplier: '2.117',
    paid: '2.12',
  },
  // under 55: 54 < 55 wins, p = 0.55 (not 54/100), 0.995 / 0.55 = 1.80909… → 1.8091.
  {
    game: 'dice',
    params: { direction: 'under', threshold: 55 },
    clientSeed: 'v1',
    nonce: 1,
    result: { direction: 'under', threshold: 55, dice_value: 54, roll: 53.67 },
    multiplier: '1.8091',
    paid: '1.81',
  },
  // under 54 and over 54: the value equal to the threshold loses both ways.
  {
    game: 'dice',
    params: { direction: 'under', threshold: 54 },
    clientSeed: 'v1',
    nonce: 1,
    result: { direction: 'under', threshold: 54, dice_value: 54, roll: 53.67 },
    multiplier: '0',
    paid: '0',
  },
  {
    game: 'dice',
    params: { direction: 'over', threshold: 54 },
    clientSeed: 'v1',
    nonce: 1,
    result: { direction: 'over', threshold: 54, dice_value: 54, roll: 53.67 },
    multiplier: '0',
    paid: '0',
  },
  // dice, v1:3 r = 4.12 → v = 5; under 10 wins: p = 0.1, round4(9.95) = 9.95; 0.50 × 9.95 = 4.975 shows 4.97 or 4.98.
  {
    game: 'dice',
    params: { direction: 'under', threshold: 10 },
    clientSeed: 'v1',
    nonce: 3,
    result: { direction: 'under', threshold: 10, dice_value: 5, roll: 4.12 },
    multiplier: '9.95',
    amount: '0.50',
    paid: '4.98',
  },
  // multiplier, v1:2 r = 49.04: crash = round2(0.995 / 0.5096) = round2(1.95251…) = 1.95.
  {
    game: 'multiplier',
    params: { target_multiplier: 1.95 },
    clientSeed: 'v1',
    nonce: 2,
    result: { target_multiplier: 1.95, crash_point: 1.95, roll: 49.04 },
    multiplier: '1.95',
    paid: '1.95',
  },
  {
    game: 'multiplier',
    params: { target_multiplier: 2 },
    clientSeed: 'v1',
    nonce: 2,
    result: { target_multiplier: 2, crash_point: 1.95, roll: 49.04 },
    multiplier: '0',
    paid: '0',
  },
  // crash, same roll: 1.95 ≥ 1.5 cashes out.
  {
    game: 'crash',
    params: { cash_out_at: 1.5 },
    clientSeed: 'v1',
    nonce: 2,
    result: { cash_out_at: 1.5, crash_point: 1.95, cashed_out: true, roll: 49.04 },
    multiplier: '1.5',
    paid: '1.50',
  },
  // roulette, v1:3 r = 4.12: n = floor(4.12 × 37 / 100) = floor(1.5244) = 1 (red, odd, low, dozen 1, column 1).
  {
    game: 'roulette',
    params: { bet_type: 'number', bet_value: 1 },
    clientSeed: 'v1',
    nonce: 3,
    result: { bet_type: 'number', bet_value: 1, number: 1, color: 'red', roll: 4.12 },
    multiplier: '34.825',
    amount: '2.00',
    paid: '69.65',
  },
  {
    game: 'roulette',
    params: { bet_type: 'column_1' },
    clientSeed: 'v1',
    nonce: 3,
    result: { bet_type: 'column_1', number: 1, roll: 4.12 },
    multiplier: '2.985',
    paid: '2.99',
  },
  {
    game: 'roulette',
    params: { bet_type: 'even' },
    clientSeed: 'v1',
    nonce: 3,
    result: { bet_type: 'even', number: 1, roll: 4.12 },
    multiplier: '0',
    paid: '0',
  },
  // custom, v1:4 r = 57.56 < 60 wins: round4((100 / 60) × 0.995) = round4(1.658333…) = 1.6583.
  {
    game: 'custom',
    params: { win_probability: 60 },
    clientSeed: 'v1',
    nonce: 4,
    result: { win_probability_pct: 60, payout_multiplier: 1.6583, roll: 57.56, threshold: 60 },
    multiplier: '1.6583',
    paid: '1.66',
  },
  // simple dice, v1:5 r = 73.17: (73 % 6) + 1 = 2.
  {
    game: 'simple_dice',
    params: { pick: 2 },
    clientSeed: 'v1',
    nonce: 5,
    result: { pick: 2, rolled: 2, won: true, payout_if_win: '5.5x' },
    multiplier: '5.5',
    paid: '5.50',
  },
  // blackjack, v2:0 r = 84.63: offsets 0…6 give 7 10 | A 5 | (9) Q 3: stand 17 against the dealer's A 5 Q 3 = 19.
  {
    game: 'blackjack',
    params: { action: 'stand' },
    clientSeed: 'v2',
    nonce: 0,
    result: {
      action: 'stand',
      player_cards: ['7', '10'],
      player_total: 17,
      dealer_cards: ['A', '5', 'Q', '3'],
      dealer_total: 19,
      outcome: 'lose',
      roll: 84.63,
    },
    multiplier: '0',
    paid: '0',
  },
  // blackjack, v5:5 r = 29.61: 4 8 | J 2 | 6 | 10: double to 18, the dealer busts at 22: 2.0 on a 2.00 stake.
  {
    game: 'blackjack',
    params: { action: 'double' },
    clientSeed: 'v5',
    nonce: 5,
    result: {
      action: 'double',
      player_cards: ['4', '8', '6'],
      player_total: 18,
      dealer_cards: ['J', '2', '10'],
      dealer_total: 22,
      roll: 29.61,
    },
    multiplier: '2',
    amount: '2.00',
    paid: '4.00',
  },
  // blackjack, v2:1 r = 16.9: 10 A is a natural against 5 9: 1.5.
  {
    game: 'blackjack',
    params: { action: 'hit' },
    clientSeed: 'v2',
    nonce: 1,
    result: {
      action: 'hit',
      player_cards: ['10', 'A'],
      player_total: 21,
      dealer_cards: ['5', '9'],
      dealer_total: 14,
      roll: 16.9,
    },
    multiplier: '1.5',
    paid: '1.50',
  },
  // plinko 8 rows, v1:3: row rolls 92.85 98.23 0.39 76.5 29.61 48.85 4.96 98.1 → L L R L R R R L, slot 4: the centre 0.5.
  {
    game: 'plinko',
    params: { rows: 8, risk: 'low' },
    clientSeed: 'v1',
    nonce: 3,
    result: {
      rows: 8,
      risk: 'low',
      path: ['L', 'L', 'R', 'L', 'R', 'R', 'R', 'L'],
      slot: 4,
      multiplier: 0.5,
      roll: 4.12,
    },
    multiplier: '0.5',
    paid: '0.50',
  },
  // slots, v1:3: reels 85.13 GRAPE, 13.5 BELL, 61.56 ORANGE: no line.
  {
    game: 'slots',
    params: {},
    clientSeed: 'v1',
    nonce: 3,
    result: { reels: ['GRAPE', 'BELL', 'ORANGE'], payline: 'none', multiplier: 0, roll: 4.12 },
    multiplier: '0',
    paid: '0',
  },
  // hilo, v2:0 and v2:1: 84.63 × 100000 = 8463000 → 8463000 % 13 + 1 = 1 (A); 16.9 × 100000 = 1689999.99… → 1689999 % 13 + 1 = 13 (K).
  // higher: 12 favourable, wp = min(0.99, 12/12), (1/0.99) × 0.96 = 0.9697 → clamped up to 1.05.
  {
    game: 'hilo',
    params: { guess: 'higher' },
    clientSeed: 'v2',
    nonce: 0,
    result: { card1: 1, card1_name: 'A', card2: 13, card2_name: 'K', guess: 'higher', result: 'win' },
    multiplier: '1.05',
    paid: '1.05',
  },
  // keno, v1:0…199: floor(roll × 10000) % 80 + 1 draws only 21 61 1 20 41 40 60 80; picks 1 2 20 catch 2 → 2x.
  {
    game: 'keno',
    params: { picks: [1, 2, 20] },
    clientSeed: 'v1',
    nonce: 0,
    result: {
      picks: [1, 2, 20],
      drawn: [1, 20, 21, 40, 41, 60, 61, 80],
      matches: 2,
      spots_drawn: 20,
      payout_multiplier: 2,
    },
    multiplier: '2',
    paid: '2.00',
  },
  {
    game: 'keno',
    params: { picks: [21] },
    clientSeed: 'v1',
    nonce: 0,
    result: { picks: [21], drawn: [21, 61, 1, 20, 41, 40, 60, 80], payout_multiplier: 3.5 },
    multiplier: '3.5',
    paid: '3.50',
  },
  {
    game: 'keno',
    params: { picks: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14] },
    clientSeed: 'v1',
    nonce: 0,
    result: {
      picks: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
      drawn: [21, 61, 1, 20, 41, 40, 60, 80],
      payout_multiplier: 0,
    },
    multiplier: '0',
    paid: '0',
  },
  // scratch card, v3:0…2: 4905 % 6 = 3 🍀, 7228 % 6 = 4 🔔, 5368 % 6 = 4 🔔: a pair, 2x.
  {
    game: 'scratch_card',
    params: {},
    clientSeed: 'v3',
    nonce: 0,
    result: { symbols: ['🍀', '🔔', '🔔'], win_type: 'pair', payout_multiplier: 2 },
    multiplier: '2',
    paid: '2.00',
  },
  // wheel, v4:4 r = 0.35: not < 0.35 (BUST), < 0.35 + 0.25 → the 0.5 sector; v1:0 r = 25.73 ≥ 1 → BUST.
  {
    game: 'wheel',
    params: {},
    clientSeed: 'v4',
    nonce: 4,
    result: { sector: '0.5x', multiplier: 0.5, won: true },
    multiplier: '0.5',
    paid: '0.50',
  },
  {
    game: 'wheel',
    params: {},
    clientSeed: 'v1',
    nonce: 0,
    result: { sector: 'BUST', multiplier: 0, won: false },
    multiplier: '0',
    paid: '0',
  },
  // baccarat, v1:1 r = 53.67: player 0 0 → 0, draws 3; banker 6 7 → 3 draws (third ≠ 8) 8 → 1: player 3 wins, 1.98.
  {
    game: 'baccarat',
    params: { bet_on: 'player' },
    clientSeed: 'v1',
    nonce: 1,
    result: { bet_on: 'player', outcome: 'player', player_value: 3, banker_value: 1, natural: false, won: true },
    multiplier: '1.98',
    paid: '1.98',
  },
  // baccarat, v4:2 r = 88.46: player 3 1 → 4 draws 7 → 1; banker 2 0 → 2 draws 0 → 2: banker wins, 1.90.
  {
    game: 'baccarat',
    params: { bet_on: 'banker' },
    clientSeed: 'v4',
    nonce: 2,
    result: { bet_on: 'banker', outcome: 'banker', player_value: 1, banker_value: 2, natural: false, won: true },
    multiplier: '1.9',
    paid: '1.90',
  },
];

// mines, v1:3: 3 mines {14, 16, 21}, cells 0…4 revealed, a win (worked in the mines test below).
const MINES_WIN: Vector = {
  game: 'mines',
  params: { mines: 3, reveals: 5 },
  clientSeed: 'v1',
  nonce: 3,
  result: {
    mines_count: 3,
    reveals_count: 5,
    mine_positions: [21, 14, 16],
    revealed_cells: [0, 1, 2, 3, 4],
    hit_mine: false,
    payout_on_win: 1.9671,
  },
  multiplier: '1.9671',
  paid: '1.97',
};
// video poker, v5 from nonce 10, holding J♣ only: a pair of jacks (worked in the video poker test below).
const VIDEO_POKER_HAND: Vector = {
  game: 'video_poker',
  params: { holds: [true, false, false, false, false], nonce: 10 },
  clientSeed: 'v5',
  nonce: 10,
  result: {
    initial_cards: ['J♣', 'A♦', '2♠', '5♠', '6♦'],
    final_cards: ['J♣', '8♦', '6♠', 'J♣', '4♦'],
    holds: [true, false, false, false, false],
    hand_name: 'Jacks or Better',
  },
  multiplier: '1',
  paid: '1.00',
};

describe('hand-worked vectors', () => {
  test.each(
    VECTORS.map(
      (vector) =>
        [`${vector.game} ${JSON.stringify(vector.params)} ${vector.clientSeed}:${vector.nonce}`, vector] as const,
    ),
  )('%s', (_name, vector) => {
    const verdict = DEPLOYED_SCHEME.verify(betOf(vector), SEED);
    expect(verdict.outcome).toEqual({ status: 'ok' });
    expect(statuses(verdict)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(text(verdict.multiplier)).toBe(
      ratioText(vector.multiplier === '0' ? ZERO : ratioFromDecimal(vector.multiplier)),
    );
  });

  test('mines: the digest HMAC(seed, "v1:3:mines") shuffles cells by big-endian byte pairs', () => {
    const digest = Buffer.from(hmac('v1:3:mines'), 'hex');
    const cells = Array.from({ length: 25 }, (_, cell) => cell);
    for (let i = 24; i >= 1; i -= 1) {
      const j = ((digest[24 - i] as number) * 256 + (digest[25 - i] as number)) % (i + 1);
      [cells[i], cells[j]] = [cells[j] as number, cells[i] as number];
    }
    expect(cells.slice(0, 6)).toEqual([14, 16, 21, 18, 20, 3]);
    // 3 mines {14, 16, 21}, cells 0…4 revealed: a win; P = (22·21·20·19·18)/(25·24·23·22·21) = 0.49565…, 0.975 / P = 1.96710… → 1.9671.
    const win = MINES_WIN;
    expect(statuses(DEPLOYED_SCHEME.verify(betOf(win), SEED))).toEqual(['ok', 'ok', 'ok', 'ok']);
    // 6 mines take cell 3 too: revealed cell 3 is hit.
    const hit = {
      ...win,
      params: { mines: 6, reveals: 5 },
      result: { mine_positions: [14, 16, 21, 18, 20, 3], hit_mine: true, hit_at_cell: 3 },
      multiplier: '0',
      paid: '0',
    };
    const verdict = DEPLOYED_SCHEME.verify(betOf(hit), SEED);
    expect(verdict.outcome.status).toBe('not-checked'); // the result above lacks the count and cell fields: not checked, not failed
    expect(verdict.payout.status).toBe('ok');
  });

  test('video poker: the deal of nonce 10 from a shrinking pool, the draw from the full deck', () => {
    const index = (nonce: number, size: number): number => Math.floor(roll('v5', nonce) * 10_000) % size;
    const pool = Array.from({ length: 52 }, (_, card) => card);
    const dealt = [10, 11, 12, 13, 14].map((nonce) => pool.splice(index(nonce, pool.length), 1)[0]);
    expect(dealt).toEqual([48, 38, 0, 3, 30]); // J♣ A♦ 2♠ 5♠ 6♦ (index = rank + 13·suit, ranks 2…A, suits ♠♥♦♣)
    expect([20, 21, 22, 23, 24].map((nonce) => index(nonce, 52))).toEqual([4, 32, 4, 48, 28]); // 6♠ 8♦ 6♠ J♣ 4♦
    // Holding J♣ only: J♣ 8♦ 6♠ J♣ 4♦ — the draw repeats J♣, and a pair of jacks pays 1.
    expect(statuses(DEPLOYED_SCHEME.verify(betOf(VIDEO_POKER_HAND), SEED))).toEqual(['ok', 'ok', 'ok', 'ok']);
  });
});

describe("parameters read back from the result (the deployment's audit answer carries none)", () => {
  const ALL: readonly Vector[] = [...VECTORS, MINES_WIN, VIDEO_POKER_HAND];

  test('the vectors cover every game of the deployment', () => {
    expect(new Set(ALL.map((vector) => vector.game))).toEqual(new Set(GAME_IDS));
  });

  test.each(
    ALL.map(
      (vector) =>
        [`${vector.game} ${JSON.stringify(vector.params)} ${vector.clientSeed}:${vector.nonce}`, vector] as const,
    ),
  )('%s', (_name, vector) => {
    const params = DEPLOYED_SCHEME.paramsOf?.(vector.game, vector.result) ?? null;
    // Video poker's deal nonce is the bet's own: the result does not repeat it.
    const { nonce: _dealNonce, ...sent } = vector.params;
    expect(params).toEqual(vector.game === 'video_poker' ? sent : vector.params);
    expect(statuses(DEPLOYED_SCHEME.verify({ ...betOf(vector), params: params ?? {} }, SEED))).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
  });

  test('a result that does not echo every parameter gives none (the batch defaults are never assumed)', () => {
    expect(
      DEPLOYED_SCHEME.paramsOf?.('mines', { mine_positions: [14, 16, 21, 18, 20, 3], hit_mine: true, hit_at_cell: 3 }),
    ).toBeNull();
    expect(DEPLOYED_SCHEME.paramsOf?.('coin_flip', { outcome: 'heads', roll: 25.73 })).toBeNull();
    expect(DEPLOYED_SCHEME.paramsOf?.('dice', { direction: 'over', threshold: null, dice_value: 54 })).toBeNull();
    expect(DEPLOYED_SCHEME.paramsOf?.('roulette', { bet_type: 'number', number: 1 })).toBeNull();
    expect(DEPLOYED_SCHEME.paramsOf?.('roulette', { bet_type: 'red', bet_value: 0, number: 1 })).toEqual({
      bet_type: 'red',
    });
    expect(DEPLOYED_SCHEME.paramsOf?.('parlay', { legs: [] })).toBeNull();
    expect(DEPLOYED_SCHEME.paramsOf?.('dice', 'not an object')).toBeNull();
  });
});

describe('tampering, each caught by its own check', () => {
  const dice = VECTORS[2] as Vector;

  test('a seed that does not hash to the commitment fails the commitment (and the HMAC under it)', () => {
    const other = createHash('sha256').update('another seed').digest('hex');
    const verdict = DEPLOYED_SCHEME.verify(betOf(dice), other);
    expect(verdict.commitment).toEqual({ status: 'failed', detail: createHash('sha256').update(other).digest('hex') });
    expect(verdict.resultHash.status).toBe('failed');
    expect(DEPLOYED_SCHEME.verify(betOf(dice), 'not hex').commitment.status).toBe('failed');
  });

  test('an outcome off the rule fails the outcome only, with the field differences; the hashes verify', () => {
    const verdict = DEPLOYED_SCHEME.verify(
      { ...betOf(dice), result: { direction: 'over', threshold: 50, dice_value: 49, roll: 53.67 } },
      SEED,
    );
    expect(statuses(verdict)).toEqual(['ok', 'ok', 'failed', 'ok']);
    expect(verdict.outcome).toMatchObject({ differences: [{ field: 'dice_value', recorded: 49, recomputed: 54 }] });
    const keno = DEPLOYED_SCHEME.verify(
      {
        ...betOf(dice),
        game: 'keno',
        params: { picks: [1] },
        clientSeed: 'v1',
        nonce: 0,
        resultHash: hmac('v1:0'),
        result: { picks: [1], drawn: [1, 2, 3], payout_multiplier: 3.5 },
        paidMicro: micro('3.50'),
        multiplier: 3.5,
      },
      SEED,
    );
    expect(statuses(keno)).toEqual(['ok', 'ok', 'failed', 'ok']);
    expect(keno.outcome).toMatchObject({
      differences: [{ field: 'drawn', recorded: [1, 2, 3], recomputed: [1, 20, 21, 40, 41, 60, 61, 80] }],
    });
  });

  test('a wrong payout fails the payout only, with the amount due', () => {
    const verdict = DEPLOYED_SCHEME.verify({ ...betOf(dice), paidMicro: micro('1.96') }, SEED);
    expect(statuses(verdict)).toEqual(['ok', 'ok', 'ok', 'failed']);
    expect(verdict.payout).toMatchObject({ dueMicro: micro('1.99') });
    // A recorded multiplier other than the rule's on a paying bet is an outcome difference.
    const multiplier = DEPLOYED_SCHEME.verify({ ...betOf(dice), multiplier: 1.96 }, SEED);
    expect(multiplier.outcome).toMatchObject({
      status: 'failed',
      differences: [{ field: 'payout_multiplier', recorded: 1.96, recomputed: 1.99 }],
    });
  });

  test('what the wire lacks is not checked, with the reason', () => {
    expect(DEPLOYED_SCHEME.verify({ ...betOf(dice), paidMicro: null }, SEED).payout).toEqual({
      status: 'not-checked',
      reason: 'the answer does not say the amount paid',
    });
    expect(DEPLOYED_SCHEME.verify({ ...betOf(dice), params: { direction: 'sideways' } }, SEED).outcome.status).toBe(
      'not-checked',
    );
    expect(DEPLOYED_SCHEME.verify({ ...betOf(dice), game: 'lottery' }, SEED).outcome).toEqual({
      status: 'not-checked',
      reason: "the deployed scheme has no rule for game 'lottery'",
    });
    // A parlay whose legs are not at hand (its result names none) is not checked either.
    expect(DEPLOYED_SCHEME.verify({ ...betOf(dice), game: 'parlay' }, SEED).outcome).toEqual({
      status: 'not-checked',
      reason: 'bets must be an array of 2 to 5 legs',
    });
  });
});
