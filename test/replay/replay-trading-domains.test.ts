// Trading and domains settings travel with a record and with afp serve (issue 20): a scenario's
// price shocks and market closures (`trading.shocks`, `trading.closures`) and its domain year and
// grace (`platform.domain_year`, `platform.domain_grace`) are set outside HTTP, so
//   - `afp run --record` writes them into the header's `platform` at absolute instants;
//   - `afp serve --scenario` applies them (GET /_afp/platform lists them) and a replay against it
//     has zero differences: every quote, fill, liquidation and expiry answer is the recorded one;
//   - a served platform without them is named, setting by setting, as `setup` differences;
//   - `afp serve --data` keeps them across a restart: the restarted platform has the same state
//     digest as before, and still the same shocks, closures and domain lengths.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scenarioServeSettings } from '../../src/cli/serve-settings.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { openCommandLog, type CommandLog } from '../../src/server/command-log.ts';
import { startServe } from '../../src/server/listeners.ts';
import { DEFECT_NAMES } from '../../src/services/shared/context.ts';
import { recordScenario, replayRecord, serveFromScenario, type ScenarioRecording } from './scenario-replay-fixture.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2026-05-04T00:00:00Z');
const HOUR_MS = 3_600_000;

const TRADING = `
name: trading-shock-replay
seed: 5
start: 2026-05-04T00:00:00Z
duration: 6h
populations:
  - agent: leveraged-gambler
    count: 4
    params: { markets: [BTC, SOL], leverage: 10, notional: 40, long: 0.7, wait: 30m }
  - agent: momentum-trader
    count: 2
    params: { market: BTC, amount: 3, leverage: 3, threshold_bps: 30, every: 20m }
trading:
  shocks:
    - { market: BTC, at: 2h, move_bps: -3000 }
  closures:
    - { market: SOL-PERP, from: 3h, for: 1h }
`;

const DOMAINS = `
name: domain-grace-replay
seed: 6
start: 2026-05-04T00:00:00Z
duration: 3d
populations:
  - agent: domain-squatter
    count: 4
    params: { every: 6h, pool: 5, tld: xyz, renew: 0.3 }
casino:
  starting_deposit: '200.00'
platform:
  domain_year: 1d
  domain_grace: 5h
`;

let directory: string;
let trading: ScenarioRecording;
let domains: ScenarioRecording;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-trading-domains-'));
  await writeFile(join(directory, 'trading.yaml'), TRADING);
  await writeFile(join(directory, 'domains.yaml'), DOMAINS);
  trading = await recordScenario(join(directory, 'trading.yaml'), directory, 'trading.jsonl');
  domains = await recordScenario(join(directory, 'domains.yaml'), directory, 'domains.jsonl');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function digestOf(api: string): Promise<string> {
  const body = (await (await fetch(`${api}/_afp/digest`)).json()) as { digest: string };
  return body.digest;
}

async function platformOf(api: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${api}/_afp/platform`)).json()) as Record<string, unknown>;
}

describe('recording', () => {
  test('the header lists the shock and the market closure at absolute instants, and the domain year and grace', () => {
    expect(trading.header.platform?.trading_shocks).toEqual([
      { base: 'BTC', at_ms: START_MS + 2 * HOUR_MS, move_bps: -3000 },
    ]);
    expect(trading.header.platform?.market_closures).toEqual([
      { symbol: 'SOL-PERP', from_ms: START_MS + 3 * HOUR_MS, until_ms: START_MS + 4 * HOUR_MS },
    ]);
    expect(domains.header.platform).toMatchObject({
      domain_year_ms: 24 * HOUR_MS,
      domain_grace_ms: 5 * HOUR_MS,
      trading_shocks: [],
      market_closures: [],
    });
    const ordersAfterShock = trading.exchanges.filter(
      (exchange) =>
        exchange.at_ms >= START_MS + 2 * HOUR_MS &&
        exchange.request.method === 'POST' &&
        /order/.test(exchange.request.path),
    );
    expect(ordersAfterShock.length).toBeGreaterThan(0);
  });
});

describe('replaying', () => {
  for (const name of ['trading', 'domains'] as const) {
    test(`${name}: against afp serve --scenario, zero differences and the settings listed`, async () => {
      const recording = name === 'trading' ? trading : domains;
      const handle = await serveFromScenario(recording.scenario);
      try {
        const platform = await platformOf(handle.urls.api as string);
        for (const key of ['trading_shocks', 'market_closures', 'domain_year_ms', 'domain_grace_ms'])
          expect(platform[key], key).toEqual(recording.header.platform?.[key as 'trading_shocks']);
        const { code, output, diff } = await replayRecord(
          recording.recordPath,
          handle.urls.api as string,
          directory,
          `${name}-configured`,
        );
        expect(diff.differences_total, JSON.stringify(diff.differences.slice(0, 5))).toBe(0);
        expect(code, output).toBe(0);
        expect(diff.sent).toBe(recording.exchanges.length);
      } finally {
        await handle.close({ forceAfterMs: 100 });
      }
    });
  }

  test('against a plain afp serve: each missing setting is a setup difference and the hint names --scenario', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '5',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    try {
      const tradingReplay = await replayRecord(
        trading.recordPath,
        handle.urls.api as string,
        directory,
        'trading-plain',
      );
      expect(tradingReplay.code).toBe(3);
      const pointers = tradingReplay.diff.differences
        .filter((difference) => difference.kind === 'setup')
        .map((difference) => difference.pointer);
      expect(pointers).toEqual(['platform/trading_shocks/0', 'platform/market_closures/0']);
      expect(tradingReplay.output).toContain('--scenario');
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
    const plain = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '6',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    try {
      const domainsReplay = await replayRecord(
        domains.recordPath,
        plain.urls.api as string,
        directory,
        'domains-plain',
      );
      expect(domainsReplay.code).toBe(3);
      const setup = domainsReplay.diff.differences.filter((difference) => difference.kind === 'setup');
      expect(setup.map((difference) => [difference.pointer, difference.expected])).toEqual([
        ['platform/domain_year_ms', 24 * HOUR_MS],
        ['platform/domain_grace_ms', 5 * HOUR_MS],
      ]);
    } finally {
      await plain.close({ forceAfterMs: 100 });
    }
  });
});

describe('afp serve --data', () => {
  async function openLog(file: string): Promise<CommandLog> {
    const log = await openCommandLog(file, { knownDefects: DEFECT_NAMES });
    if ('error' in log) throw new Error(log.error);
    return log;
  }

  test('a restart from the log keeps the shocks, closures and domain lengths, and reaches the same digest', async () => {
    const file = join(directory, 'trading.db');
    const settings = scenarioServeSettings(trading.scenario, { clockMode: 'manual', wallNowMs: Date.now() });
    const logSettings = { ...settings, clockMode: 'manual' as const, wallOffsetMs: 0, defects: [] };
    const first = await openLog(file);
    expect(first.adopt(logSettings)).toEqual([]);
    const served = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      port: 0,
      clockMode: 'manual',
      log: () => undefined,
      ...settings,
      commandLog: first,
    });
    let before: string;
    let platformBefore: Record<string, unknown>;
    try {
      const { code, diff } = await replayRecord(
        trading.recordPath,
        served.urls.api as string,
        directory,
        'trading-logged',
      );
      expect(diff.differences_total, JSON.stringify(diff.differences.slice(0, 5))).toBe(0);
      expect(code).toBe(0);
      before = await digestOf(served.urls.api as string);
      platformBefore = await platformOf(served.urls.api as string);
    } finally {
      await served.close({ forceAfterMs: 100 });
      first.close();
    }
    expect(platformBefore['trading_shocks']).toEqual(trading.header.platform?.trading_shocks);
    const second = await openLog(file);
    expect(second.settings?.trading).toEqual(settings.trading);
    // No --scenario on restart: the log's stored settings are served.
    expect(second.adopt({ ...logSettings })).toEqual([]);
    expect(second.adopt({ ...logSettings, trading: { shocks: [], closures: [] } })).toEqual([
      `trading price shocks: the log has BTC -3000 bps at ${new Date(START_MS + 2 * HOUR_MS).toISOString()}, the flags give none`,
      `market closures: the log has SOL-PERP ${new Date(START_MS + 3 * HOUR_MS).toISOString()}..${new Date(START_MS + 4 * HOUR_MS).toISOString()}, the flags give none`,
    ]);
    const restarted = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      port: 0,
      clockMode: 'manual',
      seed: '1',
      log: () => undefined,
      commandLog: second,
    });
    try {
      expect(await digestOf(restarted.urls.api as string)).toBe(before);
      expect(await platformOf(restarted.urls.api as string)).toEqual(platformBefore);
    } finally {
      await restarted.close({ forceAfterMs: 100 });
      second.close();
    }
  });
});
