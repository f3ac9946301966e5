/**
 * POST /kelly/simulate: body validation (bounds, types, game bet limits), determinism (same seed
 * and body → identical answer; another seed → another answer), ruin and all-in semantics on
 * fixtures whose outcomes are certain, percentiles by nearest rank, and the work bound (the
 * largest request runs in bounded time).
 */
import { describe, expect, it } from 'vitest';
import { isFailure, type Failure } from '../../../../src/core/errors.ts';
import { Rng } from '../../../../src/core/rng.ts';
import { coinFlip } from '../../../../src/services/casino/games/coin-flip.ts';
import { multiplier } from '../../../../src/services/casino/games/multiplier.ts';
import {
  kellySimulateView,
  parseSimulateRequest,
  percentileMicro,
  runSimulations,
  simulationRng,
  type SimulateRequest,
} from '../../../../src/services/casino/kelly/kelly-simulate.ts';
import { coin196, lookupOf, surePush, sureLoss, wheel } from './fixtures.ts';

const lookup = lookupOf([coin196, wheel, sureLoss, surePush, multiplier]);

function parsed(body: unknown): SimulateRequest {
  const request = parseSimulateRequest(body, lookup, 'enterprise');
  if (isFailure(request)) throw new Error(request.message);
  return request;
}
function refused(body: unknown): Failure {
  const request = parseSimulateRequest(body, lookup, 'enterprise');
  if (!isFailure(request)) throw new Error(`accepted ${JSON.stringify(body)}`);
  expect(request.status).toBe(400);
  expect(request.code).toBe('BAD_REQUEST');
  return request;
}

const COIN = { game: 'coin_flip', bankroll: 100, bet_amount: 5, num_bets: 200, simulations: 300 };

describe('parseSimulateRequest', () => {
  it('reads a full body exactly', () => {
    const request = parsed({ ...COIN, seed: 'abc' });
    expect(request).toMatchObject({
      bankrollMicro: 100_000_000n,
      betAmountMicro: 5_000_000n,
      numBets: 200,
      simulations: 300,
      seed: 'abc',
    });
    expect(request.selected.variant).toBe('coin_flip:heads');
  });

  it('defaults simulations to the most the budget allows', () => {
    expect(parsed({ ...COIN, simulations: undefined }).simulations).toBe(1_000);
    expect(parsed({ ...COIN, simulations: undefined, num_bets: 10_000 }).simulations).toBe(100);
    expect(parsed({ ...COIN, simulations: undefined, num_bets: 3_000 }).simulations).toBe(333);
    expect(parsed({ ...COIN, seed: 7 }).seed).toBe('7');
  });

  it('accepts the bounds exactly', () => {
    expect(parsed({ ...COIN, num_bets: 10_000, simulations: 100 }).numBets).toBe(10_000);
    expect(parsed({ ...COIN, num_bets: 1_000, simulations: 1_000 }).simulations).toBe(1_000);
    expect(parsed({ ...COIN, num_bets: 1, simulations: 1 }).numBets).toBe(1);
  });

  it.each([
    [{ ...COIN, num_bets: 10_001 }, 'num_bets must be a whole number from 1 to 10000'],
    [{ ...COIN, num_bets: 0 }, 'num_bets must be a whole number from 1 to 10000'],
    [{ ...COIN, num_bets: 2.5 }, 'num_bets must be a whole number from 1 to 10000'],
    [{ ...COIN, num_bets: '100' }, 'num_bets must be a whole number from 1 to 10000'],
    [{ ...COIN, num_bets: undefined }, 'num_bets is required'],
    [{ ...COIN, simulations: 1_001 }, 'simulations must be a whole number from 1 to 1000'],
    [{ ...COIN, simulations: 0 }, 'simulations must be a whole number from 1 to 1000'],
    [
      { ...COIN, num_bets: 10_000, simulations: 101 },
      'num_bets × simulations must be at most 1000000 per request on the enterprise tier (free 10000, pro 100000, enterprise 1000000); asked 1010000',
    ],
    [{ ...COIN, bankroll: undefined }, 'bankroll is required'],
    [{ ...COIN, bankroll: 0 }, 'bankroll must be positive'],
    [{ ...COIN, bankroll: '100' }, 'bankroll must be a number'],
    [{ ...COIN, bankroll: 1e13 }, 'bankroll is too large'],
    [{ ...COIN, bankroll: 0.005 }, 'bankroll must be at least the minimum bet 0.01'],
    [{ ...COIN, bet_amount: undefined }, 'bet_amount is required'],
    [{ ...COIN, bet_amount: 0.001 }, 'bet_amount must be from 0.01 to 10000.00 for coin_flip'],
    [{ ...COIN, bet_amount: 10_000.01 }, 'bet_amount must be from 0.01 to 10000.00 for coin_flip'],
    [{ ...COIN, bet_amount: 1.0000001 }, 'bet_amount has more than 6 decimals'],
    [{ ...COIN, seed: '' }, 'seed must be a string of 1 to 128 characters or a non-negative whole number'],
    [{ ...COIN, seed: -1 }, 'seed must be a string of 1 to 128 characters or a non-negative whole number'],
    [{ ...COIN, target: 2 }, 'unknown field: target'],
    [{ ...COIN, game: 'blackjack' }, 'game blackjack is not available'],
    [{ ...COIN, game: 7 }, /^game must be one of/],
    [
      { game: 'multiplier', bankroll: 10, bet_amount: 1, num_bets: 5, target_multiplier: 0.5 },
      /^target_multiplier must be a number from 1.01 to 1000/,
    ],
    ['not an object', 'request body must be a JSON object'],
  ])('refuses %j', (body, message) => {
    const failure = refused(body);
    if (typeof message === 'string') expect(failure.message).toBe(message);
    else expect(failure.message).toMatch(message);
  });
});

describe('kellySimulateView', () => {
  it('is deterministic: the same seed and body give the same bytes, another seed another answer', () => {
    const request = parsed(COIN);
    const first = JSON.stringify(kellySimulateView(request, new Rng('s1')));
    expect(JSON.stringify(kellySimulateView(request, new Rng('s1')))).toBe(first);
    expect(JSON.stringify(kellySimulateView(request, new Rng('s2')))).not.toBe(first);
  });

  it('replays from the echoed seed, and a request seed overrides the service stream', () => {
    const service = new Rng('platform').fork('casino/kelly-simulate/3');
    const answer = kellySimulateView(parsed(COIN), simulationRng(parsed(COIN), service));
    expect(answer['seed']).toBe('platform/casino/kelly-simulate/3');
    const replay = parsed({ ...COIN, seed: answer['seed'] });
    expect(kellySimulateView(replay, simulationRng(replay, new Rng('other')))).toEqual(answer);
  });

  it('keeps the first runs when simulations grows (run k draws from its own fork)', () => {
    const finals = (simulations: number) => [
      ...runSimulations(parsed({ ...COIN, simulations }), new Rng('grow')).finalsMicro,
    ];
    const one = finals(1);
    const three = finals(3);
    const eight = finals(8);
    for (const final of one) expect(three).toContain(final);
    for (const final of three) expect(eight).toContain(final);
    expect(new Set(eight).size).toBeGreaterThan(1);
  });

  it('answers every field, consistent with itself', () => {
    const answer = kellySimulateView(parsed(COIN), new Rng('fields'));
    expect(Object.keys(answer)).toEqual([
      'game',
      'variant',
      'seed',
      'simulations',
      'num_bets',
      'starting_bankroll',
      'bet_amount',
      'ruin_probability',
      'average_final_bankroll',
      'median_final_bankroll',
      'best_case',
      'worst_case',
      'profitable_runs_pct',
      'percentiles',
    ]);
    const percentiles = answer['percentiles'] as Record<string, number>;
    expect(Object.keys(percentiles)).toEqual(['5th', '25th', '50th', '75th', '95th']);
    const worst = answer['worst_case'] as number;
    const best = answer['best_case'] as number;
    const ordered = [
      worst,
      percentiles['5th'],
      percentiles['25th'],
      percentiles['50th'],
      percentiles['75th'],
      percentiles['95th'],
      best,
    ];
    expect([...ordered].sort((a, b) => (a as number) - (b as number))).toEqual(ordered);
    expect(answer['median_final_bankroll']).toBe(percentiles['50th']);
    // 200 flat 5.00 bets at a 2% edge lose 20 on average: the average final bankroll is near 80.
    expect(answer['average_final_bankroll'] as number).toBeGreaterThan(60);
    expect(answer['average_final_bankroll'] as number).toBeLessThan(100);
    // A ruined coin-flip run lost its last all-in bet: it ends at exactly 0.
    expect((answer['ruin_probability'] as number) > 0).toBe(worst === 0);
    expect(answer['profitable_runs_pct'] as number).toBeLessThan(50);
  });

  it('a sure loss is ruined every run, all-in at the end: 1.00 by 0.30 is 0.30, 0.30, 0.30, 0.10', () => {
    const answer = kellySimulateView(
      parsed({ game: 'slots', bankroll: 1, bet_amount: 0.3, num_bets: 10, simulations: 4 }),
      new Rng('loss'),
    );
    expect(answer).toMatchObject({
      ruin_probability: 1,
      average_final_bankroll: 0,
      best_case: 0,
      worst_case: 0,
      profitable_runs_pct: 0,
    });
  });

  it('stops a run as soon as the bankroll is below the minimum bet', () => {
    const runs = runSimulations(
      parsed({ game: 'slots', bankroll: 1.005, bet_amount: 1, num_bets: 10, simulations: 2 }),
      new Rng('min'),
    );
    expect(runs).toEqual({ finalsMicro: [5_000n, 5_000n], ruined: 2 }); // 0.005 left, below 0.01
  });

  it('a sure push never moves the bankroll', () => {
    const answer = kellySimulateView(
      parsed({ game: 'scratch_card', bankroll: 50, bet_amount: 10, num_bets: 100, simulations: 10 }),
      new Rng('push'),
    );
    expect(answer).toMatchObject({
      ruin_probability: 0,
      average_final_bankroll: 50,
      best_case: 50,
      worst_case: 50,
      profitable_runs_pct: 0,
    });
  });

  it('pays floor(stake × multiplier): one 0.03 bet on the wheel ends on an exact outcome', () => {
    const runs = runSimulations(
      parsed({ game: 'wheel', bankroll: 1, bet_amount: 0.03, num_bets: 1, simulations: 1_000 }),
      new Rng('wheel'),
    );
    const allowed = new Set(
      [0n, 15_000n, 30_000n, 45_000n, 60_000n, 90_000n, 150_000n, 300_000n].map((payout) => 970_000n + payout),
    );
    for (const final of runs.finalsMicro) expect(allowed.has(final)).toBe(true);
    expect(runs.ruined).toBe(0);
  });

  it('runs the largest request (1,000,000 bets on a 2^52 distribution) in bounded time', () => {
    const request = parsed({
      game: 'multiplier',
      target_multiplier: 2,
      bankroll: 1_000,
      bet_amount: 0.01,
      num_bets: 10_000,
      simulations: 100,
    });
    const answer = kellySimulateView(request, new Rng('big'));
    expect(answer['simulations']).toBe(100);
    expect(answer['ruin_probability']).toBe(0);
    // 10,000 bets of 0.01 at about a 1% edge: the average loses about 1.
    expect(answer['average_final_bankroll'] as number).toBeGreaterThan(990);
    expect(answer['average_final_bankroll'] as number).toBeLessThan(1_001);
  });
});

describe('percentileMicro (nearest rank)', () => {
  const sorted = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n];
  it('takes index ceil(q·n/100) − 1', () => {
    expect(percentileMicro(sorted, 5)).toBe(1n);
    expect(percentileMicro(sorted, 25)).toBe(3n);
    expect(percentileMicro(sorted, 50)).toBe(5n);
    expect(percentileMicro(sorted, 75)).toBe(8n);
    expect(percentileMicro(sorted, 95)).toBe(10n);
    expect(percentileMicro([42n], 5)).toBe(42n);
  });
});

describe('the real coin flip module', () => {
  it('simulates through the registry lookup as well as fixtures', () => {
    const request = parseSimulateRequest(
      { game: 'coin_flip', side: 'tails', bankroll: 10, bet_amount: 1, num_bets: 1, simulations: 50 },
      lookupOf([coinFlip]),
      'enterprise',
    );
    if (isFailure(request)) throw new Error(request.message);
    const runs = runSimulations(request, new Rng('real'));
    for (const final of runs.finalsMicro) expect([9_000_000n, 10_960_000n]).toContain(final);
  });
});
