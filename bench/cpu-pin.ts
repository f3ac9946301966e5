/**
 * Pinning the bench's processes to cores (`taskset -c N`, util-linux), as the measurements
 * were taken: the load generator on one core, the server measured on the other, so neither takes
 * the other's core and a server's figure is not its generator's. Why a wrapper rather than
 * `sched_setaffinity` from Node: Node has none; taskset execs the command, so the child's pid is
 * the command's own (a stop by pid still reaches it). Without taskset or with fewer than two
 * cores, commands run unpinned and `pinning()` says so (the report prints it). One process's
 * threads can be split too (`pinThreadsApart`, `taskset -p` by thread id): the pauses part moves
 * all of afp serve's threads but its loop off the loop's core, to show what the loop does when the
 * collector's helpers and the checkpoint replica do not take turns with it on one core.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';

/** The cores: the generator (wrk, afp load) and the probe's peers on 0, the server measured on 1. */
export const GENERATOR_CPU = 0;
export const SERVER_CPU = 1;

function tasksetPath(): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const path = join(dir, 'taskset');
    if (dir !== '' && existsSync(path)) return path;
  }
  return null;
}

const TASKSET = tasksetPath();

/** Whether commands are pinned, in words for the report (null: pinned). */
export function unpinnedReason(): string | null {
  if (TASKSET === null) return 'taskset is not installed (util-linux): processes run unpinned';
  if (availableParallelism() < 2) return 'one core: processes run unpinned';
  return null;
}

/** `command args` run on core `cpu` (unchanged when pinning is not possible, or `cpu` is undefined). */
export function pinned(
  cpu: number | undefined,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  if (cpu === undefined || TASKSET === null || unpinnedReason() !== null) return { command, args: [...args] };
  return { command: TASKSET, args: ['-c', String(cpu), command, ...args] };
}

/** A process has a handful of threads; more is not a Node process. */
const THREADS_MAX = 256;

/**
 * Moves every thread of process `pid` but its main thread (the event loop) to core `cpu`: V8's
 * helpers (parallel scavenges, concurrent marking), a Worker's isolate (afp serve's checkpoint
 * replica), libuv's pool. What a machine with cores to spare gives the loop: a core of its own.
 * Threads started later stay where they are. Returns the ids of the threads moved, or why none could.
 */
export function pinThreadsApart(pid: number, cpu: number): readonly string[] | string {
  const unpinned = unpinnedReason();
  if (unpinned !== null || TASKSET === null) return unpinned ?? 'taskset is not installed';
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return `no ${tasks}: a process's threads cannot be told apart here`;
  const moved: string[] = [];
  for (const tid of readdirSync(tasks).slice(0, THREADS_MAX)) {
    if (tid === String(pid)) continue;
    try {
      execFileSync(TASKSET, ['-p', '-c', String(cpu), tid], { stdio: 'ignore', timeout: 5_000 });
    } catch (error) {
      if (existsSync(join(tasks, tid))) throw error;
      continue; // the thread ended since the listing: nothing to move
    }
    moved.push(tid);
  }
  return moved.length > 0 ? moved : `no thread but the main one in ${tasks}`;
}
