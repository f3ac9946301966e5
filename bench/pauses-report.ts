/**
 * The pauses part's figures as the bench prints them (pauses-phase.ts measures them): per load and
 * server, the worst round's longest event-loop delay as the server measured it (wall, and counting
 * only its CPU time: a loaded machine's waits for a core left out) and the worst
 * /health wait, each beside its target with PASS or MISS, the bare server's wait as the floor, and
 * the load average after each run (a busy machine's pauses are the machine's as much as afp's).
 * The `-apart` rows (every thread but the loop's moved off its core) say what the same server does
 * where the loop has a core of its own; the target is judged on `memory` and `data`.
 * Pure: the result in, lines or JSON out.
 */
import type { PauseLoad, PauseRun, PausesResult } from './pauses-phase.ts';

/**
 * The servers of a pauses run, in the order they run and print. `memory-apart`, `data-apart`: the
 * same servers with every thread but the loop's moved to the generator's core after the lead-in
 * (cpu-pin.ts pinThreadsApart). On one core, V8's helpers that mark and scavenge (and with --data
 * the checkpoint replica's isolate) take turns with the loop, so a collection's pause there is
 * partly their time; apart, the loop's own pauses remain.
 */
export const PAUSE_SERVERS = ['memory', 'data', 'memory-apart', 'data-apart', 'bare'] as const;
export type PauseServer = (typeof PAUSE_SERVERS)[number];
/** The afp serve kinds: every server but the bare floor, which has no loop figures of its own. */
const SERVE_KINDS = PAUSE_SERVERS.filter((server) => server !== 'bare');

/** Issue 71 part 1's targets: the server's own longest event-loop delay, and the longest /health wait beside it. */
export const TARGET_LOOP_DELAY_MS = 50;
export const TARGET_PROBE_MS = 100;

const SERVER_NAMES: Record<PauseServer, string> = {
  memory: 'afp serve in memory',
  data: 'afp serve --data',
  'memory-apart': "afp serve in memory, all but the loop's thread on the generator's core",
  'data-apart': "afp serve --data, all but the loop's thread on the generator's core",
  bare: 'bare node:http (floor)',
};
const LOAD_NAMES: Record<PauseLoad, string> = {
  register: 'POST /register (wrk)',
  mixed: 'quickstart scenario (afp load --vus)',
};

function worst(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.max(...known);
}

function verdict(value: number | null, target: number): string {
  if (value === null) return 'not measured';
  return value <= target ? 'PASS' : 'MISS';
}

function ms(value: number | null): string {
  return value === null ? '-' : `${value.toFixed(1)} ms`;
}

function checkpointText(run: PauseRun): string {
  if (run.checkpoints === null) return '';
  return `; ${run.checkpoints.written} checkpoints, longest loop block ${ms(run.checkpoints.blockingCpuMsMax)} CPU`;
}

/** One line per load and server: worst round, then every round's figures with its load average. */
function rowLines(runs: readonly PauseRun[], load: PauseLoad, server: PauseServer): string[] {
  const own = runs.filter((run) => run.load === load && run.server === server);
  if (own.length === 0) return [`  ${SERVER_NAMES[server]}: no run`];
  const loopMax = worst(own.map((run) => run.loop?.maxMs ?? null));
  const cpuMax = worst(own.map((run) => run.loop?.cpuMaxMs ?? null));
  const probeMax = worst(own.map((run) => run.probe.maxMs));
  const loopText =
    server === 'bare'
      ? ''
      : `loop max ${ms(loopMax)} (target <= ${TARGET_LOOP_DELAY_MS} ms: ${verdict(loopMax, TARGET_LOOP_DELAY_MS)}; counting CPU only ${ms(cpuMax)}: ${verdict(cpuMax, TARGET_LOOP_DELAY_MS)}), `;
  const probeText =
    server === 'bare'
      ? `/health max ${ms(probeMax)}`
      : `/health max ${ms(probeMax)} (target <= ${TARGET_PROBE_MS} ms: ${verdict(probeMax, TARGET_PROBE_MS)})`;
  const rounds = own.map(
    (run) =>
      `${server === 'bare' ? '' : `loop ${ms(run.loop?.maxMs ?? null)} (CPU ${ms(run.loop?.cpuMaxMs ?? null)}) p99 ${ms(run.loop?.p99Ms ?? null)} mean ${ms(run.loop?.meanMs ?? null)}; `}/health ${ms(run.probe.maxMs)} p99 ${ms(run.probe.p99Ms)}; ${run.requests} req (${run.failed} not 2xx)${checkpointText(run)}; load avg ${run.loadAverage.toFixed(1)}`,
  );
  return [`  ${SERVER_NAMES[server]}: ${loopText}${probeText}`, ...rounds.map((text) => `      ${text}`)];
}

export function pausesLines(result: PausesResult): string[] {
  const lines = [
    `pauses (issue 71 part 1): ${result.connections} connections, ${result.seconds} s spans, ${result.rounds} round(s); the server's own event-loop delay (monitorEventLoopDelay, 10 ms) and GET /health every 10 ms`,
    `  ${result.unpinned ?? 'generator on core 0, server on core 1 (taskset)'}${result.serveNodeFlags.length === 0 ? '' : `; server node flags: ${result.serveNodeFlags.join(' ')}`}`,
  ];
  for (const load of ['register', 'mixed'] as const) {
    lines.push(`${LOAD_NAMES[load]}:`);
    for (const server of PAUSE_SERVERS) lines.push(...rowLines(result.runs, load, server));
  }
  for (const trouble of result.troubles) lines.push(`  trouble: ${trouble}`);
  return lines;
}

export function pausesJson(result: PausesResult): Record<string, unknown> {
  const verdicts: Record<string, unknown> = {};
  for (const load of ['register', 'mixed'] as const)
    for (const server of SERVE_KINDS) {
      const own = result.runs.filter((run) => run.load === load && run.server === server);
      const loopMax = worst(own.map((run) => run.loop?.maxMs ?? null));
      const cpuMax = worst(own.map((run) => run.loop?.cpuMaxMs ?? null));
      const probeMax = worst(own.map((run) => run.probe.maxMs));
      verdicts[`${load}_${server}`] = {
        loop_max_ms: loopMax,
        loop_verdict: verdict(loopMax, TARGET_LOOP_DELAY_MS),
        loop_cpu_max_ms: cpuMax,
        loop_cpu_verdict: verdict(cpuMax, TARGET_LOOP_DELAY_MS),
        probe_max_ms: probeMax,
        probe_verdict: verdict(probeMax, TARGET_PROBE_MS),
      };
    }
  return {
    connections: result.connections,
    seconds: result.seconds,
    rounds: result.rounds,
    unpinned: result.unpinned,
    serve_node_flags: result.serveNodeFlags,
    targets: { loop_max_ms: TARGET_LOOP_DELAY_MS, probe_max_ms: TARGET_PROBE_MS },
    verdicts,
    runs: result.runs,
    troubles: result.troubles,
  };
}
