// `afp check --target` through the deployed trading and domains rows added for issue 20 (src/check/
// dialect/dialect-commands-trading.ts, dialect-commands-domains.ts), against a real `afp serve
// --dialect deployed --clock manual` on loopback: the price, an open without leverage (the default
// judged: the deployment's 5 against the documents' 1 is an info finding), resting and crossing limit
// orders, the positions list, the domains check, DNS records and the registration race all run and
// hold on a faithful stand-in, with only info findings; the stand-in's `domains-registration-race`
// (two registrations of one name in one served instant both win) is caught by the race row and
// shrunk to that one command (without the row, only a sequence that happens to register a held name
// again in the same served instant sees it, in two commands).
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { runDialectCheck } from '../../src/check/dialect/run-dialect-check.ts';
import { openServiceAccount } from '../../src/check/dialect/service-accounts.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { curlOf } from '../../src/live/curl.ts';
import { waitClockOf } from '../../src/live/remote-serve-clock.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const NEW_ROWS = [
  'tradePrice',
  'tradeOpenDefaultLeverage',
  'tradeLimitCancel',
  'tradeLimitFill',
  'tradePositions',
  'domainCheck',
  'dnsRecords',
  'domainRace',
];
const wall: WaitClock = { nowMs: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 1_000 });
});

async function deployed(defects: readonly DefectName[] = []): Promise<Target> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  const urls = handle.urls;
  const services = Object.fromEntries(
    (['casino', 'faucet', 'escrow', 'trading', 'domains'] as const).map((service) => [
      service,
      { url: urls[service] as string, dialect: 'deployed' as const },
    ]),
  );
  return {
    name: 'deployed-serve',
    source: urls.casino as string,
    afpServe: true,
    adminUrl: urls.casino as string,
    services,
    register: { service: 'casino' },
    funding: { method: 'admin-deposit' },
    limits: {},
    fairness: 'deployed',
  };
}

async function check(target: Target, seed: number, runs: number, maxCommands: number) {
  const clock = await waitClockOf(target, wall);
  return runDialectCheck({
    target,
    targetSpec: 'deployed.yaml',
    seed,
    runs,
    maxCommands,
    clock,
    deadline: new Deadline(wall, 120),
    curlOf,
  });
}

describe('afp check through the deployed trading and domains rows', () => {
  test('a faithful stand-in: every new row drawn and held; the leverage default and the pending status are info findings', async () => {
    const result = await check(await deployed(), 7, 6, 60);
    expect(result.failure).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.commands).toEqual(expect.arrayContaining(NEW_ROWS));
    const findings = result.findings.list();
    expect(findings.filter((finding) => finding.severity !== 'info')).toEqual([]);
    const byId = new Map(findings.map((finding) => [finding.id, finding]));
    // The documents name no default (afp reads 1); the deployment's is 5: a documented disagreement, not a failure.
    expect(byId.get('rule:trading.leverage.default:deployed')).toMatchObject({
      severity: 'info',
      expected: '1',
      seen: '5',
      endpoint: 'trading.order',
    });
    expect(byId.get('rule:trading.limit.status:deployed')).toMatchObject({
      severity: 'info',
      expected: 'open',
      seen: 'pending',
      endpoint: 'trading.limit',
    });
    expect(byId.get('rule:trading.leverage.default:deployed')?.reproduce).toMatch(/^curl .*\/v1\/trade\/open/);
    // The stand-in fills a market order at the taker quote (the documents' rule): it passes, no entry finding.
    expect(byId.has('rule:trading.entry.price:deployed')).toBe(false);
    // Every new operation went over the wire (their renamed fields are read and reported).
    for (const endpoint of [
      'trading.price',
      'trading.limit',
      'trading.orders',
      'trading.cancel',
      'trading.positions',
      'domains.check',
    ]) {
      expect(findings.some((finding) => (finding.endpoint ?? '').startsWith(`${endpoint} (`))).toBe(true);
    }
    // An invalid record and a TTL of 59 are refused in the deployment's error shape (no `code`).
    expect(byId.has('shape:domains.dns-add:error-shape:code')).toBe(true);
  });

  test('domains-registration-race: both of two simultaneous registrations win; caught and shrunk to the race row', async () => {
    const result = await check(await deployed(['domains-registration-race']), 7, 40, 40);
    expect(result.ok).toBe(false);
    expect(result.failure?.kind).toBe('mismatch');
    expect(result.failure?.commands).toHaveLength(1);
    expect(result.failure?.commands[0]).toMatch(/^domainRace\(d0, name#\d, two at once\)$/);
    expect(result.failure?.error).toMatch(
      /^domainRace\(d0, name#\d, two at once\): 2 of two simultaneous registrations of afp-check-[0-9a-f]{8}-\d+-\d\.xyz accepted \(charged 28\.80\), expected exactly one$/,
    );
  });

  test('on a manual clock the open and the price read after it share one instant: the entry is the taker quote, above the price for a long', async () => {
    const target = await deployed();
    const clock = await waitClockOf(target, wall);
    const deadline = new Deadline(wall, 60);
    const session = new LiveSession({ target, clock, deadline });
    const account = await openServiceAccount({ session, clock, deadline }, 'trading', 20_000_000n);
    if (typeof account === 'string') throw new Error(account);
    const opened = await session.call(
      'trading.order',
      { symbol: 'ETH-PERP', side: 'long', sizeMicro: 2_000_000n, leverage: null },
      account.apiKey,
    );
    const price = await session.call('trading.price', { symbol: 'ETH-PERP' }, null);
    if (opened.kind !== 'ok' || price.kind !== 'ok') throw new Error(`${opened.kind} ${price.kind}`);
    expect(opened.value.leverage).toBe(5);
    expect(opened.value.marginMicro).toBe(400_000n);
    expect(opened.value.openedAtMs).toBe(price.value.timestampMs);
    expect(opened.value.entryPrice).toBeGreaterThan(price.value.price);
    expect(opened.value.entryPrice).toBeLessThanOrEqual(price.value.price * 1.005);
  });
});
