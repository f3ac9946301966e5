/**
 * `afp load --workers N`: the run split over N worker threads (load-worker.ts), each one shard of
 * this process's plan, their results merged into one — snapshots exactly (mergeSnapshots: counts
 * and HDR histograms add), outcomes and kept lists summed.
 *
 * Composing with `--shard i/n` (several machines, each with N workers): worker k runs shard
 * i + n·(k−1) of n·N, so machine i's workers together run exactly machine i's arrivals and agents
 * (arrival p goes to machine (p mod n) + 1, and within it to worker ⌊p / n⌋ mod N + 1).
 * Non-goals: a live view or abortOnFail while the workers run (each worker's recorder is its own;
 * the thresholds are judged on the merged result at the end — the CLI says so).
 */
import { shardPlan } from './executors.ts';
import { mergeSnapshots } from './load-recorder.ts';
import { MAX_KEPT, type KeptReport } from './load-run-pool.ts';
import type { Kept, LoadRunResult } from './load-run.ts';
import type { LoadWorkerData, LoadWorkerReply } from './load-worker.ts';
import { WHOLE, type Shard } from './shard.ts';
import { moduleUrl } from '../core/module-url.ts';
import { runWorkerPool } from '../core/worker-pool.ts';

/** Worker k's shard (1-based) of N within `machine`. */
export function workerShard(machine: Shard, k: number, workers: number): Shard {
  return { index: machine.index + machine.count * (k - 1), count: machine.count * workers };
}

/** What every worker is given (its plan: its shard of this one), and how many workers. */
export interface WorkersRun extends LoadWorkerData {
  readonly workers: number;
  /** Called with a function that stops every worker (Ctrl-C: once gracefully, twice at once). */
  readonly onStart?: (stop: () => void) => void;
}

function keptSum<T>(lists: readonly Kept<T>[]): Kept<T> {
  return {
    count: lists.reduce((total, list) => total + list.count, 0),
    first: lists.flatMap((list) => list.first).slice(0, MAX_KEPT),
  };
}

/** One result of several workers' results. */
export function mergeRunResults(results: readonly LoadRunResult[]): LoadRunResult {
  const stopped = results.find((result) => result.outcome.endedBy === 'stopped');
  return {
    snapshot: mergeSnapshots(results.map((result) => result.snapshot)),
    outcome: {
      endedBy: stopped === undefined ? 'schedule' : 'stopped',
      stopReason: stopped?.outcome.stopReason ?? null,
      interrupted: results.reduce((total, result) => total + result.outcome.interrupted, 0),
      failedIterations: results.reduce((total, result) => total + result.outcome.failedIterations, 0),
      endMs: Math.max(...results.map((result) => result.outcome.endMs)),
    },
    agents: results.reduce((total, result) => total + result.agents, 0),
    reports: keptSum<KeptReport>(results.map((result) => result.reports)),
    iterationErrors: keptSum(results.map((result) => result.iterationErrors)),
    setupTrouble: keptSum(results.map((result) => result.setupTrouble)),
    notes: [...new Set(results.flatMap((result) => result.notes))],
  };
}

export async function runLoadInWorkers(run: WorkersRun): Promise<LoadRunResult> {
  const machine = run.plan.shard ?? WHOLE;
  const results = await runWorkerPool<LoadRunResult>({
    module: moduleUrl('./load-worker', import.meta.url),
    name: 'load worker',
    workers: run.workers,
    jobs: run.workers,
    workerData: (index): LoadWorkerData => ({
      scenarioFile: run.scenarioFile,
      plan: shardPlan(run.plan, workerShard(machine, index + 1, run.workers)),
      target: run.target,
      urls: run.urls,
      seed: run.seed,
      runTag: run.runTag,
    }),
    read: (reply, index) => {
      const answer = reply as LoadWorkerReply;
      return answer.kind === 'done'
        ? { job: index, result: answer.result }
        : new Error(`load worker ${index + 1}: ${answer.message}`);
    },
    ...(run.onStart === undefined ? {} : { onStart: (broadcast) => run.onStart?.(() => broadcast('stop')) }),
  });
  return mergeRunResults(results);
}
