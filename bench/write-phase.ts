/**
 * The write phase: how much of `afp serve`'s write throughput survives durability. The same
 * saturating load goes to a real `afp serve` child in memory and to one with `--data` (a fresh
 * command log in a temporary directory, removed after the round): `connections` closed-loop
 * writers over keep-alive sockets, each registering new agents (POST /register, a fresh agent id
 * and a fresh X-Forwarded-For address per request, so no limit binds: every answer is a 201 and
 * every request a logged state change) until the round's time is up. The writers are wrk's where
 * the bench finds it (`generator`), else this process's: Node writers cost the machine about as
 * much CPU per write as the server (~100 µs against ~26 µs for wrk), so on 2 cores they took the
 * core the checkpoint worker would use, and the ratio measured the generator's share as much as
 * durability; with wrk a core is left to the server's threads, as it is when clients are elsewhere.
 * Why a saturating load: group commit pays one fsync (off the loop) per batch or run of batches,
 * and a batch holds what arrived while the previous sync ran; one client waiting on each answer
 * (the mix's dependent lanes and clock moves) pays a whole fsync per round trip, which measures
 * the disk's latency, not afp.
 * Checkpoints inside the round: the --data server takes one every BENCH_CHECKPOINT_EVERY commands
 * (lower than serve's default, so that even a short round crosses several and the figure includes
 * what checkpoints cost); the round reports how many the server wrote and the longest it says one
 * blocked its event loop at once (GET /_afp/state `checkpoints`: written, blocking_ms_max).
 * Warm-up (WARM_UP_WRITES): each server first takes that many registrations, unmeasured, and a
 * --data server then writes its first checkpoint; the round measures the server after. Why: each
 * round starts a fresh server, and its once-per-process costs (the JIT's warm-up, and with --data
 * the checkpoint worker's start: loading afp's modules again, about 0.8 s of CPU, and the replica's
 * first build) are not what durability costs a running server; the round still crosses
 * checkpoints (the count is printed) and its longest stall is measured inside it.
 * Stalls: a probe on its own socket sends GET /health every 10 ms through the round (health-probe.ts); the
 * slowest answer is the longest the event loop kept a client waiting (checkpoints included).
 * Bounded: at most `durationMs` of sending and 65,536 registrations per writer; failures (non-201
 * answers, transport errors) are counted, never thrown out of the loop.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthProbe } from './health-probe.ts';
import { leanHttpTransport } from './lean-http-transport.ts';
import { measureRound, type RoundResult } from './measure.ts';
import { startServeProcess } from './serve-process.ts';
import { AdminClient } from '../src/client/admin-client.ts';
import { roundCpu, roundCpuReading, type RoundCpu } from './server-cpu.ts';
import { wrkRun } from './wrk-run.ts';

export const WRITE_REQUEST_TIMEOUT_MS = 30_000;
const WRITES_PER_WRITER_MAX = 65_536;
/** The bench's --checkpoint-every for the --data server (serve's default is 20,000). */
export const BENCH_CHECKPOINT_EVERY = 5_000;
/**
 * The warm-up before a measured round: this many registrations (enough that a --data server
 * crosses its first checkpoint), and with --data a wait for that checkpoint to be written.
 */
export const WARM_UP_WRITES = BENCH_CHECKPOINT_EVERY + 1_000;
const WARM_UP_MS_MAX = 60_000;
const FIRST_CHECKPOINT_WAIT_MS = 60_000;

export interface WriteRound extends RoundResult {
  /** Answers other than 201, and transport errors (expected 0). */
  readonly failed: number;
  /** The slowest GET /health answered during the round (ms). */
  readonly stallMsMax: number;
  /** Checkpoints written during the measured round (0 in memory; the warm-up's not counted), as the server counts them (GET /_afp/state). */
  readonly checkpoints: number;
  /** The longest the server's event loop was blocked at once by a checkpoint, as it measured it (ms; 0 in memory). */
  readonly checkpointBlockingMsMax: number;
  /** The same, in CPU time of the server's loop thread (ms). */
  readonly checkpointBlockingCpuMsMax: number;
  /** Where the round's CPU went (ms; null where this system cannot tell, see server-cpu.ts). */
  readonly cpu: RoundCpu;
}

export interface WriteRoundOptions {
  readonly seed: string;
  readonly startMs: number;
  readonly connections: number;
  readonly durationMs: number;
  readonly durable: boolean;
  /** --checkpoint-every of the --data server (BENCH_CHECKPOINT_EVERY unless given). */
  readonly checkpointEvery?: number;
  /** Registrations sent before the round, unmeasured (0: none; the bench sends WARM_UP_WRITES). */
  readonly warmUpWrites?: number;
  /**
   * What drives the measured round: 'node' (default), `connections` writers in this process, or
   * the path of wrk (wrk-run.ts: WRITE_WRK_THREADS threads over `connections` connections, a fresh
   * agent id and address per request), a generator that leaves the cores to the server. The
   * warm-up is the Node writers' either way.
   */
  readonly generator?: 'node' | { readonly wrk: string };
}

/** wrk's threads when it drives a write round (one keeps ahead of the server here, and leaves the second core to it). */
export const WRITE_WRK_THREADS = 1;

export async function writeRound(options: WriteRoundOptions): Promise<WriteRound> {
  const dataDir = options.durable ? await mkdtemp(join(tmpdir(), 'afp-bench-data-')) : null;
  try {
    const server = await startServeProcess({
      seed: options.seed,
      startMs: options.startMs,
      ...(dataDir === null
        ? {}
        : { dataFile: join(dataDir, 'bench.db'), checkpointEvery: options.checkpointEvery ?? BENCH_CHECKPOINT_EVERY }),
    });
    const lean = leanHttpTransport({
      urls: server.urls,
      maxSockets: options.connections,
      timeoutMs: WRITE_REQUEST_TIMEOUT_MS,
    });
    const api = server.urls['api'] ?? '';
    try {
      const writers = { transport: lean.transport, connections: options.connections };
      const warmUp = options.warmUpWrites ?? 0;
      let warmUpFailed = 0;
      if (warmUp > 0) {
        warmUpFailed = (await writeFor(writers, { firstOctet: 9, writesMax: warmUp, durationMs: WARM_UP_MS_MAX }))
          .failed;
        if (options.durable) await firstCheckpoint(api);
      }
      const writtenBefore = (await checkpointsWritten(api)).checkpoints;
      const probe = healthProbe(`${api}/health`);
      const cpuBefore = await roundCpuReading(server.pid, api);
      let failed = 0;
      const generator = options.generator ?? 'node';
      const round = await measureRound(async () => {
        const done =
          generator === 'node'
            ? await writeFor(writers, { firstOctet: 10, durationMs: options.durationMs })
            : await wrkWrites(generator.wrk, `${api}/register`, options);
        failed = done.failed;
        return { ops: done.written, requests: done.written + done.failed };
      });
      const cpuAfter = await roundCpuReading(server.pid, api);
      const stallMsMax = (await probe.stop()).maxMs;
      const cpu = roundCpu(cpuBefore, cpuAfter);
      const written = await checkpointsWritten(api);
      return {
        ...round,
        failed: failed + warmUpFailed,
        stallMsMax,
        cpu,
        ...written,
        checkpoints: written.checkpoints - writtenBefore,
      };
    } finally {
      lean.close();
      await server.stop();
    }
  } finally {
    if (dataDir !== null) await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `connections` closed-loop writers registering fresh agents (ids and X-Forwarded-For addresses
 * under `firstOctet`, so the warm-up's never meet the round's) until `durationMs` is up or, with
 * `writesMax`, that many were sent in all.
 */
async function writeFor(
  writers: { transport: ReturnType<typeof leanHttpTransport>['transport']; connections: number },
  options: { firstOctet: number; durationMs: number; writesMax?: number },
): Promise<{ written: number; failed: number }> {
  let failed = 0;
  let written = 0;
  const startMs = performance.now();
  const total = options.writesMax ?? Number.POSITIVE_INFINITY;
  const writer = async (writerIndex: number): Promise<void> => {
    for (
      let index = 0;
      index < WRITES_PER_WRITER_MAX && written + failed < total && performance.now() - startMs < options.durationMs;
      index++
    ) {
      const ip = `${options.firstOctet}.${writerIndex}.${index >> 8}.${index & 255}`;
      try {
        const answer = await writers.transport({
          mount: 'api',
          method: 'POST',
          path: '/register',
          headers: { 'x-forwarded-for': ip },
          body: { agent_id: `w${options.firstOctet}-${writerIndex}-${index}` },
        });
        if (answer.status === 201) written++;
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: writers.connections }, (_, writerIndex) => writer(writerIndex)));
  return { written, failed };
}

/** One wrk run registering fresh agents (ids `wrk<thread>-<n>`, addresses from 11.x.x.x: never the Node writers' 10 and 9); a run that fails throws. */
async function wrkWrites(
  wrk: string,
  url: string,
  options: WriteRoundOptions,
): Promise<{ written: number; failed: number }> {
  const run = await wrkRun(wrk, {
    url,
    method: 'POST',
    threads: WRITE_WRK_THREADS,
    connections: options.connections,
    seconds: Math.max(1, Math.round(options.durationMs / 1000)),
  });
  if (typeof run === 'string') throw new Error(run);
  return { written: run.requests - run.failed, failed: run.failed };
}

/** Waits (at most FIRST_CHECKPOINT_WAIT_MS, polling GET /_afp/state) until the server wrote its first checkpoint. */
async function firstCheckpoint(api: string): Promise<void> {
  const startMs = performance.now();
  while (performance.now() - startMs < FIRST_CHECKPOINT_WAIT_MS) {
    if ((await checkpointsWritten(api)).checkpoints > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The checkpoints the server wrote and the longest single block of the loop among them (its own figures; none without --data). */
async function checkpointsWritten(
  api: string,
): Promise<{ checkpoints: number; checkpointBlockingMsMax: number; checkpointBlockingCpuMsMax: number }> {
  const answer = await AdminClient.ofUrl(api).state();
  const state = (answer.ok ? answer.value : {}) as {
    checkpoints?: { written: number; blocking_ms_max: number | null; blocking_cpu_ms_max: number | null };
  };
  return {
    checkpoints: state.checkpoints?.written ?? 0,
    checkpointBlockingMsMax: state.checkpoints?.blocking_ms_max ?? 0,
    checkpointBlockingCpuMsMax: state.checkpoints?.blocking_cpu_ms_max ?? 0,
  };
}
