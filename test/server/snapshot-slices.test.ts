// afp serve's sliced admin jobs over real listeners on 127.0.0.1 (src/server/platform-lock.ts): on
// a platform of a few thousand agents (registered through the dispatcher in-process, the path every
// request takes, by the bench's travel part), POST /_afp/snapshot, POST /_afp/revert and
// GET /_afp/digest copy or walk the platform in many slices (1 ms slices here, or one step of work
// per slice, so a small state spans many). While one runs, GET /health and GET /_afp/state answer
// (the state's ledger audit deferred: free, it is a job of its own, reset-state-slices.test.ts);
// API requests, MCP tool calls and admin calls sent meanwhile wait and are answered after it, in
// order, against the state that follows it; a revert to the snapshot then gives back exactly the
// digest the platform had before it (nothing sent during the copy leaked into it, nothing of it was
// lost); a full queue answers 503 with Retry-After and changes nothing. The mechanism is tested
// here, not a wall-clock budget: the bench's travel part measures that.
import { afterEach, describe, expect, test } from 'vitest';
import type { ServeHandle } from '../../src/server/listeners.ts';
import { registerAgents, travelServe } from '../../bench/travel-phase.ts';

const AGENTS = 3_000;
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

type Json = Record<string, unknown>;

async function served(lockSliceMs: number, lockQueueMax?: number): Promise<{ handle: ServeHandle; api: string }> {
  const handle = await travelServe({ lockSliceMs, ...(lockQueueMax === undefined ? {} : { lockQueueMax }) });
  handles.push(handle);
  registerAgents(handle, AGENTS, 'bulk');
  return { handle, api: handle.urls.api as string };
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

const post = (api: string, path: string, body: unknown, ip?: string): Promise<Awaited<ReturnType<typeof call>>> =>
  call(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ip === undefined ? {} : { 'x-forwarded-for': ip }) },
    body: JSON.stringify(body),
  });

/** GET /_afp/state answers with its ledger audit (a job of its own) when no job held the lock: counted here. */
let audits = 0;
async function stateOf(api: string): Promise<Json> {
  const body = (await call(`${api}/_afp/state`)).body;
  if ((body['ledger'] as Json)['audit_sum_micro'] !== null) audits++;
  return body;
}
const lockOf = async (api: string): Promise<Json> => (await stateOf(api))['lock'] as Json;
const agentsOf = async (api: string): Promise<number> => Number((await stateOf(api))['agents']);
const digestOf = async (api: string): Promise<string> => String((await call(`${api}/_afp/digest`)).body['digest']);

/** Polls GET /_afp/state until `ready` holds of its `lock` (a bound on a hang, not a budget); true if it did. */
async function until(api: string, ready: (lock: Json) => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 2_000; attempt++) if (ready(await lockOf(api))) return true;
  return false;
}

describe('sliced admin jobs under the platform lock', () => {
  test('during a snapshot /health answers and requests wait; they run after it, and a revert gives back the state before it', async () => {
    const { api } = await served(1);
    audits = 0;
    const before = await digestOf(api);
    const snapshot = post(api, '/_afp/snapshot', {});
    expect(await until(api, (lock) => lock['held'] === true)).toBe(true);
    const health = await call(`${api}/health`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    const sent = [1, 2, 3].map((index) => post(api, '/register', { agent_id: `late-${index}` }, `10.8.0.${index}`));
    // Each waits for the copy (none is answered while it holds the lock); the digest, sent once the
    // three wait, waits behind them.
    expect(await until(api, (lock) => lock['held'] === false || Number(lock['waiting']) >= 3)).toBe(true);
    const digestAfter = call(`${api}/_afp/digest`);
    expect(await until(api, (lock) => lock['held'] === false || Number(lock['waiting']) >= 4)).toBe(true);
    expect(await snapshot).toMatchObject({ status: 200, body: { id: 'snap_1', snapshots: 1 } });
    for (const answer of await Promise.all(sent)) expect(answer.status).toBe(201);
    const afterDigest = String((await digestAfter).body['digest']);
    expect(afterDigest).not.toBe(before);
    expect(await agentsOf(api)).toBe(AGENTS + 3);
    expect(await digestOf(api)).toBe(afterDigest);

    const revert = await post(api, '/_afp/revert', { id: 'snap_1' });
    expect(revert).toMatchObject({ status: 200, body: { id: 'snap_1', dropped: [] } });
    expect(await agentsOf(api)).toBe(AGENTS);
    expect(await digestOf(api)).toBe(before);
    const lock = await lockOf(api);
    // snapshot, revert and the four digests ran as jobs, each in many slices; so did the audits of
    // the states read while the lock was free (the last one's own is not in the figures it shows).
    expect(lock).toMatchObject({ held: false, waiting: 0, refused: 0 });
    expect(Number(lock['jobs'])).toBe(6 + audits - 1);
    expect(Number(lock['slices'])).toBeGreaterThan(6 * 3);
    expect(Number(lock['waiting_max'])).toBeGreaterThanOrEqual(4);
  });

  test('during a revert /health answers between its slices, and the revert gives back the snapshot exactly', async () => {
    const { api } = await served(1);
    expect((await post(api, '/_afp/snapshot', {})).status).toBe(200);
    const atSnapshot = await digestOf(api);
    expect((await post(api, '/register', { agent_id: 'after' }, '10.9.0.1')).status).toBe(201);
    const slicesBefore = Number((await lockOf(api))['slices']);
    let reverted = false;
    const revert = post(api, '/_afp/revert', { id: 'snap_1' }).finally(() => (reverted = true));
    expect(await until(api, (lock) => lock['held'] === true)).toBe(true);
    const health = await call(`${api}/health`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    // /health was answered while the copy held the platform (the revert not yet answered), between two
    // of its slices; the copy of a few thousand agents took many 1 ms slices, each one a turn of the loop.
    expect(reverted).toBe(false);
    expect((await revert).status).toBe(200);
    expect(Number((await lockOf(api))['slices']) - slicesBefore).toBeGreaterThan(10);
    expect(await digestOf(api)).toBe(atSnapshot);
    expect(await agentsOf(api)).toBe(AGENTS);
  });

  test('a request sent during a revert sees the reverted state; a full queue answers 503 with Retry-After and changes nothing', async () => {
    const { api } = await served(0, 2);
    expect((await post(api, '/_afp/snapshot', {})).status).toBe(200);
    expect((await post(api, '/register', { agent_id: 'gone' }, '10.7.0.1')).status).toBe(201);
    const revert = post(api, '/_afp/revert', { id: 'snap_1' });
    expect(await until(api, (lock) => lock['held'] === true)).toBe(true);
    const sent = ['again', 'two', 'three', 'four'].map((agentId, index) =>
      post(api, '/register', { agent_id: agentId }, `10.7.1.${index}`),
    );
    expect((await revert).status).toBe(200);
    const answers = await Promise.all(sent);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 201, 503, 503]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(String(refused.body['error'])).toMatch(/limit 2/);
    }
    // 'gone' was registered after the snapshot: the revert dropped it, and only the two admitted arrived after.
    expect(await agentsOf(api)).toBe(AGENTS + 2);
    expect((await post(api, '/register', { agent_id: 'gone' }, '10.7.2.1')).status).toBe(201);
    expect(await lockOf(api)).toMatchObject({ refused: 2, held: false });
  });

  test('an MCP tool call sent during a snapshot waits for it and registers after it (the snapshot does not hold the agent)', async () => {
    const { handle, api } = await served(0);
    const snapshot = post(api, '/_afp/snapshot', {});
    expect(await until(api, (lock) => lock['held'] === true)).toBe(true);
    const mcp = fetch(`${handle.urls.faucet as string}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'register_agent', arguments: { agent_id: 'by-mcp' } },
      }),
    });
    expect(await until(api, (lock) => lock['held'] === false || Number(lock['waiting']) >= 1)).toBe(true);
    expect((await snapshot).status).toBe(200);
    expect(Number((await lockOf(api))['waiting_max'])).toBe(1); // the MCP request, and nothing else, waited
    const answer = (await (await mcp).json()) as { result: { _meta?: Record<string, unknown> } };
    expect(answer.result._meta?.['afp/status']).toBe(201);
    expect(await agentsOf(api)).toBe(AGENTS + 1);
    expect((await post(api, '/_afp/revert', { id: 'snap_1' })).status).toBe(200);
    expect(await agentsOf(api)).toBe(AGENTS);
  });
});
