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
import { buildWorld, DAY_MS, observe, urlTarget, type Target } from './time-travel-world.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

/** A listener set on 127.0.0.1 (manual clock) and the Target over it. */
async function serve(seed = '11'): Promise<Target & { readonly handle: ServeHandle }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed,
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  return { ...urlTarget(handle.urls), handle };
}

describe('time travel', () => {
  test('snapshot, advance past every due instant, revert, advance again: each effect fires once (the twin that never travelled agrees)', async () => {
    const traveller = await serve();
    const twin = await serve();
    const world = await buildWorld(traveller);
    expect(await buildWorld(twin)).toEqual(world);

    const snapshot = await traveller.admin('snapshot');
    expect(snapshot).toEqual({
      status: 200,
      body: {
        id: 'snap_1',
        at_ms: await traveller.nowMs(),
        at: new Date(await traveller.nowMs()).toISOString(),
        snapshots: 1,
      },
    });
    const snapshotMs = await traveller.nowMs();
    const before = await observe(traveller, world);
    // The detour: two days on, every timer fires, a few more requests.
    await traveller.admin('clock', { advance_ms: 2 * DAY_MS });
    const detour = await observe(traveller, world);
    expect(detour).not.toEqual(before);
    // Every timer fired in the detour: expiry, dispute window, tournament end, withdrawal review.
    type Seen = {
      escrow: { status: string };
      disputed: { status: string };
      tournament: { status: string };
      withdrawals: unknown;
    };
    const [then, later] = [before as Seen, detour as Seen];
    expect(later.escrow.status).toBe('expired');
    expect(later.disputed.status).not.toBe(then.disputed.status);
    expect(later.tournament.status).not.toBe(then.tournament.status);
    expect(later.withdrawals).not.toEqual(then.withdrawals);
    await traveller.send('api', 'POST', '/claim', { key: world.bob });
    // Back: the platform and the clock are what they were.
    const reverted = await traveller.admin('revert', { id: 'snap_1' });
    expect(reverted).toEqual({
      status: 200,
      body: { id: 'snap_1', now_ms: snapshotMs, now: new Date(snapshotMs).toISOString(), mode: 'manual', dropped: [] },
    });
    expect(await traveller.nowMs()).toBe(snapshotMs);
    expect(await observe(traveller, world)).toEqual(before);
    // Forward again, the twin with the same requests at the same instants: the same final history.
    expect(await twin.nowMs()).toBe(snapshotMs);
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
    expect(reset).toEqual({
      status: 200,
      body: { now_ms: START_MS, now: new Date(START_MS).toISOString(), mode: 'manual', dropped: ['snap_1', 'snap_4'] },
    });
    const fresh = await serve();
    expect(platformDigest(served.handle.platform)).toBe(platformDigest(fresh.handle.platform));
    // Nothing of before: the agents are gone, and days later no timer of theirs has moved money.
    await served.admin('clock', { advance_ms: 3 * DAY_MS });
    await fresh.admin('clock', { advance_ms: 3 * DAY_MS });
    for (const platform of [served, fresh])
      expect((await platform.send('api', 'GET', `/escrow/${world.escrowId}`, { key: world.alice })).status).toBe(401);
    expect(platformDigest(served.handle.platform)).toBe(platformDigest(fresh.handle.platform));
    expect((await served.admin('snapshot')).body['id']).toBe('snap_5');
  });

  test('bad input is a 4xx in the error shape and changes nothing; at most SNAPSHOTS_MAX are kept', async () => {
    const served = await serve();
    await buildWorld(served);
    const digest = platformDigest(served.handle.platform);
    const nowMs = await served.nowMs();
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
      expect(answer.body).toMatchObject({
        error: expect.any(String) as string,
        code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST',
      });
    }
    expect((await served.send('api', 'GET', '/_afp/snapshot')).status).toBe(405);
    expect(platformDigest(served.handle.platform)).toBe(digest);
    expect(await served.nowMs()).toBe(nowMs);
    for (let index = 1; index <= SNAPSHOTS_MAX; index++)
      expect((await served.admin('snapshot')).body['id']).toBe(`snap_${index}`);
    const refused = await served.admin('snapshot');
    expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT', snapshots_max: SNAPSHOTS_MAX } });
    expect((await served.admin('revert', { id: 'snap_2' })).body['dropped']).toHaveLength(SNAPSHOTS_MAX - 2);
    expect((await served.admin('snapshot')).body['id']).toBe(`snap_${SNAPSHOTS_MAX + 1}`);
  });
});
