// The casino's rate caps (casino.md Limits 4): tournament /play 60 per minute whatever the tier;
// style B 60 per minute with a burst of 100; and 10,000 style-B bets per day per game type,
// counted per game (another game still plays) and reset at the UTC day.
import { expect, test } from 'vitest';
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
  const created = w.a('POST', '/tournaments/create', { body: { name: 'cap', game: 'coin_flip', prize_pool: 10, starts_at: startsAt, ends_at: endsAt } });
  const id = String(created.body['tournament_id']);
  expect(w.a('POST', `/tournaments/${id}/enter`, { key: w.keys.bob }).status).toBe(200);
  const at = START + 60_000;
  const statuses = Array.from({ length: 61 }, () => w.a('POST', `/tournaments/${id}/play`, { key: w.keys.bob, body: { side: 'heads', amount: 0.1 }, atMs: at }).status);
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
  expect(w.b('POST', '/bet', { body: { game: 'slots', amount: '0.10' }, atMs: START + 86_400_000 + 5_000 }).status).toBe(200);
});
