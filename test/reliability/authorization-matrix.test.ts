// Reliability: the authorization matrix over real HTTP. Every keyed route row (auth 'bearer') ×
// {no key, an invalid key, another agent's key, the right key}. Demanded: no key and an invalid key
// answer exactly 401 UNAUTHORIZED; the right key is never 401; another agent's key never reads or
// moves the owner's resource — on a row naming a resource of the owner (:id, an escrow of A's) it
// answers 403 or 404, never a 2xx. No 5xx anywhere. Agents: A owns the escrow, B is its receiver,
// C is a stranger; all Enterprise so no tier bucket answers first.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { jsonOf, send, StatusCounts, type RawAnswer } from './reliability-kit.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2026-01-01T01:00:00Z');
let handle: ServeHandle;
const keys: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
let escrowId = '';

beforeAll(async () => {
  handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '18',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    shed: { maxInFlight: 0, maxEventLoopDelayMs: 0 },
    log: () => undefined,
  });
  const api = handle.urls.api as string;
  for (const name of ['a', 'b', 'c'] as const) {
    const agentId = `matrix-${name}`;
    const answer = jsonOf(
      await send(api, {
        method: 'POST',
        path: '/register',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.3.0.${name.charCodeAt(0)}` },
        body: JSON.stringify({ agent_id: agentId }),
      }),
    );
    keys[name] = String(answer?.['api_key']);
    await send(api, {
      method: 'POST',
      path: '/_afp/tier',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: agentId, tier: 'enterprise' }),
    });
  }
  const escrow = jsonOf(
    await send(api, {
      method: 'POST',
      path: '/escrow',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.a}` },
      body: JSON.stringify({ receiver: 'matrix-b', amount: '1.00' }),
    }),
  );
  escrowId = String(escrow?.['escrow_id']);
});

afterAll(async () => {
  await handle.close({ forceAfterMs: 100 });
});

/** The owner's resource id for a path parameter: A's agent id, A's escrow, or a placeholder. */
function paramValue(route: Route, name: string): string {
  if (route.service === 'faucet' && name === 'id') return 'matrix-a';
  if (route.service === 'escrow' && name === 'id') return escrowId;
  return name === 'seed' ? '0'.repeat(64) : 'no_such_resource';
}

/** Bodies that pass validation on the rows acting on A's escrow, so the permission check is what answers. */
const BODIES: Readonly<Record<string, Record<string, string>>> = {
  '/api/v1/escrow/release': {
    get escrow_id() {
      return escrowId;
    },
  },
  '/api/v1/escrow/dispute': {
    get escrow_id() {
      return escrowId;
    },
    reason: 'matrix',
  },
  '/escrow/:id/dispute': { reason: 'matrix' },
};

async function call(route: Route, key: string | undefined): Promise<RawAnswer> {
  const path = route.path.replaceAll(/:(\w+)/g, (_match, name: string) => paramValue(route, name));
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': '10.3.1.1' };
  if (key !== undefined) headers['authorization'] = key;
  const body = route.method === 'GET' ? undefined : JSON.stringify(BODIES[route.path] ?? {});
  return send(handle.urls[route.mount] ?? (handle.urls.api as string), {
    method: route.method,
    path,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

describe('reliability: authorization matrix', () => {
  test("every keyed route × no key / invalid key / another agent's key / right key", async () => {
    const keyed = ALL_ROUTES.filter((route) => route.auth === 'bearer');
    const counts = {
      none: new StatusCounts(),
      invalid: new StatusCounts(),
      other: new StatusCounts(),
      right: new StatusCounts(),
    };
    const wrong: string[] = [];
    for (const route of keyed) {
      const none = await call(route, undefined);
      const invalid = await call(route, 'Bearer sk_live_ffffffffffffffffffffffffffffffffffffffffffffffff');
      // Right key before the other's: a release by its sender would settle the escrow first.
      const other = await call(route, `Bearer ${keys.c}`);
      const right = await call(route, `Bearer ${keys.a}`);
      counts.none.add(none.status);
      counts.invalid.add(invalid.status);
      counts.other.add(other.status);
      counts.right.add(right.status);
      const id = `${route.id} (${route.method} ${route.path})`;
      if (none.status !== 401 || jsonOf(none)?.['code'] !== 'UNAUTHORIZED')
        wrong.push(`${id}: no key → ${none.status}`);
      if (invalid.status !== 401 || jsonOf(invalid)?.['code'] !== 'UNAUTHORIZED')
        wrong.push(`${id}: invalid key → ${invalid.status}`);
      if (right.status === 401 || right.status >= 500)
        wrong.push(`${id}: right key → ${right.status} ${right.text.slice(0, 100)}`);
      if (other.status >= 500) wrong.push(`${id}: another agent's key → ${other.status}`);
      const ownsResource = route.path.includes(':id') && (route.service === 'faucet' || route.service === 'escrow');
      if (ownsResource && other.status !== 403 && other.status !== 404)
        wrong.push(`${id}: another agent's key → ${other.status} ${other.text.slice(0, 100)}`);
    }
    console.log(
      `authorization matrix: ${keyed.length} keyed routes × 4 callers = ${keyed.length * 4} requests; no key ${counts.none.text()}; invalid key ${counts.invalid.text()}; another agent's key ${counts.other.text()}; right key ${counts.right.text()}; wrong answers ${wrong.length}`,
    );
    for (const line of wrong.slice(0, 20)) console.log(`  ${line}`);
    expect(wrong).toEqual([]);
  });
});
