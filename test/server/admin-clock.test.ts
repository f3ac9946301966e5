// `afp serve`'s admin endpoints and clock: the manual clock moves forward only (to_ms, advance_ms,
// to), every refusal is a 400, due timers run on the move (an escrow expires at exactly its
// instant); in wall mode the timer pump fires timers without any request. Plus /health on every
// mount, /_afp/state, /_afp/mounts, and 405 on admin paths.
import { afterEach, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { httpTransport } from '../../src/client/http-transport.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

async function serve(clockMode: 'wall' | 'manual'): Promise<{ handle: ServeHandle; api: string; client: AfpClient }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '3',
    port: 0,
    clockMode,
    ...(clockMode === 'manual' ? { startMs: START_MS } : {}),
    log: () => undefined,
  });
  handles.push(handle);
  return { handle, api: handle.urls.api as string, client: new AfpClient(httpTransport({ urls: handle.urls })) };
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function moveClock(api: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${api}/_afp/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Registers alice and bob and locks an escrow from alice to bob that expires in `expiresInSeconds`. */
async function lockEscrow(
  client: AfpClient,
  expiresInSeconds: number,
): Promise<{ alice: AfpClient; escrowId: string }> {
  const alice = await client.faucetB.register({ agent_id: 'alice' });
  const bob = await client.faucetB.register({ agent_id: 'bob' });
  if (!alice.ok || !bob.ok) throw new Error('registration failed');
  const asAlice = client.withKey(alice.body.api_key);
  const created = await asAlice.escrowB.create({ amount: '4.00', receiver: 'bob', expires_in: expiresInSeconds });
  if (!created.ok) throw new Error(`escrow create failed: ${created.body.error}`);
  return { alice: asAlice, escrowId: created.body.escrow_id };
}

describe('manual clock', () => {
  test('reads, moves forward by to_ms, advance_ms and to; refuses the past and bad bodies', async () => {
    const { api } = await serve('manual');
    expect(await getJson(`${api}/_afp/clock`)).toEqual({
      status: 200,
      body: { now_ms: START_MS, now: '2025-01-01T00:00:00.000Z', mode: 'manual' },
    });
    expect((await moveClock(api, { advance_ms: 1_000 })).body).toMatchObject({ now_ms: START_MS + 1_000 });
    expect((await moveClock(api, { to_ms: START_MS + 5_000 })).body).toMatchObject({ now_ms: START_MS + 5_000 });
    expect((await moveClock(api, { to: '2025-01-02T00:00:00Z' })).body).toMatchObject({
      now: '2025-01-02T00:00:00.000Z',
    });
    for (const bad of [
      { to_ms: START_MS },
      { advance_ms: -1 },
      { advance_ms: 1.5 },
      { to: 'yesterday' },
      {},
      { to_ms: START_MS + 1, advance_ms: 1 },
      { speed: 2 },
      [1],
    ]) {
      expect(await moveClock(api, bad), JSON.stringify(bad)).toMatchObject({
        status: 400,
        body: { code: 'BAD_REQUEST' },
      });
    }
    const malformed = await fetch(`${api}/_afp/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(malformed.status).toBe(400);
    expect((await getJson(`${api}/_afp/clock`)).body['now']).toBe('2025-01-02T00:00:00.000Z');
    expect((await fetch(`${api}/_afp/clock`, { method: 'DELETE' })).status).toBe(405);
  });

  test('time stands still between moves; a move runs due timers: the escrow expires at exactly expires_at', async () => {
    const { handle, api, client } = await serve('manual');
    const { alice, escrowId } = await lockEscrow(client, 60);
    await moveClock(api, { advance_ms: 59_999 });
    expect(handle.platform.escrow.find(escrowId)?.status).toBe('locked');
    await moveClock(api, { advance_ms: 1 });
    expect(handle.platform.escrow.find(escrowId)?.status).toBe('expired'); // no platform request in between
    const detail = await alice.escrowB.get(escrowId);
    expect(detail.ok && detail.body).toMatchObject({ status: 'expired', settled_at: '2025-01-01T00:01:00.000Z' });
    const status = await alice.faucetB.status();
    expect(status.ok && status.body.balance).toBe('10.00');
  });

  test('state, mounts and health', async () => {
    const { handle, api, client } = await serve('manual');
    await lockEscrow(client, 600);
    const state = await getJson(`${api}/_afp/state`);
    expect(state.body).toMatchObject({
      seed: '3',
      mode: 'manual',
      agents: 2,
      escrows: 1,
      ledger: { sum_micro: '0', audit_sum_micro: '0', balanced: true },
    });
    expect(await getJson(`${api}/_afp/mounts`)).toEqual({
      status: 200,
      body: { mounts: handle.urls, forwarded_for: 'trusted' },
    });
    expect(Object.keys(handle.urls)).toEqual(['api', 'faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino']);
    for (const url of Object.values(handle.urls))
      expect(await getJson(`${url}/health`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await getJson(`${handle.urls.faucet as string}/_afp/clock`)).status).toBe(404); // admin lives on the api mount only
  });
});

describe('defects', () => {
  test('--defect names reach the platform', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '3',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      defects: ['escrow-fee-2pct'],
      log: () => undefined,
    });
    handles.push(handle);
    const client = new AfpClient(httpTransport({ urls: handle.urls }));
    const { escrowId } = await lockEscrow(client, 600);
    expect(handle.platform.escrow.find(escrowId)?.feeMicro).toBe(80_000n); // 2% of 4.00, not 1%
  });
});

describe('wall clock', () => {
  test('platform timers fire without requests', async () => {
    const { handle, client } = await serve('wall');
    const { escrowId } = await lockEscrow(client, 1);
    expect(handle.platform.escrow.find(escrowId)?.status).toBe('locked');
    const deadline = Date.now() + 5_000;
    while (handle.platform.escrow.find(escrowId)?.status === 'locked' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handle.platform.escrow.find(escrowId)?.status).toBe('expired');
  });

  test('the wall clock also moves forward on request, and not backward', async () => {
    const { api } = await serve('wall');
    const before = (await getJson(`${api}/_afp/clock`)).body['now_ms'] as number;
    const moved = await moveClock(api, { advance_ms: 3_600_000 });
    expect(moved.body['mode']).toBe('wall');
    expect(moved.body['now_ms'] as number).toBeGreaterThanOrEqual(before + 3_600_000);
    expect((await moveClock(api, { to_ms: before })).status).toBe(400);
  });
});
