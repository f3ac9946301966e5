// Replay of positions and of the documents' close through the deployed dialect (issue 20, part 12):
// a recorded run in style A opens two perpetual positions, lists them, closes one by an order on
// the other side of exactly its quantity (the agents' way, agent/trading-kit.ts closingAmount) and
// lists again. `afp replay --target` against a real `afp serve --dialect deployed --clock manual`
// sends the positions lists as `trading.positions` (compared element by element: market, side,
// margin, leverage; the position ids bound recorded → live) and the closing order as the
// deployment's `POST /v1/trade/close` of the live position, where an open on the other side would
// be refused: no false difference. Against a stand-in that answers 500 to every close, the close
// is a major `accepted` difference and the list after it a length difference.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { Transport } from '../../src/client/transport.ts';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { toNumber } from '../../src/core/money.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { defineRoute } from '../../src/http/route.ts';
import { deployedFailure } from '../../src/http/deployed/deployed-errors.ts';
import { Platform } from '../../src/platform/platform.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe } from '../../src/server/listeners.ts';
import { marketBySymbol } from '../../src/services/trading/market-catalogue.ts';
import { closingAmount } from '../../src/agent/trading-kit.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

const START_MS = Date.parse('2026-05-04T00:00:00Z');
const HOUR_MS = 3_600_000;
let directory: string;
let recordPath: string;

async function record(file: string): Promise<void> {
  const clock = new VirtualClock(START_MS);
  const platform = new Platform({ seed: 'closes', startMs: START_MS, defects: [] });
  const inner = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  const recorder = createRecorder({ scenario: 'replay-closes', seed: 'closes', startMs: START_MS });
  const transport: Transport = async (request) => {
    const response = await inner(request);
    recorder.onExchange({ atMs: clock.nowMs(), agentId: 'carol-0003', request, response });
    return response;
  };
  const anonymous = new AfpClient(transport, { ip: '10.0.0.3' });
  const registered = await anonymous.faucetA.register({ agent_id: 'carol-0003' });
  if (!registered.ok) throw new Error('fixture: registration failed');
  if (
    !platform.casino.account.simulateDeposit(
      { agentId: 'carol-0003', chain: 'base', amountMicro: 100_000_000n },
      clock.nowMs(),
    ).ok
  )
    throw new Error('fixture: deposit refused');
  clock.set(START_MS + HOUR_MS);
  const carol = anonymous.withKey(registered.body.api_key as string);
  for (const order of [
    { symbol: 'BTC-PERP', side: 'long', size: 10, leverage: 2 },
    { symbol: 'ETH-PERP', side: 'short', size: 8, leverage: 4 },
  ]) {
    if (!(await carol.trading.orderA({ ...order, type: 'market' })).ok)
      throw new Error(`fixture: ${order.symbol} refused`);
  }
  await carol.trading.positionsA();
  clock.set(START_MS + 2 * HOUR_MS);
  const btc = platform.trading
    .positions('carol-0003', clock.nowMs())
    .find((view) => view.position.symbol === 'BTC-PERP');
  const market = marketBySymbol('BTC-PERP');
  if (btc === undefined || market === undefined) throw new Error('fixture: no BTC position');
  const size = toNumber(closingAmount(btc.position.qty, platform.trading.quote(market, clock.nowMs()).bid));
  const closed = await carol.trading.orderA({ symbol: 'BTC-PERP', side: 'short', size, leverage: 2, type: 'market' });
  if (!closed.ok) throw new Error(`fixture: the closing order was refused: ${JSON.stringify(closed.body)}`);
  await carol.trading.positionsA();
  await recorder.finish(file);
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-closes-'));
  recordPath = join(directory, 'closes.jsonl');
  await record(recordPath);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly expected: unknown;
  readonly seen: unknown;
}

/** A close the stand-in cannot answer (the test's broken target). */
const brokenClose = defineRoute<null, null>({
  id: 'trading.deployed.close',
  service: 'trading',
  style: 'deployed',
  mount: 'trading',
  method: 'POST',
  path: '/v1/trade/close',
  auth: 'bearer',
  summary: 'A close that always fails (test only).',
  parse: () => null,
  run: () => deployedFailure(500, 'internal_error', 'close broken'),
  successStatus: 200,
  render: () => ({}),
});

async function replay(
  name: string,
  routes = DEPLOYED_ROUTES,
): Promise<{ code: number; output: string; findings: readonly Finding[] }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes,
    layout: DEPLOYED_LAYOUT,
    seed: 'closes',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  try {
    const urls = handle.urls;
    const services = (['casino', 'faucet', 'escrow', 'trading', 'domains'] as const).map(
      (service) => `  ${service}: { url: ${urls[service] as string}, dialect: deployed }`,
    );
    const file = join(directory, `${name}.yaml`);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      file,
      [
        'name: deployed-closes',
        'services:',
        ...services,
        'register: { service: casino }',
        'funding: { method: admin-deposit }',
        `admin_url: ${urls.casino as string}`,
        'fairness: deployed',
        '',
      ].join('\n'),
    );
    const out = join(directory, name);
    const chunks: string[] = [];
    const code = await main([recordPath, '--target', file, '--speed', 'max', '--out', out], {
      out: (text) => chunks.push(text),
      err: (text) => chunks.push(text),
    });
    return {
      code,
      output: chunks.join(''),
      findings: (JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings,
    };
  } finally {
    await handle.close({ forceAfterMs: 100 });
  }
}

describe('replay of positions and closes through the deployed dialect', () => {
  test('the lists are compared and the closing order is the deployment close: no false difference', async () => {
    const { code, output, findings } = await replay('faithful');
    expect(
      findings
        .filter((finding) => finding.severity !== 'info')
        .map(
          (finding) =>
            `${finding.id}: ${finding.title} ${JSON.stringify(finding.expected)} / ${JSON.stringify(finding.seen)}`,
        ),
    ).toEqual([]);
    expect(code, output).toBe(0);
    const operations = /^operations: .*$/m.exec(output)?.[0] ?? '';
    expect(operations).toMatch(/trading\.order 2\b/);
    expect(operations).toMatch(/trading\.close 1\b/);
    expect(operations).toMatch(/trading\.positions 2\b/);
    expect(findings.map((finding) => finding.id)).toContain('replay:trading.close:opposite-order');
  });

  test('a target whose close fails: the close and the list after it are differences', async () => {
    const routes = DEPLOYED_ROUTES.map((route) => (route.id === 'trading.deployed.close' ? brokenClose : route));
    const { code, findings } = await replay('broken', routes);
    expect(code).not.toBe(0);
    const major = findings.filter((finding) => finding.severity === 'major').map((finding) => finding.id);
    expect(major).toContain('replay:trading.close:accepted:internal_error');
    expect(major).toContain('replay:trading.positions:positions.length');
  });
});
