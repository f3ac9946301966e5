// `afp load` end to end against a real `afp serve` (in-process listeners on loopback, ephemeral
// ports, a wall clock as a load run needs): the scenario's agents register, fund themselves and
// act on the target; load.json holds the run; the target's state agrees with what was measured.
// Ctrl-C stops gracefully and still writes load.json; the exit codes for a target that does not
// answer (1), a dialect the agents do not speak and a scenario with no load: section (2).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/core/exit-codes.ts';
import { main as loadEnding, type LoadIo } from '../../src/cli/load.ts';
import { main as runEnding } from '../../src/cli/run.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import type { LoadRunFile } from '../../src/load/load-run-file.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from './ending-code.ts';

const main = coded(loadEnding);
const runMain = coded(runEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-load-cli-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function serve(options: { deployed?: boolean } = {}): Promise<ServeHandle> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: options.deployed === true ? DEPLOYED_ROUTES : ALL_ROUTES,
    ...(options.deployed === true ? { layout: DEPLOYED_LAYOUT } : {}),
    seed: '3',
    port: 0,
    clockMode: 'wall',
    log: () => undefined,
  });
  handles.push(handle);
  return handle;
}

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function load(argv: readonly string[], interruptAfterMs?: number): Promise<Ran> {
  let out = '';
  let err = '';
  const clock = systemLoadClock();
  const io: LoadIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTty: false,
    clock,
    onInterrupt: (handler) => {
      if (interruptAfterMs === undefined) return () => undefined;
      let listening = true;
      void clock.sleep(interruptAfterMs).then(() => listening && handler('SIGINT'));
      return () => void (listening = false);
    },
  };
  const code = await main([...argv], io);
  return { code, out, err };
}

const readRun = (out: string): LoadRunFile => JSON.parse(readFileSync(join(out, 'load.json'), 'utf8')) as LoadRunFile;
const countOf = (run: LoadRunFile, prefix: string, status: string): number =>
  run.snapshot.endpoints
    .filter((endpoint) => endpoint.endpoint.startsWith(prefix))
    .reduce((sum, endpoint) => sum + (endpoint.statuses[status] ?? 0), 0);

describe('afp load against afp serve', () => {
  test('scenarios/load-smoke.yaml for 3 s: every agent registers on the target, every request measured, exit 0', async () => {
    const handle = await serve();
    const out = join(DIR, 'smoke');
    const stream = join(DIR, 'smoke.jsonl');
    const ran = await load([
      'scenarios/load-smoke.yaml',
      '--target',
      handle.urls.api as string,
      '--out',
      out,
      '--out',
      `json=${stream}`,
      '--duration',
      '3s',
      '--quiet',
    ]);
    expect(ran.err).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.out.split('\n')[0]).toBe('seed: 7');
    expect(ran.out).toContain('plan: constant-arrival-rate 20/1s for 3s, max_in_flight 30, graceful_stop 5s');
    const run = readRun(out);
    expect(run).toMatchObject({
      format: 'afp-load-run/1',
      scenario: 'load-smoke',
      seed: '7',
      agents: 30,
      ended: { by: 'schedule', interrupted: 0, failed_iterations: 0 },
    });
    // 20 a second for 3 s: 60 arrivals, each started or dropped; 30 agents, each one set up first.
    const { started, completed, dropped } = run.snapshot.iterations;
    expect(started + dropped).toBe(60);
    expect(completed).toBe(started);
    expect(dropped).toBe(0);
    // The target's state agrees with the measurements: one registration per agent, all of them answered 201.
    expect(handle.platform.agents.size).toBe(30);
    expect(countOf(run, 'faucet.', '201')).toBe(30);
    const failed = run.snapshot.endpoints.reduce((sum, endpoint) => sum + endpoint.failed, 0);
    expect(failed).toBe(0);
    expect(run.reports.count).toBe(0);
    expect(Object.keys(run.snapshot.checks)).toEqual([
      'agent rules: escrow-buyer',
      'agent rules: escrow-seller',
      'agent rules: faucet-farmer',
    ]);
    expect(ran.out).toMatch(/iterations: 60 started, 60 completed, 0 dropped, 0 interrupted, 0 failed/);
    expect(ran.out).toContain('  pass http_req_failed: rate<0.01 (observed 0)');
    expect(ran.out).toContain(
      `files: ${join(out, 'load.json')}, ${join(out, 'summary.json')}, ${join(out, 'latency.csv')}, ${join(out, 'timeseries.csv')}, ${join(out, 'load.junit.xml')}, ${join(out, 'load.html')}, ${stream}`,
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { engine: string };
    expect(summary.engine).toBe('afp');
    // --out json=FILE: k6's JSON output, a point per request (tagged with afp's endpoint names and the scenario): load.json's counts.
    const points = readFileSync(stream, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { type: string; metric: string; data: { value?: number; tags?: Record<string, string> } },
      )
      .filter((line) => line.type === 'Point' && line.metric === 'http_reqs');
    expect(points.reduce((sum, line) => sum + (line.data.value ?? 0), 0)).toBe(
      run.snapshot.endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0),
    );
    expect(points.some((line) => line.data.tags?.['name']?.startsWith('faucet.') === true)).toBe(true);
    expect(points[0]?.data.tags?.['scenario']).toBe('load-smoke');
  });

  test('a threshold that must fail (p99 below 1 µs) with abortOnFail: the run stops within seconds, exit 5, reports written', async () => {
    const handle = await serve();
    const scenario = join(DIR, 'strict.yaml');
    const strict = "{ threshold: 'p(99)<0.001', abortOnFail: true }";
    writeFileSync(
      scenario,
      [
        'name: load-strict',
        'duration: 1m',
        'populations:',
        '  - agent: escrow-seller',
        '    count: 5',
        'load:',
        '  rate: 10',
        '  duration: 30s',
        '  graceful_stop: 1s',
        '  thresholds:',
        `    http_req_duration: [${strict}]`,
        "    http_req_failed: ['rate<0.5']",
        '',
      ].join('\n'),
    );
    const out = join(DIR, 'strict');
    const startedMs = systemLoadClock().nowMs();
    const ran = await load([scenario, '--target', handle.urls.api as string, '--out', out, '--quiet']);
    expect(ran.code).toBe(5);
    expect(systemLoadClock().nowMs() - startedMs).toBeLessThan(10_000);
    expect(ran.err).toContain('stopping: threshold http_req_duration: p(99)<0.001 failed with abortOnFail');
    expect(ran.out).toContain('  FAIL http_req_duration: p(99)<0.001');
    expect(ran.out).toContain('  pass http_req_failed: rate<0.5');
    expect(ran.out).toContain('FAILED: 1 of 2 thresholds');
    expect(readRun(out).ended).toMatchObject({
      by: 'stopped',
      reason: 'threshold http_req_duration: p(99)<0.001 failed (abortOnFail)',
    });
    expect(readFileSync(join(out, 'load.junit.xml'), 'utf8')).toContain('<failure');
  });

  test("a population's tier is applied through the serve's admin door; Ctrl-C stops gracefully, still writes load.json and exits 4", async () => {
    const handle = await serve();
    const scenario = join(DIR, 'tiers.yaml');
    writeFileSync(
      scenario,
      [
        'name: load-tiers',
        'duration: 1m',
        'populations:',
        '  - agent: faucet-farmer',
        '    count: 4',
        '    tier: pro',
        '    params: { check_status: 1.0 }',
        'load: { rate: 10, duration: 20s, graceful_stop: 2s }',
        '',
      ].join('\n'),
    );
    const out = join(DIR, 'tiers');
    const startedMs = systemLoadClock().nowMs();
    const ran = await load([scenario, '--target', handle.urls.api as string, '--out', out, '--seed', '11'], 1_500);
    // Cut short, its thresholds held on what ran: still no pass (the run did not run its course).
    expect(ran.code).toBe(EXIT.liveness);
    expect(ran.err).toContain('afp load: interrupted: the run was cut short, so it is not a pass (exit 4)');
    expect(systemLoadClock().nowMs() - startedMs).toBeLessThan(10_000);
    expect(ran.err).toContain('stopping: iterations in flight get up to 2s');
    const run = readRun(out);
    expect(run.ended).toMatchObject({ by: 'stopped', reason: 'interrupted' });
    expect(run.snapshot.iterations.started).toBeGreaterThanOrEqual(10);
    expect(run.snapshot.iterations.started).toBeLessThan(30);
    expect(handle.platform.agents.all().map((agent) => agent.tier)).toEqual(['pro', 'pro', 'pro', 'pro']);
    expect(run.setup_trouble.count).toBe(0);
  });
});

test('afp run accepts the same scenario file (it ignores load:) and every invariant holds', async () => {
  let out = '';
  const code = await runMain(['scenarios/load-smoke.yaml', '--out', join(DIR, 'simulated')], {
    out: (text) => void (out += text),
    err: () => undefined,
    errIsTty: false,
  });
  expect(code).toBe(0);
  expect(out).toMatch(/^outcome: completed$/m);
});

describe('exit codes', () => {
  test('a target that does not answer: 4 (liveness), as in every live command', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const ran = await load([
      'scenarios/load-smoke.yaml',
      '--target',
      `http://127.0.0.1:${port}`,
      '--out',
      join(DIR, 'unreachable'),
    ]);
    expect(ran.code).toBe(4);
    expect(ran.err).toContain('does not answer');
  });

  test('a serve in the deployed dialect: 4 (the target would not set up the run), naming the dialect', async () => {
    const handle = await serve({ deployed: true });
    const ran = await load([
      'scenarios/load-smoke.yaml',
      '--target',
      handle.urls.casino ?? (handle.urls.api as string),
      '--out',
      join(DIR, 'deployed'),
    ]);
    expect(ran.code).toBe(4);
    expect(ran.err).toContain('deployed dialect');
  });

  test('a scenario without load: runs its derived profile (here: no target answers, 4); bad flags: 2, every error', async () => {
    const none = await load(['scenarios/quickstart.yaml', '--target', 'http://127.0.0.1:1']);
    expect(none.code).toBe(4);
    expect(none.err).not.toContain('no load: section');
    const flags = await load(['scenarios/load-smoke.yaml', '--duration', '1.5s']);
    expect(flags.code).toBe(2);
    expect(flags.err).toContain('--target URL|FILE is required');
    expect(flags.err).toContain('--duration: duration');
  });

  test("a URL run's or autocannon's flag names its form, and its value is not counted as a second SCENARIO", async () => {
    const ran = await load([
      'scenarios/load-smoke.yaml',
      '--target',
      'http://127.0.0.1:1',
      '--threshold',
      'http_req_failed: rate<0.01',
      '--connections',
      '3',
    ]);
    expect(ran.code).toBe(2);
    expect(ran.err).toContain('--threshold applies to a URL run (afp load URL');
    expect(ran.err).toContain('--connections applies to a run of --engine autocannon');
    expect(ran.err).not.toContain('unknown flag');
    expect(ran.err).not.toContain('SCENARIO file, got');
  });
});

describe('scenarios/k6-smoke.yaml sends what its comment says', () => {
  test('each agent registers (faucet.B.register ×5), the seller lists its escrows (escrow.B.list ×1), nothing else', async () => {
    const handle = await serve();
    const out = join(DIR, 'k6-smoke');
    const ran = await load(['scenarios/k6-smoke.yaml', '--target', handle.urls.api as string, '--out', out, '--quiet']);
    expect(ran.code).toBe(0);
    const counts = Object.fromEntries(
      readRun(out).snapshot.endpoints.map((endpoint) => [endpoint.endpoint, endpoint.requests]),
    );
    expect(counts).toEqual({ 'faucet.B.register': 5, 'escrow.B.list': 1 });
    const comment = readFileSync('scenarios/k6-smoke.yaml', 'utf8');
    expect(comment).toContain('faucet.B.register');
    expect(comment).toContain('escrow.B.list');
    expect(comment).toContain('6 requests in all');
  });
});

describe('--engine autocannon', () => {
  test("one endpoint's capacity in a closed loop: the same reports, the scenario's thresholds (a loose one exits 0, p99 below 1 µs exits 5)", async () => {
    const handle = await serve();
    const api = handle.urls.api as string;
    // afp serve imports the OpenAPI document's definitions on the first GET /openapi.json: fetched
    // once here, so the closed loop of 1 s measures the endpoint and not that one-time import.
    const warm = await fetch(`${api}/openapi.json`);
    await warm.text();
    expect(warm.status).toBe(200);
    const scenarioOf = (name: string, threshold: string): string => {
      const file = join(DIR, `${name}.yaml`);
      writeFileSync(
        file,
        [
          'name: ' + name,
          'duration: 1m',
          'populations:',
          '  - agent: escrow-seller',
          '    count: 1',
          'load:',
          '  rate: 1',
          '  duration: 2s',
          '  thresholds:',
          `    'http_req_duration{endpoint:GET /openapi.json}': ['${threshold}']`,
          '',
        ].join('\n'),
      );
      return file;
    };
    const loose = join(DIR, 'ac-loose');
    // --quiet is in the usage of both engines: the closed loop has no live view to silence, so it is accepted.
    const passed = await load([
      scenarioOf('ac-loose', 'p(99)<5000'),
      '--engine',
      'autocannon',
      '--endpoint',
      `${api}/openapi.json`,
      '--target',
      api,
      '--connections',
      '4',
      '--duration',
      '1s',
      '--quiet',
      '--out',
      loose,
    ]);
    expect(passed.code, passed.out + passed.err).toBe(0);
    expect(passed.out).toMatch(/^engine: autocannon \(a closed loop: 4 connections/m);
    expect(passed.out).toMatch(/^requests: [1-9]\d* /m);
    expect(passed.out).toContain('  pass http_req_duration{endpoint:GET /openapi.json}: p(99)<5000');
    const summary = JSON.parse(readFileSync(join(loose, 'summary.json'), 'utf8')) as { engine: string };
    expect(summary.engine).toBe('autocannon');
    const strict = await load([
      scenarioOf('ac-strict', 'p(99)<0.001'),
      '--engine',
      'autocannon',
      '--endpoint',
      `${api}/openapi.json`,
      '--target',
      api,
      '--connections',
      '4',
      '--duration',
      '1s',
      '--out',
      join(DIR, 'ac-strict'),
    ]);
    expect(strict.code).toBe(5);
    expect(strict.out).toContain('FAILED: 1 of 1 thresholds');
    const bad = await load(['--engine', 'autocannon', '--target', api]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--engine autocannon needs --endpoint');
    expect((await load(['--engine', 'gatling', '--target', api])).code).toBe(2);
  });
});

describe('past one process: --workers and --shard', () => {
  test('--workers 2 runs the schedule in two threads and merges them; two --shard runs merge into the whole run', async () => {
    const handle = await serve();
    const api = handle.urls.api as string;
    const scenario = join(DIR, 'split.yaml');
    writeFileSync(
      scenario,
      [
        'name: load-split',
        'duration: 1m',
        'populations:',
        '  - agent: escrow-seller',
        '    count: 8',
        'load: { rate: 10, duration: 2s, graceful_stop: 2s }',
        '',
      ].join('\n'),
    );
    const workersOut = join(DIR, 'workers');
    const threaded = await load([scenario, '--target', api, '--workers', '2', '--out', workersOut, '--quiet']);
    expect(threaded.code, threaded.out + threaded.err).toBe(0);
    expect(threaded.out).toContain('workers: 2 threads');
    expect(threaded.out).toMatch(/iterations: 20 started, 20 completed, 0 dropped/);
    expect(readRun(workersOut).agents).toBe(8);
    const shards = await Promise.all(
      [1, 2].map(async (index) => {
        const out = join(DIR, `shard-${index}`);
        const ran = await load([scenario, '--target', api, '--shard', `${index}/2`, '--out', out, '--quiet']);
        expect(ran.code, ran.out + ran.err).toBe(0);
        expect(ran.out).toMatch(/iterations: 10 started, 10 completed/);
        expect(readRun(out).shard).toEqual({ index, count: 2 });
        return join(out, 'load.json');
      }),
    );
    const merged = join(DIR, 'merged');
    const ran = await load(['merge', ...shards, '--out', merged, '--scenario', scenario]);
    expect(ran.code, ran.out + ran.err).toBe(0);
    const whole = readRun(merged);
    expect(whole.snapshot.iterations).toMatchObject({ started: 20, completed: 20, dropped: 0 });
    expect(whole.agents).toBe(8);
    expect((await load([scenario, '--target', api, '--shard', '3/2'])).err).toContain('--shard 3/2: i must be 1..2');
    // A part with no agent would drop every arrival it owns (the whole run drops none): refused, with the most that works.
    const idleShard = await load([scenario, '--target', api, '--shard', '9/9']);
    expect(idleShard.code).toBe(2);
    expect(idleShard.err).toContain(
      "--shard 9/9: the largest population has 8 agents, and each shard runs 1 in 9 of every population's agents, so this shard would run none; split the run into at most 8 shards",
    );
    const idleWorker = await load([scenario, '--target', api, '--shard', '2/2', '--workers', '5']);
    expect(idleWorker.code).toBe(2);
    expect(idleWorker.err).toContain(
      "--workers 5 (within --shard 2/2): the largest population has 8 agents, and each worker runs 1 in 10 of every population's agents, so worker 5 would run none; use --workers 4 at most",
    );
    expect((await load([scenario, '--target', api, '--workers', '0'])).err).toContain(
      '--workers must be a whole number from 1 to',
    );
  });
});
