/**
 * A sweep's worker thread: parses the scenario once, then runs the seeds the pool hands it, one
 * at a time, answering each with its SeedResult. Why one seed per message rather than a fixed
 * share: runs differ in length (a failing seed stops early), so the pool keeps every core busy
 * by giving the next seed to whichever worker is free.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { parseScenario, formatScenarioErrors } from '../sim/scenario.ts';
import { swarmScenario } from '../sim/swarm.ts';
import { runSeed } from './seed-run.ts';
import type { SweepWorkerData, SweepWorkerReply } from './sweep-pool.ts';

function start(data: SweepWorkerData): void {
  const port = parentPort;
  if (port === null) return;
  const parsed = parseScenario(data.scenarioText, { fileName: data.file, agentParams: (name) => AGENTS[name]?.params, knownAgents: AGENT_NAMES });
  if (!parsed.ok) {
    port.postMessage({ kind: 'broken', message: formatScenarioErrors(data.file, parsed.errors) } satisfies SweepWorkerReply);
    return;
  }
  const scenario = parsed.scenario;
  port.on('message', (seed: string) => {
    runSeed(data.swarm === true ? swarmScenario(data.scenarioText, scenario, data.file, seed).scenario : scenario, data.file, seed, data.defects, data.swarm === true).then(
      (result) => port.postMessage({ kind: 'result', result } satisfies SweepWorkerReply),
      (error: unknown) => port.postMessage({ kind: 'broken', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies SweepWorkerReply),
    );
  });
  port.postMessage({ kind: 'ready' } satisfies SweepWorkerReply);
}

start(workerData as SweepWorkerData);
