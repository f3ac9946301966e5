// The deployed stand-in's parlay as DEPLOYED.md §2.5 writes it: `POST /api/v1/games/parlay { amount
// 0.01–10, bets: 2–5 × { game, params } }`, each leg drawn on its own nonce under the account's seeds
// (the leg's result fields as the single game writes them), all must win, payout round2(amount ×
// round2(Π × 0.90)), no Kelly check, stored as one bet with nonce 0, no referral, not in the batch.
// In-process HTTP through the deployed dispatcher (its error shape) and route table.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../../src/core/errors.ts';
import { usdc } from '../../../src/core/money.ts';
import { DeployedDispatcher } from '../../../src/http/deployed/deployed-dispatcher.ts';
import type { ApiResponse } from '../../../src/http/dispatcher.ts';
import { DEPLOYED_ROUTES } from '../../../src/http/routes/deployed/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { RollSource } from '../../../src/services/casino/deployed/deployed-rule.ts';
import { deployedRuleTable } from '../../../src/services/casino/deployed/deployed-rule-table.ts';
import { addAgent } from '../../fixtures/agents.ts';

const START = Date.UTC(2026, 0, 1);
const RULES = deployedRuleTable(PUBLISHED_DEPLOYED_RULES);

type Body = Record<string, unknown>;
type Leg = Body & { game: string; params: Body; nonce: number; won: boolean };

function deployedCasino(fundMicro: bigint, seed = 'deployed-parlay') {
  const platform = new Platform({ seed, startMs: START, defects: [] });
  addAgent(platform, 'referrer', { createdAtMs: START });
  const key = addAgent(platform, 'alice', { fundMicro, createdAtMs: START, referrerId: 'referrer' });
  const dispatcher = new DeployedDispatcher(platform, DEPLOYED_ROUTES, { limitsLifted: true });
  let nowMs = START;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown): ApiResponse =>
    dispatcher.handle(
      {
        mount: 'casino',
        method,
        path: `/api/v1${path}`,
        query: {},
        headers: { authorization: `Bearer ${key}` },
        body,
        ip: '127.0.0.1',
      },
      (nowMs += 1_000),
    );
  return {
    platform,
    call,
    parlay: (body: unknown) => call('POST', '/games/parlay', body),
    balance: () => platform.ledger.balance('agent:alice'),
  };
}

const TWO_LEGS = [
  { game: 'coin_flip', params: { side: 'heads', client_seed: 'leg-a' } },
  { game: 'dice', params: { direction: 'over', threshold: 50, client_seed: 'leg-b' } },
];

describe('deployed stand-in: the parlay', () => {
  test('two legs, each its own nonce and its single game’s result; one bet of nonce 0; money conserved', () => {
    const casino = deployedCasino(usdc(10));
    const before = casino.balance();
    const answer = casino.parlay({ amount: 1, bets: TWO_LEGS });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as Body;
    expect(Object.keys(body).filter((key) => key !== '_info')).toEqual([
      'parlay_id',
      'total_bet',
      'legs',
      'all_won',
      'legs_won',
      'combined_multiplier',
      'payout',
      'balance_after',
    ]);
    const legs = body['legs'] as Leg[];
    expect(legs.map((leg) => leg.nonce)).toEqual([0, 1]);
    // round2(1.99 × round4((1/0.5) × 0.995) × 0.90) = round2(1.99 × 1.99 × 0.9) = 3.56
    expect(body['combined_multiplier']).toBe(3.56);
    expect(body['total_bet']).toBe(1);
    const allWon = legs.every((leg) => leg.won);
    expect(body['all_won']).toBe(allWon);
    expect(body['legs_won']).toBe(legs.filter((leg) => leg.won).length);
    expect(body['payout']).toBe(allWon ? 3.56 : 0);
    expect(casino.balance()).toBe(before - usdc(1) + (allWon ? 3_560_000n : 0n));
    expect(casino.platform.ledger.auditSum()).toBe(0n);
    // No referral on a parlay (DEPLOYED.md §2.9), even a lost one.
    expect(casino.platform.casino.state.commissions.earnedBy('referrer').every((micro) => micro === 0n)).toBe(true);

    // A following single bet takes the nonce after the legs'.
    const single = casino.call('POST', '/games/coin-flip', { amount: 0.01, side: 'heads' });
    expect((single.body as { proof: { nonce: number } }).proof.nonce).toBe(2);

    // Stored as one bet of nonce 0, game parlay; the revealed seed replays every leg.
    const betId = body['parlay_id'] as string;
    const trail = casino.call('GET', `/fairness/audit/${betId}`).body as Body & { fairness: Body; result: Body };
    expect(trail['game']).toBe('parlay');
    expect(trail.fairness['nonce']).toBe(0);
    const rotated = casino.call('POST', '/fairness/rotate').body as { previous_seed: { seed: string } };
    const seedHex = rotated.previous_seed.seed;
    for (const leg of legs) {
      const { client_seed: clientSeed, ...params } = leg.params;
      const play = RULES.get(leg.game)?.play(
        params as JsonObject,
        new RollSource(seedHex, clientSeed as string, leg.nonce),
      );
      expect(play && 'result' in play ? { ...leg, ...play.result } : null).toEqual(leg);
    }
    const verified = casino.call('POST', '/fairness/verify', { bet_id: betId }).body as Body;
    expect(verified['verified'], JSON.stringify(verified)).toBe(true);
    const history = casino.call('GET', '/bets/history').body as { bets: Body[] };
    expect(history.bets.map((bet) => bet['game'])).toEqual(['coin_flip', 'parlay']);
  });

  test('simple dice by guess, multiplier legs, no client seed: parlay_<ms> of the clock; Kelly not checked', () => {
    const casino = deployedCasino(usdc(10));
    // 10 of a 10 balance: far above any Kelly limit, still a parlay.
    const answer = casino.parlay({
      amount: 10,
      bets: [
        { game: 'simple_dice', params: { guess: 3 } },
        { game: 'multiplier', params: { target_multiplier: 1.5 } },
      ],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as Body;
    expect(body['combined_multiplier']).toBe(Math.round(5.5 * 1.5 * 0.9 * 100) / 100);
    const trail = casino.call('GET', `/fairness/audit/${String(body['parlay_id'])}`).body as { fairness: Body };
    expect(trail.fairness['client_seed']).toBe(`parlay_${START + 1_000}`);
    expect((body['legs'] as Leg[]).map((leg) => leg['pick'])).toEqual([3, undefined]);
  });

  test('bad input is the deployment’s 400 and changes nothing', () => {
    const casino = deployedCasino(usdc(5));
    const before = casino.balance();
    const refused = (body: unknown): string => {
      const answer = casino.parlay(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      const error = answer.body as Body;
      expect(typeof error['message'], JSON.stringify(error)).toBe('string');
      return error['error'] as string;
    };
    expect(refused({ amount: 1, bets: TWO_LEGS.slice(0, 1) })).toBe('invalid_params');
    expect(refused({ amount: 1, bets: [...TWO_LEGS, ...TWO_LEGS, ...TWO_LEGS] })).toBe('invalid_params');
    expect(refused({ amount: 1, bets: [{ game: 'roulette', params: {} }, TWO_LEGS[0]] })).toBe('invalid_params');
    expect(refused({ amount: 1, bets: [{ game: 'dice', params: { threshold: 200 } }, TWO_LEGS[0]] })).toBe(
      'invalid_params',
    );
    expect(refused({ amount: 1, bets: [{ game: 'dice', params: { client_seed: 'a:b' } }, TWO_LEGS[0]] })).toBe(
      'invalid_params',
    );
    expect(refused({ amount: 1, bets: 'two' })).toBe('invalid_params');
    expect(refused({ amount: 0.001, bets: TWO_LEGS })).toBe('minimum_bet');
    expect(refused({ amount: 10.01, bets: TWO_LEGS })).toBe('maximum_bet');
    expect(refused({ amount: 6, bets: TWO_LEGS })).toBe('insufficient_balance');
    expect(refused({ bets: TWO_LEGS })).toBe('invalid_params');
    expect(casino.balance()).toBe(before);
    // No nonce was spent by a refused parlay.
    const single = casino.call('POST', '/games/coin-flip', { amount: 0.01, side: 'heads' });
    expect((single.body as { proof: { nonce: number } }).proof.nonce).toBe(0);
  });

  test('not in the batch; listed among the games with its maximum', () => {
    const casino = deployedCasino(usdc(5));
    const batch = casino.call('POST', '/bets/batch', { bets: [{ game: 'parlay', amount: 1, bets: TWO_LEGS }] });
    const results = (batch.body as { results: Body[] }).results;
    expect(results[0]?.['error']).toBe('invalid_game');
    const games = (casino.call('GET', '/games').body as { games: Body[] }).games;
    expect(games.find((game) => game['id'] === 'parlay')).toMatchObject({
      endpoint: 'POST /api/v1/games/parlay',
      max_bet: 10,
    });
  });
});
