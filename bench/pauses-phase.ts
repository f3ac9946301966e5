/**
 * The pauses part of `npm run bench` (`--only pauses`; issue 71 part 1, "no pause over 50 ms"):
 * how long afp serve's event loop stops under sustained load, measured two ways at once:
 *   - inside the server: its own `event_loop` (src/server/loop-delay.ts, `monitorEventLoopDelay`
 *     at 10 ms), the window reset when the measured span starts and read (reset again) when it
 *     ends, POST /_afp/event-loop/reset: target max <= 50 ms (pauses-report.ts), and beside it the
 *     longest counting only the server's CPU time (on a loaded machine a wait for a core is not afp's);
 *   - outside: GET /health every 10 ms on its own connection (health-probe.ts): target max <=
 *     100 ms; and the same probe against a bare node:http server (load-servers.ts `api`)
 *     under the same load, the floor this machine puts under any server.
 * Two loads of `connections` (50, the issue's) each: `register`, wrk's POST /register with a fresh
 * agent id and address per request (every answer a 201 and a new agent: the state grows all along),
 * and `mixed`, `afp load` running the quickstart scenario (its agents register, claim, bet, trade,
 * read... with the rate limits a scenario meets) as a user runs it with `--vus`; its floor is
 * `afp load URL --vus` on the bare server's GET. Each against afp serve in memory and with
 * `--data` (a fresh log, a checkpoint every BENCH_CHECKPOINT_EVERY commands so the span crosses
 * several), every server a fresh child process; and each of those again with every thread but the
 * loop's moved to the generator's core once the lead-in ends (`memory-apart`, `data-apart`): the
 * loop alone on its core, as on a machine with a core to spare for the rest.
 * Pinned (cpu-pin.ts): the generator on one core, the server on the other, as the issue measured;
 * the probe runs in this process, unpinned. Each run lasts LEAD_IN_MS + `seconds`: the lead-in's
 * once-per-process costs (the JIT's warm-up, the checkpoint worker's start, the scenario's first
 * registrations) are not what the target is about, so the window and the probe start after it.
 * The load average is noted after every run: on a shared machine a figure means little without it.
 * Bounded: every run has its tool's timeout; a run that fails is a `trouble`, its figures left out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../src/client/admin-client.ts';
import { GENERATOR_CPU, SERVER_CPU, pinThreadsApart, pinned, unpinnedReason } from './cpu-pin.ts';
import { healthProbe, type ProbeResult } from './health-probe.ts';
import { serveInChild } from './load-server-child.ts';
import { PAUSE_SERVERS, type PauseServer, pausesJson, pausesLines } from './pauses-report.ts';
import { startServeProcess } from './serve-process.ts';
import { runTool } from './tool-process.ts';
import { BENCH_CHECKPOINT_EVERY } from './write-phase.ts';
import { wrkPath, wrkRun } from './wrk-run.ts';

export { pausesJson, pausesLines };
/** The issue's load: 50 connections. */
export const PAUSE_CONNECTIONS = 50;
/** Load before the measured span (not measured). */
export const LEAD_IN_MS = 3_000;
const START_MS = Date.UTC(2026, 0, 1);
const SCENARIO = join(import.meta.dirname, '..', 'scenarios', 'quickstart.yaml');
const RUN_SLACK_MS = 60_000;

export type PauseLoad = 'register' | 'mixed';
const durable = (server: PauseServer): boolean => server === 'data' || server === 'data-apart';

/** The server's own figures for the span (ms; null for the bare server, which has none). */
export interface LoopFigures {
  readonly maxMs: number | null;
  readonly p99Ms: number | null;
  readonly meanMs: number | null;
  /** The longest counting only the server process's CPU time (waits for a core left out: loop-delay.ts). */
  readonly cpuMaxMs: number | null;
  readonly samples: number;
}

export interface PauseRun {
  readonly load: PauseLoad;
  readonly server: PauseServer;
  readonly loop: LoopFigures | null;
  readonly probe: ProbeResult;
  /** Requests the generator sent over the whole run (lead-in included), and of them failed or refused (non-2xx). */
  readonly requests: number;
  readonly failed: number;
  readonly loadAverage: number;
  /** With --data: checkpoints written since start and the longest one blocked the loop, in CPU ms (the server's `checkpoints`); null otherwise. */
  readonly checkpoints: { readonly written: number; readonly blockingCpuMsMax: number | null } | null;
}

export interface PausesResult {
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
  /** null: pinned as described; else why not. */
  readonly unpinned: string | null;
  readonly serveNodeFlags: readonly string[];
  readonly runs: readonly PauseRun[];
  readonly troubles: readonly string[];
}

export interface PausesOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly serveNodeFlags: readonly string[];
  readonly log: (line: string) => void;
}

/**
 * The measured span on a running server: lead-in, `atWindow` (a reason it failed, or null), reset,
 * probe and window over `seconds`, reset again.
 */
async function measuredSpan(
  api: string,
  healthUrl: string,
  seconds: number,
  atWindow: () => string | null,
): Promise<{ loop: LoopFigures | null; probe: ProbeResult } | string> {
  await sleep(LEAD_IN_MS);
  const failed = atWindow();
  if (failed !== null) return failed;
  if (api !== '') await loopReset(api);
  const probe = healthProbe(healthUrl);
  await sleep(seconds * 1000);
  const result = await probe.stop();
  return { loop: api === '' ? null : await loopReset(api), probe: result };
}

/** POST /_afp/event-loop/reset: the window so far (null when the server did not answer it). */
async function loopReset(api: string): Promise<LoopFigures | null> {
  const response = await fetch(`${api}/_afp/event-loop/reset`, { method: 'POST' });
  if (response.status !== 200) return null;
  const view = ((await response.json()) as { event_loop?: Record<string, number | null> }).event_loop;
  if (view === undefined) return null;
  return {
    maxMs: view['max_ms'] ?? null,
    p99Ms: view['p99_ms'] ?? null,
    meanMs: view['mean_ms'] ?? null,
    cpuMaxMs: view['cpu_max_ms'] ?? null,
    samples: view['samples'] ?? 0,
  };
}

/** GET /_afp/state's `checkpoints` (written, longest loop block in CPU ms), so a --data stall can be told from a checkpoint's. */
async function checkpointsOf(api: string): Promise<PauseRun['checkpoints']> {
  const answer = await AdminClient.ofUrl(api).state();
  const state = (answer.ok ? answer.value : {}) as {
    checkpoints?: { written?: number; blocking_cpu_ms_max?: number | null };
  };
  if (state.checkpoints === undefined) return null;
  return { written: state.checkpoints.written ?? 0, blockingCpuMsMax: state.checkpoints.blocking_cpu_ms_max ?? null };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The generator of `load` against `url` for the lead-in and the span: wrk (register) or afp load (mixed). */
async function generate(
  load: PauseLoad,
  target: { url: string; bare: boolean },
  options: { wrk: string; seconds: number; outDir: string },
): Promise<{ requests: number; failed: number } | string> {
  const seconds = options.seconds + Math.ceil(LEAD_IN_MS / 1000) + 1;
  if (load === 'register') {
    const run = await wrkRun(options.wrk, {
      url: `${target.url}${target.bare ? 'register' : '/register'}`,
      method: 'POST',
      threads: 1,
      connections: PAUSE_CONNECTIONS,
      seconds,
      cpu: GENERATOR_CPU,
    });
    return typeof run === 'string' ? run : { requests: run.requests, failed: run.failed };
  }
  const what = target.bare ? [`${target.url}gossip`] : [SCENARIO, '--target', target.url];
  const args = [join(import.meta.dirname, '..', 'bin', 'afp.js'), 'load', ...what, '--vus', String(PAUSE_CONNECTIONS)];
  args.push('--duration', `${seconds}s`, '--json', '--quiet', '--out', options.outDir);
  const command = pinned(GENERATOR_CPU, process.execPath, args);
  const run = await runTool(command.command, command.args, seconds * 1000 + RUN_SLACK_MS);
  try {
    const json = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { requests?: number; failed?: number };
    if (typeof json.requests === 'number') return { requests: json.requests, failed: json.failed ?? 0 };
  } catch {
    // Not afp load's JSON: reported below with its output.
  }
  return `afp load: exit ${String(run.code)}: ${(run.stderr || run.stdout).trim().slice(-300)}`;
}

/** A server of a pauses run: where to send the load (`api` empty for the bare server) and its pid, if afp's. */
interface StartedServer {
  readonly url: string;
  readonly api: string;
  readonly pid: number | null;
  stop(): Promise<void>;
}

/** Starts a server of `server` kind on SERVER_CPU; `--data` ones keep their file in `dir`. */
async function startServer(server: PauseServer, dir: string, options: PausesOptions): Promise<StartedServer> {
  if (server === 'bare') {
    const bare = await serveInChild({ kind: 'api' }, SERVER_CPU);
    return { url: bare.url, api: '', pid: null, stop: bare.stop };
  }
  const serve = await startServeProcess({
    seed: '71',
    startMs: START_MS,
    cpu: SERVER_CPU,
    ...(options.serveNodeFlags.length > 0 ? { nodeFlags: options.serveNodeFlags } : {}),
    ...(durable(server) ? { dataFile: join(dir, 'pauses.db'), checkpointEvery: BENCH_CHECKPOINT_EVERY } : {}),
  });
  const api = serve.urls['api'] ?? '';
  return { url: api, api, pid: serve.pid, stop: serve.stop };
}

/** One run: a fresh server of `server` kind under `load`, its span measured. */
async function pauseRun(
  load: PauseLoad,
  server: PauseServer,
  options: PausesOptions & { wrk: string },
): Promise<PauseRun | string> {
  const dir = await mkdtemp(join(tmpdir(), 'afp-bench-pauses-'));
  try {
    const started = await startServer(server, dir, options);
    try {
      const apart = (): string | null => {
        if (!server.endsWith('-apart') || started.pid === null) return null;
        const moved = pinThreadsApart(started.pid, GENERATOR_CPU);
        return typeof moved === 'string' ? `afp serve's threads could not be moved apart: ${moved}` : null;
      };
      const healthUrl = server === 'bare' ? `${started.url}health` : `${started.url}/health`;
      const generated = generate(load, { url: started.url, bare: server === 'bare' }, { ...options, outDir: dir });
      const span = await measuredSpan(started.api, healthUrl, options.seconds, apart);
      const sent = await generated;
      if (typeof span === 'string') return span;
      if (typeof sent === 'string') return sent;
      const checkpoints = durable(server) ? await checkpointsOf(started.api) : null;
      return { load, server, ...span, ...sent, loadAverage: loadavg()[0] ?? 0, checkpoints };
    } finally {
      await started.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function pausesPart(options: PausesOptions): Promise<PausesResult> {
  const empty = {
    connections: PAUSE_CONNECTIONS,
    seconds: options.seconds,
    rounds: options.rounds,
    unpinned: unpinnedReason(),
    serveNodeFlags: options.serveNodeFlags,
  };
  const wrk = wrkPath();
  if (wrk === null) {
    const why = 'wrk is not installed (Debian: apt-get install wrk): the pauses part needs it for the register load';
    options.log(`pauses: skipped: ${why}`);
    return { ...empty, runs: [], troubles: [why] };
  }
  const runs: PauseRun[] = [];
  const troubles: string[] = [];
  options.log(
    `pauses: ${PAUSE_CONNECTIONS} connections, ${options.seconds} s spans after ${LEAD_IN_MS} ms of lead-in; ${empty.unpinned ?? `generator on core ${GENERATOR_CPU}, server on core ${SERVER_CPU}`}`,
  );
  for (let round = 1; round <= options.rounds; round++)
    for (const load of ['register', 'mixed'] as const)
      for (const server of PAUSE_SERVERS) {
        const run = await pauseRun(load, server, { ...options, wrk });
        if (typeof run === 'string') {
          troubles.push(run);
          options.log(`pauses round ${round}/${options.rounds} ${load} ${server}: ${run}`);
          continue;
        }
        runs.push(run);
        options.log(
          `pauses round ${round}/${options.rounds} ${load} ${server}: loop max ${run.loop?.maxMs ?? '-'} ms (CPU ${run.loop?.cpuMaxMs ?? '-'} ms), /health max ${run.probe.maxMs.toFixed(1)} ms, ${run.requests} requests (${run.failed} not 2xx), load average ${run.loadAverage.toFixed(1)}`,
        );
      }
  return { ...empty, runs, troubles };
}
