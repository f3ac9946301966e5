// A small world for the time-travel tests, over HTTP to any served platform (in-process listeners
// or an `afp serve` child): two casino agents funded by simulated deposits (deposit confirmation
// timers), and one of each other timer — an escrow that expires in 1 h, a disputed escrow (its
// dispute window), a tournament that ends in 2 h, a challenge that expires in 24 h, a crash round,
// a withdrawal above 1,000 USDC under review for 24 h (the referral sweep runs daily on its own).
import { expect } from 'vitest';

export type Answer = { status: number; body: Record<string, unknown> };

export interface Target {
  send(mount: string, method: string, path: string, options?: { body?: unknown; key?: string }): Promise<Answer>;
  admin(path: string, body?: unknown): Promise<Answer>;
  nowMs(): Promise<number>;
  digest(): Promise<string>;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A Target over the mounts' URLs. */
export function urlTarget(urls: Readonly<Record<string, string | undefined>>): Target {
  const send = async (
    mount: string,
    method: string,
    path: string,
    options: { body?: unknown; key?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    const response = await fetch(`${urls[mount] ?? ''}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return {
    send,
    admin: (path, body) => send('api', 'POST', `/_afp/${path}`, body === undefined ? {} : { body }),
    nowMs: async () => Number((await send('api', 'GET', '/_afp/clock')).body['now_ms']),
    digest: async () => String((await send('api', 'GET', '/_afp/digest')).body['digest']),
  };
}

export interface World {
  readonly alice: string;
  readonly bob: string;
  readonly escrowId: string;
  readonly tournamentId: string;
  readonly challengeId: string;
  readonly disputedId: string;
}

export async function buildWorld(target: Target): Promise<World> {
  const register = async (agentId: string): Promise<string> => {
    const answer = await target.send('casino', 'POST', '/api/v1/auth/register', { body: { agent_id: agentId } });
    expect(answer.status).toBe(201);
    return String(answer.body['api_key']);
  };
  const alice = await register('alice');
  const bob = await register('bob');
  for (const agentId of ['alice', 'bob'])
    expect((await target.admin('casino/deposit', { agent_id: agentId, chain: 'solana', amount: '2000' })).status).toBe(
      200,
    );
  await target.admin('clock', { advance_ms: 2 * 60_000 });
  const escrow = await target.send('api', 'POST', '/escrow', {
    key: alice,
    body: { amount: '4.00', receiver: 'bob', expires_in: 3_600 },
  });
  expect(escrow.status).toBeLessThan(300);
  const nowMs = await target.nowMs();
  const body = {
    name: 'Tour',
    game: 'dice',
    entry_fee: 1,
    prize_pool: 10,
    max_agents: 10,
    starts_at: new Date(nowMs).toISOString(),
    ends_at: new Date(nowMs + 2 * HOUR_MS).toISOString(),
  };
  const tournament = await target.send('casino', 'POST', '/api/v1/tournaments/create', { key: alice, body });
  expect(tournament.status).toBeLessThan(300);
  const tournamentId = String(tournament.body['tournament_id']);
  expect(
    (await target.send('casino', 'POST', `/api/v1/tournaments/${tournamentId}/enter`, { key: bob })).status,
  ).toBeLessThan(300);
  const play = await target.send('casino', 'POST', `/api/v1/tournaments/${tournamentId}/play`, {
    key: bob,
    body: { direction: 'over', threshold: 50, amount: 1 },
  });
  expect(play.status).toBeLessThan(300);
  const challenge = await target.send('casino', 'POST', '/api/v1/challenges', {
    key: alice,
    body: { challenged_agent_id: 'bob', amount: 2 },
  });
  expect(challenge.status).toBeLessThan(300);
  const disputed = await target.send('api', 'POST', '/escrow', {
    key: alice,
    body: { amount: '3.00', receiver: 'bob', expires_in: 7_200 },
  });
  const disputedId = String(disputed.body['escrow_id']);
  expect(
    (await target.send('api', 'POST', `/escrow/${disputedId}/dispute`, { key: bob, body: { reason: 'not delivered' } }))
      .status,
  ).toBeLessThan(300);
  expect(
    (
      await target.send('casino', 'POST', '/api/v1/games/crash/bet', {
        key: bob,
        body: { amount: 1, auto_cash_out: 1.5 },
      })
    ).status,
  ).toBe(200);
  const withdrawal = await target.send('casino', 'POST', '/api/v1/auth/withdraw', {
    key: bob,
    body: { amount: 1_200, address: `0x${'ab'.repeat(20)}` },
  });
  expect(withdrawal.status).toBeLessThan(300);
  return {
    alice,
    bob,
    escrowId: String(escrow.body['escrow_id']),
    tournamentId,
    challengeId: String(challenge.body['challenge_id']),
    disputedId,
  };
}

/** What the world's timers did, as the agents see it. */
export async function observe(target: Target, world: World): Promise<unknown> {
  const read = async (mount: string, path: string, key: string): Promise<Record<string, unknown>> =>
    (await target.send(mount, 'GET', path, { key })).body;
  return {
    escrow: await read('api', `/escrow/${world.escrowId}`, world.alice),
    disputed: await read('api', `/escrow/${world.disputedId}`, world.alice),
    withdrawals: await read('casino', '/api/v1/auth/withdrawals', world.bob),
    tournament: await read('casino', `/api/v1/tournaments/${world.tournamentId}`, world.alice),
    aliceLedger: await read('casino', '/api/v1/auth/ledger', world.alice),
    bobLedger: await read('casino', '/api/v1/auth/ledger', world.bob),
    balances: [
      await read('casino', '/api/v1/auth/balance', world.alice),
      await read('casino', '/api/v1/auth/balance', world.bob),
    ],
  };
}
