// POST /_afp/reset and GET /_afp/state's ledger audit through afp serve's platform lock
// (in-process listeners, 3,000 agents registered through the dispatcher as the bench's travel
// part does): a reset sent while a snapshot copies the platform waits for it, then drops it and
// starts over as a job of its own; a request sent after the reset is answered in the reset
// platform; GET /health answers throughout, and GET /_afp/state answers during the copy without
// waiting (the lock at work, its audit deferred). Free, the state's audit of every account runs as
// a sliced job (one step of the lock per slice here: two slices for ~3,000 accounts) and sums to 0.
// The mechanism is tested here, not a wall-clock budget: the bench's travel part measures that.
import { afterEach, describe, expect, test } from 'vitest';
import type { ServeHandle } from '../../src/server/listeners.ts';
import { registerAgents, travelServe } from '../../bench/travel-phase.ts';

const AGENTS = 3_000;
const START_MS = Date.UTC(2026, 0, 1);
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

type Json = Record<string, unknown>;

async function served(lockSliceMs: number): Promise<string> {
  const handle = await travelServe({ lockSliceMs });
  handles.push(handle);
  registerAgents(handle, AGENTS, 'bulk');
  return handle.urls.api as string;
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Json };
}

const post = (api: string, path: string, body: unknown, ip?: string): ReturnType<typeof call> =>
  call(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ip === undefined ? {} : { 'x-forwarded-for': ip }) },
    body: JSON.stringify(body),
  });

const stateOf = async (api: string): Promise<Json> => (await call(`${api}/_afp/state`)).body;

/** Polls GET /_afp/state until `ready` holds of it (a bound on a hang, not a budget); true if it did. */
async function until(api: string, ready: (state: Json) => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 2_000; attempt++) if (ready(await stateOf(api))) return true;
  return false;
}

const lockOf = (state: Json): Json => state['lock'] as Json;

describe('reset and the state audit under the platform lock', () => {
  test('a reset sent during a snapshot waits, then drops it; a request sent after it sees the reset platform', async () => {
    const api = await served(1);
    const snapshot = post(api, '/_afp/snapshot', {});
    expect(await until(api, (state) => lockOf(state)['held'] === true)).toBe(true);
    expect(await call(`${api}/health`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const during = await stateOf(api);
    if (lockOf(during)['held'] === true)
      expect(during['ledger']).toMatchObject({ sum_micro: '0', audit_sum_micro: null, balanced: true });
    const reset = post(api, '/_afp/reset', {});
    let queued = false;
    expect(
      await until(api, (state) => {
        queued = Number(lockOf(state)['waiting']) >= 1;
        return queued || lockOf(state)['held'] === false;
      }),
    ).toBe(true);
    // Sent once the reset waits behind the copy (on a machine too slow to see it wait: once it is done).
    if (!queued) await reset;
    const late = post(api, '/register', { agent_id: 'late' }, '10.9.0.1');
    expect(await snapshot).toMatchObject({ status: 200, body: { id: 'snap_1' } });
    expect(await reset).toMatchObject({ status: 200, body: { now_ms: START_MS, dropped: ['snap_1'] } });
    expect((await late).status).toBe(201);
    const after = await stateOf(api);
    expect(after['agents']).toBe(1);
    expect(after['now_ms']).toBe(START_MS);
    expect(after['ledger']).toMatchObject({ audit_sum_micro: '0', balanced: true });
    // The snapshot and the reset ran as jobs (and the audits of the states read while the lock was free).
    expect(Number(lockOf(after)['jobs'])).toBeGreaterThanOrEqual(2);
    expect((await post(api, '/_afp/revert', { id: 'snap_1' })).status).toBe(404);
  });

  test("a free lock: the state's audit of every account runs as a job of its own, in slices", async () => {
    const api = await served(0);
    const first = await stateOf(api);
    expect(first['agents']).toBe(AGENTS);
    expect(first['ledger']).toMatchObject({ sum_micro: '0', audit_sum_micro: '0', balanced: true });
    const second = await stateOf(api);
    // `lock` is the lock as each request found it: the first audit is in the second's figures.
    expect(Number(lockOf(second)['jobs'])).toBe(Number(lockOf(first)['jobs']) + 1);
    expect(Number(lockOf(second)['slices'])).toBeGreaterThanOrEqual(Number(lockOf(first)['slices']) + 2);
    expect(lockOf(second)).toMatchObject({ held: false, waiting: 0 });
  });
});
