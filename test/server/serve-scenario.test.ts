// `afp serve --scenario FILE` and the set-up admin rows: the scenario's seed, start (manual clock),
// dispute outcome and fault windows are served, explicit --seed/--start win, a wall clock anchors
// the windows at its own start; GET /_afp/platform shows the settings; POST /_afp/tier sets a tier
// (400 bad body, 404 unknown agent naming it, 405 other methods) and the next request sees it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve-flags.ts';
import { loadServeScenario, scenarioServeSettings } from '../../src/cli/serve-settings.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { SHED_DEFAULTS } from '../../src/server/load-shedder.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
const SCENARIO_FILE = join('scenarios', 'tiers-and-faults.yaml');
const START_MS = Date.parse('2026-02-01T00:00:00Z');
const HOUR_MS = 3_600_000;

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 100 });
});

async function scenario(): Promise<Scenario> {
  const loaded = await loadServeScenario(SCENARIO_FILE);
  if ('error' in loaded) throw new Error(loaded.error);
  return loaded;
}

async function call(
  url: string,
  init?: { method: string; body: unknown },
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(
    url,
    init === undefined
      ? undefined
      : { method: init.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) },
  );
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('scenario settings for afp serve', () => {
  test('--scenario leaves the seed to the scenario unless --seed is given', () => {
    const nowMs = Date.parse('2025-06-01T00:00:00Z');
    expect(parseServeArgs(['--scenario', 'x.yaml', '--clock', 'manual'], nowMs)).toEqual({
      port: 8700,
      seed: undefined,
      clockMode: 'manual',
      startMs: undefined,
      defects: [],
      shed: SHED_DEFAULTS,
      scenario: 'x.yaml',
    });
    expect(parseServeArgs(['--scenario', 'x.yaml', '--seed', '9'], nowMs)).toMatchObject({
      seed: '9',
      scenario: 'x.yaml',
    });
  });

  test('manual clock: the scenario start; wall clock: now; explicit flags win; windows keep their offsets', async () => {
    const loaded = await scenario();
    const manual = scenarioServeSettings(loaded, { clockMode: 'manual', wallNowMs: 5 });
    expect(manual).toMatchObject({ seed: '11', startMs: START_MS });
    expect(manual.config.escrow.disputeOutcome).toBe('release');
    expect(manual.faults).toEqual([
      { service: 'escrow', fromMs: START_MS + 12 * HOUR_MS, untilMs: START_MS + 14 * HOUR_MS, status: 503 },
      { service: 'faucet', fromMs: START_MS + 24 * HOUR_MS, untilMs: START_MS + 25 * HOUR_MS, status: 500 },
    ]);
    const wallNowMs = Date.parse('2030-01-01T00:00:00Z');
    const wall = scenarioServeSettings(loaded, { clockMode: 'wall', wallNowMs });
    expect(wall.startMs).toBe(wallNowMs);
    expect(wall.faults[0]?.fromMs).toBe(wallNowMs + 12 * HOUR_MS);
    const explicit = scenarioServeSettings(loaded, { clockMode: 'manual', wallNowMs, seed: '4', startMs: 1_000 });
    expect(explicit).toMatchObject({ seed: '4', startMs: 1_000 });
    expect(explicit.faults[1]?.fromMs).toBe(1_000 + 24 * HOUR_MS);
  });

  test('an invalid scenario names the file and line', async () => {
    expect(await loadServeScenario('scenarios/no-such-file.yaml')).toMatchObject({
      error: expect.stringMatching(/^cannot read --scenario scenarios\/no-such-file\.yaml/) as unknown,
    });
  });
});

describe('set-up admin rows', () => {
  test('GET /_afp/platform shows the served settings; a fault answers inside its window', async () => {
    const settings = scenarioServeSettings(await scenario(), { clockMode: 'manual', wallNowMs: 0 });
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      port: 0,
      clockMode: 'manual',
      log: () => undefined,
      ...settings,
    });
    handles.push(handle);
    const api = handle.urls.api as string;
    expect(await call(`${api}/_afp/platform`)).toMatchObject({
      status: 200,
      body: {
        dispute_outcome: 'release',
        faults: [
          { service: 'escrow', from_ms: START_MS + 12 * HOUR_MS, until_ms: START_MS + 14 * HOUR_MS, status: 503 },
          { service: 'faucet', from_ms: START_MS + 24 * HOUR_MS, until_ms: START_MS + 25 * HOUR_MS, status: 500 },
        ],
      },
    });
    await call(`${api}/_afp/clock`, { method: 'POST', body: { to_ms: START_MS + 24 * HOUR_MS } });
    expect((await call(`${api}/register`, { method: 'POST', body: { agent_id: 'in-the-window' } })).status).toBe(500);
    const plain = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '1',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    handles.push(plain);
    expect((await call(`${plain.urls.api as string}/_afp/platform`)).body).toEqual({
      dispute_outcome: 'refund',
      faults: [],
      casino_closures: [],
      trading_shocks: [],
      market_closures: [],
      domain_year_ms: 365 * 24 * HOUR_MS,
      domain_grace_ms: 30 * 24 * HOUR_MS,
      seed: '1',
    });
  });

  test('--scenario scenarios/trading-crash.yaml serves its shocks and market closure at the served start; domain-rush its domain year and grace', async () => {
    const crash = await loadServeScenario(join('scenarios', 'trading-crash.yaml'));
    if ('error' in crash) throw new Error(crash.error);
    const settings = scenarioServeSettings(crash, { clockMode: 'manual', wallNowMs: 0 });
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      port: 0,
      clockMode: 'manual',
      log: () => undefined,
      ...settings,
    });
    handles.push(handle);
    const day = 24 * HOUR_MS;
    expect((await call(`${handle.urls.api as string}/_afp/platform`)).body).toMatchObject({
      trading_shocks: [
        { base: 'BTC', at_ms: crash.startMs + 2 * day, move_bps: -3000 },
        { base: 'ETH', at_ms: crash.startMs + 49 * HOUR_MS, move_bps: -2000 },
      ],
      market_closures: [
        { symbol: 'SOL-PERP', from_ms: crash.startMs + 2 * day, until_ms: crash.startMs + 2 * day + 2 * HOUR_MS },
      ],
    });
    const rush = await loadServeScenario(join('scenarios', 'domain-rush.yaml'));
    if ('error' in rush) throw new Error(rush.error);
    expect(scenarioServeSettings(rush, { clockMode: 'manual', wallNowMs: 0 }).config.domains).toMatchObject({
      yearMs: 60 * day,
      graceMs: 7 * day,
    });
  });

  test('POST /_afp/tier sets the tier the next request is limited by; bad bodies 400, unknown agents 404', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '1',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    handles.push(handle);
    const api = handle.urls.api as string;
    const faucet = handle.urls.faucet as string;
    const registered = await call(`${api}/register`, { method: 'POST', body: { agent_id: 'upgraded' } });
    const key = registered.body['api_key'] as string;
    const status = async (): Promise<string | null> =>
      (await fetch(`${faucet}/api/v1/faucet/status`, { headers: { authorization: `Bearer ${key}` } })).headers.get(
        'x-ratelimit-limit',
      );
    expect(await status()).toBe('100');
    expect(
      await call(`${api}/_afp/tier`, { method: 'POST', body: { agent_id: 'upgraded', tier: 'pro' } }),
    ).toMatchObject({ status: 200, body: { agent_id: 'upgraded', tier: 'pro' } });
    expect(handle.platform.agents.get('upgraded')?.tier).toBe('pro');
    expect(await status()).toBe('1000');
    expect(await call(`${api}/_afp/tier`, { method: 'POST', body: { agent_id: 'nobody', tier: 'pro' } })).toMatchObject(
      { status: 404, body: { code: 'NOT_FOUND', agent_id: 'nobody' } },
    );
    expect(
      await call(`${api}/_afp/tier`, { method: 'POST', body: { agent_id: 'upgraded', tier: 'gold' } }),
    ).toMatchObject({ status: 400, body: { error: 'tier must be one of free, pro, enterprise' } });
    expect(
      await call(`${api}/_afp/tier`, { method: 'POST', body: { agent_id: 'upgraded', tier: 'pro', note: 1 } }),
    ).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await call(`${api}/_afp/tier`, { method: 'POST', body: ['upgraded'] })).toMatchObject({ status: 400 });
    expect((await fetch(`${api}/_afp/tier`)).status).toBe(405);
    // The api mount only: on a service mount the path is no admin row (the router answers 404).
    expect(
      (await call(`${faucet}/_afp/tier`, { method: 'POST', body: { agent_id: 'upgraded', tier: 'free' } })).status,
    ).toBe(404);
    expect(handle.platform.agents.get('upgraded')?.tier).toBe('pro');
  });
});

describe('afp serve --scenario (CLI)', () => {
  test('serves the scenario: its seed, its start, its settings', async () => {
    const child = spawn(
      process.execPath,
      [MAIN, 'serve', '--port', '0', '--clock', 'manual', '--scenario', SCENARIO_FILE],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const answers = await new Promise<{ platform: unknown; clock: unknown }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line: ${stdout} ${stderr}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (!/^ready$/m.test(stdout)) return;
        clearTimeout(timer);
        const api = /^api: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1] ?? 'http://invalid';
        Promise.all([call(`${api}/_afp/platform`), call(`${api}/_afp/clock`)])
          .then(([platform, clock]) => resolve({ platform: platform.body, clock: clock.body }))
          .catch(reject);
      });
    });
    const code = await new Promise<number | null>((resolve) => {
      child.on('close', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('seed: 11');
    expect(stderr).toContain(
      'scenario tiers-and-faults: dispute_outcome release; 2 fault window(s): escrow 503 2026-02-01T12:00:00.000Z..2026-02-01T14:00:00.000Z',
    );
    expect(answers.platform).toMatchObject({
      dispute_outcome: 'release',
      faults: [{ service: 'escrow' }, { service: 'faucet' }],
    });
    expect(answers.clock).toMatchObject({ now_ms: START_MS, mode: 'manual' });
  });

  test('an invalid scenario file: exit 2 with the file and line', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'afp-serve-scenario-'));
    const file = join(directory, 'bad.yaml');
    await writeFile(file, 'name: bad\nduration: 1d\npopulations:\n  - agent: nobody\n    count: 1\n');
    try {
      const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--scenario', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain(
        `afp serve: invalid --scenario:\n${file}:4 populations[0].agent: unknown agent 'nobody'`,
      );
      expect(stderr).toContain('usage: afp serve');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
