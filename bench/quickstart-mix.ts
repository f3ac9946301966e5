/**
 * The quickstart mix: the traffic of scenarios/quickstart.yaml, captured by running the
 * simulator (`runScenario`) once with a MixRecorder. `small` is the CI size: one virtual day and
 * 100 agents, the populations scaled in proportion (largest remainders, at least one each).
 *
 * The platform recipe copies what the simulator builds (src/sim/simulation.ts): the scenario's
 * dispute outcome and its fault windows; tier upgrades come from the run record's agents.
 * The simulator and the archetypes are loaded lazily: until they exist, `quickstartAvailable`
 * says why not, and the benchmark falls back to the synthetic mix.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FaultWindow } from '../src/platform/platform.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../src/services/shared/config.ts';
import type { AnyAgentDefinition } from '../src/agent/agent.ts';
import type { Population, Scenario } from '../src/scenario/scenario.ts';
import { MixRecorder } from './mix-recorder.ts';
import type { TrafficMix } from './traffic-mix.ts';

const ROOT = join(import.meta.dirname, '..');
export const QUICKSTART_FILE = join(ROOT, 'scenarios', 'quickstart.yaml');
const AGENTS_MODULE = join(ROOT, 'agents', 'index.ts');
const DAY_MS = 86_400_000;
export const SMALL_AGENTS = 100;

/** null when the quickstart mix can be built, else what is missing. */
export async function quickstartUnavailable(): Promise<string | null> {
  for (const path of [QUICKSTART_FILE, AGENTS_MODULE]) {
    try {
      await access(path);
    } catch {
      return `${path} does not exist yet`;
    }
  }
  return null;
}

export async function quickstartMix(options: {
  seed: string | undefined;
  small: boolean;
  bodiesKept: number;
}): Promise<TrafficMix> {
  // A computed specifier: the archetype table may not exist yet, and tsc must not require it.
  const agentsModule = (await import(AGENTS_MODULE)) as { AGENTS: Readonly<Record<string, AnyAgentDefinition>> };
  const { parseScenario, formatScenarioErrors } = await import('../src/scenario/scenario.ts');
  const { runScenarioWith } = await import('../src/sim/runner.ts');
  const agents = agentsModule.AGENTS;
  const parsed = parseScenario(await readFile(QUICKSTART_FILE, 'utf8'), {
    fileName: QUICKSTART_FILE,
    agentParams: (name) => agents[name]?.params,
    knownAgents: Object.keys(agents),
  });
  if (!parsed.ok)
    throw new Error(`cannot read the quickstart scenario:\n${formatScenarioErrors(QUICKSTART_FILE, parsed.errors)}`);
  const scenario = options.small ? smallVariant(parsed.scenario) : parsed.scenario;
  const seed = options.seed ?? scenario.seed;
  const recorder = new MixRecorder({ bodiesKept: options.bodiesKept });
  const record = await runScenarioWith(scenario, { seed, recorder, agents });
  if (record.outcome !== 'completed')
    process.stderr.write(
      `bench: warning: the quickstart run ended '${record.outcome}'; the mix is the traffic up to there\n`,
    );
  const tiers = new Map(record.agents.map((agent) => [agent.agentId, agent.tier]));
  return {
    name: options.small ? 'quickstart-small' : 'quickstart',
    seed,
    startMs: scenario.startMs,
    durationMs: scenario.durationMs,
    agents: scenario.populations.reduce((sum, population) => sum + population.count, 0),
    config: platformConfig(scenario),
    faults: faultWindows(scenario),
    exchanges: recorder.finish((agentId) => tiers.get(agentId)),
  };
}

/** One virtual day, SMALL_AGENTS agents in all, every population kept with at least one agent. */
export function smallVariant(scenario: Scenario): Scenario {
  return {
    ...scenario,
    durationMs: Math.min(scenario.durationMs, DAY_MS),
    populations: scaleCounts(scenario.populations, SMALL_AGENTS),
  };
}

/**
 * Counts scaled to `total`: floors first, every population at least one agent, the rest by
 * largest remainders (ties to the earlier population); any excess the minimum of one caused is
 * taken back from the largest populations. Sums to `total` when there are at most `total` populations.
 */
export function scaleCounts(populations: readonly Population[], total: number): Population[] {
  const sum = populations.reduce((acc, population) => acc + population.count, 0);
  if (sum <= total) return [...populations];
  const shares = populations.map((population, index) => {
    const exact = population.count * total;
    return { index, count: Math.max(1, Math.floor(exact / sum)), remainder: exact % sum };
  });
  let left = total - shares.reduce((acc, share) => acc + share.count, 0);
  for (const share of [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (left <= 0) break;
    share.count++;
    left--;
  }
  for (const share of [...shares].sort((a, b) => b.count - a.count || a.index - b.index)) {
    if (left >= 0) break;
    if (share.count > 1) {
      share.count--;
      left++;
    }
  }
  return populations.map((population, index) => ({ ...population, count: shares[index]?.count ?? population.count }));
}

/** As src/sim/simulation.ts builds it: the scenario's dispute outcome over the defaults. */
function platformConfig(scenario: Scenario): PlatformConfig {
  const outcome = scenario.platform.disputeOutcome;
  return outcome === undefined
    ? DEFAULT_CONFIG
    : { ...DEFAULT_CONFIG, escrow: { ...DEFAULT_CONFIG.escrow, disputeOutcome: outcome } };
}

function faultWindows(scenario: Scenario): FaultWindow[] {
  return scenario.faults.map((fault) => ({
    service: fault.service,
    fromMs: scenario.startMs + fault.fromMs,
    untilMs: scenario.startMs + fault.fromMs + fault.forMs,
    status: fault.answer,
  }));
}
