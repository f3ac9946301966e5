// The listener set of `afp serve`: which mounts listen, the fixed port layout, `/mcp` on the
// style-A faucet and escrow listeners only, and a refused port (in use) as a clear rejection
// that leaves nothing listening.
import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { servedMounts, startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

const serve = async (port: number, routes: readonly Route[] = ALL_ROUTES): Promise<ServeHandle> => {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes,
    seed: '1',
    port,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  return handle;
};

/** The ports a fixed --port P takes: P (api) to P+6 (casino). */
const PORT_SPAN = 7;

/**
 * A base port P with P..P+6 free at the time of asking, below Linux's ephemeral range (32768 up):
 * a port free now must not be handed to another test's outgoing or port-0 socket before the serve
 * binds it (seen in a full run: EADDRINUSE on 47478, when the base was drawn from 20000-60000 and
 * only P..P+2 were probed). test/docs/shell-blocks.test.ts draws its bases the same way.
 */
async function freeBasePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 10_000 + Math.floor(Math.random() * 22_000);
    const probes = await Promise.all(Array.from({ length: PORT_SPAN }, (_, offset) => canListen(base + offset)));
    if (probes.every(Boolean)) return base;
  }
  throw new Error(`no ${PORT_SPAN} free consecutive loopback ports found`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('listener set', () => {
  test('api always, style-A mounts only when they have routes', () => {
    expect(servedMounts(ALL_ROUTES)).toEqual(['api', 'faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino']);
    expect(servedMounts([])).toEqual(['api']);
  });

  test('a fixed port P gives api P, faucet P+1, escrow P+2, trading P+3, domains P+4, wallet P+5, casino P+6', async () => {
    // Another test may still take a probed port before the serve binds it: a refused base is drawn again.
    let base = await freeBasePort();
    let handle = await serve(base).catch(() => null);
    for (let attempt = 0; handle === null && attempt < 3; attempt++) {
      base = await freeBasePort();
      handle = await serve(base).catch(() => null);
    }
    if (handle === null) throw new Error('no free port range could be bound');
    expect(handle.urls).toEqual({
      api: `http://127.0.0.1:${base}`,
      faucet: `http://127.0.0.1:${base + 1}`,
      escrow: `http://127.0.0.1:${base + 2}`,
      trading: `http://127.0.0.1:${base + 3}`,
      domains: `http://127.0.0.1:${base + 4}`,
      wallet: `http://127.0.0.1:${base + 5}`,
      casino: `http://127.0.0.1:${base + 6}`,
    });
  });

  test('/mcp answers on the faucet and escrow listeners, not on api', async () => {
    const handle = await serve(0);
    const register = await fetch(`${handle.urls.api as string}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"m"}',
    });
    const key = ((await register.json()) as { api_key: string }).api_key;
    for (const mount of ['faucet', 'escrow'] as const) {
      const response = await fetch(`${handle.urls[mount] as string}/mcp`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status, mount).toBe(200);
      expect(((await response.json()) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    }
    expect((await fetch(`${handle.urls.api as string}/mcp`)).status).toBe(404);
  });

  test('a port in use rejects naming it, and leaves nothing listening', async () => {
    const base = await freeBasePort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(base + 2, '127.0.0.1', resolve));
    try {
      await expect(serve(base)).rejects.toThrow(`cannot listen on 127.0.0.1:${base + 2}`);
      expect(await canListen(base)).toBe(true);
      expect(await canListen(base + 1)).toBe(true);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
