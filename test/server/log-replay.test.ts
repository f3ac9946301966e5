/**
 * What `afp serve --data` logs is exactly what recovery needs: a mix of successes, domain
 * refusals, 401s with 60 KB bodies, 429s (IP, register-IP and faucet rows), 404/405, malformed
 * bodies, fault-window 503s, tier changes, clock moves with timers, and an Enterprise caller whose
 * 404 changes nothing — served through the LoggedDispatcher, committed, replayed from the file —
 * gives the same state (a digest of ledger, agents, escrows, timers), the same rate-limit buckets
 * and the same next keys (identical probes answered identically). A negative control drops the
 * 'charge' entries and shows the limiter then differs: they are needed.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../src/http/dispatcher.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { applyClockMove, applyTierSet } from '../../src/server/admin.ts';
import { COMMAND_LOG_SCHEMA_VERSION, type CommandLog, type LogSettings } from '../../src/server/command-log.ts';
import type { Recovered } from '../../src/server/recovery.ts';
import type { Tier } from '../../src/services/shared/agents.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { SEED, START_MS } from '../client/fixtures.ts';
import { openedLog, recoveredLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-log-replay-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const FILLER = 'z'.repeat(60 * 1024);
const FAULT = {
  service: 'escrow' as const,
  fromMs: START_MS + 600_000,
  untilMs: START_MS + 660_000,
  status: 503 as const,
};
const SETTINGS: LogSettings = {
  seed: SEED,
  startMs: START_MS,
  clockMode: 'manual',
  wallOffsetMs: 0,
  config: DEFAULT_CONFIG,
  faults: [FAULT],
  closures: [],
  defects: [],
};

const opened = (file: string): Promise<CommandLog> => openedLog(file, SETTINGS);

const recovered = recoveredLog;

/** Everything a reader of the platform can see, but the limiter (probed instead) and the memo caches. */
function digest(platform: Platform): string {
  const bigints = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? `${value}n` : value);
  const accounts = [...platform.ledger.accounts()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const agents = platform.agents.all().map((agent) => JSON.stringify(agent, bigints));
  const escrows = [...platform.escrow.all()].map((record) => JSON.stringify(record, bigints));
  return JSON.stringify(
    {
      accounts,
      transfers: platform.ledger.transfers,
      agents,
      escrows,
      timers: platform.timers.size,
      next: platform.nextTimerMs() ?? null,
    },
    bigints,
  );
}

/** The live side: requests through the LoggedDispatcher, admin commands appended and applied, as serve does. */
class Live {
  readonly log: CommandLog;
  readonly served: Recovered;
  nowMs = START_MS;

  constructor(log: CommandLog) {
    this.log = log;
    this.served = recovered(log);
  }

  send(request: Partial<ApiRequest> & { path: string }, key?: string, ip = '10.0.0.1'): ApiResponse {
    const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
    const full: ApiRequest = { mount: 'api', method: 'GET', query: {}, headers, ip, ...request };
    return this.served.dispatcher.handle(full, this.nowMs);
  }

  advance(ms: number): void {
    const fromMs = this.nowMs;
    this.nowMs += ms;
    this.log.appendAdmin({ kind: 'clock', fromMs, toMs: this.nowMs });
    applyClockMove(this.served.platform, this.nowMs);
  }

  setTier(agentId: string, tier: Tier): void {
    this.log.appendAdmin({ kind: 'tier', agentId, tier, atMs: this.nowMs });
    applyTierSet(this.served.platform.agents.get(agentId) ?? expect.unreachable(agentId), tier);
  }
}

/** The mix; returns the keys it registered. */
function drive(live: Live): Record<string, string> {
  const keys: Record<string, string> = {};
  const register = (agentId: string, ip: string): ApiResponse =>
    live.send({ method: 'POST', path: '/register', body: { agent_id: agentId } }, undefined, ip);
  for (const name of ['alice', 'bob', 'carol']) {
    const answer = register(name, '10.0.0.1');
    expect(answer.status).toBe(201);
    keys[name] = (answer.body as { api_key: string }).api_key;
  }
  const statuses: number[] = [];
  for (let index = 0; index < 9; index++) statuses.push(register(`r${index}`, '10.0.0.1').status); // register-IP row: 10 per minute
  expect(statuses.filter((status) => status === 429).length).toBe(2);
  const alice = keys['alice'] as string;
  expect(live.send({ method: 'POST', path: '/claim' }, alice).status).toBe(409); // registration already paid the first claim
  expect(live.send({ method: 'POST', path: '/claim' }, keys['bob']).status).toBe(409);
  const escrow = live.send(
    { method: 'POST', path: '/escrow', body: { amount: '2.00', receiver: 'bob', expires_in: 120 } },
    alice,
  );
  expect(escrow.status).toBe(201);
  expect(
    live.send({ method: 'POST', path: '/escrow', body: { amount: '999999.00', receiver: 'bob' } }, alice).status,
  ).toBe(422); // a domain refusal: whole
  expect(live.send({ method: 'POST', path: '/escrow', body: { amount: 'x', receiver: 'bob' } }, alice).status).toBe(
    400,
  ); // parse refusal: whole
  expect(live.send({ path: '/nowhere' }, alice).status).toBe(404);
  expect(live.send({ method: 'DELETE', path: '/register' }).status).toBe(405);
  expect(
    live.send(
      {
        method: 'POST',
        path: '/escrow',
        bodyFailure: { ok: false, status: 400, code: 'BAD_REQUEST', message: 'malformed JSON' } as never,
      },
      alice,
    ).status,
  ).toBe(400);
  // An invalid key with a 60 KB body, flooded: 401s, then the IP's free bucket (100 / min, burst) runs out: 429s.
  const flood: number[] = [];
  for (let index = 0; index < 260; index++)
    flood.push(
      live.send(
        {
          method: 'POST',
          path: '/escrow',
          body: { filler: FILLER },
          bodyText: JSON.stringify({ filler: FILLER }),
        } as never,
        'sk_live_not_a_key',
        '10.6.6.6',
      ).status,
    );
  expect(new Set(flood)).toEqual(new Set([401, 429]));
  // The faucet row (10 / min) runs out for alice; her 429s keep refilling her buckets at free rates...
  for (let index = 0; index < 14; index++) {
    live.nowMs += 1_000;
    live.send({ path: '/status' }, alice);
  }
  expect(live.send({ path: '/status' }, alice).status).toBe(429);
  live.advance(30_000);
  // ...then she turns pro: what her bucket holds now depends on when those 429s refilled it.
  live.setTier('alice', 'pro');
  live.setTier('carol', 'enterprise');
  const carolLost = live.send({ path: '/nowhere' }, keys['carol']); // unlimited and no row: nothing to log
  expect(carolLost.status).toBe(404);
  live.advance(600_000 - 30_000 - 14_000); // into the escrow fault window; the escrow expired on the way
  expect(live.send({ path: `/escrow/${(escrow.body as { escrow_id: string }).escrow_id}` }, alice).status).toBe(503);
  live.nowMs += 61_000; // after it; no clock move logged: the next request moves the platform
  expect(live.send({ path: `/escrow/${(escrow.body as { escrow_id: string }).escrow_id}` }, alice).body).toMatchObject({
    status: 'expired',
  });
  return keys;
}

/** The same probes on both sides, answers compared (status, rate headers, body): the limiter and the rng. */
function probe(a: Recovered, b: Recovered, atMs: number, keys: Record<string, string>): void {
  const probes: ApiRequest[] = [];
  const base = { mount: 'api' as const, query: {}, ip: '10.0.0.1' };
  for (const key of [...Object.values(keys), 'sk_live_not_a_key', undefined]) {
    const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
    for (const ip of ['10.0.0.1', '10.6.6.6'])
      probes.push(
        { ...base, method: 'GET', path: '/status', headers, ip },
        { ...base, method: 'POST', path: '/escrow', headers, ip, body: {} },
      );
  }
  probes.push({ ...base, method: 'POST', path: '/register', headers: {}, body: { agent_id: 'after' } });
  for (const request of probes) {
    const left = a.dispatcher.replay(request, atMs);
    const right = b.dispatcher.replay(request, atMs);
    expect(
      { status: right.status, headers: right.headers, body: right.body },
      `${request.method} ${request.path} ${request.headers['authorization'] ?? ''} ${request.ip}`,
    ).toEqual({ status: left.status, headers: left.headers, body: left.body });
  }
}

describe('the command log keeps exactly what recovery needs', () => {
  test('replay equals the live state: digest, limiter buckets, next keys; refusals keep no body', async () => {
    const file = join(DIR, 'mix.db');
    const live = new Live(await opened(file));
    const keys = drive(live);
    const committed = live.log.commit();
    expect(committed.ok).toBe(true);
    live.log.close();

    const db = new DatabaseSync(file);
    const kinds = Object.fromEntries(
      db
        .prepare('SELECT kind, count(*) AS n FROM commands GROUP BY kind')
        .all()
        .map((row) => [row['kind'], row['n']]),
    );
    const biggest = Number(
      (db.prepare('SELECT max(length(entry) + coalesce(length(body), 0)) AS n FROM commands').get() as { n: number }).n,
    );
    db.close();
    // Every dispatched request but carol's (Enterprise, unlimited, no row): 12 registrations, 2 claims,
    // 3 escrow creations, 404, 405, malformed body, 260 flood, 15 status reads, 2 escrow reads;
    // the 429s, 404, 405, malformed body, 401s and the fault's 503 as charges.
    expect(kinds).toMatchObject({ clock: 2, tier: 2 });
    expect(Number(kinds['request']) + Number(kinds['charge'])).toBe(12 + 2 + 3 + 1 + 1 + 1 + 260 + 15 + 2);
    expect(Number(kinds['charge'])).toBeGreaterThanOrEqual(2 + 3 + 260 + 1 + 1);
    expect(biggest).toBeLessThan(1_000); // no 60 KB body was kept
    expect(statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0)).toBeLessThan(400_000);

    const replayed = recovered(await opened(file));
    expect(replayed.stats.internalErrors).toBe(0);
    const atMs = live.nowMs + 5_000;
    live.served.platform.advanceTo(atMs);
    replayed.platform.advanceTo(atMs);
    expect(digest(replayed.platform)).toBe(digest(live.served.platform));
    probe(live.served, replayed, atMs, keys);
  });

  test('a schema-1 log (before charge entries) is replayed as it is and marked schema 2 when adopted', async () => {
    const file = join(DIR, 'schema1.db');
    const first = new Live(await opened(file));
    first.send({ method: 'POST', path: '/register', body: { agent_id: 'old' } });
    expect(first.log.commit()).toEqual({ ok: true, entries: 1 });
    first.log.close();
    const db = new DatabaseSync(file);
    db.exec('PRAGMA user_version = 1');
    db.close();
    const reopened = await opened(file);
    expect(recovered(reopened).platform.agents.has('old')).toBe(true);
    reopened.close();
    const check = new DatabaseSync(file);
    expect((check.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
      COMMAND_LOG_SCHEMA_VERSION,
    );
    check.close();
  });

  test('negative control: without its charge entries the replay’s limiter differs', async () => {
    const file = join(DIR, 'control.db');
    const live = new Live(await opened(file));
    const keys = drive(live);
    expect(live.log.commit().ok).toBe(true);
    live.log.close();
    const atMs = live.nowMs + 1;
    live.served.platform.advanceTo(atMs);
    const stripped = await strippedReplay(file, 'no-charges.db', "kind = 'charge'", atMs);
    expect(digest(stripped.platform)).toBe(digest(live.served.platform)); // the domain state does not see them...
    expect(() => probe(live.served, stripped, atMs, keys)).toThrow(/sk_live_not_a_key 10\.6\.6\.6/); // ...the limiter does
  });

  test('negative control: a 429 changes state too — its refill at the old tier’s rate shows after a tier change', async () => {
    const file = join(DIR, 'refill.db');
    const live = new Live(await opened(file));
    const alice = (
      live.send({ method: 'POST', path: '/register', body: { agent_id: 'alice' } }).body as { api_key: string }
    ).api_key;
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) {
      live.nowMs += 300;
      statuses.push(live.send({ path: '/status' }, alice).status); // the faucet row (10 / min) refuses the last ones
    }
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
    live.setTier('alice', 'pro');
    expect(live.log.commit().ok).toBe(true);
    live.log.close();
    // GET /nowhere: only alice's tier bucket applies, so its level is the header's remaining.
    const nowhere: ApiRequest = {
      mount: 'api',
      method: 'GET',
      path: '/nowhere',
      query: {},
      headers: { authorization: `Bearer ${alice}` },
      ip: '10.0.0.1',
    };
    const full = recovered(await opened(file));
    const withThem = full.dispatcher.replay(nowhere, live.nowMs);
    expect(withThem.headers['x-ratelimit-remaining']).toBe(
      live.served.dispatcher.replay(nowhere, live.nowMs).headers['x-ratelimit-remaining'],
    );
    const without = (await strippedReplay(file, 'no-429s.db', "kind = 'charge'", live.nowMs)).dispatcher.replay(
      nowhere,
      live.nowMs,
    );
    expect(Number(without.headers['x-ratelimit-remaining'])).toBeGreaterThan(
      Number(withThem.headers['x-ratelimit-remaining']),
    );
  });
});

/** A copy of FILE without the entries WHERE selects (at least one; the rest renumbered), replayed and advanced to `atMs`. */
async function strippedReplay(file: string, name: string, where: string, atMs: number): Promise<Recovered> {
  const stripped = join(DIR, name);
  copyFileSync(file, stripped);
  const db = new DatabaseSync(stripped);
  expect(Number(db.prepare(`DELETE FROM commands WHERE ${where}`).run().changes)).toBeGreaterThan(0);
  // Renumbered without gaps and without their chain: a replay refuses a missing entry.
  db.exec(`CREATE TEMP TABLE kept AS SELECT * FROM commands;
    DELETE FROM commands;
    INSERT INTO commands (seq, at_ms, kind, entry, body, crc)
      SELECT row_number() OVER (ORDER BY seq), at_ms, kind, entry, body, crc FROM kept;`);
  db.close();
  const replayed = recovered(await opened(stripped));
  replayed.platform.advanceTo(atMs);
  return replayed;
}
