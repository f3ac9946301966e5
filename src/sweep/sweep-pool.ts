/**
 * Runs a sweep's seeds on worker threads: each worker takes the next seed when it is free, and
 * the results come back in seed order whatever the finishing order. Why threads, not processes:
 * a seed's result is small and structured-clone carries bigint money as it is; a thread starts
 * in tens of milliseconds.
 * Invariants: at most SWEEP_WORKERS_MAX workers, and never more than seeds; a worker that dies or
 * reports a broken scenario ends the sweep with that error (the scenario was parsed by the caller
 * first, so this is a bug, not bad input); workers are terminated however the sweep ends.
 * Results do not depend on the worker count: each seed's run is pure (seed-run.ts).
 */
import { moduleUrl } from '../core/module-url.ts';
import { runWorkerPool } from '../core/worker-pool.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { SeedResult } from './seed-run.ts';

export const SWEEP_WORKERS_MAX = 64;

export interface SweepWorkerData {
  readonly scenarioText: string;
  readonly file: string;
  readonly defects: readonly DefectName[];
  /** Each seed runs its own swarm draw of the scenario (src/sim/swarm.ts). */
  readonly swarm?: boolean;
}

/**
 * `ready` and each result carry the CPU time the worker's own thread spent on its start-up or on
 * the seed (null on a Node without `process.threadCpuUsage`): beside the process's CPU it tells
 * the workers' work from V8's helper threads', so a sweep that scales badly shows what it paid for.
 */
export type SweepWorkerReply =
  | { readonly kind: 'ready'; readonly workerCpuMs: number | null }
  | { readonly kind: 'result'; readonly result: SeedResult; readonly workerCpuMs: number | null }
  | { readonly kind: 'broken'; readonly message: string };

/** What a worker thread's own CPU time was spent on. */
export type WorkerCpuPart = 'start-up' | 'seed';

export interface SweepPoolOptions extends SweepWorkerData {
  readonly seeds: readonly string[];
  readonly workers: number;
  /** Called as each seed finishes, in finishing order (progress, early printing of failures). */
  readonly onResult?: (result: SeedResult, done: number) => void;
  /** Called with a worker thread's own CPU ms for its start-up and for each seed (benchmarks). */
  readonly onWorkerCpu?: (part: WorkerCpuPart, cpuMs: number | null) => void;
  /** Once aborted, no seed starts; the seeds in flight finish, and those never started are holes in the results. */
  readonly stop?: AbortSignal;
}

export async function runSeedsInWorkers(options: SweepPoolOptions): Promise<SeedResult[]> {
  const { seeds } = options;
  const jobOf = new Map(seeds.map((seed, index) => [seed, index]));
  const data: SweepWorkerData = {
    scenarioText: options.scenarioText,
    file: options.file,
    defects: options.defects,
    swarm: options.swarm === true,
  };
  let done = 0;
  return await runWorkerPool<SeedResult>({
    module: moduleUrl('./sweep-worker', import.meta.url),
    name: 'sweep worker',
    workers: Math.max(1, Math.min(options.workers, SWEEP_WORKERS_MAX)),
    jobs: seeds.length,
    workerData: () => data,
    post: (index) => seeds[index],
    read: (message, worker) => {
      const reply = message as SweepWorkerReply;
      if (reply.kind === 'broken') return new Error(`sweep worker ${worker + 1}: ${reply.message}`);
      options.onWorkerCpu?.(reply.kind === 'ready' ? 'start-up' : 'seed', reply.workerCpuMs);
      if (reply.kind === 'ready') return null;
      const job = jobOf.get(reply.result.seed);
      return job === undefined
        ? new Error(`sweep: a result for seed ${reply.result.seed}, not asked for`)
        : { job, result: reply.result };
    },
    onResult: (_job, result) => options.onResult?.(result, (done += 1)),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
  });
}
