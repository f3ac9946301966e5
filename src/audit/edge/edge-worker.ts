/**
 * The worker-thread side of simulateHouseEdgeInWorkers (edge-simulation-workers.ts): loads the games
 * from the GameSource it was started with, then answers each `{ index, job }` message with the
 * job's exact tallies. It holds no state between jobs, so which worker runs a job never changes
 * its result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { assert } from '../../core/assert.ts';
import { runEdgeJob, type EdgeJob } from './edge-simulation.ts';
import { loadGameSource, type EdgeWorkerData, type EdgeWorkerReply } from './edge-simulation-workers.ts';

const data = workerData as EdgeWorkerData;
const port = parentPort;
assert(port !== null, 'edge-worker.ts runs as a worker thread');
const games = new Map((await loadGameSource(data.source)).map((game) => [game.id as string, game]));

port.on('message', (message: { index: number; job: EdgeJob }) => {
  const game = games.get(message.job.gameId);
  assert(game !== undefined, `game ${message.job.gameId} is in the worker's source`);
  const reply: EdgeWorkerReply = { index: message.index, result: runEdgeJob(game, data.seed, message.job) };
  port.postMessage(reply);
});
