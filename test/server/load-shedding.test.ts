// Load shedding of `afp serve` on real listeners on 127.0.0.1 (src/server/load-shedder.ts):
// the in-flight bound exactly (slow bodies hold the slots, the next request is shed with 503 +
// Retry-After, its body never read, nothing charged), /health and /_afp/* answered under it, and a
// flood of registrations where some are shed, /health answers within a bound, every acknowledged
// registration exists afterwards and no shed one does. Bounded: fixed counts, per-request timeouts.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LoadShedder } from '../../src/server/load-shedder.ts';
import { acknowledgedPresent, flood } from '../fixtures/overload.ts';
import { startServeChild } from '../fixtures/serve-child.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
/** A generous bound on waiting for the server to count held requests: the wait ends at the event, the bound only on a hang. */
const WAIT_BOUND_MS = 60_000;
const handles: ServeHandle[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 100 });
});

async function serve(shed: {
  maxInFlight: number;
  maxReceiving: number;
  maxEventLoopDelayMs: number;
}): Promise<ServeHandle> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '3',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    shed,
    log: () => undefined,
  });
  handles.push(handle);
  return handle;
}

/** A POST whose body never completes: it holds one in-flight slot until the socket goes. */
function slowBody(apiUrl: string): Promise<Socket> {
  const { port } = new URL(apiUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        'POST /register HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"agent_id":',
      );
      resolve(socket);
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const untilMs = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > untilMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('LoadShedder', () => {
  test('admits up to the in-flight bound, sheds beyond it, and lateness past its bound sheds too', () => {
    let nowMs = 0;
    const shedder = new LoadShedder({
      maxInFlight: 2,
      maxEventLoopDelayMs: 100,
      probeIntervalMs: 10,
      monotonicMs: () => nowMs,
    });
    shedder.start();
    try {
      expect(shedder.enter()).toEqual({ admitted: true });
      expect(shedder.enter()).toEqual({ admitted: true });
      expect(shedder.enter()).toMatchObject({ admitted: false, reason: 'in-flight', retryAfterSeconds: 1 });
      shedder.leave();
      nowMs = 10 + 100; // the probe was due at 10: exactly 100 ms late is still admitted
      expect(shedder.enter()).toEqual({ admitted: true });
      shedder.leave();
      nowMs = 10 + 1_501;
      expect(shedder.enter()).toMatchObject({ admitted: false, reason: 'event-loop-delay', retryAfterSeconds: 2 });
      shedder.probe(); // the loop caught up: one long task that is over sheds nothing more
      expect(shedder.enter()).toEqual({ admitted: true });
      expect({
        admitted: shedder.admittedCount,
        inFlight: shedder.shedInFlightCount,
        delay: shedder.shedDelayCount,
      }).toEqual({ admitted: 4, inFlight: 1, delay: 1 });
    } finally {
      shedder.stop();
    }
  });
});

describe('afp serve under overload', () => {
  test('past the in-flight bound: 503 SERVICE_UNAVAILABLE + Retry-After, nothing charged; /health and /_afp/* still answer', async () => {
    // maxReceiving 0: slow bodies may take every slot (the default keeps half for whole requests, slow-body.test.ts).
    const handle = await serve({ maxInFlight: 4, maxReceiving: 0, maxEventLoopDelayMs: 0 });
    const api = handle.urls.api as string;
    for (let i = 0; i < 4; i += 1) await slowBody(api);
    await waitFor(() => handle.shedder.inFlight === 4, WAIT_BOUND_MS);
    const refused = await fetch(`${api}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"shed-me"}',
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-limit')).toBeNull(); // the limiter was not consulted
    expect(await refused.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      error: expect.stringMatching(/4 requests in flight \(limit 4\)/) as unknown,
      _info: { service: 'faucet' },
    });
    expect(handle.platform.agents.size).toBe(0);
    expect(handle.platform.limiter.bucketCount).toBe(0);
    const health = await fetch(`${api}/health`);
    expect(health.status).toBe(200);
    const state = (await (await fetch(`${api}/_afp/state`)).json()) as { load: Record<string, number> };
    expect(state.load).toMatchObject({ max_in_flight: 4, in_flight: 4, admitted: 4, shed_in_flight: 1 });
    // The slots free as the held requests end; then requests are admitted again.
    for (const socket of sockets.splice(0)) socket.destroy();
    await waitFor(() => handle.shedder.inFlight === 0, WAIT_BOUND_MS);
    const admitted = await fetch(`${api}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"after-overload"}',
    });
    expect(admitted.status).toBe(201);
  });

  test("--dialect deployed sheds in the deployment's error shape", async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '3',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      shed: { maxInFlight: 1, maxEventLoopDelayMs: 0 },
      log: () => undefined,
    });
    handles.push(handle);
    const casino = handle.urls.casino as string;
    await slowBody(casino);
    await waitFor(() => handle.shedder.inFlight === 1, WAIT_BOUND_MS);
    const refused = await fetch(`${casino}/api/v1/games`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      error: 'service_unavailable',
      message: expect.stringMatching(/in flight/) as unknown,
    });
    expect((await fetch(`${casino}/health`)).status).toBe(200);
  });

  test('a flood against a real afp serve process: some shed with 503 + Retry-After, /health within 5 s, every acknowledged one kept', async () => {
    const child = await startServeChild([
      '--port',
      '0',
      '--clock',
      'manual',
      '--start',
      '2025-03-01T00:00:00Z',
      '--max-in-flight',
      '8',
      '--max-receiving',
      '0',
      '--max-event-loop-delay-ms',
      '20',
    ]);
    try {
      const result = await flood({
        apiUrl: child.urls['api'] as string,
        count: 1_000,
        concurrency: 128,
        prefix: 'flood',
        timeoutMs: 20_000,
        holdSlots: 8,
      });
      const kept = await acknowledgedPresent(child.urls, result.keys, 16);
      console.log(
        `overload (afp serve --max-in-flight 8 --max-event-loop-delay-ms 20): ${JSON.stringify(result.statuses)} in ${Math.round(result.wallMs)} ms; /health ${result.healthAnswers} answers, ${result.healthFailures} failures, slowest ${Math.round(result.healthMaxMs)} ms; acknowledged ${result.acknowledged.length}, present ${kept.present}, server agents ${kept.agents}`,
      );
      expect(Object.keys(result.statuses).sort()).toEqual(['201', '503']);
      expect(result.shed.length).toBeGreaterThan(0);
      expect(result.acknowledged.length).toBeGreaterThan(0);
      expect(result.shedWellFormed).toBe(true);
      expect(result.healthFailures).toBe(0);
      expect(result.healthAnswers).toBeGreaterThan(0);
      // 5 s: this client shares the machine's cores with the server (and CI neighbours); the figure is printed.
      expect(result.healthMaxMs).toBeLessThan(5_000);
      // No acknowledged request lost, no shed one applied: the server knows exactly the acknowledged agents.
      expect(kept.missing).toEqual([]);
      expect(kept.agents).toBe(result.acknowledged.length);
    } finally {
      await child.stop();
    }
  });
});
