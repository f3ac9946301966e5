// Slowly sent request bodies on real listeners on 127.0.0.1 (src/http/body.ts BodyTimeouts,
// src/server/load-shedder.ts maxReceiving): a body dripped byte by byte is answered 408 in the
// spec's error shape within its bound and its connection closed, a body that stops is answered
// after the idle bound, neither is ever run, their in-flight slots are freed, and while they are
// held a request sent whole is admitted (slow bodies may take only `maxReceiving` of the slots).
// Fast: the bounds are a serve option (a few hundred ms), not the 10 s default; waits end at
// events, with a generous bound only against a hang.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle, type ServeLayout } from '../../src/server/listeners.ts';
import { LoadShedder } from '../../src/server/load-shedder.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const TIMEOUTS = { totalMs: 600, idleMs: 300 } as const;
/** Bound on waiting for an event that should come within TIMEOUTS (a loaded machine runs timers late). */
const WAIT_BOUND_MS = 20_000;
const handles: ServeHandle[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 100 });
});

async function serve(layout?: ServeLayout): Promise<ServeHandle> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: layout === undefined ? ALL_ROUTES : DEPLOYED_ROUTES,
    ...(layout === undefined ? {} : { layout }),
    seed: '3',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    shed: { maxInFlight: 4, maxReceiving: 2, maxEventLoopDelayMs: 0 },
    bodyTimeouts: TIMEOUTS,
    log: () => undefined,
  });
  handles.push(handle);
  return handle;
}

interface Slow {
  readonly socket: Socket;
  /** Resolves with everything the server sent, once it closed the connection. */
  readonly answer: Promise<{ text: string; closedAtMs: number }>;
  readonly startedMs: number;
}

/** A registration of `agentId` whose 1,000-byte body starts `{` and then, if `dripEveryMs`, gets one space per period. */
function slowBody(apiUrl: string, agentId: string, dripEveryMs: number | null, path = '/register'): Promise<Slow> {
  const { port } = new URL(apiUrl);
  return new Promise((resolve, reject) => {
    let text = '';
    let drip: ReturnType<typeof setInterval> | undefined;
    const startedMs = performance.now();
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"agent_id":"${agentId}"`,
      );
      if (dripEveryMs !== null)
        drip = setInterval(() => {
          if (!socket.destroyed) socket.write(' ');
        }, dripEveryMs);
      resolve({ socket, answer, startedMs });
    });
    const answer = new Promise<{ text: string; closedAtMs: number }>((resolveAnswer) => {
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.once('close', () => {
        clearInterval(drip);
        resolveAnswer({ text, closedAtMs: performance.now() });
      });
    });
    socket.on('error', (error) => {
      if (text === '') reject(error);
    });
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

function register(apiUrl: string, agentId: string): Promise<Response> {
  return fetch(`${apiUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: agentId }),
  });
}

describe('LoadShedder receiving bound', () => {
  test('bodies still arriving take at most maxReceiving slots; whole requests take the rest', () => {
    const shedder = new LoadShedder({ maxInFlight: 4, maxReceiving: 2, maxEventLoopDelayMs: 0 });
    expect(shedder.enter(true)).toEqual({ admitted: true });
    expect(shedder.enter(true)).toEqual({ admitted: true });
    expect(shedder.enter(true)).toMatchObject({ admitted: false, reason: 'receiving', retryAfterSeconds: 1 });
    expect(shedder.enter(false)).toEqual({ admitted: true });
    shedder.received(); // one body ended: it is a whole request now, its slot still held
    expect(shedder.enter(true)).toEqual({ admitted: true });
    expect(shedder.enter(false)).toMatchObject({ admitted: false, reason: 'in-flight' });
    expect({ inFlight: shedder.inFlight, receiving: shedder.receiving }).toEqual({ inFlight: 4, receiving: 2 });
    expect(new LoadShedder({ maxInFlight: 1_024, maxEventLoopDelayMs: 0 }).maxReceiving).toBe(512);
  });
});

describe('afp serve with slowly sent bodies', () => {
  test('a dripped body gets 408 within its bound and a stopped one within the idle bound; slots freed, nothing run; a whole request is admitted meanwhile', async () => {
    const handle = await serve();
    const api = handle.urls.api as string;
    const dripped = await slowBody(api, 'dripped', 100);
    const stopped = await slowBody(api, 'stopped', null);
    await waitFor(() => handle.shedder.receiving === 2, WAIT_BOUND_MS);
    // Every receiving slot is taken: one more slow body is shed at once and its connection closed
    // (its rest is not awaited at the sender's pace); a whole request is admitted.
    const third = await slowBody(api, 'third', null);
    const thirdAnswer = (await third.answer).text;
    expect(thirdAnswer.toLowerCase()).toContain('connection: close');
    expect(thirdAnswer).toMatch(/^HTTP\/1\.1 503 [^]*still sending their bodies \(limit 2\)/);
    const whole = await register(api, 'whole');
    expect(whole.status).toBe(201);

    const stoppedAnswer = await stopped.answer;
    const drippedAnswer = await dripped.answer;
    for (const [slow, answer, message] of [
      [stopped, stoppedAnswer, 'stalled for more than 300 ms'],
      [dripped, drippedAnswer, 'not received within 600 ms'],
    ] as const) {
      const [head = '', body = ''] = answer.text.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toMatchObject({
        error: expect.stringContaining(message) as unknown,
        code: 'BAD_REQUEST',
        _info: { service: 'faucet' },
      });
      // The bound, plus a generous margin for a loaded machine; the answer is printed.
      const tookMs = answer.closedAtMs - slow.startedMs;
      console.log(`slow body answered 408 (${message}) and closed after ${Math.round(tookMs)} ms`);
      expect(tookMs).toBeLessThan(TIMEOUTS.totalMs + 5_000);
    }
    // The idle bound ends a stopped body before the total bound does.
    expect(stoppedAnswer.closedAtMs - stopped.startedMs).toBeLessThan(drippedAnswer.closedAtMs - dripped.startedMs);

    await waitFor(() => handle.shedder.inFlight === 0, WAIT_BOUND_MS);
    expect(handle.shedder.receiving).toBe(0);
    for (const id of ['dripped', 'stopped', 'third']) expect(handle.platform.agents.has(id)).toBe(false);
    expect(handle.platform.agents.has('whole')).toBe(true);
    expect(handle.platform.agents.size).toBe(1);
    const state = (await (await fetch(`${api}/_afp/state`)).json()) as { load: Record<string, number> };
    expect(state.load).toMatchObject({
      max_in_flight: 4,
      max_receiving: 2,
      in_flight: 0,
      receiving: 0,
      shed_receiving: 1,
      body_timeouts: 2,
    });
    expect((await register(api, 'after')).status).toBe(201);
  });
});

describe('afp serve --dialect deployed with a slowly sent body', () => {
  test("the 408 is in the deployment's error shape ({ error: snake_case, message }, no code)", async () => {
    const handle = await serve(DEPLOYED_LAYOUT);
    const casino = handle.urls.casino as string;
    const stopped = await slowBody(casino, 'stopped', null, '/api/v1/auth/register');
    const [head = '', body = ''] = (await stopped.answer).text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    const answer = JSON.parse(body) as Record<string, unknown>;
    expect(answer).toMatchObject({ error: 'request_timeout', message: expect.stringContaining('stalled') as unknown });
    expect(answer['code']).toBeUndefined();
  });
});
