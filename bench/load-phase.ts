/**
 * The load part of `npm run bench` (issue 16, part 9), two measures, each within one run:
 *
 * 1. Generator rate. Against the trivial target (200 '{}' at once, in a child process), rounds of
 *    autocannon's raw loop (`autocannon({ url, connections, duration })`, nothing of afp's in the
 *    way) alternate with rounds of afp's open-model generator (src/load/generator.ts) sending
 *    through afp load's own request path (src/load/load-run-transport.ts: the agents' recording
 *    transport over the lean keep-alive client, src/load/http-client.ts), with no bench-only
 *    shortcut. "afp's generator rate" is the rate
 *    it sustains at saturation: constant-arrival-rate far above what the target can answer
 *    (SATURATING_RATE), `max_in_flight` equal to autocannon's connections, so at most as many
 *    requests are in flight as autocannon keeps and every arrival past them is dropped (counted);
 *    the rate is the requests answered per second of wall time, as for autocannon. Both pay for
 *    their connections' setup inside the round. Target: afp / autocannon ≥ 0.9 on the best rounds.
 * 2. Coordinated omission. Against a server that stalls 1 s every 5 s (load-servers.ts), one run
 *    of afp's open model at a constant arrival rate, latency from each request's intended start:
 *    its p99 must show the stall (≥ 500 ms). Beside it, a closed loop over the same server
 *    (autocannon through `runAutocannon`, the latency autocannon itself measures): its senders wait
 *    out the stall with one request each, so its p99 hides it.
 * Measuring only; the figures are printed by bench-report.ts.
 */
import autocannon from 'autocannon';
import { runAutocannon } from '../src/load/autocannon-engine.ts';
import type { ArrivalPlan } from '../src/load/executors.ts';
import { LoadStop, runGenerator, systemLoadClock, type IterationEnd } from '../src/load/generator.ts';
import type { WaitClock } from '../src/core/clock.ts';
import {
  LoadRecorder,
  overallHistogram,
  percentilesOf,
  type LoadSample,
  type LoadSnapshot,
} from '../src/load/load-recorder.ts';
import { loadSender, recordingTransport, type LoadSender } from '../src/load/load-run-transport.ts';
import type { LoadPartResult, StallRunResult } from './bench-report.ts';
import { serveInChild } from './load-server-child.ts';
import { STALL_EVERY_5S, type StallSchedule } from './load-servers.ts';
import { measureRound, summarize, type RoundResult } from './measure.ts';

/** Arrivals per second far above what a loopback target answers: the generator runs saturated. */
export const SATURATING_RATE = 1_000_000;
/** The open model's rate under the stalls, and an in-flight cap that holds a whole stall's arrivals (no drop hides one). */
export const STALL_OPEN_RATE = 500;
export const STALL_OPEN_MAX_IN_FLIGHT = 2_000;

export interface LoadPartOptions {
  readonly connections: number;
  readonly roundMs: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

/** One round of autocannon's raw loop: answered requests over the round's wall time. */
export function autocannonRawRound(url: string, connections: number, roundMs: number): Promise<RoundResult> {
  return measureRound(async () => {
    const result = await autocannon({ url, connections, duration: roundMs / 1000 });
    return { ops: result.requests.total, requests: result.requests.total };
  });
}

/** How long requests in flight at a run's end may finish. */
const GRACEFUL_STOP_MS = 2_000;

/**
 * One run of afp's generator: `plan`'s arrivals, each iteration one GET of `url` through afp load's
 * own request path — the agents' recording transport over the sender (load-run-transport.ts: the
 * lean keep-alive client, as many connections as the in-flight cap), recorded from its intended
 * start. As in `afp load`, a transport belongs to a sender slot (an agent there: load-run.ts builds
 * one per agent, load-run-pool.ts hands an arrival to the next free one), made once, not per
 * iteration. Nothing here is faster than what `afp load` runs.
 */
async function generatorRun(url: string, plan: ArrivalPlan): Promise<LoadSnapshot> {
  const clock = systemLoadClock();
  const recorder = new LoadRecorder(clock.nowMs());
  const sender = loadSender({ urls: { api: url }, maxSockets: plan.maxInFlight });
  const onSample = (sample: LoadSample): void => recorder.record(sample);
  const slots = Array.from({ length: plan.maxInFlight }, () => benchSlot(sender, clock, onSample));
  let cursor = 0;
  const start = (intendedStartMs: number, ended: (end: IterationEnd) => void): boolean => {
    for (let tried = 0; tried < slots.length; tried++) {
      const slot = slots[cursor] as BenchSlot;
      cursor = (cursor + 1) % slots.length;
      if (!slot.busy) {
        slot.iterate(intendedStartMs, ended);
        return true;
      }
    }
    return false;
  };
  try {
    await runGenerator({
      plan,
      clock,
      recorder,
      source: { start },
      stop: new LoadStop(),
      interrupt: () => sender.interrupt(),
    });
  } finally {
    sender.close();
  }
  return recorder.snapshot();
}

interface BenchSlot {
  readonly busy: boolean;
  iterate(intendedStartMs: number, ended: (end: IterationEnd) => void): void;
}

/** An agent's share of afp load's path, for one GET per iteration: its own recording transport, its iteration's intended start handed to its first request. */
function benchSlot(sender: LoadSender, clock: WaitClock, onSample: (sample: LoadSample) => void): BenchSlot {
  let intended: number | null = null;
  const takeIntendedStartMs = (): number | null => {
    const value = intended;
    intended = null;
    return value;
  };
  const transport = recordingTransport({ sender, clock, onSample, takeIntendedStartMs, before: () => null });
  const slot = {
    busy: false,
    iterate: (intendedStartMs: number, ended: (end: IterationEnd) => void): void => {
      slot.busy = true;
      intended = intendedStartMs;
      const free = (end: IterationEnd): void => {
        intended = null;
        slot.busy = false;
        ended(end);
      };
      transport({ mount: 'api', method: 'GET', path: '/' }).then(
        () => free(null),
        (error: unknown) => free({ error }),
      );
    },
  };
  return slot;
}

const answered = (snapshot: LoadSnapshot): number =>
  snapshot.endpoints.reduce((sum, row) => sum + row.requests - (row.statuses['0'] ?? 0), 0);

/** One round of afp's open model at saturation: requests answered over the round's wall time (its graceful drain included). */
export function generatorRound(url: string, maxInFlight: number, roundMs: number): Promise<RoundResult> {
  const plan: ArrivalPlan = {
    kind: 'arrivals',
    executor: 'constant-arrival-rate',
    rate: SATURATING_RATE,
    timeUnitMs: 1_000,
    durationMs: roundMs,
    maxInFlight,
    gracefulStopMs: GRACEFUL_STOP_MS,
  };
  return measureRound(async () => {
    const requests = answered(await generatorRun(url, plan));
    return { ops: requests, requests };
  });
}

/** afp's open model over the stalling server: a constant arrival rate, latency from the intended start. */
export async function openModelUnderStalls(url: string, runMs: number): Promise<StallRunResult> {
  const plan: ArrivalPlan = {
    kind: 'arrivals',
    executor: 'constant-arrival-rate',
    rate: STALL_OPEN_RATE,
    timeUnitMs: 1_000,
    durationMs: runMs,
    maxInFlight: STALL_OPEN_MAX_IN_FLIGHT,
    gracefulStopMs: GRACEFUL_STOP_MS,
  };
  const snapshot = await generatorRun(url, plan);
  return stallRunOf(snapshot);
}

function stallRunOf(snapshot: LoadSnapshot): StallRunResult {
  const requests = snapshot.endpoints.reduce((sum, row) => sum + row.requests, 0);
  const failed = snapshot.endpoints.reduce((sum, row) => sum + row.failed, 0);
  return { requests, failed, dropped: snapshot.iterations.dropped, latency: percentilesOf(overallHistogram(snapshot)) };
}

/** The closed loop over the stalling server: `connections` senders, each waiting for its answer. */
export async function closedLoopUnderStalls(url: string, connections: number, runMs: number): Promise<StallRunResult> {
  return stallRunOf(
    await runAutocannon({ url, method: 'GET', connections, durationMs: runMs, endpoint: 'GET /', timeoutMs: 10_000 }),
  );
}

/** How long a stall run lasts: one period and one stall, so it holds a whole stall whatever its phase. */
export function stallRunMs(schedule: StallSchedule): number {
  return schedule.periodMs + schedule.stallMs;
}

async function rateRounds(
  options: LoadPartOptions,
): Promise<Pick<LoadPartResult, 'autocannon' | 'generator' | 'missing'>> {
  const { connections, roundMs, rounds, log } = options;
  const target = await serveInChild({ kind: 'trivial' });
  try {
    log(`load: trivial target at ${target.url}; ${connections} connections, rounds of ${roundMs} ms; warm-up`);
    await autocannonRawRound(target.url, connections, roundMs);
    await generatorRound(target.url, connections, roundMs);
    const raw: RoundResult[] = [];
    const afp: RoundResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      raw.push(await autocannonRawRound(target.url, connections, roundMs));
      afp.push(await generatorRound(target.url, connections, roundMs));
      log(
        `load round ${round}/${rounds}: autocannon ${raw.at(-1)?.requests} requests in ${raw.at(-1)?.wallMs.toFixed(0)} ms, afp ${afp.at(-1)?.requests} in ${afp.at(-1)?.wallMs.toFixed(0)} ms`,
      );
    }
    return { autocannon: summarize(raw), generator: summarize(afp), missing: null };
  } finally {
    await target.stop();
  }
}

async function stallRuns(options: LoadPartOptions): Promise<LoadPartResult['stalls']> {
  const schedule = STALL_EVERY_5S;
  const runMs = stallRunMs(schedule);
  const server = await serveInChild({ kind: 'stalling', schedule });
  try {
    options.log(
      `load: coordinated omission, a server stalling ${schedule.stallMs} ms every ${schedule.periodMs} ms at ${server.url}; open model then closed loop, ${runMs} ms each`,
    );
    const openModel = await openModelUnderStalls(server.url, runMs);
    const closedLoop = await closedLoopUnderStalls(server.url, options.connections, runMs);
    return {
      ...schedule,
      runMs,
      openRate: STALL_OPEN_RATE,
      openMaxInFlight: STALL_OPEN_MAX_IN_FLIGHT,
      openModel,
      closedLoop,
    };
  } finally {
    await server.stop();
  }
}

/** The whole load part: rate rounds on the trivial target, then the stall runs; each server in its own child process. */
export async function loadPart(options: LoadPartOptions): Promise<LoadPartResult> {
  const rates = await rateRounds(options);
  const stalls = await stallRuns(options);
  return { connections: options.connections, roundMs: options.roundMs, ...rates, stalls };
}
