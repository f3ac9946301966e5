// afp serve's time travel (POST /_afp/snapshot, /_afp/revert, /_afp/reset) over real listeners on
// 127.0.0.1: every scheduled effect that is due (escrow expiry, tournament end, challenge expiry,
// deposit confirmation, referral sweep) fires exactly once in the final history — a served platform
// that took a detour (snapshot, advance past the due instants, revert, advance again) ends in the
// very state of a twin that never did (same answers, same ledger, same state digest); after a reset
// nothing of before fires. Bad input is a 4xx in the spec's error shape and changes nothing.
import { afterEach, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { SNAPSHOTS_MAX } from '../../src/server/time-travel.ts';
import { START_MS } from '../client/fixtures.ts';
import { platformDigest } from '../../src/platform/state-digest.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

type Answer = { status: number; body: Record<string, unknown> };

class Served {
  readonly handle: ServeHandle;

  constructor(handle: ServeHandle) {
    this.handle = handle;
  }

  async send(mount: string, method: string, path: string, options: { body?: unknown; key?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    const response = await fetch(`${this.handle.urls[mount as 'api'] as string}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  admin(path: string, body?: unknown): Promise<Answer> {
    return this.send('api', 'POST', `/_afp/${path}`, body === undefined ? {} : { body });
  }

  nowMs(): number {
    return this.handle.clock.nowMs();
  }
}

async function serve(seed = '11'): Promise<Served> {
  const handle = await startServe({ routes: ALL_ROUTES, seed, port: 0, clockMode: 'manual', startMs: START_MS, log: () => undefined });
  handles.push(handle);
  return new Served(handle);
}

interface World {
  readonly alice: string;
  readonly bob: string;
  readonly escrowId: string;
  readonly tournamentId: string;
  readonly challengeId: string;
}

/** Agents, money and one of each timer: escrow expiry (+1 h), tournament end (+2 h), challenge expiry (+24 h), deposit confirmation. */
async function buildWorld(served: Served): Promise<World> {
  const register = async (agentId: string): Promise<string> => {
    const answer = await served.send('casino', 'POST', '/api/v1/auth/register', { body: { agent_id: agentId } });
    expect(answer.status).toBe(201);
    return String(answer.body['api_key']);
  };
  const alice = await register('alice');
  const bob = await register('bob');
  for (const agentId of ['alice', 'bob']) expect((await served.admin('casino/deposit', { agent_id: agentId, chain: 'solana', amount: '500' })).status).toBe(200);
  await served.admin('clock', { advance_ms: 2 * 60_000 });
  const escrow = await served.send('api', 'POST', '/escrow', { key: alice, body: { amount: '4.00', receiver: 'bob', expires_in: 3_600 } });
  expect(escrow.status).toBeLessThan(300);
  const startsAt = new Date(served.nowMs()).toISOString();
  const endsAt = new Date(served.nowMs() + 2 * HOUR_MS).toISOString();
  const tournament = await served.send('casino', 'POST', '/api/v1/tournaments/create', { key: alice, body: { name: 'Tour', game: 'dice', entry_fee: 1, prize_pool: 10, max_agents: 10, starts_at: startsAt, ends_at: endsAt } });
  expect(tournament.status).toBeLessThan(300);
  const tournamentId = String(tournament.body['tournament_id']);
  expect((await served.send('casino', 'POST', `/api/v1/tournaments/${tournamentId}/enter`, { key: bob })).status).toBeLessThan(300);
  const play = await served.send('casino', 'POST', `/api/v1/tournaments/${tournamentId}/play`, { key: bob, body: { direction: 'over', threshold: 50, amount: 1 } });
  expect(play.status).toBeLessThan(300);
  const challenge = await served.send('casino', 'POST', '/api/v1/challenges', { key: alice, body: { challenged_agent_id: 'bob', amount: 2 } });
  expect(challenge.status).toBeLessThan(300);
  return { alice, bob, escrowId: String(escrow.body['escrow_id']), tournamentId, challengeId: String(challenge.body['challenge_id']) };
}

/** What the world's timers did, as agents see it. */
async function observe(served: Served, world: World): Promise<unknown> {
  const read = async (mount: string, path: string, key: string): Promise<Answer> => served.send(mount, 'GET', path, { key });
  return {
    escrow: (await read('api', `/escrow/${world.escrowId}`, world.alice)).body,
    tournament: (await read('casino', `/api/v1/tournaments/${world.tournamentId}`, world.alice)).body,
    aliceLedger: (await read('casino', '/api/v1/auth/ledger', world.alice)).body,
    bobLedger: (await read('casino', '/api/v1/auth/ledger', world.bob)).body,
    balances: [(await read('casino', '/api/v1/auth/balance', world.alice)).body, (await read('casino', '/api/v1/auth/balance', world.bob)).body],
  };
}

describe('time travel', () => {
  test('snapshot, advance past every due instant, revert, advance again: each effect fires once (the twin that never travelled agrees)', async () => {
    const traveller = await serve();
    const twin = await serve();
    const world = await buildWorld(traveller);
    expect(await buildWorld(twin)).toEqual(world);

    const snapshot = await traveller.admin('snapshot');
    expect(snapshot).toEqual({ status: 200, body: { id: 'snap_1', at_ms: traveller.nowMs(), at: new Date(traveller.nowMs()).toISOString(), snapshots: 1 } });
    const snapshotMs = traveller.nowMs();
    const before = await observe(traveller, world);
    // The detour: two days on, every timer fires, a few more requests.
    await traveller.admin('clock', { advance_ms: 2 * DAY_MS });
    const detour = await observe(traveller, world);
    expect(detour).not.toEqual(before);
    expect((detour as { escrow: { status: string } }).escrow.status).toBe('expired');
    await traveller.send('api', 'POST', '/claim', { key: world.bob });
    // Back: the platform and the clock are what they were.
    const reverted = await traveller.admin('revert', { id: 'snap_1' });
    expect(reverted).toEqual({ status: 200, body: { id: 'snap_1', now_ms: snapshotMs, now: new Date(snapshotMs).toISOString(), mode: 'manual', dropped: [] } });
    expect(traveller.nowMs()).toBe(snapshotMs);
    expect(await observe(traveller, world)).toEqual(before);
    // Forward again, the twin with the same requests at the same instants: the same final history.
    expect(twin.nowMs()).toBe(snapshotMs);
    expect(await observe(twin, world)).toEqual(before);
    await traveller.admin('clock', { advance_ms: 2 * DAY_MS });
    await twin.admin('clock', { advance_ms: 2 * DAY_MS });
    expect(await observe(traveller, world)).toEqual(await observe(twin, world));
    expect(platformDigest(traveller.handle.platform)).toBe(platformDigest(twin.handle.platform));
    expect(traveller.handle.platform.ledger.transfers).toBe(twin.handle.platform.ledger.transfers);
  });

  test('a revert drops the later snapshots and keeps its own; a reset drops all and nothing of before fires', async () => {
    const served = await serve();
    const world = await buildWorld(served);
    expect((await served.admin('snapshot')).body['id']).toBe('snap_1');
    await served.admin('clock', { advance_ms: 30 * 60_000 });
    expect((await served.admin('snapshot')).body['id']).toBe('snap_2');
    await served.admin('clock', { advance_ms: 30 * 60_000 });
    expect((await served.admin('snapshot')).body['id']).toBe('snap_3');
    expect((await served.admin('revert', { id: 'snap_1' })).body['dropped']).toEqual(['snap_2', 'snap_3']);
    expect((await served.admin('revert', { id: 'snap_2' })).status).toBe(404);
    expect((await served.admin('revert', { id: 'snap_1' })).status).toBe(200);
    expect((await served.admin('snapshot')).body['id']).toBe('snap_4');

    const reset = await served.admin('reset');
    expect(reset).toEqual({ status: 200, body: { now_ms: START_MS, now: new Date(START_MS).toISOString(), mode: 'manual', dropped: ['snap_1', 'snap_4'] } });
    const fresh = await serve();
    expect(platformDigest(served.handle.platform)).toBe(platformDigest(fresh.handle.platform));
    // Nothing of before: the agents are gone, and days later no timer of theirs has moved money.
    await served.admin('clock', { advance_ms: 3 * DAY_MS });
    await fresh.admin('clock', { advance_ms: 3 * DAY_MS });
    for (const platform of [served, fresh]) expect((await platform.send('api', 'GET', `/escrow/${world.escrowId}`, { key: world.alice })).status).toBe(401);
    expect(platformDigest(served.handle.platform)).toBe(platformDigest(fresh.handle.platform));
    expect((await served.admin('snapshot')).body['id']).toBe('snap_5');
  });

  test('bad input is a 4xx in the error shape and changes nothing; at most SNAPSHOTS_MAX are kept', async () => {
    const served = await serve();
    await buildWorld(served);
    const digest = platformDigest(served.handle.platform);
    const nowMs = served.nowMs();
    const refusals: Array<[string, unknown, number]> = [
      ['revert', {}, 400],
      ['revert', { id: 1 }, 400],
      ['revert', { id: 'snap_x' }, 400],
      ['revert', { id: 'snap_1', extra: true }, 400],
      ['revert', ['snap_1'], 400],
      ['revert', { id: 'snap_9' }, 404],
      ['snapshot', { id: 'snap_1' }, 400],
      ['reset', { hard: true }, 400],
    ];
    for (const [path, body, status] of refusals) {
      const answer = await served.admin(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.body).toMatchObject({ error: expect.any(String) as string, code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST' });
    }
    expect((await served.send('api', 'GET', '/_afp/snapshot')).status).toBe(405);
    expect(platformDigest(served.handle.platform)).toBe(digest);
    expect(served.nowMs()).toBe(nowMs);
    for (let index = 1; index <= SNAPSHOTS_MAX; index++) expect((await served.admin('snapshot')).body['id']).toBe(`snap_${index}`);
    const refused = await served.admin('snapshot');
    expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT', snapshots_max: SNAPSHOTS_MAX } });
    expect((await served.admin('revert', { id: 'snap_2' })).body['dropped']).toHaveLength(SNAPSHOTS_MAX - 2);
    expect((await served.admin('snapshot')).body['id']).toBe(`snap_${SNAPSHOTS_MAX + 1}`);
  });
});
