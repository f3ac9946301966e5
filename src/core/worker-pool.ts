/**
 * A small pool of worker threads, the one way afp spreads work over threads (the house-edge
 * simulator's jobs, `afp load --workers`'s shards): N workers of one module, `jobs` jobs, results
 * stored by job index whatever the finishing order. Two ways to hand out jobs: `post` sends the
 * next job to a worker when it starts and each time it answers (one shared queue), or, without
 * `post`, worker k's job is k, given in its workerData (one job per worker, nothing posted).
 * Invariants: at most WORKER_POOL_MAX threads, never more than jobs; a worker error, an `Error`
 * read from a reply, or a worker that exits while holding a job rejects the run; every worker is
 * terminated however the run ends. `broadcast` (from `onStart`) sends a message to every worker
 * (a load run's stop). `stop` (with `post`) ends a run early: the jobs in flight finish, the
 * rest are never started and stay holes in the results.
 * Non-goals: restarting a failed worker; progress (callers count in `onResult`).
 */
import { Worker } from 'node:worker_threads';
import { assert } from './assert.ts';

export const WORKER_POOL_MAX = 64;

export interface WorkerPoolOptions<R> {
  /** The worker module. */
  readonly module: URL;
  /** How errors name a worker: `load worker` → `load worker 2 exited …`. */
  readonly name: string;
  readonly workers: number;
  readonly jobs: number;
  readonly workerData: (worker: number) => unknown;
  /** The message that hands job `job` to a worker; absent: worker k does job k, from its workerData. */
  readonly post?: (job: number) => unknown;
  /**
   * A worker's reply (`worker` 0-based): the result of one of its jobs, null for a reply that is
   * none (a worker's "ready"), or an Error that ends the run.
   */
  readonly read: (reply: unknown, worker: number) => { readonly job: number; readonly result: R } | Error | null;
  readonly onResult?: (job: number, result: R) => void;
  /** Called once every worker is started, with a function that posts a message to all of them. */
  readonly onStart?: (broadcast: (message: unknown) => void) => void;
  /**
   * With `post`: once aborted, no job is handed out any more; the run ends when the jobs in flight
   * have answered, and the jobs never started are holes in the results (a sweep's Ctrl-C).
   */
  readonly stop?: AbortSignal;
}

export async function runWorkerPool<R>(options: WorkerPoolOptions<R>): Promise<R[]> {
  const { jobs, post } = options;
  const count = Math.min(options.workers, jobs);
  assert(Number.isSafeInteger(count) && count <= WORKER_POOL_MAX, `at most ${WORKER_POOL_MAX} workers`);
  assert(post !== undefined || options.workers === jobs, 'without post, one job per worker');
  const results = new Array<R>(jobs);
  if (jobs === 0) return results;
  const threads: Worker[] = [];
  const held = new Array<number>(count).fill(post === undefined ? 1 : 0);
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const stopped = (): boolean => options.stop?.aborted === true;
      // Stopped with no job in flight: nothing more will answer, so the run ends here.
      const endIfStoppedAndIdle = (): void => {
        if (stopped() && held.every((jobsHeld) => jobsHeld === 0)) resolve();
      };
      const feed = (worker: Worker, index: number): void => {
        if (post === undefined || next >= jobs || stopped()) return;
        worker.postMessage(post(next++));
        held[index] = (held[index] ?? 0) + 1;
      };
      for (let index = 0; index < count; index++) {
        const worker = new Worker(options.module, { workerData: options.workerData(index) });
        threads.push(worker);
        worker.on('message', (reply: unknown) => {
          const read = options.read(reply, index);
          if (read === null) return;
          if (read instanceof Error) return reject(read);
          held[index] = (held[index] ?? 1) - 1;
          results[read.job] = read.result;
          done += 1;
          options.onResult?.(read.job, read.result);
          if (done === jobs) resolve();
          else feed(worker, index);
          endIfStoppedAndIdle();
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if ((held[index] ?? 0) > 0)
            reject(new Error(`${options.name} ${index + 1} exited with code ${code} before its result`));
        });
        feed(worker, index);
      }
      options.onStart?.((message) => {
        for (const worker of threads) worker.postMessage(message);
      });
      endIfStoppedAndIdle();
      options.stop?.addEventListener('abort', endIfStoppedAndIdle, { once: true });
    });
  } finally {
    await Promise.all(threads.map((worker) => worker.terminate()));
  }
  return results;
}
