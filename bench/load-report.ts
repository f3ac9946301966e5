/**
 * The load part's results as plain data (load-phase.ts measures them) and their renderings, a
 * table's lines and JSON, for bench-report.ts. Pure: everything shown is an input.
 * Rate rounds: each round's afp, autocannon and k6 requests per second on one neutral target; the
 * verdicts judge the median of the per-round ratios (a round's three runs share the machine's
 * state of that moment): afp/autocannon >= 0.9, afp/k6 >= 1.0. Coordinated omission: `afp load`'s
 * open-model p99 must show the stall (>= 500 ms), the closed loop's printed beside it. Serve: afp
 * serve / bare node:http answering the same bytes, per round, on the read, the keyed read, the bet
 * (each judged >= 0.6) and the write, the median printed; the saturation line says
 * whether wrk was the bottleneck.
 */
import type { GeneratorRun } from './generator-runs.ts';
import {
  ENDPOINT_LABELS,
  JUDGED_ENDPOINTS,
  SERVE_ENDPOINTS,
  TARGET_SERVE_OVER_BARE,
  type ServeEndpoint,
  type ServePartResult,
  type ServeRound,
} from './serve-phase.ts';

export const TARGET_AFP_OVER_AUTOCANNON = 0.9;
export const TARGET_AFP_OVER_K6 = 1.0;
export const TARGET_OPEN_P99_MS = 500;
/** Two wrk threads sending this much more than one: wrk, not the server, was the bottleneck. */
export const SATURATION_SLACK = 1.1;

/** One run against the stalling server: latency from the intended start (open model) or the send (closed loop). */
export interface StallRunResult {
  readonly requests: number;
  readonly failed: number;
  readonly dropped: number;
  readonly latency: { readonly p50Ms: number; readonly p90Ms: number; readonly p99Ms: number; readonly maxMs: number };
}

export interface RateRound {
  readonly afp: GeneratorRun;
  readonly autocannon: GeneratorRun;
  /** null without k6 (`k6Missing`) or when its run failed (`troubles`). */
  readonly k6: GeneratorRun | null;
}

/** The load part of a run: the rate rounds, the coordinated-omission runs and afp serve over bare. */
export interface LoadPartResult {
  readonly connections: number;
  readonly roundMs: number;
  /** What the rate rounds ran against (nginx or the node:http child). */
  readonly target: string;
  /** The complete rounds (afp and autocannon measured), in order. */
  readonly rounds: readonly RateRound[];
  readonly k6Missing: string | null;
  /** Runs that failed, with their reasons (their rounds are left out). */
  readonly troubles: readonly string[];
  readonly stalls: {
    readonly periodMs: number;
    readonly stallMs: number;
    readonly runMs: number;
    readonly openRate: number;
    readonly openMaxInFlight: number;
    readonly openModel: StallRunResult | null;
    readonly openMissing: string | null;
    readonly closedLoop: StallRunResult;
  };
  readonly serve: ServePartResult;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median over rounds of afp's rate over autocannon's, or over k6's (rounds with k6 only). */
export function afpRatios(load: LoadPartResult): { overAutocannon: number | null; overK6: number | null } {
  return {
    overAutocannon: median(load.rounds.map((round) => round.afp.perSecond / round.autocannon.perSecond)),
    overK6: median(
      load.rounds.flatMap((round) => (round.k6 === null ? [] : [round.afp.perSecond / round.k6.perSecond])),
    ),
  };
}

const verdictOf = (value: number | null, min: number): 'PASS' | 'MISS' | null =>
  value === null ? null : value >= min ? 'PASS' : 'MISS';

export function stallVerdict(load: LoadPartResult): 'PASS' | 'MISS' | null {
  const open = load.stalls.openModel;
  return open === null ? null : verdictOf(open.latency.p99Ms, TARGET_OPEN_P99_MS);
}

export function serveRatio(rounds: readonly ServeRound[]): number | null {
  return median(rounds.map((round) => round.serve.perSecond / round.bare.perSecond));
}

const fixed = (value: number, digits: number): string => value.toFixed(digits);

function stallLine(label: string, run: StallRunResult): string {
  const { latency } = run;
  return `${label}: ${run.requests} requests, p50 ${fixed(latency.p50Ms, 1)} ms, p90 ${fixed(latency.p90Ms, 1)} ms, p99 ${fixed(latency.p99Ms, 1)} ms, max ${fixed(latency.maxMs, 1)} ms`;
}

function ratioLine(label: string, value: number | null, min: number, missing: string): string {
  return value === null
    ? `${label}: not measured (${missing})  target >= ${fixed(min, 2)}`
    : `${label}   median ${fixed(value, 3)}  target >= ${fixed(min, 2)}  ${verdictOf(value, min) ?? ''}`;
}

/** One endpoint's ratio line: the median, the rounds, and the verdict on a judged endpoint. */
function serveEndpointLine(serve: ServePartResult, endpoint: ServeEndpoint): string {
  const rounds = serve.rounds[endpoint];
  const name = ENDPOINT_LABELS[endpoint];
  const perRound = rounds.map((one) => `${fixed(one.serve.perSecond, 0)}/${fixed(one.bare.perSecond, 0)}`).join(', ');
  const failed = rounds.reduce((sum, one) => sum + one.serve.failed + one.bare.failed, 0);
  const bytes = serve.answerBytes[endpoint];
  const value = serveRatio(rounds);
  const judged = JUDGED_ENDPOINTS.includes(endpoint);
  if (value === null)
    return `  ${name}: not measured${judged ? `  target >= ${fixed(TARGET_SERVE_OVER_BARE, 2)}` : ''}`;
  const verdict = judged
    ? `  target >= ${fixed(TARGET_SERVE_OVER_BARE, 2)}  ${verdictOf(value, TARGET_SERVE_OVER_BARE) ?? ''}`
    : '';
  const same = bytes === undefined ? '' : `; both answer ${bytes} bytes`;
  return `  ${name} serve/bare req/s   median ${fixed(value, 3)}${verdict}  (rounds serve/bare: ${perRound}; failed ${failed}${same})`;
}

function serveLines(serve: ServePartResult): string[] {
  const head = `serve: afp serve / bare node:http (the same bytes), wrk ${serve.connections} connections pinned apart from the server, ${serve.seconds} s runs, alternated`;
  if (serve.missing !== null) return [head, `  not measured: ${serve.missing}`];
  const lines = [head];
  const { saturation } = serve;
  if (saturation !== null) {
    const gain = saturation.twoThreads / saturation.oneThread;
    lines.push(
      `  generator check (bare read): wrk 1 thread ${fixed(saturation.oneThread, 0)}/s, 2 threads ${fixed(saturation.twoThreads, 0)}/s (x${fixed(gain, 2)}): ${gain < SATURATION_SLACK ? 'the server sets the rate, not wrk' : 'wrk may be the bottleneck'}`,
    );
  }
  for (const endpoint of SERVE_ENDPOINTS) lines.push(serveEndpointLine(serve, endpoint));
  return lines;
}

export function loadLines(load: LoadPartResult): string[] {
  const { stalls } = load;
  const ratios = afpRatios(load);
  const perRound = load.rounds.map(
    (round, index) =>
      `  round ${index + 1}: afp ${fixed(round.afp.perSecond, 0)}/s, autocannon ${fixed(round.autocannon.perSecond, 0)}/s, k6 ${round.k6 === null ? '-' : `${fixed(round.k6.perSecond, 0)}/s`}`,
  );
  return [
    `load: afp load URL, autocannon and k6, each as its user runs it, on ${load.target}; ${load.connections} connections, ${fixed(load.roundMs / 1000, 0)} s runs, order rotated per round`,
    ...perRound,
    ratioLine('afp / autocannon req/s', ratios.overAutocannon, TARGET_AFP_OVER_AUTOCANNON, 'no complete round'),
    ratioLine('afp / k6 req/s        ', ratios.overK6, TARGET_AFP_OVER_K6, load.k6Missing ?? 'no k6 run succeeded'),
    ...load.troubles.map((trouble) => `  failed run: ${trouble}`),
    '',
    `coordinated omission: a server that stalls ${fixed(stalls.stallMs / 1000, 0)} s every ${fixed(stalls.periodMs / 1000, 0)} s; ${fixed(stalls.runMs / 1000, 0)} s per run (a whole stall in each)`,
    stalls.openModel === null
      ? `  afp load --rate: not measured (${stalls.openMissing ?? 'no run'})`
      : `${stallLine(`  afp load --rate ${stalls.openRate}/s --max-vus ${stalls.openMaxInFlight} (latency from the intended start)`, stalls.openModel)}  target p99 >= ${TARGET_OPEN_P99_MS} ms  ${stallVerdict(load) ?? ''}`,
    `${stallLine(`  closed loop (autocannon, ${load.connections} connections, latency from the send)`, stalls.closedLoop)}  (what a closed loop reports: its senders wait out the stall)`,
    '',
    ...serveLines(load.serve),
  ];
}

// Failure counts are not in the JSON's figures (every number there is positive): `loadFailures` sums them into `checks`.
const runJson = (run: GeneratorRun): Record<string, number> => ({
  per_second: run.perSecond,
  answered: run.answered,
  seconds: run.seconds,
});

/** Everything that failed in the load part: failed requests of every run, and failed runs. */
export function loadFailures(load: LoadPartResult): number {
  const { stalls, serve } = load;
  const rates = load.rounds.reduce(
    (sum, round) => sum + round.afp.failed + round.autocannon.failed + (round.k6?.failed ?? 0),
    0,
  );
  const served = SERVE_ENDPOINTS.flatMap((endpoint) => serve.rounds[endpoint]).reduce(
    (sum, round) => sum + round.serve.failed + round.bare.failed,
    0,
  );
  const stalled = stalls.closedLoop.failed + (stalls.openModel?.failed ?? 0) + (stalls.openMissing === null ? 0 : 1);
  return rates + served + stalled + load.troubles.length + serve.troubles.length;
}

function stallJson(run: StallRunResult): Record<string, unknown> {
  const { latency } = run;
  return {
    requests: run.requests,
    latency: { p50_ms: latency.p50Ms, p90_ms: latency.p90Ms, p99_ms: latency.p99Ms, max_ms: latency.maxMs },
  };
}

function serveJson(serve: ServePartResult): Record<string, unknown> {
  const rounds = (list: readonly ServeRound[]): Record<string, unknown>[] =>
    list.map((round) => ({
      serve: { per_second: round.serve.perSecond, requests: round.serve.requests },
      bare: { per_second: round.bare.perSecond, requests: round.bare.requests },
    }));
  return {
    missing: serve.missing,
    connections: serve.connections,
    seconds: serve.seconds,
    saturation:
      serve.saturation === null
        ? null
        : { one_thread_per_second: serve.saturation.oneThread, two_threads_per_second: serve.saturation.twoThreads },
    ...Object.fromEntries(
      SERVE_ENDPOINTS.map((endpoint) => [
        endpoint,
        {
          rounds: rounds(serve.rounds[endpoint]),
          serve_over_bare: serveRatio(serve.rounds[endpoint]),
          answer_bytes: serve.answerBytes[endpoint] ?? null,
          ...(JUDGED_ENDPOINTS.includes(endpoint) ? { target: TARGET_SERVE_OVER_BARE } : {}),
        },
      ]),
    ),
    troubles: serve.troubles,
  };
}

export function loadJson(load: LoadPartResult): Record<string, unknown> {
  const { stalls } = load;
  const ratios = afpRatios(load);
  return {
    connections: load.connections,
    round_ms: load.roundMs,
    target_server: load.target,
    rounds: load.rounds.map((round) => ({
      afp: runJson(round.afp),
      autocannon: runJson(round.autocannon),
      k6: round.k6 === null ? null : runJson(round.k6),
    })),
    ratios: { afp_over_autocannon: ratios.overAutocannon, afp_over_k6: ratios.overK6 },
    target: {
      afp_over_autocannon_min: TARGET_AFP_OVER_AUTOCANNON,
      afp_over_autocannon_verdict: verdictOf(ratios.overAutocannon, TARGET_AFP_OVER_AUTOCANNON),
      afp_over_k6_min: TARGET_AFP_OVER_K6,
      afp_over_k6_verdict: verdictOf(ratios.overK6, TARGET_AFP_OVER_K6),
      open_p99_min_ms: TARGET_OPEN_P99_MS,
      stall_verdict: stallVerdict(load),
    },
    k6_missing: load.k6Missing,
    troubles: load.troubles,
    stalls: {
      period_ms: stalls.periodMs,
      stall_ms: stalls.stallMs,
      run_ms: stalls.runMs,
      open_rate: stalls.openRate,
      open_max_in_flight: stalls.openMaxInFlight,
      open_model: stalls.openModel === null ? null : stallJson(stalls.openModel),
      open_missing: stalls.openMissing,
      closed_loop: stallJson(stalls.closedLoop),
    },
    serve: serveJson(load.serve),
  };
}
