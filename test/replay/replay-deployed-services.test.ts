// Replay of trading and domains through the deployed dialect (issue 20, part 12): a short run of
// leveraged gamblers, domain squatters and flippers in mixed styles, recorded with `afp run
// --record`, is replayed by `afp replay FILE --target TARGET_FILE` against a real `afp serve
// --dialect deployed --clock manual` on loopback, through a targets/deployed.yaml-style file that
// funds by the serve's admin deposit (the one way afp can fund a deployment's trading and domains
// accounts). Each recorded agent gets its own trading and domains account on first use, with
// bindings of its own per service, so whois holders compare without false differences; market
// orders and registrations are sent as operations, the deployment's documented disagreements (no
// priced transfer, no spot order, renamed fields) are info findings, a limit order is sent as the
// deployment's limit order, and money (order fees and margins, registration costs) is compared
// exactly; a balance read of an account the replay funded itself differs as that funding's consequence.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { Transport } from '../../src/client/transport.ts';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { recordScenario, type ScenarioRecording } from './scenario-replay-fixture.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

const SCENARIO = `
name: deployed-services-replay
seed: 11
start: 2026-05-04T00:00:00Z
duration: 12h
populations:
  - agent: leveraged-gambler
    count: 3
    style: mixed
    params: { markets: [BTC, SOL], leverage: 5, notional: 20, long: 0.6, wait: 1h }
  - agent: domain-squatter
    count: 3
    style: mixed
    params: { every: 1h, pool: 6, tld: xyz, renew: 0 }
  - agent: domain-flipper
    count: 2
    style: mixed
    params: { every: 2h, names: 1, markup: 1.5, budget: 60 }
casino:
  starting_deposit: '200.00'
invariants: [conservation, no-negative-balance]
reports: [summary]
`;

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly expected: unknown;
  readonly seen: unknown;
  readonly evidence: string;
}

interface FindingsJson {
  readonly findings: readonly Finding[];
  readonly checks: ReadonlyArray<{ name: string; status: string }>;
}

let directory: string;
let recording: ScenarioRecording;
let giftsPath: string;

const GIFTS_START_MS = Date.parse('2026-05-04T00:00:00Z');
const HOUR_MS = 3_600_000;

/**
 * A recorded run no archetype sends: gifts (transfers without a price) of one name back and forth
 * between two agents, each followed by a lookup of its holder, and market orders on a perpetual in
 * both styles. Funds come by simulated deposits outside HTTP, as a scenario's starting deposit does.
 */
async function recordGifts(file: string): Promise<void> {
  const clock = new VirtualClock(GIFTS_START_MS);
  const platform = new Platform({ seed: 'gifts', startMs: GIFTS_START_MS, defects: [] });
  const inner = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  const recorder = createRecorder({ scenario: 'replay-gifts', seed: 'gifts', startMs: GIFTS_START_MS });
  const as = (agentId: string, ip: string): AfpClient => {
    const transport: Transport = async (request) => {
      const response = await inner(request);
      recorder.onExchange({ atMs: clock.nowMs(), agentId, request, response });
      return response;
    };
    return new AfpClient(transport, { ip });
  };
  const registered = await Promise.all([
    as('alice-0001', '10.0.0.1').faucetB.register({ agent_id: 'alice-0001' }),
    as('bob-0002', '10.0.0.2').faucetB.register({ agent_id: 'bob-0002' }),
    as('carol-0003', '10.0.0.3').faucetA.register({ agent_id: 'carol-0003' }),
  ]);
  const keys = registered.map((result) => (result.ok ? result.body.api_key : null));
  const [aliceKey, bobKey, carolKey] = keys;
  if (
    aliceKey === null ||
    aliceKey === undefined ||
    bobKey === null ||
    bobKey === undefined ||
    carolKey === null ||
    carolKey === undefined
  )
    throw new Error('fixture: registration failed');
  for (const agentId of ['alice-0001', 'carol-0003']) {
    const deposit = platform.casino.account.simulateDeposit(
      { agentId, chain: 'base', amountMicro: 100_000_000n },
      clock.nowMs(),
    );
    if (!deposit.ok) throw new Error('fixture: deposit refused');
  }
  clock.set(GIFTS_START_MS + HOUR_MS);
  const alice = as('alice-0001', '10.0.0.1').withKey(aliceKey);
  const bob = as('bob-0002', '10.0.0.2').withKey(bobKey);
  const carol = as('carol-0003', '10.0.0.3').withKey(carolKey);
  const bought = await alice.domains.registerB({ domain: 'giftname.xyz', years: 1 });
  if (!bought.ok) throw new Error(`fixture: registration of giftname.xyz refused: ${JSON.stringify(bought.body)}`);
  const given = await alice.domains.transfer({ domain: 'giftname.xyz', to: 'bob-0002' });
  if (!given.ok) throw new Error(`fixture: gift refused: ${JSON.stringify(given.body)}`);
  await alice.domains.lookup('giftname.xyz');
  await bob.domains.transfer({ domain: 'giftname.xyz', to: 'alice-0001' });
  await bob.domains.lookup('giftname.xyz');
  await bob.domains.transfer({ domain: 'giftname.xyz', to: 'carol-0003' }); // 403: no longer bob's
  await carol.trading.orderA({ symbol: 'BTC-PERP', side: 'long', size: 10, leverage: 2, type: 'market' });
  await alice.trading.orderB({
    pair: 'ETH-USDC',
    side: 'sell',
    amount: '8.00',
    market_type: 'perp',
    leverage: 3,
    type: 'market',
  });
  await carol.trading.orderA({ symbol: 'BTC-PERP', side: 'long', size: 10, leverage: 2, type: 'limit', price: 1000 });
  await recorder.finish(file);
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-deployed-services-replay-'));
  const scenarioFile = join(directory, 'deployed-services-replay.yaml');
  await writeFile(scenarioFile, SCENARIO);
  recording = await recordScenario(scenarioFile, directory, 'record.jsonl');
  giftsPath = join(directory, 'gifts.jsonl');
  await recordGifts(giftsPath);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** targets/deployed.yaml on this serve's ports, funding by its admin deposit, no pacing limits (the serve's windows answer). */
async function targetFile(handle: ServeHandle, funding: 'admin-deposit' | 'faucet'): Promise<string> {
  const urls = handle.urls;
  let text = (await readFile(join('targets', 'deployed.yaml'), 'utf8'))
    .replace('url: http://127.0.0.1:3000,', `url: ${urls.casino as string},`)
    .replace('url: http://127.0.0.1:3006,', `url: ${urls.faucet as string},`)
    .replace('url: http://127.0.0.1:3007,', `url: ${urls.escrow as string},`)
    .replace('url: http://127.0.0.1:3003,', `url: ${urls.trading as string},`)
    .replace('url: http://127.0.0.1:3004,', `url: ${urls.domains as string},`)
    .replace(/^limits:\n(?: {2}.*\n)+/m, 'limits: {}\n');
  if (funding === 'admin-deposit')
    text = text.replace(
      'funding: { method: faucet }',
      `funding: { method: admin-deposit }\nadmin_url: ${urls.casino as string}`,
    );
  const file = join(directory, `deployed-${funding}.yaml`);
  await writeFile(file, text);
  return file;
}

function describeFinding(finding: Finding): string {
  return `${finding.severity} ${finding.id}: ${finding.title} — expected ${JSON.stringify(finding.expected)}, seen ${JSON.stringify(finding.seen)}; ${finding.evidence}`;
}

async function replay(
  funding: 'admin-deposit' | 'faucet',
  name: string,
  recordPath = recording.recordPath,
  json = false,
): Promise<{ code: number; output: string; stdout: string; report: FindingsJson }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '11',
    port: 0,
    clockMode: 'manual',
    startMs: recording.header.start_ms,
    log: () => undefined,
  });
  try {
    const file = await targetFile(handle, funding);
    const out = join(directory, name);
    const chunks: string[] = [];
    let stdout = '';
    const code = await main(
      [recordPath, '--target', file, '--speed', 'max', '--out', out, ...(json ? ['--json'] : [])],
      {
        out: (text) => {
          chunks.push(text);
          stdout += text;
        },
        err: (text) => chunks.push(text),
      },
    );
    return {
      code,
      output: chunks.join(''),
      stdout,
      report: JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')) as FindingsJson,
    };
  } finally {
    await handle.close({ forceAfterMs: 100 });
  }
}

describe('replay of trading and domains through the deployed dialect', () => {
  test('the recording has trading and domains traffic in both styles', () => {
    const routes = new Set(
      recording.exchanges.map(
        (exchange) => `${exchange.request.method} ${exchange.request.path.replace(/\/[^/]+\.xyz$/, '/:name')}`,
      ),
    );
    expect([...routes].some((route) => route.includes('/api/v1/orders') || route.includes('/trading-api/order'))).toBe(
      true,
    );
    expect(
      [...routes].some(
        (route) => (route.includes('register') && route.includes('domain')) || route === 'POST /api/v1/register',
      ),
    ).toBe(true);
  });

  test('every trading and domains exchange is sent as an operation or not replayed with its reason; no false difference', async () => {
    const { code, output, report } = await replay('admin-deposit', 'admin-deposit');
    const graver = report.findings.filter((finding) => finding.severity !== 'info');
    expect(graver.map(describeFinding)).toEqual([]);
    expect(code, output).toBe(0);
    expect(output).toMatch(new RegExp(`exchanges: ${recording.exchanges.length} of ${recording.exchanges.length} `));
    for (const op of ['trading.order', 'domains.register', 'domains.lookup'])
      expect(report.checks.map((check) => check.name)).toContain(`replay ${op}`);
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    const ids = report.findings.map((finding) => finding.id);
    // Each recorded agent has its own trading and domains accounts on the target.
    expect(ids).toContain('replay:account-opened:trading');
    expect(ids).toContain('replay:account-opened:domains');
    // The deployment's documented disagreements, each an info finding.
    expect(ids).toContain('replay:skipped:unsupported:domains.transfer');
    expect(
      report.findings.find((finding) => finding.id === 'replay:skipped:unsupported:domains.transfer')?.title,
    ).toMatch(/no priced transfer/);
    expect(ids).toContain('replay:trading.order:status:open');
    expect(ids).toContain('shape:domains.lookup:renamed:registrant');
    // Both styles' market orders are sent (style B read through the documents' B order row).
    expect(ids).not.toContain('replay:skipped:unread:trading.B.order');
    const sent = /^operations: .*$/m.exec(output)?.[0] ?? '';
    expect(sent).toMatch(/trading\.order \d+/);
    expect(sent).toMatch(/domains\.register \d+/);
    // Money compared where the rules are known: fees and margins of orders, costs of registrations,
    // each agreeing (no money finding) on the stand-in, which keeps afp's prices and fees.
    expect(
      report.findings.filter((finding) => /Micro/.test(finding.id) && !finding.id.endsWith(':consequence')),
    ).toEqual([]);
    // The portfolio's balance is the trading account the replay funded: a consequence, naming it.
    for (const finding of report.findings.filter((each) => each.id.endsWith('balanceMicro:consequence')))
      expect(finding.title).toMatch(/the replay's own, funded by it/);
  });

  test('a target file that cannot fund trading or domains accounts: those exchanges are not replayed, with the reason', async () => {
    const { code, output, stdout, report } = await replay('faucet', 'faucet', recording.recordPath, true);
    // --json through a target's dialects: the envelope names what was sent, found and written.
    expect(JSON.parse(stdout)).toMatchObject({
      command: 'afp replay',
      exit_code: code,
      sent: expect.any(Number) as number,
      differences: report.findings.length,
      stopped: null,
      files: expect.arrayContaining([join(directory, 'faucet', 'findings.json')]) as string[],
    });
    expect(code, output).toBe(0);
    const skipped = report.findings.filter((finding) => finding.id.startsWith('replay:skipped:no-account:'));
    expect(skipped.map((finding) => finding.id).sort()).toEqual([
      'replay:skipped:no-account:domains',
      'replay:skipped:no-account:trading',
    ]);
    for (const finding of skipped) expect(finding.title).toMatch(/funds only by faucet/);
    expect(
      report.findings
        .filter((finding) => finding.id.startsWith('replay:trading.') || finding.id.startsWith('replay:domains.'))
        .map(describeFinding),
    ).toEqual([]);
  });

  test('gifts between agents bind each to its own domains account: holders and receivers without false differences', async () => {
    const { code, output, report } = await replay('admin-deposit', 'gifts', giftsPath);
    expect(report.findings.filter((finding) => finding.severity !== 'info').map(describeFinding)).toEqual([]);
    expect(code, output).toBe(0);
    const operations = /^operations: .*$/m.exec(output)?.[0] ?? '';
    // Two gifts sent (the third refused in both), two lookups of the holder, two market orders.
    expect(operations).toMatch(/domains\.transfer 3/);
    expect(operations).toMatch(/domains\.lookup 2/);
    expect(operations).toMatch(/trading\.order 2/);
    // Carol's limit order is the deployment's limit order (POST /v1/trade/limit), no longer skipped.
    expect(operations).toMatch(/trading\.limit 1/);
    const ids = report.findings.map((finding) => finding.id);
    expect(ids).not.toContain('replay:skipped:not-offered:trading.A.order');
    // The holders whois shows are the receivers' own domains accounts: no owner difference; the gift's
    // status is the one documented difference (completed / transferred).
    expect(ids.filter((id) => id.startsWith('replay:domains.'))).toEqual([
      'replay:domains.transfer:status:transferred',
    ]);
    expect(ids.filter((id) => id.startsWith('replay:') && id.includes(':owner'))).toEqual([]);
  });
});
