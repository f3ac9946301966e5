// The admin client against a real afp serve (in-process listeners, manual clock): typed answers
// from every kind of door (clock, tier, deposit, mint, snapshot/revert/reset, digest, mounts,
// platform, state, health), afp serve's own refusals returned with their status and body, and
// the two kinds of trouble returned, never thrown: a server that answers no JSON, and nothing listening.
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AdminClient } from '../../src/client/admin-client.ts';
import { AfpClient } from '../../src/client/client.ts';
import { httpTransport } from '../../src/client/http-transport.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';

const START_MS = Date.UTC(2026, 0, 1);

describe('AdminClient against afp serve', () => {
  let handle: ServeHandle;
  let admin: AdminClient;
  beforeAll(async () => {
    handle = await startServe({
      routes: ALL_ROUTES,
      seed: 'admin-client',
      trustedProxies: LOOPBACK_PROXIES,
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    admin = AdminClient.ofUrl(handle.urls.api as string);
  });
  afterAll(() => handle.close({ forceAfterMs: 0 }));

  test('clock, moves, snapshot, revert, reset and digest are typed answers', async () => {
    expect(await admin.clock()).toEqual({
      ok: true,
      status: 200,
      value: { nowMs: START_MS, now: new Date(START_MS).toISOString(), mode: 'manual' },
    });
    const before = await admin.digest();
    const snapshot = await admin.snapshot();
    expect(snapshot).toMatchObject({ ok: true, value: { id: 'snap_1', atMs: START_MS, snapshots: 1 } });
    const moved = await admin.moveClock({ advanceMs: 60_000 });
    expect(moved.ok && moved.value.nowMs).toBe(START_MS + 60_000);
    expect(await admin.revert('snap_1')).toMatchObject({ ok: true, value: { nowMs: START_MS, mode: 'manual' } });
    const after = await admin.digest();
    expect(before.ok && after.ok && after.value.digest === before.value.digest).toBe(true);
    expect(await admin.reset()).toMatchObject({ ok: true, value: { nowMs: START_MS } });
  });

  test('tier and deposit for a registered agent; the answers of mounts, platform, state, health', async () => {
    const client = new AfpClient(httpTransport({ urls: handle.urls }));
    const agentId = 'admin-client-agent';
    expect((await client.faucetB.register({ agent_id: agentId })).ok).toBe(true);
    expect(await admin.setTier(agentId, 'enterprise')).toEqual({
      ok: true,
      status: 200,
      value: { agentId, tier: 'enterprise' },
    });
    const deposit = await admin.casinoDeposit({ agentId, chain: 'base', amount: '100' });
    expect(deposit.ok && deposit.value.confirmAtMs).toBeGreaterThan(START_MS);
    expect(await admin.mounts()).toMatchObject({ ok: true, value: { mounts: { api: handle.urls.api } } });
    expect(await admin.platform()).toMatchObject({ ok: true, value: { seed: 'admin-client' } });
    expect(await admin.state()).toMatchObject({ ok: true, value: { agents: 1 } });
    expect(await admin.health()).toEqual({ ok: true, status: 200, value: { status: 'ok' } });
  });

  test("afp serve's refusals come back with their status and body", async () => {
    const unknown = await admin.setTier('agent_nobody', 'pro');
    expect(unknown).toMatchObject({ ok: false, kind: 'status', status: 404, body: { agent_id: 'agent_nobody' } });
    const backwards = await admin.moveClock({ toMs: START_MS - 1 });
    expect(backwards).toMatchObject({ ok: false, kind: 'status', status: 400, body: { code: 'BAD_REQUEST' } });
    expect(!backwards.ok && backwards.message).toMatch(/^POST \/_afp\/clock answered 400: /);
    const mint = await admin.walletMint({ chain: 'base', address: 'not-an-address', amount: '1' });
    expect(mint).toMatchObject({ ok: false, kind: 'status', status: 400 });
  });
});

describe('AdminClient trouble is returned', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html>not here</html>');
    });
    base = await new Promise<string>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('a server without the doors: its status and text, kind status', async () => {
    const answer = await AdminClient.ofUrl(base).clock();
    expect(answer).toMatchObject({ ok: false, kind: 'status', status: 404, text: '<html>not here</html>' });
  });

  test('nothing listening: unreachable, with the network reason', async () => {
    const closed = createServer();
    const url = await new Promise<string>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(closed.address() as AddressInfo).port}`)),
    );
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answer = await AdminClient.ofUrl(url, { timeoutMs: 2_000 }).clock();
    expect(answer).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(!answer.ok && answer.message).toMatch(/^GET \/_afp\/clock got no answer: .*ECONNREFUSED/);
  });
});
