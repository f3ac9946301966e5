/**
 * The load part of `npm run bench` (issue 41, part 7: the bench measures the user's path), three
 * measures, each within one run, every generator a process of its own run as its user runs it:
 *
 * 1. Generator rate. On a neutral target in its own process (neutral-target.ts: nginx when
 *    installed, else a bare node:http server), rounds of `afp load URL --vus N` (bin/afp.js, as a
 *    user types it), autocannon's CLI and the real k6 (`k6 run --vus N`), the same URL, the same
 *    connections, the same duration (generator-runs.ts), their order rotated from round to round.
 *    Each round gives afp/autocannon and afp/k6 in requests per second; the verdicts are on the
 *    median of the per-round ratios: afp/autocannon >= 0.9 and afp/k6 >= 1.0. Without k6 the
 *    afp/k6 line says why it was not measured.
 * 2. Coordinated omission. Against a server that stalls 1 s every 5 s (--small: every 2 s; load-servers.ts), one run
 *    of `afp load URL --rate 500/s --max-vus 2000`: its p99, from each request's intended start,
 *    must show the stall (>= 500 ms). Beside it, a closed loop over the same server (autocannon
 *    through `runAutocannon`, the latency autocannon itself measures): its senders wait out the
 *    stall with one request each, so its p99 hides it.
 * 3. afp serve over a bare node:http server, read and write, driven by wrk (serve-phase.ts).
 * Bounded: `rounds` rounds of three runs of `roundMs`; each tool run has a timeout. A failed run is
 * counted in `troubles` with its reason and its round left out, never thrown.
 * Measuring only; the figures are printed by bench-report.ts.
 */
import { runAutocannon } from '../src/load/autocannon-engine.ts';
import { overallHistogram, percentilesOf } from '../src/load/load-recorder.ts';
import type { LoadPartResult, RateRound, StallRunResult } from './bench-report.ts';
import {
  afpLoad,
  afpRateRun,
  autocannonRateRun,
  isAfpLoadJson,
  k6Path,
  k6RateRun,
  type GeneratorRun,
  type RateRunOptions,
} from './generator-runs.ts';
import { serveInChild } from './load-server-child.ts';
import type { StallSchedule } from './load-servers.ts';
import { startNeutralTarget } from './neutral-target.ts';
import { servePart } from './serve-phase.ts';

/** The open model's rate under the stalls, and an in-flight cap that holds a whole stall's arrivals (no drop hides one). */
export const STALL_OPEN_RATE = 500;
export const STALL_OPEN_MAX_IN_FLIGHT = 2_000;
const STALL_RUN_SLACK_MS = 60_000;

export interface LoadPartOptions {
  readonly connections: number;
  readonly roundMs: number;
  readonly rounds: number;
  /** The stalling server's schedule (STALL_EVERY_5S; --small: STALL_EVERY_2S). */
  readonly stalls: StallSchedule;
  readonly log: (line: string) => void;
}

/** `afp load URL` in the open model over the stalling server: a constant arrival rate, latency from the intended start. */
export async function openModelUnderStalls(url: string, runMs: number): Promise<StallRunResult | string> {
  const flags = ['--rate', `${STALL_OPEN_RATE}/s`, '--max-vus', String(STALL_OPEN_MAX_IN_FLIGHT)];
  const { run, json } = await afpLoad(url, [...flags, '--duration', `${runMs}ms`], runMs + STALL_RUN_SLACK_MS);
  if (!isAfpLoadJson(json) || json.latency_ms === undefined)
    return `afp load (open model): exit ${String(run.code)}: ${run.stderr.trim().slice(0, 300)}`;
  const latency = json.latency_ms;
  return {
    requests: json.requests,
    failed: json.failed,
    dropped: json.iterations?.dropped ?? 0,
    latency: { p50Ms: latency.p50, p90Ms: latency.p90, p99Ms: latency.p99, maxMs: latency.max },
  };
}

/** The closed loop over the stalling server: `connections` senders, each waiting for its answer. */
export async function closedLoopUnderStalls(url: string, connections: number, runMs: number): Promise<StallRunResult> {
  const snapshot = await runAutocannon({
    url,
    method: 'GET',
    connections,
    durationMs: runMs,
    endpoint: 'GET /',
    timeoutMs: 10_000,
  });
  return {
    requests: snapshot.endpoints.reduce((sum, row) => sum + row.requests, 0),
    failed: snapshot.endpoints.reduce((sum, row) => sum + row.failed, 0),
    dropped: snapshot.iterations.dropped,
    latency: percentilesOf(overallHistogram(snapshot)),
  };
}

/** How long a stall run lasts: one period and one stall, so it holds a whole stall whatever its phase. */
export function stallRunMs(schedule: StallSchedule): number {
  return schedule.periodMs + schedule.stallMs;
}

type Tool = 'afp' | 'autocannon' | 'k6';

/** One round: the three tools on the target, the first one rotated by the round's number. */
async function rateRound(
  round: number,
  run: RateRunOptions,
  k6: string | null,
): Promise<Record<Tool, GeneratorRun | string | null>> {
  const tools: Tool[] = ['afp', 'autocannon', 'k6'];
  const order = [...tools.slice(round % 3), ...tools.slice(0, round % 3)];
  const runs: Record<Tool, GeneratorRun | string | null> = { afp: null, autocannon: null, k6: null };
  for (const tool of order) {
    if (tool === 'afp') runs.afp = await afpRateRun(run);
    else if (tool === 'autocannon') runs.autocannon = await autocannonRateRun(run);
    else runs.k6 = k6 === null ? null : await k6RateRun(k6, run);
  }
  return runs;
}

async function rateRounds(
  options: LoadPartOptions,
): Promise<Pick<LoadPartResult, 'target' | 'rounds' | 'k6Missing' | 'troubles'>> {
  const { connections, roundMs, rounds, log } = options;
  const k6 = k6Path();
  const k6Missing =
    k6 === null
      ? 'no k6 binary (AFP_BENCH_K6, K6_BIN, k6 on PATH, or shared/tools/k6-v1.3.0/k6 beside the clone)'
      : null;
  const target = await startNeutralTarget();
  const measured: RateRound[] = [];
  const troubles: string[] = [];
  try {
    const seconds = Math.max(1, Math.round(roundMs / 1000));
    log(
      `load: ${target.name} at ${target.url}; afp load, autocannon, k6: ${connections} connections, ${seconds} s runs`,
    );
    for (let round = 1; round <= rounds; round++) {
      const runs = await rateRound(round, { url: target.url, connections, seconds }, k6);
      const failed = [runs.afp, runs.autocannon, runs.k6].filter((run): run is string => typeof run === 'string');
      troubles.push(...failed);
      const { afp, autocannon } = runs;
      if (typeof afp === 'object' && afp !== null && typeof autocannon === 'object' && autocannon !== null) {
        const k6Run = typeof runs.k6 === 'object' ? runs.k6 : null;
        measured.push({ afp, autocannon, k6: k6Run });
        log(
          `load round ${round}/${rounds}: afp ${afp.perSecond.toFixed(0)}/s, autocannon ${autocannon.perSecond.toFixed(0)}/s, k6 ${k6Run === null ? '-' : k6Run.perSecond.toFixed(0)}/s`,
        );
      }
    }
  } finally {
    await target.stop();
  }
  return { target: target.name, rounds: measured, k6Missing, troubles };
}

async function stallRuns(options: LoadPartOptions): Promise<LoadPartResult['stalls']> {
  const schedule = options.stalls;
  const runMs = stallRunMs(schedule);
  const server = await serveInChild({ kind: 'stalling', schedule });
  try {
    options.log(
      `load: coordinated omission, a server stalling ${schedule.stallMs} ms every ${schedule.periodMs} ms at ${server.url}; afp load (open model) then a closed loop, ${runMs} ms each`,
    );
    const openModel = await openModelUnderStalls(server.url, runMs);
    const closedLoop = await closedLoopUnderStalls(server.url, options.connections, runMs);
    return {
      ...schedule,
      runMs,
      openRate: STALL_OPEN_RATE,
      openMaxInFlight: STALL_OPEN_MAX_IN_FLIGHT,
      openModel: typeof openModel === 'string' ? null : openModel,
      openMissing: typeof openModel === 'string' ? openModel : null,
      closedLoop,
    };
  } finally {
    await server.stop();
  }
}

/** The whole load part: rate rounds on the neutral target, the stall runs, then afp serve over bare; each server in its own process. */
export async function loadPart(options: LoadPartOptions): Promise<LoadPartResult> {
  const rates = await rateRounds(options);
  const stalls = await stallRuns(options);
  const serve = await servePart({
    connections: options.connections,
    seconds: Math.max(1, Math.round(options.roundMs / 1000)),
    rounds: options.rounds,
    log: options.log,
  });
  return { connections: options.connections, roundMs: options.roundMs, ...rates, stalls, serve };
}
