/**
 * Where a write round's CPU went, so the bench can say what separates durable writes from
 * in-memory ones on the machine it ran on: the `afp serve` child's whole process and its event-loop
 * thread (Linux /proc: utime + stime), what the server itself counts for durability (GET /_afp/state
 * `checkpoints`: its SQLite commits on the loop, its checkpoint blocks on the loop, the checkpoint
 * worker's replay and encoding), and the load generator (this process: the writers and the probe; or wrk, a child reaped in the round).
 * Why: on a 2-core machine the generator, the loop and the checkpoint worker share two cores, so a
 * ratio of rates alone cannot tell a slow loop from a loop that waited for a core.
 * Where /proc is missing (not Linux) the process and loop figures are null; nothing is estimated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { AdminClient } from '../src/client/admin-client.ts';

/** Linux reports utime/stime in USER_HZ ticks, 100 per second on every mainstream architecture. */
const USER_HZ = 100;

export interface RoundCpu {
  /** The whole server process (every thread: loop, checkpoint worker, libuv's pool, V8's GC). */
  readonly serverMs: number | null;
  /** The server's main thread (its event loop). */
  readonly loopMs: number | null;
  /** The server's threads by name (Linux `comm`: MainThread, WorkerThread — the checkpoint worker —, V8Worker — V8's GC and compiler helpers —, libuv-worker — the fsyncs —), summed per name; {} without /proc. */
  readonly threadsMs: Readonly<Record<string, number>>;
  /** Of the loop's time: SQLite commits of the command log (CPU), and their wall time (above the CPU: waiting on the disk). */
  readonly commitMs: number;
  readonly commitWallMs: number;
  /** Of the loop's time: checkpoint blocks (rows read and handed over, bytes written), CPU and wall. */
  readonly checkpointLoopMs: number;
  readonly checkpointLoopWallMs: number;
  /** The checkpoint worker thread: replaying the committed rows, and encoding the state. */
  readonly workerReplayMs: number;
  readonly workerEncodeMs: number;
  /** This process (the writers and the probe) and the children it reaped meanwhile (wrk, when it drives the round). */
  readonly generatorMs: number;
}

export interface CpuReading {
  readonly serverMs: number | null;
  readonly loopMs: number | null;
  readonly threadsMs: Readonly<Record<string, number>>;
  readonly counted: {
    commit: number;
    commitWall: number;
    checkpointLoop: number;
    checkpointLoopWall: number;
    replay: number;
    encode: number;
  };
  readonly generatorMs: number;
}

/** Where utime sits among a stat file's fields after the command name; cutime (the reaped children's) two further. */
const UTIME_FIELD = 11;
const CUTIME_FIELD = 13;

/** user + system ms of a /proc stat file: the thread's or process's own (utime + stime), or its reaped children's (cutime + cstime). */
function ticksMs(statFile: string, userField = UTIME_FIELD): number | null {
  try {
    const text = readFileSync(statFile, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th field, stime the 15th.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const user = Number(fields[userField]);
    const system = Number(fields[userField + 1]);
    return Number.isFinite(user) && Number.isFinite(system) ? ((user + system) * 1000) / USER_HZ : null;
  } catch {
    return null;
  }
}

/** CPU ms per thread name of process `pid` (threads that ended are not counted: the checkpoint worker lives as long as the server). */
function threadsMs(pid: number): Record<string, number> {
  const sums: Record<string, number> = {};
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return sums;
  }
  for (const tid of tids) {
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const ms = ticksMs(`/proc/${pid}/task/${tid}/stat`);
    if (ms !== null) sums[name] = (sums[name] ?? 0) + ms;
  }
  return sums;
}

/** The counters now (the server's from GET /_afp/state; zeros without --data). */
export async function roundCpuReading(pid: number, api: string): Promise<CpuReading> {
  const answer = await AdminClient.ofUrl(api).state();
  const checkpoints = ((answer.ok ? answer.value : {}) as { checkpoints?: Record<string, number | null> }).checkpoints;
  const count = (name: string): number => Number(checkpoints?.[name] ?? 0);
  const usage = process.cpuUsage();
  return {
    serverMs: ticksMs(`/proc/${pid}/stat`),
    loopMs: ticksMs(`/proc/${pid}/task/${pid}/stat`),
    threadsMs: threadsMs(pid),
    counted: {
      commit: count('commit_cpu_ms'),
      commitWall: count('commit_wall_ms'),
      checkpointLoop: count('loop_cpu_ms'),
      checkpointLoopWall: count('loop_wall_ms'),
      replay: count('worker_replay_cpu_ms'),
      encode: count('worker_encode_cpu_ms'),
    },
    generatorMs: (usage.user + usage.system) / 1000 + (reapedChildrenMs() ?? 0),
  };
}

/**
 * The CPU of this process's children that ended and were reaped (Linux /proc/self/stat cutime +
 * cstime; null without /proc): a wrk run that drove a round counts there once it exited (the
 * served child is reaped only after its round's readings).
 */
function reapedChildrenMs(): number | null {
  return ticksMs('/proc/self/stat', CUTIME_FIELD);
}

/** What the round spent between two readings. */
export function roundCpu(before: CpuReading, after: CpuReading): RoundCpu {
  const difference = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : b - a);
  return {
    serverMs: difference(before.serverMs, after.serverMs),
    loopMs: difference(before.loopMs, after.loopMs),
    threadsMs: Object.fromEntries(
      Object.entries(after.threadsMs).map(([name, ms]) => [name, ms - (before.threadsMs[name] ?? 0)]),
    ),
    commitMs: after.counted.commit - before.counted.commit,
    commitWallMs: after.counted.commitWall - before.counted.commitWall,
    checkpointLoopMs: after.counted.checkpointLoop - before.counted.checkpointLoop,
    checkpointLoopWallMs: after.counted.checkpointLoopWall - before.counted.checkpointLoopWall,
    workerReplayMs: after.counted.replay - before.counted.replay,
    workerEncodeMs: after.counted.encode - before.counted.encode,
    generatorMs: after.generatorMs - before.generatorMs,
  };
}

/** A phase's CPU per write (µs, the median over its rounds); null where /proc was missing. */
export interface CpuPerWrite {
  /** The server process (every thread). */
  readonly server: number | null;
  readonly loop: number | null;
  /** The checkpoint worker thread (0 in memory). */
  readonly worker: number | null;
  readonly generator: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median µs per write of each CPU figure over `rounds` (rounds that wrote nothing are left out). */
export function cpuPerWrite(rounds: ReadonlyArray<{ readonly ops: number; readonly cpu: RoundCpu }>): CpuPerWrite {
  const counted = rounds.filter((round) => round.ops > 0);
  const per = (pick: (cpu: RoundCpu) => number | null): number | null => {
    const values = counted.map((round) => pick(round.cpu));
    if (values.length === 0 || values.some((value) => value === null)) return null;
    return median(counted.map((round, index) => ((values[index] as number) * 1000) / round.ops));
  };
  return {
    server: per((cpu) => cpu.serverMs),
    loop: per((cpu) => cpu.loopMs),
    worker: per((cpu) => (cpu.serverMs === null ? null : (cpu.threadsMs['WorkerThread'] ?? 0))),
    generator: per((cpu) => cpu.generatorMs) ?? 0,
  };
}

/** One round's CPU in seconds, for a progress line. */
export function roundCpuText(cpu: RoundCpu): string {
  const seconds = (ms: number | null): string => (ms === null ? '?' : (ms / 1000).toFixed(2));
  return (
    `CPU s: server ${seconds(cpu.serverMs)} (loop ${seconds(cpu.loopMs)}: commits ${seconds(cpu.commitMs)} (wall ${seconds(cpu.commitWallMs)}), checkpoint blocks ${seconds(cpu.checkpointLoopMs)} (wall ${seconds(cpu.checkpointLoopWallMs)}); ` +
    `checkpoint worker ${seconds(cpu.serverMs === null ? null : (cpu.threadsMs['WorkerThread'] ?? 0))}: replays ${seconds(cpu.workerReplayMs)}, encodings ${seconds(cpu.workerEncodeMs)}; ` +
    `V8 helpers ${seconds(cpu.serverMs === null ? null : (cpu.threadsMs['V8Worker'] ?? 0))}), generator ${seconds(cpu.generatorMs)}`
  );
}
