// Trust at the edge, against the real `afp serve` process: without --trust-proxy a fresh
// X-Forwarded-For per request does not get around the per-IP registration limit (at most 10 of 40
// answered other than 429); with --trust-proxy 127.0.0.1/32 each forwarded address counts on its
// own. GET /_afp/mounts tells the caller which. A bad range is exit 2 with every error; --host
// beyond loopback draws and prints a seed (the server is reached on 127.0.0.1 and closed at once).
import { afterEach, describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve-flags.ts';
import { discoverTarget } from '../../src/live/afp-mounts.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES, NO_PROXIES, type TrustedProxies } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle, type ServeLayout } from '../../src/server/listeners.ts';
import { runCliChild } from '../fixtures/cli-child.ts';
import { startServeChild, type ServeChild } from '../fixtures/serve-child.ts';

const REGISTRATIONS = 40;
const PER_IP_REGISTRATIONS_MAX = 10;

const children: ServeChild[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop();
});

async function serve(args: readonly string[], trustLoopback: boolean): Promise<ServeChild> {
  const child = await startServeChild(['--port', '0', '--clock', 'manual', ...args], {
    trustLoopback,
    readyTimeoutMs: 30_000,
    lifetimeMs: 60_000,
  });
  children.push(child);
  return child;
}

/** An in-process stand-in on port 0 (the documents' dialect unless `layout`). */
function serveInProcess(trustedProxies: TrustedProxies, layout?: ServeLayout): Promise<ServeHandle> {
  return startServe({
    routes: layout === undefined ? ALL_ROUTES : DEPLOYED_ROUTES,
    ...(layout === undefined ? {} : { layout }),
    seed: '3',
    port: 0,
    clockMode: 'manual',
    trustedProxies,
    log: () => undefined,
  });
}

/** 40 registrations, each from a fresh forwarded address; the statuses answered. */
async function registerFromFreshAddresses(api: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < REGISTRATIONS; index++) {
    const response = await fetch(`${api}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${index + 1}` },
      body: JSON.stringify({ agent_id: `edge-${index}` }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    statuses.push(response.status);
  }
  return statuses;
}

async function forwardedFor(api: string): Promise<unknown> {
  const response = await fetch(`${api}/_afp/mounts`, { signal: AbortSignal.timeout(10_000) });
  return ((await response.json()) as { forwarded_for?: unknown }).forwarded_for;
}

describe('afp serve --trust-proxy', () => {
  test('without it, fresh X-Forwarded-For values share the socket address: at most 10 of 40 get through', async () => {
    const child = await serve([], false);
    const api = child.urls['api'] ?? '';
    const statuses = await registerFromFreshAddresses(api);
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(PER_IP_REGISTRATIONS_MAX);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(REGISTRATIONS - 10);
    expect(await forwardedFor(api)).toBe('ignored');
    expect(child.stderr()).toContain('X-Forwarded-For ignored');
  });

  test('with --trust-proxy 127.0.0.1/32 each forwarded address is counted on its own', async () => {
    const child = await serve(['--trust-proxy', '127.0.0.1/32'], false);
    const api = child.urls['api'] ?? '';
    const statuses = await registerFromFreshAddresses(api);
    expect(statuses.filter((status) => status === 201).length).toBe(REGISTRATIONS);
    expect(await forwardedFor(api)).toBe('trusted');
  });

  test('a bad range is exit 2, every error listed', async () => {
    const run = await runCliChild(['serve', '--port', '0', '--trust-proxy', '10.0.0.0/40,proxy.local'], {
      timeoutMs: 20_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("afp serve: --trust-proxy: '10.0.0.0/40' has a prefix length outside 0..32");
    expect(run.stderr).toContain("afp serve: --trust-proxy: 'proxy.local' is not a CIDR range");
    expect(run.stdout).toBe('');
  });
});

describe('the deployed dialect', () => {
  test('its per-IP windows read the client the edge decided, not a header the caller wrote', async () => {
    for (const [trustedProxies, accepted] of [
      [NO_PROXIES, 10],
      [LOOPBACK_PROXIES, 20],
    ] as const) {
      const handle = await serveInProcess(trustedProxies, DEPLOYED_LAYOUT);
      try {
        const statuses: number[] = [];
        for (let index = 0; index < 20; index++) {
          const response = await fetch(`${handle.urls.casino ?? ''}/api/v1/auth/register`, {
            method: 'POST',
            headers: { 'x-forwarded-for': `198.51.100.${index + 1}`, 'x-real-ip': `203.0.113.${index + 1}` },
            signal: AbortSignal.timeout(10_000),
          });
          await response.body?.cancel();
          statuses.push(response.status);
        }
        expect(statuses.filter((status) => status === 201).length).toBe(accepted);
      } finally {
        await handle.close();
      }
    }
  });
});

describe('the tools that send simulated addresses', () => {
  test('warn once when the serve ignores their X-Forwarded-For, and stay quiet when it reads it', async () => {
    for (const [trustedProxies, warned] of [
      [NO_PROXIES, true],
      [LOOPBACK_PROXIES, false],
    ] as const) {
      const handle = await serveInProcess(trustedProxies);
      try {
        const api = handle.urls.api ?? '';
        const resolved = await resolveTarget(api);
        if (!resolved.ok) throw new Error(resolved.message);
        const discovered: string[] = [];
        await discoverTarget(api, { onNote: (note) => discovered.push(note) });
        const expected = warned ? [expect.stringContaining('ignores X-Forwarded-For from this address')] : [];
        expect(resolved.notes ?? []).toEqual(expected);
        expect(discovered).toEqual(expected);
      } finally {
        await handle.close();
      }
    }
  });
});

describe('afp serve --host', () => {
  test('beyond loopback without --seed, a drawn seed is printed first; it is reached on 127.0.0.1', async () => {
    let healthStatus = 0;
    const run = await runCliChild(['serve', '--host', '0.0.0.0', '--port', '0', '--clock', 'manual'], {
      timeoutMs: 30_000,
      onReady: async (stdout, stop) => {
        try {
          const api = /^api: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1] ?? 'http://invalid';
          const health = await fetch(`${api}/health`, { signal: AbortSignal.timeout(10_000) });
          healthStatus = health.status;
          await health.body?.cancel();
        } finally {
          stop();
        }
      },
    });
    expect(run.code).toBe(0);
    expect(healthStatus).toBe(200);
    const seed = /^seed: (\d+)\n/.exec(run.stdout)?.[1];
    expect(seed).toMatch(/^(?:0|[1-9]\d{0,15})$/);
    expect(seed).not.toBe('1');
    expect(run.stderr).toContain(`listening on 0.0.0.0, beyond loopback: seed ${seed ?? ''} drawn at random`);
  });

  test('the seed is drawn only beyond loopback without --seed; a bad host is exit 2', () => {
    const draw = (): string => '424242';
    expect(parseServeArgs(['--host', '0.0.0.0'], 0, draw)).toMatchObject({ host: '0.0.0.0', drawnSeed: '424242' });
    expect(parseServeArgs(['--host', '::'], 0, draw)).toMatchObject({ seed: undefined, drawnSeed: '424242' });
    expect(parseServeArgs(['--host', '0.0.0.0', '--seed', '5'], 0, draw)).not.toHaveProperty('drawnSeed');
    expect(parseServeArgs(['--host', '127.0.0.2'], 0, draw)).toMatchObject({ seed: '1' });
    expect(parseServeArgs(['--host', '::1'], 0, draw)).not.toHaveProperty('drawnSeed');
    expect(parseServeArgs([], 0, draw)).toMatchObject({ seed: '1' });
    expect(parseServeArgs(['--host', 'example.com'], 0, draw)).toEqual({
      errors: ["--host must be an IP address such as 127.0.0.1, 0.0.0.0 or ::, got 'example.com'"],
    });
  });
});
