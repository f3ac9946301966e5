// Issue 17 (1): a flood of distinct X-Forwarded-For values must not fill the rate limiter. With a
// small bound (the real one is 1,000,000), callers past the bound are still answered as usual —
// never 500 — and the limiter holds at most the bound, the oldest entries evicted first.
import { afterEach, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const BOUND = 40;
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

test('distinct forwarded addresses past the bound are answered 200, and the limiter stays bounded', async () => {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
    limiterEntriesMax: BOUND,
  });
  handles.push(handle);
  const api = handle.urls.api as string;
  const statuses: number[] = [];
  const remaining: (string | null)[] = [];
  for (let caller = 0; caller < 3 * BOUND; caller++) {
    const response = await fetch(`${api}/agents`, {
      headers: { 'x-forwarded-for': `10.0.${caller >> 8}.${caller & 255}` },
    });
    statuses.push(response.status);
    remaining.push(response.headers.get('x-ratelimit-remaining'));
    const body = (await response.json()) as Record<string, unknown>;
    expect(body['code'], JSON.stringify(body)).toBeUndefined();
    expect(handle.platform.limiter.bucketCount).toBeLessThanOrEqual(BOUND);
  }
  expect(new Set(statuses)).toEqual(new Set([200]));
  // The first caller was evicted long ago: it starts again as a fresh caller does.
  const again = await fetch(`${api}/agents`, { headers: { 'x-forwarded-for': '10.0.0.0' } });
  expect(again.status).toBe(200);
  expect(again.headers.get('x-ratelimit-remaining')).toBe(remaining[0]);
});
