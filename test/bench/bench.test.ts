// Smoke test of `npm run bench` (bench/main.ts): the CI-sized run completes and reports sane
// numbers, and the replays it times are faithful (no status or outcome differs from the
// captured run); the casino part's bets are all accepted; the load part measures both its targets. No timing assertions: speed targets are judged in benchmark runs, never in tests.
// Plus the pure pieces the numbers rest on: the small variant's population scaling, the
// HTTP plan's dependencies and identifier rebinding, and how the report judges steadiness.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatJson, formatTable, type BenchResult } from '../../bench/bench-report.ts';
import { planHttp } from '../../bench/http-plan.ts';
import type { PhaseSummary, RoundResult } from '../../bench/measure.ts';
import { scaleCounts } from '../../bench/quickstart-mix.ts';
import type { MixExchange } from '../../bench/traffic-mix.ts';
import type { Population } from '../../src/scenario/scenario.ts';

const root = join(import.meta.dirname, '..', '..');

/** Every number outside `checks`, with its path. */
function numbersOf(value: unknown, path: string, out: [string, number][]): [string, number][] {
  if (typeof value === 'number') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((item, index) => numbersOf(item, `${path}/${index}`, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value))
      if (!(path === '' && key === 'checks')) numbersOf(item, `${path}/${key}`, out);
  }
  return out;
}

// The travel part runs at its own test's size (travel-bench: 500 agents) rather than --small's
// 2,000: here only its numbers' sanity is asserted, and 500 agents still make every travel call
// and the century (--only travel alone: 4.2 -> 3.4 CPU s at load 27). The other parts keep
// --small's sizes: the casino's and load's are asserted; the recovery's 50,000 commands -> 40,000
// (still one checkpoint) saved 0.2 CPU s, not worth leaving --small for.
const SMALLER_PARTS = ['--travel-agents', '500'];

describe('bench/main.ts --small --rounds 1 --no-http --json', () => {
  test('runs, every number is positive and finite, and the replays match the captured run', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'bench', 'main.ts'),
        ...['--small', '--rounds', '1', '--no-http', '--json', '--load-connections', '10', ...SMALLER_PARTS],
      ],
      // A bound on a hang, not a budget: 19 CPU s, 47 s idle, 192 s on a 2-core machine at load 40.
      { cwd: root, encoding: 'utf8', timeout: 600_000 },
    );
    expect(run.stderr).not.toContain('crash');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown> & {
      mix: { requests: number };
      phases: {
        in_process: { best: { requests: number } };
        bare: { best: { requests: number; ops: number } };
        http: unknown;
      };
      target: { verdict: string };
      machine: { cpus: number };
      steadiness: { in_process_median_over_best: number; bare_median_over_best: number; busy: boolean };
      casino: {
        agents: number;
        style: string;
        phases: { bets: { best: { ops: number; requests: number } }; hmac: { best: { ops: number } } };
        ratios: { bets_over_hmac: { best: number } };
        target: { bets_over_hmac_min: number; verdict: string };
      };
      load: {
        connections: number;
        rounds: {
          afp: { per_second: number };
          autocannon: { per_second: number };
          k6: { per_second: number } | null;
        }[];
        k6_missing: string | null;
        troubles: string[];
        stalls: { closed_loop: { latency: { max_ms: number } }; open_model: { latency: { p99_ms: number } } | null };
        target: {
          afp_over_autocannon_min: number;
          afp_over_autocannon_verdict: string;
          afp_over_k6_min: number;
          afp_over_k6_verdict: string | null;
          open_p99_min_ms: number;
          stall_verdict: string;
        };
        serve: {
          missing: string | null;
          read: { rounds: unknown[]; serve_over_bare: number | null };
          balance: { rounds: unknown[]; serve_over_bare: number | null; answer_bytes: number | null };
          bet: { rounds: unknown[]; serve_over_bare: number | null; answer_bytes: number | null };
          write: { rounds: unknown[]; serve_over_bare: number | null };
        };
      };
      checks: Record<string, unknown>;
    };
    const numbers = numbersOf(report, '', []);
    expect(numbers.length).toBeGreaterThan(20);
    // The load averages read 0 on an idle machine: finite and not negative is all they promise.
    const loads = numbers.filter(([path]) => path.startsWith('/machine/load_average'));
    expect(loads.map(([path]) => path)).toEqual(['/machine/load_average_start', '/machine/load_average_end']);
    expect(loads.filter(([, value]) => !(Number.isFinite(value) && value >= 0))).toEqual([]);
    // A call during which no collection ran has a longest GC pause of 0; a small state's one-shot
    // job (--small: the state's audit), or a small state's longest slice (state, reset), can take
    // less CPU than the thread clock's tick.
    const mayBeZero = (path: string): boolean =>
      path.startsWith('/machine/load_average') ||
      path.endsWith('/gcPauseMsMax') ||
      path.endsWith('/oneShotCpuMs') ||
      path.endsWith('/longestSliceCpuMs');
    expect(numbers.filter(([path, value]) => mayBeZero(path) && !(Number.isFinite(value) && value >= 0))).toEqual([]);
    expect(numbers.filter(([path, value]) => !mayBeZero(path) && !(Number.isFinite(value) && value > 0))).toEqual([]);
    // --rounds without --mix-rounds sets both.
    expect(report['rounds']).toBe(1);
    expect(report['mix_rounds']).toBe(1);
    expect(report.phases.in_process.best.requests).toBe(report.mix.requests);
    expect(report.phases.bare.best.requests).toBe(report.mix.requests);
    expect(report.phases.bare.best.ops).toBeLessThanOrEqual(report.mix.requests);
    expect(report.phases.http).toBeNull();
    expect(['PASS', 'MISS']).toContain(report.target.verdict);
    // One round: the median is the best, so the spread is nil and the run is not called busy.
    expect(report.steadiness).toEqual({ in_process_median_over_best: 1, bare_median_over_best: 1, busy: false });
    expect(report.machine.cpus).toBeGreaterThanOrEqual(1);
    expect(report.checks['in_process_status_mismatches']).toBe(0);
    expect(report.checks['bare_outcome_mismatches']).toBe(0);
    // The casino part: the small population's bets all accepted (no rate or Kelly limit binds),
    // within the --small bound, and the ratio against the raw HMAC rate with its verdict.
    expect(report.casino.agents).toBe(100);
    expect(report.casino.style).toBe('A');
    expect(report.casino.phases.bets.best.requests).toBe(20_000);
    expect(report.casino.phases.bets.best.ops).toBe(20_000);
    expect(report.casino.phases.hmac.best.ops).toBe(100_000);
    expect(report.casino.target.bets_over_hmac_min).toBe(0.3);
    expect(['PASS', 'MISS']).toContain(report.casino.target.verdict);
    expect(report.checks['casino_refused_bets']).toBe(0);
    // The load part, in its short mode (one round of 1 s runs, 10 connections): afp load, autocannon
    // and k6 (when its binary is there) measured on the neutral target; `afp load --rate` over the
    // stalling server and a closed loop that sees a whole stall in its max; afp serve over the bare
    // server for a read and a write (when wrk is installed). Nothing failed.
    expect(report.load.connections).toBe(10);
    expect(report.load.troubles).toEqual([]);
    expect(report.load.rounds).toHaveLength(1);
    expect(report.load.rounds[0]?.afp.per_second).toBeGreaterThan(0);
    expect(report.load.rounds[0]?.autocannon.per_second).toBeGreaterThan(0);
    if (report.load.k6_missing === null) expect(report.load.rounds[0]?.k6?.per_second).toBeGreaterThan(0);
    expect(report.load.stalls.closed_loop.latency.max_ms).toBeGreaterThanOrEqual(500);
    expect(report.load.stalls.open_model?.latency.p99_ms).toBeGreaterThan(0);
    expect(report.load.target.afp_over_autocannon_min).toBe(0.9);
    expect(report.load.target.afp_over_k6_min).toBe(1);
    expect(report.load.target.open_p99_min_ms).toBe(500);
    expect(['PASS', 'MISS']).toContain(report.load.target.afp_over_autocannon_verdict);
    expect(['PASS', 'MISS']).toContain(report.load.target.stall_verdict);
    if (report.load.serve.missing === null) {
      expect(report.load.serve.read.rounds).toHaveLength(1);
      expect(report.load.serve.write.serve_over_bare).toBeGreaterThan(0);
      // The keyed read and the bet, with an enterprise key, each against a bare server of the same bytes.
      for (const keyed of [report.load.serve.balance, report.load.serve.bet]) {
        expect(keyed.serve_over_bare).toBeGreaterThan(0);
        expect(keyed.answer_bytes).toBeGreaterThan(100);
      }
    } else expect(report.load.serve.missing).toContain('wrk');
    expect(report.checks['load_dropped_iterations']).toBe(0);
    expect(report.checks['load_failed_requests']).toBe(0);
  }, 660_000);

  test('--only casino runs the casino part alone; style B bettors stay within their limits too', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'bench', 'main.ts'),
        '--only',
        'casino',
        '--rounds',
        '1',
        '--json',
        '--casino-style',
        'mixed',
        '--casino-agents',
        '10',
        '--casino-bets',
        '3000',
        '--hmac-count',
        '1000',
      ],
      { cwd: root, encoding: 'utf8', timeout: 600_000 },
    );
    expect(run.stderr).not.toContain('crash');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as {
      phases: unknown;
      casino: { style: string; phases: { bets: { best: { ops: number; requests: number } } } };
      checks: Record<string, unknown>;
    };
    expect(report.phases).toBeNull();
    expect(report.casino.style).toBe('mixed');
    expect(report.casino.phases.bets.best).toMatchObject({ ops: 3_000, requests: 3_000 });
    expect(report.checks['casino_refused_bets']).toBe(0);
    expect(report.checks['in_process_status_mismatches']).toBeNull();
  }, 660_000);

  test('bad flags exit 2 and name every problem', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'bench', 'main.ts'),
        '--rounds',
        '0',
        '--mix-rounds',
        '101',
        '--mix',
        'nope',
        '--bogus',
        '--only',
        'http',
        '--casino-style',
        'C',
      ],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--rounds');
    expect(run.stderr).toContain('--mix-rounds');
    expect(run.stderr).toContain('--mix');
    expect(run.stderr).toContain('--bogus');
    expect(run.stderr).toContain('--only');
    expect(run.stderr).toContain('--casino-style');
    const capped = spawnSync(
      process.execPath,
      [join(root, 'bench', 'main.ts'), '--casino-style', 'B', '--casino-agents', '1', '--casino-bets', '20000'],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    expect(capped.status).toBe(2);
    expect(capped.stderr).toContain('daily cap');
  });
});

describe('scaleCounts (the --small variant)', () => {
  const population = (agent: string, count: number): Population => ({
    agent,
    count,
    tier: 'free',
    style: 'B',
    params: {},
  });

  test('scales the quickstart populations to exactly 100 agents, keeping every population', () => {
    const scaled = scaleCounts(
      [
        population('farmer', 500),
        population('seller', 200),
        population('buyer', 295),
        population('abuser', 1),
        population('bad', 4),
      ],
      100,
    );
    expect(scaled.map((row) => row.count)).toEqual([49, 20, 29, 1, 1]);
  });

  test('leaves populations already within the total unchanged', () => {
    expect(scaleCounts([population('a', 3), population('b', 4)], 100).map((row) => row.count)).toEqual([3, 4]);
  });
});

describe('planHttp', () => {
  const exchange = (atMs: number, agentId: string, request: MixExchange['request'], body: unknown): MixExchange => ({
    atMs,
    agentId,
    request,
    status: 200,
    body,
  });
  const key = 'sk_live_0123456789abcdef0123456789abcdef0123456789abcdef';
  const exchanges: MixExchange[] = [
    exchange(
      0,
      'seller-0001',
      { mount: 'api', method: 'POST', path: '/register', body: { agent_id: 'seller-0001' } },
      { agent_id: 'seller-0001', api_key: 'sk_live_ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000' },
    ),
    exchange(
      0,
      'buyer-00001',
      { mount: 'api', method: 'POST', path: '/register', body: { agent_id: 'buyer-00001' } },
      { agent_id: 'buyer-00001', api_key: key },
    ),
    exchange(
      1_000,
      'buyer-00001',
      {
        mount: 'api',
        method: 'POST',
        path: '/escrow',
        headers: { authorization: `Bearer ${key}` },
        body: { amount: '1.00', receiver: 'seller-0001' },
      },
      { escrow_id: 'esc_9f8e7d6c5b4a' },
    ),
    exchange(
      120_000,
      'buyer-00001',
      {
        mount: 'api',
        method: 'POST',
        path: '/escrow/esc_9f8e7d6c5b4a/release',
        headers: { authorization: `Bearer ${key}` },
      },
      { status: 'released' },
    ),
  ];

  test('requests wait for the exchanges that first mentioned their identifiers, and rebind produced ones', () => {
    const plan = planHttp(exchanges, { concurrency: 4, windowMs: 60_000, windowRequestsMax: 100 });
    expect(plan.exchanges[2]?.waitsFor).toEqual([0, 1]);
    expect(plan.exchanges[2]?.rebindings).toEqual([
      { at: 'headers/authorization', prefix: 'Bearer ', from: 1, pointer: '/api_key' },
    ]);
    expect(plan.exchanges[3]?.waitsFor).toEqual([1, 2]);
    expect(plan.exchanges[3]?.rebindings.map((rebinding) => [rebinding.at, rebinding.from, rebinding.pointer])).toEqual(
      [
        ['path/2', 2, '/escrow_id'],
        ['headers/authorization', 1, '/api_key'],
      ],
    );
    expect([...plan.producers].sort((a, b) => a - b)).toEqual([1, 2]);
  });

  test('windows cut at windowMs of virtual time, move the clock to their last instant, and keep each agent in one lane', () => {
    const plan = planHttp(exchanges, { concurrency: 4, windowMs: 60_000, windowRequestsMax: 100 });
    expect(plan.windows.map((window) => window.clockMs)).toEqual([1_000, 120_000]);
    const lanes = plan.windows[0]?.lanes ?? [];
    expect(lanes.flat().sort((a, b) => a - b)).toEqual([0, 1, 2]);
    expect(lanes.find((lane) => lane.includes(1))).toContain(2);
    for (const lane of lanes) expect([...lane].sort((a, b) => a - b)).toEqual(lane);
  });
});

describe('the report says how steady the rounds were', () => {
  const round = (wallMs: number, ops: number): RoundResult => ({
    ops,
    requests: 1_000,
    wallMs,
    heapBeforeBytes: 1,
    heapAfterBytes: 2,
  });
  const phase = (bestMs: number, medianMs: number, ops: number): PhaseSummary => {
    const best = round(bestMs, ops);
    const median = round(medianMs, ops);
    return {
      rounds: [best, median],
      best,
      median,
      bestRequestsPerSecond: 1e6 / bestMs,
      medianRequestsPerSecond: 1e6 / medianMs,
    };
  };
  const result = (inProcessMedianMs: number): BenchResult => ({
    node: 'v24',
    machine: { cpus: 2, loadAverageStart: 0, loadAverageEnd: 1.5 },
    rounds: 2,
    mixRounds: 2,
    gcForced: true,
    mixPart: {
      seed: '1',
      mix: { name: 'm', agents: 1, durationMs: 1, requests: 1_000, startIso: '2026-01-01T00:00:00.000Z' },
      inProcess: phase(100, inProcessMedianMs, 1_000),
      bare: phase(40, 42, 800),
      http: null,
      writes: null,
    },
    casino: null,
    load: null,
    recovery: null,
    checks: {
      inProcessStatusMismatches: 0,
      bareOutcomeMismatches: 0,
      httpStatusMismatches: null,
      httpTransportErrors: null,
      httpMismatchKinds: [],
      writeFailures: null,
      casinoRefusedBets: null,
      loadFailedRequests: null,
      loadDroppedIterations: null,
    },
  });

  test('a median round 15% or more above the best marks the run busy, in the table and in JSON', () => {
    const busy = formatTable(result(125));
    expect(busy).toContain('machine: 2 CPUs, load average 0.00 at the start, 1.50 at the end');
    expect(busy).toContain(
      'steadiness: median round over best in-process +25%, bare +5% (15% or more: the machine was busy',
    );
    expect(JSON.parse(formatJson(result(125))).steadiness).toEqual({
      in_process_median_over_best: 1.25,
      bare_median_over_best: 1.05,
      busy: true,
    });
    const steady = formatTable(result(105));
    expect(steady).toContain('steadiness: median round over best in-process +5%, bare +5%\n');
    expect(JSON.parse(formatJson(result(105))).steadiness.busy).toBe(false);
  });

  test('the durable line: serve --data over in-memory writes/s, best and median, judged on the median', () => {
    const base = result(105);
    const withHttp = (durableBestMs: number, durableMedianMs = 500): BenchResult => ({
      ...base,
      mixPart:
        base.mixPart === null
          ? null
          : {
              ...base.mixPart,
              writes: {
                connections: 64,
                generator: 'wrk (1 thread)',
                roundMs: 3_000,
                memory: phase(200, 220, 1_000),
                durable: phase(durableBestMs, durableMedianMs, 1_000),
                stallMsMax: { memory: 4.5, durable: 37.25 },
                checkpointEvery: 5_000,
                checkpointsPerRoundMin: 3,
                checkpointBlockingMsMax: 12.25,
                checkpointBlockingCpuMsMax: 8.5,
                cpuPerWrite: {
                  memory: { server: 150, loop: 120, worker: 0, generator: 150 },
                  durable: { server: 200, loop: 125, worker: 40, generator: 175 },
                },
              },
            },
    });
    expect(formatTable(withHttp(250))).toContain(
      'serve --data writes/s / in-memory writes/s   best 0.800  median 0.440  target >= 0.85  MISS',
    );
    expect(formatTable(withHttp(240, 260))).toContain(
      'serve --data writes/s / in-memory writes/s   best 0.833  median 0.846  target >= 0.85  MISS',
    );
    expect(formatTable(withHttp(250))).toContain('--checkpoint-every 5000: at least 3 checkpoint(s) per round)');
    expect(formatTable(withHttp(250))).toContain(
      '(writes: POST /register over 64 connections from wrk (1 thread), 3 s rounds;',
    );
    expect(formatTable(withHttp(250))).toContain('\n  per round: 0.800  0.440\n');
    expect(formatTable(withHttp(250))).toContain(
      '  longest /health wait during the rounds: in memory 4.5 ms, --data 37.3 ms (target <= 50 ms with checkpoints)',
    );
    expect(formatTable(withHttp(250))).toContain(
      "  longest block of the --data server's event loop by a checkpoint (its own measure): cpu 8.5 ms, wall 12.3 ms (target <= 50 ms)",
    );
    expect(formatTable(withHttp(250))).toContain(
      '  CPU µs per write (medians): in memory server 150 (loop 120, checkpoint worker 0), generator 150; --data server 200 (loop 125, checkpoint worker 40), generator 175\n' +
        '  the ratio the CPU predicts when the round keeps every core busy: 0.800; with the checkpoint worker on a core of its own: 0.896; when the event loop alone is the bottleneck: 0.960',
    );
    const json = JSON.parse(formatJson(withHttp(250))) as {
      ratios: { durable_over_memory: { best: number }; durable_over_memory_per_round: number[] };
      target: { durable_over_memory_min: number; durable_verdict: string };
    };
    expect(json.ratios.durable_over_memory.best).toBeCloseTo(0.8, 9);
    expect(json.ratios.durable_over_memory_per_round.map((value) => value.toFixed(3))).toEqual(['0.800', '0.440']);
    expect(json.target).toMatchObject({ durable_over_memory_min: 0.85, durable_verdict: 'MISS' });
  });
});
