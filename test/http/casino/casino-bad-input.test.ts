// Bad input on every casino game row answers 400 (or the spec's 4xx) with `{ error, code }` and
// changes nothing: no money moves, no bet is recorded, no nonce is taken. Plus the domain
// refusals of the bet path in precedence order: closed game (409), minimum and maximum (400),
// balance (422), Kelly limit (400 with max_bet).
import { describe, expect, test } from 'vitest';
import { GAMES } from '../../../src/services/casino/games/index.ts';
import { casinoWorld, type CasinoWorld } from './casino-world.ts';

/** A valid body per game path; each case below breaks one thing of it. */
const VALID: Readonly<Record<string, Record<string, unknown>>> = {
  'coin-flip': { side: 'heads' },
  dice: { direction: 'over', threshold: 50 },
  'simple-dice': { pick: 3 },
  multiplier: { target_multiplier: 2 },
  roulette: { bet_type: 'red' },
  custom: { win_probability: 50 },
  blackjack: { action: 'stand' },
  crash: { cash_out_at: 2 },
  plinko: { rows: 16, risk: 'high' },
  slots: {},
  hilo: { guess: 'higher' },
  keno: { picks: [1, 2, 3] },
  'scratch-card': {},
  wheel: {},
  mines: { mines: 3, reveals: 2 },
  baccarat: { bet_on: 'banker' },
};

/** Invalid parameter sets per game (each must be refused with 400). */
const INVALID_PARAMS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  'coin-flip': [{ side: 'edge' }, { side: 1 }, {}],
  dice: [
    { direction: 'over', threshold: 0 },
    { direction: 'over', threshold: 100 },
    { direction: 'sideways', threshold: 50 },
    { direction: 'over', threshold: 50.5 },
    { direction: 'under', threshold: 1 },
  ],
  'simple-dice': [{ pick: 0 }, { pick: 7 }, { pick: '3' }],
  multiplier: [
    { target_multiplier: 1 },
    { target_multiplier: 1000.01 },
    { target_multiplier: 2.001 },
    { target_multiplier: 'x' },
  ],
  roulette: [
    { bet_type: 'purple' },
    { bet_type: 'number' },
    { bet_type: 'number', bet_value: 37 },
    { bet_type: 'red', bet_value: 3 },
  ],
  custom: [{ win_probability: 0 }, { win_probability: 100 }, { win_probability: 50.5 }],
  blackjack: [{ action: 'split' }, {}],
  crash: [{ cash_out_at: 1 }, { cash_out_at: 100.01 }, { cash_out_at: -2 }],
  plinko: [{ rows: 10, risk: 'low' }, { rows: 16, risk: 'extreme' }, { rows: 16 }],
  slots: [{ lines: 3 }],
  hilo: [{ guess: 'same' }, {}],
  keno: [
    { picks: [] },
    { picks: [0] },
    { picks: [81] },
    { picks: [1, 1] },
    { picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
    { picks: 'x' },
  ],
  'scratch-card': [{ symbols: 3 }],
  wheel: [{ segment: 1 }],
  mines: [
    { mines: 0, reveals: 1 },
    { mines: 25, reveals: 1 },
    { mines: 3, reveals: 23 },
    { mines: 3, reveals: 0 },
  ],
  baccarat: [{ bet_on: 'dragon' }, {}],
};

const BAD_AMOUNTS: readonly unknown[] = [0, -1, '1', 1.0000001, Number.MAX_SAFE_INTEGER, null, true, [1], { value: 1 }];

function expectRefused(
  w: CasinoWorld,
  response: { status: number; body: Record<string, unknown> },
  status: number,
  code: string,
  before: { balance: bigint; bets: number; sum: bigint },
): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body['code']).toBe(code);
  expect(typeof response.body['error']).toBe('string');
  expect(w.balance('alice')).toBe(before.balance);
  expect(w.platform.casino.state.bets.count).toBe(before.bets);
  expect(w.platform.ledger.sumMicro).toBe(before.sum);
}

const snapshot = (w: CasinoWorld): { balance: bigint; bets: number; sum: bigint } => ({
  balance: w.balance('alice'),
  bets: w.platform.casino.state.bets.count,
  sum: w.platform.ledger.sumMicro,
});

describe('every game row refuses bad parameters and bad amounts, changing nothing', () => {
  test('the table covers every single-call game', () => {
    const paths = GAMES.filter((game) => game.id !== 'video_poker')
      .map((game) => game.path)
      .sort();
    expect(Object.keys(VALID).sort()).toEqual(paths);
    expect(Object.keys(INVALID_PARAMS).sort()).toEqual(paths);
  });

  for (const [path, valid] of Object.entries(VALID)) {
    test(path, () => {
      const w = casinoWorld();
      const before = snapshot(w);
      for (const params of INVALID_PARAMS[path] ?? [])
        expectRefused(w, w.a('POST', `/games/${path}`, { body: { ...params, amount: 1 } }), 400, 'BAD_REQUEST', before);
      for (const amount of BAD_AMOUNTS)
        expectRefused(w, w.a('POST', `/games/${path}`, { body: { ...valid, amount } }), 400, 'BAD_REQUEST', before);
      expectRefused(w, w.a('POST', `/games/${path}`, { body: { ...valid } }), 400, 'BAD_REQUEST', before);
      expectRefused(
        w,
        w.a('POST', `/games/${path}`, { body: { ...valid, amount: 1, surprise: true } }),
        400,
        'BAD_REQUEST',
        before,
      );
      expectRefused(
        w,
        w.a('POST', `/games/${path}`, { body: { ...valid, amount: 1, client_seed: 'a:b' } }),
        400,
        'BAD_REQUEST',
        before,
      );
      expectRefused(w, w.a('POST', `/games/${path}`, { body: [1, 2] }), 400, 'BAD_REQUEST', before);
      expectRefused(
        w,
        w.a('POST', `/games/${path}`, { body: { ...valid, amount: 0.001 } }),
        400,
        'BAD_REQUEST',
        before,
      );
      expectRefused(
        w,
        w.a('POST', `/games/${path}`, { key: null, body: { ...valid, amount: 1 } }),
        401,
        'UNAUTHORIZED',
        before,
      );
      // The valid body is accepted: the refusals above were about the broken field only.
      expect(w.a('POST', `/games/${path}`, { body: { ...valid, amount: 1 } }).status).toBe(200);
    });
  }
});

describe('domain refusals in precedence order', () => {
  test('closed game 409, minimum 400, balance 422, Kelly 400 with max_bet', () => {
    const w = casinoWorld();
    const before = snapshot(w);
    w.platform.casino.setGameClosed('dice', true);
    expectRefused(
      w,
      w.a('POST', '/games/dice', { body: { direction: 'over', threshold: 50, amount: 1 } }),
      409,
      'GAME_CLOSED',
      before,
    );
    w.platform.casino.setGameClosed('dice', false);
    expectRefused(w, w.a('POST', '/games/slots', { body: { amount: 0.05 } }), 400, 'BAD_REQUEST', before);
    expectRefused(
      w,
      w.a('POST', '/games/dice', { body: { direction: 'over', threshold: 50, amount: 5000 } }),
      422,
      'INSUFFICIENT_BALANCE',
      before,
    );
    // 1,000 USDC × 0.25 × p(1/2) = 125: a bet of 125.000001 is over the limit.
    const over = w.a('POST', '/games/coin-flip', { body: { side: 'heads', amount: 125.000001 } });
    expectRefused(w, over, 400, 'BAD_REQUEST', before);
    expect(over.body['max_bet']).toBe(125);
    expect(w.a('POST', '/games/coin-flip', { body: { side: 'heads', amount: 125 } }).status).toBe(200);
  });

  test('a video-poker draw needs its deal; a batch keeps going past a bad element', () => {
    const w = casinoWorld();
    const before = snapshot(w);
    expectRefused(
      w,
      w.a('POST', '/games/video-poker/draw', { body: { nonce: 0, holds: [] } }),
      404,
      'NOT_FOUND',
      before,
    );
    expectRefused(w, w.a('POST', '/games/video-poker/draw', { body: { holds: [] } }), 400, 'BAD_REQUEST', before);
    expectRefused(w, w.a('POST', '/bets/batch', { body: { bets: [] } }), 400, 'BAD_REQUEST', before);
    expectRefused(
      w,
      w.a('POST', '/bets/batch', { body: { bets: Array.from({ length: 21 }, () => ({ game: 'slots', amount: 1 })) } }),
      400,
      'BAD_REQUEST',
      before,
    );
    const batch = w.a('POST', '/bets/batch', {
      body: {
        bets: [
          { game: 'slots', amount: 1 },
          { game: 'dice', amount: 1 },
          { game: 'slots', amount: 1 },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body['summary']).toMatchObject({ total: 3, errors: 1, total_wagered: 2 });
    expect(w.platform.casino.state.bets.count).toBe(2);
  });

  test('withdraw refusals change nothing', () => {
    const w = casinoWorld();
    const before = snapshot(w);
    const address = `0x${'cd'.repeat(20)}`;
    expectRefused(w, w.a('POST', '/auth/withdraw', { body: { amount: 0.99, address } }), 400, 'BAD_REQUEST', before);
    expectRefused(
      w,
      w.a('POST', '/auth/withdraw', { body: { amount: 5, address: '0x1234' } }),
      400,
      'BAD_REQUEST',
      before,
    );
    expectRefused(
      w,
      w.a('POST', '/auth/withdraw', { body: { amount: 5, address, chain: 'ethereum' } }),
      400,
      'BAD_REQUEST',
      before,
    );
    expectRefused(
      w,
      w.a('POST', '/auth/withdraw', { body: { amount: 999.6, address } }),
      422,
      'INSUFFICIENT_BALANCE',
      before,
    );
    const done = w.a('POST', '/auth/withdraw', { body: { amount: 999.5, address } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(w.balance('alice')).toBe(0n);
  });
});
