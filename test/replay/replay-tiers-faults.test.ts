// What the simulator sets outside HTTP, reproduced by replay: scenarios/tiers-and-faults.yaml
// (a pro abuser, enterprise sellers, dispute_outcome release, an escrow 503 window and a faucet
// 500 window) recorded in-process by `afp run --record` (its `main`), then replayed by
// `afp replay` (its `main`) against `afp serve` listeners on 127.0.0.1:
//   - configured from the scenario (as `afp serve --scenario`): zero differences, tiers applied;
//   - a default serve: exit 3, the differing settings named as `setup` differences with the fix;
//   - the scenario's serve but a record without `tiers`: the pro abuser's x-ratelimit-limit differs
//     (1000 recorded, 100 live), so the tier calls are what makes the headers match;
//   - a target without the afp set-up endpoints (a proxy hiding them): notes, no setup differences;
//   - an old record (no platform, no tiers) still replays with zero differences.
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import type { RecordHeader, RecordedExchange } from '../../src/replay/record-format.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { START_MS, recordSmallRun } from './record-fixture.ts';
import { recordScenario, replayRecord, serveFromScenario } from './scenario-replay-fixture.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const SCENARIO_FILE = join('scenarios', 'tiers-and-faults.yaml');
const HOUR_MS = 3_600_000;

let directory: string;
let recordPath: string;
let scenario: Scenario;
let header: RecordHeader;
let exchanges: RecordedExchange[];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-setup-'));
  ({ scenario, recordPath, header, exchanges } = await recordScenario(
    SCENARIO_FILE,
    directory,
    'tiers-and-faults.jsonl',
  ));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function defaultServe(startMs: number): Promise<ServeHandle> {
  return startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '1',
    port: 0,
    clockMode: 'manual',
    startMs,
    log: () => undefined,
  });
}

const replay = (file: string, target: string, name: string): ReturnType<typeof replayRecord> =>
  replayRecord(file, target, directory, name);

/** The record with its header changed by `edit`, and only its exchanges before `untilMs` when given. */
async function recordVariant(
  source: string,
  name: string,
  edit: (header: Record<string, unknown>) => void,
  untilMs?: number,
): Promise<string> {
  let lines = (await readFile(source, 'utf8')).trimEnd().split('\n');
  if (untilMs !== undefined)
    lines = lines.filter((line, index) => index === 0 || (JSON.parse(line) as RecordedExchange).at_ms < untilMs);
  const changed = JSON.parse(lines[0] as string) as Record<string, unknown>;
  if (untilMs !== undefined) changed['exchanges'] = lines.length - 1;
  edit(changed);
  lines[0] = JSON.stringify(changed);
  const file = join(directory, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * The record's first hours, for the replays whose claims sit early in the 3-day run: the escrow
 * outage is hours 12-14, the faucet's hour 24-25, the pro abuser polls from its registration on.
 * Their full replays were about three quarters of this file's time; the configured replay, whose
 * claim is the whole run, stays whole.
 */
const prefix = (name: string, hours: number, edit: (header: Record<string, unknown>) => void = () => undefined) =>
  recordVariant(recordPath, name, edit, scenario.startMs + hours * HOUR_MS);

const abuserId = (): string =>
  Object.keys(header.tiers ?? {}).find((agentId) => agentId.startsWith('rate-limit-abuser-')) as string;

describe('recording tiers-and-faults', () => {
  test('the header carries the platform settings at absolute instants and the non-free tiers', () => {
    expect(header.platform).toEqual({
      dispute_outcome: 'release',
      faults: [
        {
          service: 'escrow',
          from_ms: scenario.startMs + 12 * HOUR_MS,
          until_ms: scenario.startMs + 14 * HOUR_MS,
          status: 503,
        },
        {
          service: 'faucet',
          from_ms: scenario.startMs + 24 * HOUR_MS,
          until_ms: scenario.startMs + 25 * HOUR_MS,
          status: 500,
        },
      ],
      casino_closures: [],
      trading_shocks: [],
      market_closures: [],
      domain_year_ms: 365 * 24 * HOUR_MS,
      domain_grace_ms: 30 * 24 * HOUR_MS,
    });
    const tiers = Object.entries(header.tiers ?? {});
    expect(
      tiers.filter(([, tier]) => tier === 'enterprise').map(([agentId]) => agentId.replace(/-\d+-[0-9a-f]{4}$/, '')),
    ).toEqual(Array(10).fill('escrow-seller'));
    expect(tiers.filter(([, tier]) => tier === 'pro')).toEqual([[abuserId(), 'pro']]);
    // The recorded run shows all three settings at work: 5xx inside the windows, the pro limit.
    expect(exchanges.some((exchange) => exchange.response.status === 503)).toBe(true);
    expect(exchanges.some((exchange) => exchange.response.status === 500)).toBe(true);
    const abuserStatus = exchanges.filter(
      (exchange) => exchange.agent === abuserId() && exchange.request.path === '/api/v1/faucet/status',
    );
    expect(abuserStatus.length).toBeGreaterThan(1_000);
    expect(
      abuserStatus
        .filter((exchange) => exchange.response.status === 200)
        .every((exchange) => exchange.response.headers['x-ratelimit-limit'] === '1000'),
    ).toBe(true);
  });
});

describe('replaying tiers-and-faults', () => {
  test('against afp serve configured from the scenario: zero differences, every tier applied', async () => {
    const handle = await serveFromScenario(scenario);
    try {
      const { code, output, diff } = await replay(recordPath, handle.urls.api as string, 'configured');
      expect(diff.differences_total, JSON.stringify(diff.differences.slice(0, 5))).toBe(0);
      expect(code, output).toBe(0);
      expect(diff.sent).toBe(exchanges.length);
      expect(diff.setup_calls).toBe(1 + Object.keys(header.tiers ?? {}).length);
      expect(output).toContain(
        "setup: the target's platform settings match the record's (dispute_outcome release, 2 fault window(s))",
      );
      expect(output).toContain(`exchanges sent: ${exchanges.length} of ${exchanges.length} · setup calls: 12`);
      for (const [agentId, tier] of Object.entries(header.tiers ?? {}))
        expect(handle.platform.agents.get(agentId)?.tier).toBe(tier);
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });

  test('against a default afp serve: exit 3, the differing settings named, the fix printed', async () => {
    const throughEscrowOutage = await prefix('through-escrow-outage.jsonl', 15);
    const handle = await defaultServe(scenario.startMs);
    try {
      const { code, output, diff } = await replay(throughEscrowOutage, handle.urls.api as string, 'default');
      expect(code).toBe(3);
      const setup = diff.differences.filter((difference) => difference.kind === 'setup');
      expect(setup).toEqual([
        {
          seq: 0,
          endpoint: '_afp/platform',
          kind: 'setup',
          pointer: 'platform/dispute_outcome',
          expected: 'release',
          actual: 'refund',
        },
        {
          seq: 0,
          endpoint: '_afp/platform',
          kind: 'setup',
          pointer: 'platform/faults/0',
          expected: header.platform?.faults[0],
          actual: null,
        },
        {
          seq: 0,
          endpoint: '_afp/platform',
          kind: 'setup',
          pointer: 'platform/faults/1',
          expected: header.platform?.faults[1],
          actual: null,
        },
      ]);
      expect(diff.by_kind['setup']).toBe(3);
      expect(output).toContain(
        'start the target as: afp serve --clock manual --scenario scenarios/tiers-and-faults.yaml',
      );
      expect(output).toContain(
        '  setup _afp/platform setup at platform/dispute_outcome: expected "release", actual "refund"',
      );
      // The settings matter: answers inside the recorded escrow outage differ too.
      expect(diff.differences).toContainEqual(expect.objectContaining({ kind: 'status', expected: 503 }));
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });

  test('without the tier calls the pro agent keeps the free limit: x-ratelimit-limit 1000 recorded, 100 live', async () => {
    const noTiers = await prefix('no-tiers.jsonl', 12, (changed) => delete changed['tiers']);
    const handle = await serveFromScenario(scenario);
    try {
      const { code, diff } = await replay(noTiers, handle.urls.api as string, 'no-tiers');
      expect(code).toBe(3);
      expect(diff.setup_calls).toBe(1);
      const sent = exchanges.slice(0, diff.sent);
      expect(sent.filter((exchange) => exchange.agent === abuserId()).length).toBeGreaterThan(100);
      const abuserSeqs = new Set(
        sent.filter((exchange) => exchange.agent === abuserId()).map((exchange) => exchange.seq),
      );
      expect(diff.differences).toContainEqual(
        expect.objectContaining({
          endpoint: 'faucet.A.status',
          pointer: 'headers/x-ratelimit-limit',
          expected: '1000',
          actual: '100',
        }),
      );
      const limitDifferences = diff.differences.filter(
        (difference) => difference.pointer === 'headers/x-ratelimit-limit',
      );
      expect(limitDifferences.some((difference) => abuserSeqs.has(difference.seq))).toBe(true);
      expect(handle.platform.agents.get(abuserId())?.tier).toBe('free');
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });

  test('a target without the set-up endpoints: notes (settings unverifiable, tiers not applied) once, no setup difference', async () => {
    const throughFaultWindows = await prefix('through-fault-windows.jsonl', 26);
    const handle = await serveFromScenario(scenario);
    const proxy = await hidingProxy(handle.urls.api as string);
    try {
      const { code, output, diff } = await replay(throughFaultWindows, proxy.url, 'hidden');
      expect(diff.by_kind['setup']).toBe(0);
      expect(diff.setup_calls).toBe(2); // one platform check, one tier call answered 404, then no more
      expect(diff.notes).toHaveLength(2);
      expect(diff.notes[0]).toMatch(
        /^the target's platform settings cannot be verified \(GET \/_afp\/platform answered 404/,
      );
      expect(diff.notes[0]).toContain('the record has 2 fault window(s): responses inside them will differ');
      expect(diff.notes[0]).toContain("resolve with 'release' in the record");
      expect(diff.notes[1]).toContain(
        "the target has no POST /_afp/tier (answered 404): the record's 11 pro/enterprise agent(s) keep the target's default tier",
      );
      expect(output).toContain('setup: platform settings not verified');
      expect(output).toContain('note: the target has no POST /_afp/tier');
      // What the notes announce: the tiered agents' answers differ; the rest (faults included) matches.
      const sent = exchanges.slice(0, diff.sent);
      expect(sent.some((exchange) => exchange.response.status === 503)).toBe(true);
      expect(sent.some((exchange) => exchange.response.status === 500)).toBe(true);
      expect(code).toBe(3);
      expect(diff.differences).toContainEqual(
        expect.objectContaining({
          endpoint: 'faucet.A.status',
          pointer: 'headers/x-ratelimit-limit',
          expected: '1000',
          actual: '100',
        }),
      );
      const tiered = new Set(Object.keys(header.tiers ?? {}));
      const agentOf = new Map(exchanges.map((exchange) => [exchange.seq, exchange.agent]));
      expect(diff.differences.filter((difference) => !tiered.has(agentOf.get(difference.seq) ?? ''))).toEqual([]);
    } finally {
      await proxy.close();
      await handle.close({ forceAfterMs: 100 });
    }
  });
});

describe('records written before platform and tiers existed', () => {
  test('an old record (no platform, no tiers) replays with zero differences against a default afp serve', async () => {
    const run = await recordSmallRun({ seed: '7' });
    const fresh = join(directory, 'small.jsonl');
    await run.recorder.finish(fresh);
    const old = await recordVariant(fresh, 'old.jsonl', (changed) => {
      delete changed['platform'];
      delete changed['tiers'];
    });
    expect(Object.keys(JSON.parse((await readFile(old, 'utf8')).split('\n')[0] as string) as object)).not.toContain(
      'platform',
    );
    const handle = await defaultServe(START_MS);
    try {
      const { code, output, diff } = await replay(old, handle.urls.api as string, 'old');
      expect(code, output).toBe(0);
      expect(diff.differences_total).toBe(0);
      expect(diff.setup_calls).toBe(1);
      expect(output).toContain(
        "setup: the target's platform settings match the record's (dispute_outcome refund, 0 fault window(s))",
      );
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
  });
});

/**
 * A stand-in for a deployment without afp's set-up doors: forwards everything to `api` but
 * /_afp/platform and /_afp/tier, over keep-alive node:http (fetch was half this test's CPU).
 */
async function hidingProxy(api: string): Promise<{ url: string; close: () => Promise<void> }> {
  const hidden = new Set(['/_afp/platform', '/_afp/tier']);
  const upstream = new URL(api);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (hidden.has(path.split('?')[0] as string)) {
      request.resume();
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found","code":"NOT_FOUND"}');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !['host', 'connection'].includes(name)) headers[name] = value;
    }
    const forward = httpRequest(
      { agent, hostname: upstream.hostname, port: upstream.port, method: request.method ?? 'GET', path, headers },
      (answer) => {
        const forwarded: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (typeof value !== 'string') continue;
          if (name === 'content-type' || name === 'retry-after' || name.startsWith('x-ratelimit-'))
            forwarded[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, forwarded);
        answer.pipe(response);
      },
    );
    forward.on('error', (error: Error) => response.writeHead(502).end(String(error)));
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
