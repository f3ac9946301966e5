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
  const parsed = parseScenario(data.scenarioText, {
    fileName: data.file,
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) {
    port.postMessage({
      kind: 'broken',
      message: formatScenarioErrors(data.file, parsed.errors),
    } satisfies SweepWorkerReply);
    return;
  }
  const scenario = parsed.scenario;
  port.on('message', (seed: string) => {
    const startCpu = threadCpuMs();
    runSeed(
      data.swarm === true ? swarmScenario(data.scenarioText, scenario, data.file, seed, AGENTS).scenario : scenario,
      data.file,
      seed,
      data.defects,
      data.swarm === true,
    ).then(
      (result) => {
        const endCpu = threadCpuMs();
        port.postMessage({
          kind: 'result',
          result,
          workerCpuMs: startCpu === null || endCpu === null ? null : endCpu - startCpu,
        } satisfies SweepWorkerReply);
      },
      (error: unknown) =>
        port.postMessage({
          kind: 'broken',
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        } satisfies SweepWorkerReply),
    );
  });
  port.postMessage({ kind: 'ready', workerCpuMs: threadCpuMs() } satisfies SweepWorkerReply);
}

/** This thread's CPU time so far (user + system); null on a Node without threadCpuUsage (before 23.9). */
function threadCpuMs(): number | null {
  if (typeof process.threadCpuUsage !== 'function') return null;
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1_000;
}

start(workerData as SweepWorkerData);
