// The casino's rate caps (casino.md Limits 4): tournament /play 60 per minute whatever the tier;
// style B 60 per minute with a burst of 100; and 10,000 style-B bets per day per game type,
// counted per game (another game still plays) and reset at the UTC day.
import { expect, test } from 'vitest';
import { GAME_IDS } from '../../../src/services/casino/games/game.ts';
import { casinoWorld, START } from './casino-world.ts';

test('style B: a burst of 100, then 60 per minute', () => {
  const w = casinoWorld();
  const at = START + 3_600_000;
  const statuses: number[] = [];
  for (let index = 0; index < 101; index++) statuses.push(w.b('GET', '/games', { atMs: at }).status);
  expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
  const refused = w.b('GET', '/games', { atMs: at });
  expect(refused.status).toBe(429);
  expect(refused.body['code']).toBe('RATE_LIMIT');
  expect(refused.headers['retry-after']).toBe('1');
  expect(w.b('GET', '/games', { atMs: at + 1_000 }).status).toBe(200);
});

test('tournament play: 60 per minute, the 61st refused', () => {
  const w = casinoWorld();
  w.platform.agents.get('bob')!.tier = 'enterprise';
  const startsAt = new Date(START + 10_000).toISOString();
  const endsAt = new Date(START + 86_400_000).toISOString();
  const created = w.a('POST', '/tournaments/create', {
    body: { name: 'cap', game: 'coin_flip', prize_pool: 10, starts_at: startsAt, ends_at: endsAt },
  });
  const id = String(created.body['tournament_id']);
  expect(w.a('POST', `/tournaments/${id}/enter`, { key: w.keys.bob }).status).toBe(200);
  const at = START + 60_000;
  const statuses = Array.from(
    { length: 61 },
    () =>
      w.a('POST', `/tournaments/${id}/play`, { key: w.keys.bob, body: { side: 'heads', amount: 0.1 }, atMs: at })
        .status,
  );
  expect(statuses.filter((status) => status === 200)).toHaveLength(60);
  expect(statuses[60]).toBe(429);
});

test('style B: 10,000 bets per day per game type', () => {
  const w = casinoWorld();
  w.platform.agents.get('alice')!.tier = 'enterprise';
  let at = START;
  const bet = (game: string): number => {
    at += 1_000;
    return w.b('POST', '/bet', { body: { game, amount: '0.10' }, atMs: at }).status;
  };
  let accepted = 0;
  for (let index = 0; index < 10_000; index++) if (bet('slots') === 200) accepted += 1;
  expect(accepted).toBe(10_000);
  const refused = w.b('POST', '/bet', { body: { game: 'slots', amount: '0.10' }, atMs: (at += 1_000) });
  expect(refused.status).toBe(429);
  expect(refused.body['scope']).toBe('casino-daily:slots');
  const betsBefore = w.platform.casino.state.bets.count;
  expect(bet('dice')).toBe(200);
  expect(w.platform.casino.state.bets.count).toBe(betsBefore + 1);
  // The next UTC day counts again.
  expect(
    w.b('POST', '/bet', { body: { game: 'slots', amount: '0.10' }, atMs: START + 86_400_000 + 5_000 }).status,
  ).toBe(200);
});

// Issue 17 (3): POST /kelly/simulate ran a million simulated bets per request on any tier (about
// 0.6 s of CPU each, 100 a minute on Free). The work of one request is now capped by tier.
test('kelly simulate: num_bets × simulations capped per request by tier, 400 naming the cap', () => {
  const w = casinoWorld();
  const body = (numBets: number, simulations: number): Record<string, unknown> => ({
    game: 'coin_flip',
    side: 'heads',
    bankroll: 100,
    bet_amount: 1,
    num_bets: numBets,
    simulations,
  });
  const refused = w.a('POST', '/kelly/simulate', { body: body(10_000, 100) });
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({
    code: 'BAD_REQUEST',
    error:
      'num_bets × simulations must be at most 10000 per request on the free tier (free 10000, pro 100000, enterprise 1000000); asked 1000000',
  });
  expect(w.a('POST', '/kelly/simulate', { body: body(100, 101) }).status).toBe(400);
  expect(w.a('POST', '/kelly/simulate', { body: body(100, 100) }).status).toBe(200);
  const free = w.a('POST', '/kelly/simulate', { body: { ...body(1_000, 1), simulations: undefined } });
  expect(free.body['simulations']).toBe(10); // the default: the most the tier's budget allows
  w.platform.agents.get('alice')!.tier = 'pro';
  expect(w.a('POST', '/kelly/simulate', { body: body(1_000, 101) }).status).toBe(400);
  expect(w.a('POST', '/kelly/simulate', { body: body(1_000, 100) }).status).toBe(200);
  w.platform.agents.get('alice')!.tier = 'enterprise';
  expect(w.a('POST', '/kelly/simulate', { body: body(1_000, 1_000) }).status).toBe(200);
});

// A probe found POST /kelly/optimal and /kelly/simulate refusing plinko, slots, keno, wheel,
// scratch_card and mines with 400 "game: unknown field": those games' strict parsers were handed
// the whole body. Every game now answers, with its parameters or (NOTES.md's simulate body has
// none) for its default variant, the first GET /kelly/limits lists.
test('kelly optimal and simulate answer for every game, with or without its parameters', () => {
  const w = casinoWorld();
  const withParams: Record<string, Record<string, unknown>> = {
    mines: { mines: 3, reveals: 5 },
    keno: { picks: [1, 2] },
    plinko: { rows: 8, risk: 'low' },
    dice: { direction: 'over', threshold: 50 },
  };
  for (const game of GAME_IDS) {
    const simulate = { bankroll: 100, game, bet_amount: 1, num_bets: 100, simulations: 10 };
    const simulated = w.a('POST', '/kelly/simulate', { body: simulate });
    expect(simulated.status, `${game} simulate: ${JSON.stringify(simulated.body)}`).toBe(200);
    const optimal = w.a('POST', '/kelly/optimal', { body: { game, ...withParams[game] } });
    expect(optimal.status, `${game} optimal: ${JSON.stringify(optimal.body)}`).toBe(200);
  }
  const partial = w.a('POST', '/kelly/optimal', { body: { game: 'dice', direction: 'over' } });
  expect(partial.status).toBe(400);
  expect(w.a('POST', '/kelly/optimal', { body: { game: 'slots', rows: 8 } }).status).toBe(400);
});
