/**
 * Nothing acknowledged is lost: a real `afp serve --data` child process takes writes from many
 * concurrent HTTP clients (registrations, then an escrow from each new agent), is killed with
 * SIGKILL in the middle of the load, and restarted on the same file; every registration key and
 * every escrow id that was answered before the kill must be there after it. Three cycles on one
 * file, each recovering everything the earlier ones acknowledged.
 * Bounded: fixed load durations per cycle, per-request timeouts, a kill timer on every child, and
 * every child killed by its pid at the end whatever happened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SEED, START_MS } from '../client/fixtures.ts';
import { startServeChild, type ServeChild } from '../fixtures/serve-child.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-crash-'));
const CLIENTS = 24;
/** Wall milliseconds of load before each kill (fixed: the test is bounded and repeatable in shape). */
const LOAD_MS = [600, 900, 1_200];
const REQUEST_TIMEOUT_MS = 5_000;

/** Every child started, SIGKILLed at the end whatever happened (startServeChild also bounds each one's life). */
const children: ServeChild[] = [];
afterAll(async () => {
  for (const child of children) await child.kill9();
  rmSync(DIR, { recursive: true, force: true });
});

/** `afp serve --port 0 ARGS` in its own process, once ready. */
async function serve(args: readonly string[]): Promise<ServeChild> {
  const child = await startServeChild(['--port', '0', ...args]);
  children.push(child);
  return child;
}

function apiOf(server: ServeChild): string {
  return server.urls['api'] ?? expect.unreachable('an api url');
}

/** What the clients were told: keys by agent, escrow ids with their creator's key. */
interface Acknowledged {
  readonly keys: Map<string, string>;
  readonly escrows: Map<string, string>;
  /** Answers other than 201, by `<path> <status>`. */
  readonly refusals: Map<string, number>;
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }; // acknowledged = the whole answer read
  } catch {
    return null;
  }
}

/** One client: register an agent, then an escrow from it to the anchor; until `stop` or the server is gone. */
async function client(
  api: string,
  name: { cycle: number; client: number },
  acknowledged: Acknowledged,
  stop: { now: boolean },
): Promise<void> {
  const refused = (what: string): void => {
    acknowledged.refusals.set(what, (acknowledged.refusals.get(what) ?? 0) + 1);
  };
  for (let index = 0; !stop.now && index < 256 * 256; index++) {
    const agentId = `c${name.cycle}x${name.client}-${index}`;
    const ip = `10.${name.cycle * CLIENTS + name.client}.${index >> 8}.${index & 255}`; // one registration per IP: the register-IP row never binds
    const registered = await post(`${api}/register`, { agent_id: agentId }, { 'x-forwarded-for': ip });
    if (registered === null) return; // the server is gone
    if (registered.status !== 201) {
      refused(`register ${registered.status}`);
      continue;
    }
    const key = String(registered.body['api_key']);
    acknowledged.keys.set(agentId, key);
    const escrow = await post(
      `${api}/escrow`,
      { amount: '1.00', receiver: 'anchor', expires_in: 86_400 },
      { authorization: `Bearer ${key}`, 'x-forwarded-for': ip },
    );
    if (escrow === null) return;
    if (escrow.status === 201) acknowledged.escrows.set(String(escrow.body['escrow_id']), key);
    else refused(`escrow ${escrow.status}`);
  }
}

async function get(url: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '10.250.0.1' },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every acknowledged key authenticates and every acknowledged escrow is there; returns the count checked. */
async function checkAll(api: string, acknowledged: Acknowledged): Promise<number> {
  let checked = 0;
  for (const [agentId, key] of acknowledged.keys) {
    const status = await get(`${api}/status`, key);
    expect(status.status, `key of ${agentId}`).not.toBe(401);
    checked++;
  }
  for (const [escrowId, key] of acknowledged.escrows) {
    const escrow = await get(`${api}/escrow/${escrowId}`, key);
    expect(escrow.status, `escrow ${escrowId}`).toBe(200);
    expect(escrow.body['escrow_id']).toBe(escrowId);
    checked++;
  }
  return checked;
}

describe('afp serve --data: SIGKILL under concurrent load loses nothing acknowledged', () => {
  test(`${LOAD_MS.length} cycles of ${CLIENTS} concurrent clients, kill -9 mid-load, restart, check`, async () => {
    const file = join(DIR, 'crash.db');
    let server = await serve([
      '--data',
      file,
      '--clock',
      'manual',
      '--seed',
      SEED,
      '--start',
      new Date(START_MS).toISOString(),
    ]);
    expect(
      (await post(`${apiOf(server)}/register`, { agent_id: 'anchor' }, { 'x-forwarded-for': '10.251.0.1' }))?.status,
    ).toBe(201);
    const acknowledged: Acknowledged = { keys: new Map(), escrows: new Map(), refusals: new Map() };
    for (const [cycle, loadMs] of LOAD_MS.entries()) {
      const stop = { now: false };
      const clients = Array.from({ length: CLIENTS }, (_, index) =>
        client(apiOf(server), { cycle, client: index }, acknowledged, stop),
      );
      const before = acknowledged.keys.size + acknowledged.escrows.size;
      await new Promise((resolve) => setTimeout(resolve, loadMs));
      const killed = server.kill9(); // mid-load: requests are in flight
      stop.now = true;
      await Promise.all(clients);
      await killed;
      expect(acknowledged.keys.size + acknowledged.escrows.size, `cycle ${cycle} acknowledged writes`).toBeGreaterThan(
        before,
      );
      server = await serve(['--data', file]);
      expect(server.stderr()).toMatch(/^recovered: \d+ commands from /m);
      expect(await checkAll(apiOf(server), acknowledged)).toBe(acknowledged.keys.size + acknowledged.escrows.size);
    }
    expect(Object.fromEntries(acknowledged.refusals)).toEqual({}); // every answered write was a success: none hid behind a refusal
    await server.kill9();
  });
});
