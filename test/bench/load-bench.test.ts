// The load benchmark's pieces, quickly, on real loopback servers: the stall schedule by exact
// instants; the stalling server holds an answer exactly until its stall ends and answers at once
// outside stalls; afp's open model shows the stall in its p99, a closed loop over the same server
// hides it (only its max shows it); the
// report prints both targets with their verdicts, and says so when a side was not measured.
import { describe, expect, test } from 'vitest';
import { formatJson, formatTable, type BenchResult, type LoadPartResult } from '../../bench/bench-report.ts';
import { summarize, type PhaseSummary, type RoundResult } from '../../bench/measure.ts';
import type { Percentiles } from '../../src/load/load-recorder.ts';
import { closedLoopUnderStalls, openModelUnderStalls, stallRunMs } from '../../bench/load-phase.ts';
import { serveInChild } from '../../bench/load-server-child.ts';
import { stallEndMs, startLoadServer, STALL_EVERY_5S, type StallSchedule } from '../../bench/load-servers.ts';

const SHORT: StallSchedule = { periodMs: 1_000, stallMs: 400 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the wall clock's phase in `periodMs` is `phaseMs`. */
async function waitForPhase(periodMs: number, phaseMs: number): Promise<void> {
  await sleep((phaseMs - (Date.now() % periodMs) + periodMs) % periodMs);
}

async function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const startedAt = performance.now();
  const response = await fetch(url);
  await response.text();
  return { status: response.status, ms: performance.now() - startedAt };
}

describe('stallEndMs', () => {
  test('the last stallMs of every period, on the epoch clock', () => {
    expect(stallEndMs(0, STALL_EVERY_5S)).toBeNull();
    expect(stallEndMs(3_999, STALL_EVERY_5S)).toBeNull();
    expect(stallEndMs(4_000, STALL_EVERY_5S)).toBe(5_000);
    expect(stallEndMs(4_999, STALL_EVERY_5S)).toBe(5_000);
    expect(stallEndMs(5_000, STALL_EVERY_5S)).toBeNull();
    expect(stallEndMs(1_700_000_004_250, STALL_EVERY_5S)).toBe(1_700_000_005_000);
    expect(stallRunMs(STALL_EVERY_5S)).toBe(6_000);
  });
});

describe('the stalling server', () => {
  test('holds an answer until its stall ends, answers at once outside stalls', async () => {
    const server = await startLoadServer({ kind: 'stalling', schedule: SHORT });
    try {
      await timedGet(server.url); // the connection's first use
      await waitForPhase(SHORT.periodMs, 100);
      const outside = await timedGet(server.url);
      await waitForPhase(SHORT.periodMs, 700);
      const inside = await timedGet(server.url);
      expect(outside.status).toBe(200);
      expect(outside.ms).toBeLessThan(100);
      expect(inside.status).toBe(200);
      // Sent at phase ~700 of a stall from 600 to 1,000: answered at its end, ~300 ms later.
      expect(inside.ms).toBeGreaterThan(200);
      expect(inside.ms).toBeLessThan(420);
      expect(server.stalledAnswers()).toBeGreaterThanOrEqual(1);
    } finally {
      await server.close();
    }
  });

  test('the trivial server in a child process answers 200 {} and stops by its pid', async () => {
    const child = await serveInChild({ kind: 'trivial' });
    const response = await fetch(child.url);
    expect([response.status, await response.text()]).toEqual([200, '{}']);
    await child.stop();
    await expect(fetch(child.url)).rejects.toThrow();
  });
});

describe('coordinated omission over the stalling server', () => {
  test("afp's open model shows the stall in its p99; a closed loop's p99 hides it (only its max shows it)", async () => {
    const child = await serveInChild({ kind: 'stalling', schedule: SHORT });
    try {
      const open = await openModelUnderStalls(child.url, stallRunMs(SHORT));
      const closed = await closedLoopUnderStalls(child.url, 4, stallRunMs(SHORT));
      // 500/s for 1.4 s; a whole 400 ms stall in it: a quarter or more of the arrivals wait up to 400 ms.
      expect(open).toMatchObject({ failed: 0, dropped: 0 });
      expect(open.requests).toBe(700);
      expect(open.latency.p99Ms).toBeGreaterThan(250);
      expect(closed.failed).toBe(0);
      expect(closed.requests).toBeGreaterThan(200);
      expect(closed.latency.maxMs).toBeGreaterThan(200);
      expect(closed.latency.p99Ms).toBeLessThan(100);
    } finally {
      await child.stop();
    }
  });
});

describe('the load part in the report', () => {
  const round = (wallMs: number, requests: number): RoundResult => ({
    ops: requests,
    requests,
    wallMs,
    heapBeforeBytes: 1,
    heapAfterBytes: 2,
  });
  const phase = (requests: number): PhaseSummary => summarize([round(1_000, requests)]);
  const latency = (p99Ms: number, maxMs: number): Percentiles => ({
    count: 3_000,
    minMs: 0.1,
    meanMs: 2,
    p50Ms: 0.3,
    p90Ms: 0.6,
    p95Ms: 1,
    p99Ms: p99Ms,
    p999Ms: maxMs,
    maxMs,
  });
  const load = (generator: PhaseSummary | null): LoadPartResult => ({
    connections: 10,
    roundMs: 3_000,
    autocannon: phase(20_000),
    generator,
    missing: generator === null ? 'no generator' : null,
    stalls: {
      ...STALL_EVERY_5S,
      runMs: 6_000,
      openRate: 500,
      openMaxInFlight: 2_000,
      openModel: generator === null ? null : { requests: 3_000, failed: 0, dropped: 0, latency: latency(940, 1_000) },
      closedLoop: { requests: 90_000, failed: 0, dropped: 0, latency: latency(4.8, 1_002.5) },
    },
  });
  const result = (part: LoadPartResult): BenchResult => ({
    node: 'v24',
    machine: { cpus: 2, loadAverageStart: 0, loadAverageEnd: 0 },
    rounds: 1,
    mixRounds: 1,
    gcForced: true,
    mixPart: null,
    casino: null,
    load: part,
    recovery: null,
    checks: {
      inProcessStatusMismatches: null,
      bareOutcomeMismatches: null,
      httpStatusMismatches: null,
      httpTransportErrors: null,
      httpMismatchKinds: [],
      writeFailures: null,
      casinoRefusedBets: null,
      loadFailedRequests: 0,
      loadDroppedIterations: part.stalls.openModel?.dropped ?? null,
    },
  });

  test('both targets printed with their verdicts; the closed loop beside the open model', () => {
    const table = formatTable(result(load(phase(18_600))));
    expect(table).toContain('afp generator / autocannon raw req/s   best 0.930  median 0.930  target >= 0.90  PASS');
    expect(table).toContain(
      '  afp open model (500/s, max_in_flight 2000, latency from the intended start): 3000 requests, p50 0.3 ms, p90 0.6 ms, p99 940.0 ms, max 1000.0 ms  target p99 >= 500 ms  PASS',
    );
    expect(table).toContain(
      '  closed loop (autocannon, 10 connections, latency from the send): 90000 requests, p50 0.3 ms, p90 0.6 ms, p99 4.8 ms, max 1002.5 ms',
    );
    expect(formatTable(result(load(phase(17_000))))).toContain('target >= 0.90  MISS');
    const json = JSON.parse(formatJson(result(load(phase(18_600))))) as {
      load: { target: unknown; ratios: { generator_over_autocannon: { best: number } } };
    };
    expect(json.load.target).toEqual({
      generator_over_autocannon_min: 0.9,
      verdict: 'PASS',
      open_p99_min_ms: 500,
      stall_verdict: 'PASS',
    });
    expect(json.load.ratios.generator_over_autocannon.best).toBeCloseTo(0.93, 6);
  });

  test('without the generator the report says so instead of a verdict', () => {
    const table = formatTable(result(load(null)));
    expect(table).toContain('afp generator / autocannon raw req/s: not measured (no generator)  target >= 0.90');
    expect(table).toContain('  afp open model: not measured (no generator)');
    expect(JSON.parse(formatJson(result(load(null)))).load.target).toEqual({
      generator_over_autocannon_min: 0.9,
      verdict: null,
      open_p99_min_ms: 500,
      stall_verdict: null,
    });
  });
});
