// The admin doors (`/_afp/*`) behind a reverse proxy on the same host: the proxy's socket is a
// loopback peer, so the peer alone would let through whoever it forwards. A request whose own
// forwarding headers (X-Forwarded-For, X-Real-IP, Forwarded) name a client beyond loopback is
// refused 403 in the spec's error shape, naming that client, and changes nothing (the clock did
// not move); one that names only loopback clients, or none, is served. With and without
// --trust-proxy, in the documents' dialect and the deployed one (whose doors are on the casino's
// address). The platform's own rows are not affected. Real listeners on loopback, port 0.
import { afterEach, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES, NO_PROXIES, type TrustedProxies } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle, type ServeLayout } from '../../src/server/listeners.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

async function serve(trustedProxies: TrustedProxies, layout?: ServeLayout): Promise<ServeHandle> {
  const handle = await startServe({
    routes: layout === undefined ? ALL_ROUTES : DEPLOYED_ROUTES,
    ...(layout === undefined ? {} : { layout }),
    seed: '5',
    port: 0,
    clockMode: 'manual',
    trustedProxies,
    log: () => undefined,
  });
  handles.push(handle);
  return handle;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function call(url: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Forwarding headers that name a client beyond loopback, and the client each refusal names. */
const FORWARDED_FROM_AFAR: readonly (readonly [Record<string, string>, string])[] = [
  [{ 'x-forwarded-for': '203.0.113.7' }, '203.0.113.7'],
  [{ 'x-forwarded-for': '127.0.0.1, 198.51.100.20' }, '198.51.100.20'],
  [{ 'x-forwarded-for': '::ffff:192.0.2.1' }, '::ffff:192.0.2.1'],
  [{ 'x-real-ip': '198.51.100.4' }, '198.51.100.4'],
  [{ forwarded: 'for="[2001:db8::1]:4711";proto=https' }, '2001:db8::1'],
  [{ forwarded: 'for=127.0.0.1, for=192.0.2.60;by=127.0.0.1' }, '192.0.2.60'],
  [{ forwarded: 'for=unknown' }, 'unknown'],
  [{ 'x-forwarded-for': 'not-an-address' }, 'not-an-address'],
];

/** Forwarding headers that name only loopback clients: a local tool, or a local proxy forwarding a local client. */
const FORWARDED_FROM_HERE: readonly Record<string, string>[] = [
  {},
  { 'x-forwarded-for': '127.0.0.1' },
  { 'x-forwarded-for': '::1, 127.0.0.2' },
  { 'x-real-ip': '127.0.0.1' },
  { forwarded: 'for="[::1]:5000";proto=http' },
  { forwarded: 'by=203.0.113.1;proto=https' },
];

describe('the admin doors behind a proxy on the same host', () => {
  for (const [name, trusted] of [
    ['without --trust-proxy', NO_PROXIES],
    ['with --trust-proxy 127.0.0.1/32', LOOPBACK_PROXIES],
  ] as const) {
    test(`${name}: a request forwarded for a client beyond loopback is refused and moves nothing`, async () => {
      const handle = await serve(trusted);
      const api = handle.urls.api ?? '';
      const before = await call(`${api}/_afp/clock`, {});
      expect(before.status).toBe(200);
      for (const [headers, client] of FORWARDED_FROM_AFAR) {
        const moved = await call(`${api}/_afp/clock`, headers, { advance_ms: 86_400_000 });
        expect(moved.status, JSON.stringify(headers)).toBe(403);
        expect(moved.body['code']).toBe('FORBIDDEN');
        expect(moved.body['error']).toBe(
          `afp admin endpoints answer loopback clients only: this request was forwarded for ${client} (by a proxy in front of afp serve, or a tool that sends forwarding headers: send admin calls without them, or start afp serve with --admin-token)`,
        );
        expect((await call(`${api}/_afp/state`, headers)).status).toBe(403);
      }
      const after = await call(`${api}/_afp/clock`, {});
      expect(after.body['now_ms']).toBe(before.body['now_ms']);
      for (const headers of FORWARDED_FROM_HERE) {
        expect((await call(`${api}/_afp/clock`, headers)).status, JSON.stringify(headers)).toBe(200);
      }
      // The platform's rows and /health answer forwarded requests as before.
      expect((await call(`${api}/health`, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
      const registered = await call(
        `${api}/register`,
        { 'x-forwarded-for': '203.0.113.7' },
        { agent_id: 'behind-proxy' },
      );
      expect(registered.status).toBe(201);
    });
  }

  test("the deployed dialect's doors, on the casino's address, refuse the same way", async () => {
    const handle = await serve(NO_PROXIES, DEPLOYED_LAYOUT);
    const casino = handle.urls.casino ?? '';
    const refused = await call(`${casino}/_afp/clock`, { 'x-real-ip': '198.51.100.4' }, { advance_ms: 1_000 });
    expect(refused.status).toBe(403);
    expect(refused.body['code']).toBe('FORBIDDEN');
    expect((await call(`${casino}/_afp/clock`, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
  });

  test('a flood of forwarded entries is not walked: more than 32 is refused whole', async () => {
    const handle = await serve(NO_PROXIES);
    const api = handle.urls.api ?? '';
    const flood = Array.from({ length: 40 }, () => '127.0.0.1').join(', ');
    const refused = await call(`${api}/_afp/clock`, { 'x-forwarded-for': flood });
    expect(refused.status).toBe(403);
    expect(refused.body['error']).toContain('forwarded for more than 32 clients (by a proxy');
  });
});
