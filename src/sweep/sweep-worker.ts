/**
 * A sweep's worker thread: parses the scenario once, then runs the seeds the pool hands it, one
 * at a time, answering each with its SeedResult. Why one seed per message rather than a fixed
 * share: runs differ in length (a failing seed stops early), so the pool keeps every core busy
 * by giving the next seed to whichever worker is free.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ARCHETYPE_NAMES } from '../../agents/archetype-loaders.ts';
import { scenarioArchetypes } from '../../agents/scenario-archetypes.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import { parseScenario, formatScenarioErrors } from '../scenario/scenario.ts';
import { swarmScenario } from '../sim.ts';
import { runSeed } from './seed-run.ts';
import type { SweepWorkerData, SweepWorkerReply } from './sweep-pool.ts';

/**
 * The archetypes the worker runs with: the scenario's own (as the parent loaded them), or the whole
 * table for a swarm, whose seeds draw their populations from every archetype.
 */
async function archetypesOf(data: SweepWorkerData): Promise<Readonly<Record<string, AnyAgentDefinition>>> {
  if (data.swarm === true) return (await import('../../agents/index.ts')).AGENTS;
  return scenarioArchetypes(data.scenarioText, data.file);
}

async function start(data: SweepWorkerData): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const agents = await archetypesOf(data);
  const parsed = parseScenario(data.scenarioText, {
    fileName: data.file,
    agentParams: (name) => agents[name]?.params,
    knownAgents: ARCHETYPE_NAMES,
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
      data.swarm === true ? swarmScenario(data.scenarioText, scenario, data.file, seed, agents).scenario : scenario,
      data.file,
      seed,
      data.defects,
      agents,
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

// Seeds the pool posts before the archetypes are loaded wait in the port: its queue is read once the listener is on.
start(workerData as SweepWorkerData).catch((error: unknown) => {
  parentPort?.postMessage({
    kind: 'broken',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  } satisfies SweepWorkerReply);
});
