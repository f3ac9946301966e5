// `afp serve --data FILE`: nothing acknowledged is lost. Real `afp serve` processes on a real
// SQLite file under a temp dir are SIGKILLed (a crash, not a clean stop) and restarted on the same
// file; every answer before and after is compared with an in-process twin that never crashed, fed
// the same requests at the same instants. Also: keys never at rest, refused files and settings,
// the credential seam of the replay, and where the clock resumes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import { httpTransport } from '../../src/client/http-transport.ts';
import { fail, failWithStatus, isFailure } from '../../src/core/errors.ts';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { DEFECT_NAMES } from '../../src/cli/serve.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { applyClockMove, applyTierSet } from '../../src/server/admin.ts';
import {
  COMMAND_LOG_SCHEMA_VERSION,
  openCommandLog,
  type CommandLog,
  type LogSettings,
} from '../../src/server/command-log.ts';
import { startServe } from '../../src/server/listeners.ts';
import { credentialOf, resumeAtMs, type RecoveryStats } from '../../src/server/recovery.ts';
import { inProcessSetup, SEED, START_MS, type InProcessSetup } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { LOG_SETTINGS } from '../fixtures/command-logs.ts';
import { TRUST_LOOPBACK_ARGS } from '../fixtures/serve-child.ts';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
const DIR = mkdtempSync(join(tmpdir(), 'afp-durability-'));
const IP = '10.9.8.7';
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
const MINUTE_MS = 60_000;

/** Every child spawned, killed at the end whatever happened (a failed assertion must not leak one). */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(DIR, { recursive: true, force: true });
});

// ---- a served process ---------------------------------------------------------------------

interface Served {
  readonly child: ChildProcess;
  readonly urls: Record<string, string>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

function spawnServe(args: readonly string[]): {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...TRUST_LOOPBACK_ARGS, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve(code);
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Starts `afp serve` and waits for `ready`. */
async function serve(args: readonly string[]): Promise<Served> {
  const run = spawnServe(args);
  for (let waitedMs = 0; !/^ready$/m.test(run.stdout()); waitedMs += 20) {
    if (run.child.exitCode !== null || waitedMs > 30_000)
      throw new Error(`afp serve did not get ready:\n${run.stdout()}\n${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const urls: Record<string, string> = {};
  for (const match of run.stdout().matchAll(/^(api|faucet|escrow): (http:\S+)$/gm))
    urls[match[1] as string] = match[2] as string;
  return { ...run, urls };
}

/** Runs `afp serve` expecting it to exit by itself (bad input). */
async function serveExit(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const run = spawnServe(args);
  const code = await run.exited;
  return { code, stderr: run.stderr() };
}

async function crash(served: Served): Promise<void> {
  served.child.kill('SIGKILL');
  expect(await served.exited).toBe(null);
}

// ---- the twin and the comparison ----------------------------------------------------------

/** Sends the same steps to the served process and to an in-process twin, answers compared. */
class Pair {
  readonly twin: InProcessSetup = inProcessSetup({ seed: SEED });
  private served!: Served;
  private live!: Transport;

  attach(served: Served): void {
    this.served = served;
    this.live = httpTransport({ urls: served.urls });
  }

  /** One request on both; returns the served answer after checking it equals the twin's. */
  async send(request: TransportRequest, key?: string): Promise<TransportResponse> {
    const headers = { 'x-forwarded-for': IP, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) };
    const full = { ...request, headers };
    const live = await this.live(full);
    const twin = await this.twin.transport(full);
    expect(comparable(live), `${request.method} ${request.mount}:${request.path}`).toEqual(
      comparable({ ...twin, body: JSON.parse(JSON.stringify(twin.body)) as unknown }),
    );
    return live;
  }

  /** POST /_afp/clock on the served process, the same move on the twin. */
  async advance(advanceMs: number): Promise<void> {
    const response = await fetch(`${this.served.urls['api'] ?? ''}/_afp/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: advanceMs }),
    });
    this.twin.clock.advance(advanceMs);
    applyClockMove(this.twin.platform, this.twin.clock.nowMs());
    expect(await response.json()).toMatchObject({ now_ms: this.twin.clock.nowMs() });
  }

  async setTier(agentId: string, tier: 'pro'): Promise<void> {
    const response = await fetch(`${this.served.urls['api'] ?? ''}/_afp/tier`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: agentId, tier }),
    });
    expect(response.status).toBe(200);
    applyTierSet(this.twin.platform.agents.get(agentId) as NonNullable<ReturnType<Platform['agents']['get']>>, tier);
  }

  /** One MCP tool call on the served faucet listener; the twin handles the same style-B row. */
  async mcpFaucetStatus(key: string): Promise<void> {
    const headers = { authorization: `Bearer ${key}`, 'x-forwarded-for': IP };
    const client = new Client({ name: 'afp-durability-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${this.served.urls['faucet'] ?? ''}/mcp`), {
        requestInit: { headers },
      }),
    );
    try {
      const result = (await client.callTool({ name: 'faucet_status', arguments: {} })) as CallToolResult;
      // The client's transport requests (initialize, initialized, its event-stream GET) are charged
      // to the rate limiter as requests to /mcp; the twin is charged the same.
      for (const method of ['POST', 'POST', 'GET'] as const)
        await this.twin.transport({ mount: 'faucet', method, path: '/mcp', headers });
      const twin = await this.twin.transport({ mount: 'api', method: 'GET', path: '/status', headers });
      const meta = result._meta as { 'afp/status': number; 'afp/headers': Record<string, string> };
      expect(
        comparable({ status: meta['afp/status'], headers: meta['afp/headers'], body: result.structuredContent }),
      ).toEqual(comparable({ ...twin, body: JSON.parse(JSON.stringify(twin.body)) as unknown }));
    } finally {
      await client.close();
    }
  }
}

function comparable(response: TransportResponse): { status: number; headers: Record<string, string>; body: unknown } {
  const headers: Record<string, string> = {};
  for (const name of RATE_HEADERS) if (response.headers[name] !== undefined) headers[name] = response.headers[name];
  return { status: response.status, headers, body: response.body };
}

const keyOf = (response: TransportResponse): string => (response.body as { api_key: string }).api_key;

// ---- the crash test -------------------------------------------------------------------------

describe('afp serve --data survives SIGKILL', () => {
  const file = join(DIR, 'crash.db');
  const startIso = new Date(START_MS).toISOString();

  test('same keys, balances, escrows and rate limits as a process that never crashed', async () => {
    const pair = new Pair();
    pair.attach(await serve(['--data', file, '--clock', 'manual', '--seed', SEED, '--start', startIso]));
    const alice = keyOf(
      await pair.send({ mount: 'api', method: 'POST', path: '/register', body: { agent_id: 'alice' } }),
    );
    const bob = keyOf(
      await pair.send({
        mount: 'api',
        method: 'POST',
        path: '/register',
        body: { agent_id: 'bob', referrer: 'alice' },
      }),
    );
    await pair.send({ mount: 'faucet', method: 'POST', path: '/api/v1/faucet/claim' }, alice);
    const escrow = await pair.send(
      { mount: 'api', method: 'POST', path: '/escrow', body: { amount: '5.00', receiver: 'bob', expires_in: 3_600 } },
      alice,
    );
    expect(escrow.status).toBe(201);
    const escrowId = (escrow.body as { escrow_id: string }).escrow_id;
    await pair.advance(MINUTE_MS);
    await pair.setTier('bob', 'pro');
    await pair.send(
      {
        mount: 'api',
        method: 'POST',
        path: '/escrow',
        rawBody: { text: '{"amount":', contentType: 'application/json' },
      },
      alice,
    );
    await pair.send({ mount: 'api', method: 'GET', path: '/status' }, 'sk_live_not_a_key');
    await pair.send({ mount: 'api', method: 'GET', path: '/nowhere' });
    await pair.mcpFaucetStatus(alice);
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++)
      statuses.push((await pair.send({ mount: 'api', method: 'GET', path: '/status' }, alice)).status);
    expect(statuses).toContain(429); // the faucet row (10 / min) ran out
    await crash(pair['served']);

    // Restarted with the settings left out: the log's are served.
    const restarted = await serve(['--data', file]);
    pair.attach(restarted);
    // 22 requests, and the MCP client's three transport requests (initialize, initialized, its
    // event-stream GET), each charged to the rate limiter and so logged.
    expect(restarted.stderr()).toMatch(/^recovered: 25 commands from .*crash\.db in \d+ ms$/m);
    expect(restarted.stdout().split('\n')[0]).toBe(`seed: ${SEED}`);
    await pair.send({ mount: 'api', method: 'GET', path: '/status' }, alice); // still limited, same remaining
    await pair.send({ mount: 'api', method: 'GET', path: `/escrow/${escrowId}` }, alice);
    await pair.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/alice' }, alice);
    await pair.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/bob' }, bob);
    await pair.advance(3_600_000); // the escrow's expiry falls due after the restart
    const expired = await pair.send({ mount: 'api', method: 'GET', path: `/escrow/${escrowId}` }, alice);
    expect(expired.body).toMatchObject({ status: 'expired' });
    const carol = keyOf(
      await pair.send({ mount: 'api', method: 'POST', path: '/register', body: { agent_id: 'carol' } }),
    );
    restarted.child.kill('SIGTERM'); // a clean stop this time: the WAL is checkpointed
    expect(await restarted.exited).toBe(0);

    const again = await serve(['--data', file, '--seed', SEED, '--clock', 'manual']);
    pair.attach(again);
    expect(again.stderr()).toMatch(/^recovered: 32 commands from /m);
    await pair.send({ mount: 'api', method: 'GET', path: '/status' }, carol);
    await pair.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/alice' }, alice);
    await crash(again);

    // Keys at rest stay hashed: no key text in the database or its WAL.
    for (const path of [file, `${file}-wal`].filter((candidate) => existsSync(candidate))) {
      const bytes = readFileSync(path).toString('latin1');
      expect(bytes).not.toContain('sk_live_');
      for (const key of [alice, bob, carol]) expect(bytes).not.toContain(key.slice(8));
    }
  });

  test('a different --seed (or clock) than the log was written with exits 2 naming the difference', async () => {
    const other = await serveExit(['--data', file, '--seed', '8', '--clock', 'wall']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/seed: the log has 7, the flags give 8/);
    expect(other.stderr).toMatch(/clock: the log has manual, the flags give wall/);
    expect(other.stderr).toMatch(/leave those flags out/);
  });
});

describe('afp serve --data refuses files it cannot trust', () => {
  test('a foreign file, a directory, a newer schema, a file in use: exit 2 with a message', async () => {
    const foreign = join(DIR, 'foreign.txt');
    writeFileSync(foreign, 'not a database at all\n');
    expect(await serveExit(['--data', foreign])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/not an afp command log \(not a SQLite database\)/) as string,
    });
    expect(await serveExit(['--data', DIR])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/not a regular file/) as string,
    });

    const newer = join(DIR, 'newer.db');
    const log = await opened(newer);
    log.adopt(settings());
    log.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(newer);
    db.exec(`PRAGMA user_version = ${COMMAND_LOG_SCHEMA_VERSION + 1}`);
    db.close();
    expect(await serveExit(['--data', newer])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /written by a newer afp \(command log schema 4; this afp reads schema 3\)/,
      ) as string,
    });

    const otherApp = join(DIR, 'other-app.db');
    const other = new DatabaseSync(otherApp);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    expect(await serveExit(['--data', otherApp])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/a SQLite database of another application/) as string,
    });

    const busy = join(DIR, 'busy.db');
    const holder = await serve(['--data', busy, '--clock', 'manual']);
    expect(await serveExit(['--data', busy])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/in use by another process/) as string,
    });
    await crash(holder);
  });
});

// ---- in-process: the seams ----------------------------------------------------------------

async function opened(file: string): Promise<CommandLog> {
  const log = await openCommandLog(file, { knownDefects: DEFECT_NAMES });
  if ('error' in log) throw new Error(log.error);
  return log;
}

function settings(overrides: Partial<LogSettings> = {}): LogSettings {
  return { ...LOG_SETTINGS, ...overrides };
}

describe('recovery seams', () => {
  test('a logged credential authenticates exactly as the header it came from', async () => {
    const { platform, client } = inProcessSetup();
    const registered = await client.raw({
      mount: 'api',
      method: 'POST',
      path: '/register',
      body: { agent_id: 'seam' },
    });
    const key = (registered.body as { api_key: string }).api_key;
    const headers = [
      undefined,
      '',
      'Basic abc',
      'Bearer',
      'Bearer nope',
      'Bearer sk_live_0000',
      `Bearer ${key}`,
      `Bearer   ${key}  `,
      `bearer ${key}`,
    ];
    for (const header of headers) {
      const identified = platform.identify(header);
      const replayed = new Platform({ seed: SEED, startMs: START_MS });
      const credential = credentialOf(identified);
      expect(JSON.stringify(credential)).not.toContain(key);
      const viaCredential = platform.identifyCredential(credential);
      expect(
        typeof viaCredential === 'object' && viaCredential !== null ? viaCredential.agent : viaCredential,
        String(header),
      ).toBe(typeof identified === 'object' && identified !== null ? identified.agent : identified);
      expect(replayed.identifyCredential(credential) === null).toBe(identified === null);
    }
  });

  test('a logged body failure comes back as the same Failure; a malformed one is reported corrupt', async () => {
    const file = join(DIR, 'body-failure.db');
    const log = await opened(file);
    expect(log.adopt(settings())).toEqual([]);
    const request = { mount: 'api', method: 'POST', path: '/claim', query: {}, headers: {}, ip: '127.0.0.1' } as const;
    const tooLarge = failWithStatus(413, 'BAD_REQUEST', 'request body is larger than 1024 bytes');
    log.appendRequest({ ...request, bodyFailure: tooLarge, bodyText: 'x'.repeat(10) }, 'none', START_MS);
    log.appendRequest(
      { ...request, bodyFailure: fail('BAD_REQUEST', 'malformed JSON', { detail: 'at 3' }) },
      'none',
      START_MS,
    );
    expect(log.commit()).toEqual({ ok: true, entries: 2 });
    log.close();
    const db = new DatabaseSync(file);
    db.prepare("INSERT INTO commands (at_ms, kind, entry, body) VALUES (?, 'request', ?, NULL)").run(
      START_MS,
      JSON.stringify({
        mount: 'api',
        method: 'POST',
        path: '/claim',
        query: {},
        ip: '127.0.0.1',
        auth: null,
        body_failure: { ok: false, status: 400, code: 'NOPE', message: 'x' },
      }),
    );
    db.close();
    const reopened = await opened(file);
    const [first, second, third] = [...reopened.commands()];
    reopened.close();
    expect(first?.kind === 'request' && first.request.bodyFailure).toEqual(tooLarge);
    expect(first?.kind === 'request' && isFailure(first.request.bodyFailure)).toBe(true);
    expect(second?.kind === 'request' && second.request.bodyFailure).toEqual(
      fail('BAD_REQUEST', 'malformed JSON', { detail: 'at 3' }),
    );
    expect(third).toEqual({ seq: 3, kind: 'corrupt', reason: 'body_failure' });
  });

  test('a tool call of /mcp is logged with its door and comes back with it; an unknown door is reported corrupt', async () => {
    const file = join(DIR, 'door.db');
    const log = await opened(file);
    expect(log.adopt(settings())).toEqual([]);
    const request = { mount: 'escrow', method: 'POST', path: '/x', query: {}, headers: {}, ip: '127.0.0.1' } as const;
    log.appendRequest({ ...request, door: 'mcp' }, 'none', START_MS);
    log.appendRequest(request, 'none', START_MS);
    expect(log.commit()).toEqual({ ok: true, entries: 2 });
    log.close();
    const db = new DatabaseSync(file);
    db.prepare("INSERT INTO commands (at_ms, kind, entry, body) VALUES (?, 'request', ?, NULL)").run(
      START_MS,
      JSON.stringify({ ...request, headers: undefined, auth: null, door: 'smtp' }),
    );
    db.close();
    const reopened = await opened(file);
    const [first, second, third] = [...reopened.commands()];
    reopened.close();
    expect(first?.kind === 'request' && first.request.door).toBe('mcp');
    expect(second?.kind === 'request' && 'door' in second.request).toBe(false);
    expect(third).toEqual({ seq: 3, kind: 'corrupt', reason: 'door' });
  });

  test('the clock resumes at the last logged instant at least, and keeps a wall run’s offset', () => {
    const stats = (lastAtMs: number | undefined, clockMovedMs = 0): RecoveryStats => ({
      commands: 1,
      internalErrors: 0,
      lastAtMs,
      clockMovedMs,
    });
    expect(resumeAtMs(settings(), stats(START_MS + 5_000), START_MS + 999_999)).toBe(START_MS + 5_000);
    expect(resumeAtMs(settings(), stats(undefined), START_MS + 999_999)).toBe(START_MS);
    const wall = settings({ clockMode: 'wall', wallOffsetMs: 1_000 });
    expect(resumeAtMs(wall, stats(START_MS + 5_000, 86_400_000), START_MS + 60_000)).toBe(
      START_MS + 60_000 + 1_000 + 86_400_000,
    );
    // The wall clock went backwards between runs: time stands at the last logged instant.
    expect(resumeAtMs(wall, stats(START_MS + 5_000), START_MS - 3_600_000)).toBe(START_MS + 5_000);
  });

  test('casino game closures are stored with the settings: a restart serves them, other closures are refused', async () => {
    const file = join(DIR, 'closures.db');
    const closures = [{ game: 'dice' as const, fromMs: START_MS + 60_000, untilMs: START_MS + 120_000 }];
    const first = await opened(file);
    first.adopt(settings({ closures }));
    first.close();
    const second = await opened(file);
    expect(second.adopt(settings({ closures: [] }))).toEqual([
      `casino game closures: the log has dice ${new Date(START_MS + 60_000).toISOString()}..${new Date(START_MS + 120_000).toISOString()}, the flags give none`,
    ]);
    second.close();
    const third = await opened(file);
    expect(third.adopt(settings({ closures }))).toEqual([]);
    const served = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: SEED,
      port: 0,
      clockMode: 'manual',
      commandLog: third,
      log: () => undefined,
    });
    try {
      expect(served.platform.closures).toEqual(closures);
      const platform = (await (await fetch(`${served.urls['api'] ?? ''}/_afp/platform`)).json()) as Record<
        string,
        unknown
      >;
      expect(platform['casino_closures']).toEqual([
        { game: 'dice', from_ms: START_MS + 60_000, until_ms: START_MS + 120_000 },
      ]);
    } finally {
      await served.close();
      third.close();
    }
  });

  test('in-process startServe: a wall-clock run keeps its clock moves and its state across a restart', async () => {
    const file = join(DIR, 'wall.db');
    const wallNowMs = Date.now();
    const first = await opened(file);
    first.adopt(settings({ clockMode: 'wall', startMs: wallNowMs }));
    const served = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: SEED,
      port: 0,
      clockMode: 'wall',
      commandLog: first,
      log: () => undefined,
    });
    await fetch(`${served.urls['api'] ?? ''}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"w"}',
    });
    await fetch(`${served.urls['api'] ?? ''}/_afp/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance_ms":86400000}',
    });
    await served.close();
    first.close();

    const second = await opened(file);
    expect(second.existed).toBe(true);
    expect(second.adopt(settings({ clockMode: 'wall', startMs: wallNowMs }))).toEqual([]);
    const again = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: SEED,
      port: 0,
      clockMode: 'wall',
      commandLog: second,
      log: () => undefined,
    });
    try {
      expect(again.recovery).toMatchObject({ commands: 2, internalErrors: 0 });
      expect(again.platform.agents.has('w')).toBe(true);
      expect(again.clock.nowMs()).toBeGreaterThanOrEqual(Date.now() + 86_400_000 - 5_000);
    } finally {
      await again.close();
      second.close();
    }
  });
});
