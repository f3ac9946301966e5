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
import { Worker } from 'node:worker_threads';
import { moduleUrl } from '../core/module-url.ts';
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
}

export async function runSeedsInWorkers(options: SweepPoolOptions): Promise<SeedResult[]> {
  const { seeds } = options;
  const workerCount = Math.max(1, Math.min(options.workers, SWEEP_WORKERS_MAX, seeds.length));
  const results = new Map<string, SeedResult>();
  const data: SweepWorkerData = {
    scenarioText: options.scenarioText,
    file: options.file,
    defects: options.defects,
    swarm: options.swarm === true,
  };
  const workers: Worker[] = [];
  let next = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      if (seeds.length === 0) {
        resolve();
        return;
      }
      const feed = (worker: Worker): void => {
        if (next < seeds.length) worker.postMessage(seeds[next++]);
      };
      for (let index = 0; index < workerCount; index++) {
        const worker = new Worker(moduleUrl('./sweep-worker', import.meta.url), { workerData: data });
        workers.push(worker);
        worker.on('message', (reply: SweepWorkerReply) => {
          if (reply.kind === 'broken') {
            reject(new Error(`sweep worker ${index + 1}: ${reply.message}`));
            return;
          }
          options.onWorkerCpu?.(reply.kind === 'ready' ? 'start-up' : 'seed', reply.workerCpuMs);
          if (reply.kind === 'result') {
            results.set(reply.result.seed, reply.result);
            options.onResult?.(reply.result, results.size);
            if (results.size === seeds.length) {
              resolve();
              return;
            }
          }
          feed(worker);
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (results.size < seeds.length)
            reject(new Error(`sweep worker ${index + 1} exited with code ${code} before the sweep ended`));
        });
      }
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return seeds.map((seed) => {
    const result = results.get(seed);
    if (result === undefined) throw new Error(`sweep: no result for seed ${seed}`);
    return result;
  });
}
