/**
 * The house-edge simulator's jobs spread over worker threads: the same plan, jobs and assembly as
 * `simulateHouseEdge` (edge-simulation.ts), so the rows are identical for any worker count.
 *
 * Workers cannot receive functions, so the games come from a GameSource — a module URL and an
 * export: the registry's GAMES by default, or a factory of modified games for audits of the
 * audit (the in-thread `transform` hook has no worker form). Jobs go through one shared queue
 * (src/core/worker-pool.ts): each worker takes the next job when it answers, results are stored by
 * job index. A worker error or early exit rejects the run; every worker is terminated when it settles.
 * Non-goals: more than MAX_WORKERS threads; progress reporting.
 */
import { assert } from '../../core/assert.ts';
import type { JsonValue } from '../../core/errors.ts';
import type { GameId, GameModule } from '../../services/casino/games/game.ts';
import {
  assembleEdgeRows,
  planEdgeSimulation,
  type EdgeJob,
  type EdgeJobResult,
  type EdgeSimulation,
} from './edge-simulation.ts';
import { moduleUrl } from '../../core/module-url.ts';
import { runWorkerPool } from '../../core/worker-pool.ts';

export const MAX_WORKERS = 16;

/** Where workers (and the main thread) load the games: a module and an export, e.g. the registry's GAMES. */
export interface GameSource {
  readonly moduleUrl: string;
  readonly exportName: string;
  /** When the export is a function (e.g. a factory of defective games), it is called with this. */
  readonly argument?: JsonValue;
}

export const REGISTRY_SOURCE: GameSource = {
  moduleUrl: moduleUrl('../../services/casino/games/index', import.meta.url).href,
  exportName: 'GAMES',
};

export async function loadGameSource(source: GameSource): Promise<readonly GameModule[]> {
  const loaded = (await import(source.moduleUrl)) as Record<string, unknown>;
  const exported = loaded[source.exportName];
  const games: unknown =
    typeof exported === 'function' ? (exported as (argument: unknown) => unknown)(source.argument) : exported;
  assert(Array.isArray(games), `${source.exportName} of ${source.moduleUrl} is a list of games`);
  return games as readonly GameModule[];
}

export interface ParallelEdgeSimulationOptions {
  readonly source: GameSource;
  /** A subset of the source's games, in this order; all of them when absent. */
  readonly gameIds?: readonly GameId[];
  readonly betsPerGame: number;
  readonly seed: string | number;
  readonly workers: number;
  readonly jobBets?: number;
  /** Called as jobs finish with the bets simulated so far and in all (the CLI's progress line). */
  readonly onBets?: (done: number, total: number) => void;
}

export function selectGames(games: readonly GameModule[], gameIds: readonly GameId[] | undefined): GameModule[] {
  if (gameIds === undefined) return [...games];
  return gameIds.map((id) => {
    const game = games.find((candidate) => candidate.id === id);
    assert(game !== undefined, `game ${id} is in the source`);
    return game;
  });
}

/** The same rows as `simulateHouseEdge`, with the jobs spread over worker threads. */
export async function simulateHouseEdgeInWorkers(options: ParallelEdgeSimulationOptions): Promise<EdgeSimulation> {
  assert(
    Number.isSafeInteger(options.workers) && options.workers >= 1 && options.workers <= MAX_WORKERS,
    'workers in [1, 16]',
  );
  const seed = String(options.seed);
  const games = selectGames(await loadGameSource(options.source), options.gameIds);
  const plans = planEdgeSimulation(games, options.betsPerGame, options.jobBets);
  const jobs = plans.flatMap((plan) => plan.jobs);
  const total = jobs.reduce((sum, job) => sum + job.bets, 0);
  let betsDone = 0;
  const onJob = (job: EdgeJob): void => options.onBets?.((betsDone += job.bets), total);
  const outputs = await runJobsInWorkers(
    jobs,
    { source: options.source, seed },
    Math.min(options.workers, jobs.length),
    onJob,
  );
  const results = new Map<EdgeJob, EdgeJobResult>(jobs.map((job, index) => [job, outputs[index] as EdgeJobResult]));
  return { seed, betsPerGame: options.betsPerGame, rows: assembleEdgeRows(plans, results) };
}

/** What each worker is started with (workerData). */
export interface EdgeWorkerData {
  readonly source: GameSource;
  readonly seed: string;
}

export interface EdgeWorkerReply {
  readonly index: number;
  readonly result: EdgeJobResult;
}

function runJobsInWorkers(
  jobs: readonly EdgeJob[],
  data: EdgeWorkerData,
  workerCount: number,
  onJob: (job: EdgeJob) => void,
): Promise<EdgeJobResult[]> {
  return runWorkerPool<EdgeJobResult>({
    module: moduleUrl('./edge-worker', import.meta.url),
    name: 'edge worker',
    workers: workerCount,
    jobs: jobs.length,
    workerData: () => data,
    post: (index) => ({ index, job: jobs[index] }),
    read: (reply) => ({ job: (reply as EdgeWorkerReply).index, result: (reply as EdgeWorkerReply).result }),
    onResult: (index) => onJob(jobs[index] as EdgeJob),
  });
}
