// afp serve measures its own event loop (src/server/loop-delay.ts): GET /_afp/state shows
// `event_loop` (resolution, longest delay, p99, mean, the longest counting only CPU time, samples,
// the window's length) and
// POST /_afp/event-loop/reset answers the window so far and starts a new one. The test blocks the
// loop it shares with the server for a known time, so the figure has a floor that holds on any
// machine (a busy one only adds to it); no upper bound on a delay is asserted.
import { afterEach, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOP_DELAY_RESOLUTION_MS } from '../../src/server/loop-delay.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { START_MS } from '../client/fixtures.ts';

const BLOCK_MS = 150;

interface EventLoopView {
  resolution_ms: number;
  max_ms: number | null;
  p99_ms: number | null;
  mean_ms: number | null;
  cpu_max_ms: number | null;
  samples: number;
  window_ms: number;
}

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

async function serve(): Promise<string> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  return handle.urls.api as string;
}

async function stateLoop(api: string): Promise<EventLoopView> {
  const response = await fetch(`${api}/_afp/state`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { event_loop: EventLoopView }).event_loop;
}

async function reset(api: string): Promise<{ status: number; body: { event_loop?: EventLoopView; code?: string } }> {
  const response = await fetch(`${api}/_afp/event-loop/reset`, { method: 'POST' });
  return { status: response.status, body: (await response.json()) as { event_loop?: EventLoopView } };
}

/** Lets the histogram's timer turn a few times (its first turn only starts an interval). */
function turns(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 4 * LOOP_DELAY_RESOLUTION_MS));
}

/** This thread's CPU time (ms). */
function threadCpuMs(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Holds this process's event loop (the server's too) until it has run `ms` of CPU (so also at least
 * `ms` of wall time, however busy the machine), with the timers turning before and after.
 */
async function blockLoop(ms: number): Promise<void> {
  await turns();
  const startedMs = threadCpuMs();
  while (threadCpuMs() - startedMs < ms);
  await turns();
}

describe('the event loop delay afp serve measures on itself', () => {
  test('GET /_afp/state shows it, and a block of the loop is in its longest delay', async () => {
    const api = await serve();
    const before = await stateLoop(api);
    expect(before.resolution_ms).toBe(LOOP_DELAY_RESOLUTION_MS);
    expect(before.window_ms).toBeGreaterThanOrEqual(0);
    await blockLoop(BLOCK_MS);
    const after = await stateLoop(api);
    expect(after.samples).toBeGreaterThan(before.samples);
    // The interval that held the block lasted at least the block; less the resolution, that is the delay.
    expect(after.max_ms).toBeGreaterThanOrEqual(BLOCK_MS - LOOP_DELAY_RESOLUTION_MS);
    // The block was CPU time of this process: the figure that leaves out waits for a core still holds it.
    expect(after.cpu_max_ms).toBeGreaterThanOrEqual(BLOCK_MS - LOOP_DELAY_RESOLUTION_MS);
    expect(after.p99_ms).not.toBeNull();
    expect(after.mean_ms).toBeGreaterThanOrEqual(0);
    expect(after.mean_ms ?? Infinity).toBeLessThanOrEqual(after.max_ms ?? 0);
  });

  test('POST /_afp/event-loop/reset answers the window so far and starts a new one', async () => {
    const api = await serve();
    await blockLoop(BLOCK_MS);
    const sentMs = performance.now();
    const closed = await reset(api);
    expect(closed.status).toBe(200);
    expect(closed.body.event_loop?.max_ms).toBeGreaterThanOrEqual(BLOCK_MS - LOOP_DELAY_RESOLUTION_MS);
    const fresh = await stateLoop(api);
    // The new window began at the reset, after the block: it is no longer than the time since the reset was sent.
    expect(fresh.window_ms).toBeLessThanOrEqual(Math.ceil(performance.now() - sentMs) + 1);
    expect(fresh.window_ms).toBeLessThan(closed.body.event_loop?.window_ms ?? 0);
  });

  test('the reset is a POST on the api mount; a GET there answers 405', async () => {
    const api = await serve();
    const response = await fetch(`${api}/_afp/event-loop/reset`);
    expect(response.status).toBe(405);
  });
});
