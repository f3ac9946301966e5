/**
 * One worker thread of `afp load --workers N`: it runs its shard of the load run (every N-th
 * arrival, its share of the agents: shard.ts) on its own event loop, with its own sockets, and
 * posts back what it measured; the parent merges the snapshots exactly (mergeSnapshots) into one
 * report. Workers are what let one machine's cores generate load together: one event loop
 * saturates one core.
 * Workers cannot receive functions, so the worker reads the scenario file itself; the target is
 * passed resolved (plain data). A `stop` message from the parent (Ctrl-C) stops the run gracefully;
 * a second one cuts what is in flight.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { scenarioArchetypes } from '../../agents/scenario-archetypes.ts';
import type { MountUrls } from '../client/transport.ts';
import type { Target } from '../live.ts';
import { parseScenario } from '../scenario/scenario.ts';
import type { LoadPlan } from './executors.ts';
import { LoadStop } from './generator.ts';
import { systemLoadClock } from './system-load-clock.ts';
import { runLoad, type LoadRunResult } from './load-run.ts';

export interface LoadWorkerData {
  readonly scenarioFile: string;
  readonly plan: LoadPlan;
  readonly target: Target;
  readonly urls: MountUrls;
  readonly seed: string;
  readonly runTag: string;
}

export type LoadWorkerReply =
  | { readonly kind: 'done'; readonly result: LoadRunResult }
  | { readonly kind: 'failed'; readonly message: string };

async function work(data: LoadWorkerData): Promise<LoadRunResult> {
  const text = await readFile(data.scenarioFile, 'utf8');
  // Only the archetypes the scenario names (as the parent loaded them): not the whole table.
  const agents = await scenarioArchetypes(text, data.scenarioFile);
  const parsed = parseScenario(text, { fileName: data.scenarioFile, agentParams: (name) => agents[name]?.params });
  if (!parsed.ok)
    throw new Error(`${data.scenarioFile} no longer parses: ${parsed.errors.map((error) => error.message).join('; ')}`);
  const stop = new LoadStop();
  parentPort?.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    if (stop.reason === null) stop.stop('interrupted');
    else stop.hurry();
  });
  return runLoad({
    scenario: parsed.scenario,
    agents,
    plan: data.plan,
    target: data.target,
    urls: data.urls,
    seed: data.seed,
    runTag: data.runTag,
    clock: systemLoadClock(),
    stop,
  });
}

if (parentPort !== null) {
  const port = parentPort;
  work(workerData as LoadWorkerData).then(
    (result) => port.postMessage({ kind: 'done', result } satisfies LoadWorkerReply),
    (error: unknown) =>
      port.postMessage({
        kind: 'failed',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies LoadWorkerReply),
  );
}
