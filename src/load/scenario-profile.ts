/**
 * The load profile of a scenario run (`afp load SCENARIO`, `afp export k6 SCENARIO`), in one
 * place for both engines, first that applies:
 *   1. the k6 flags' profile (src/cli/profile-flags.ts: --rate, -u, -i, --stage), the file's
 *      thresholds and graceful_stop kept;
 *   2. the file's `load:` section (how a profile is pinned in the file);
 *   3. a profile derived from the scenario, so that every scenario loads and exports as shipped:
 *      the open model, its agents' steps arriving at DERIVED.ratePerSecond (DERIVED.keysPerSecond
 *      when an archetype derives wallet keys: a k6 VU spends ~0.13 CPU-s on a wallet), at most one
 *      arrival a second per agent, for the scenario's duration up to DERIVED.durationMs, with
 *      min(agents, DERIVED.maxInFlight) in flight. Fixed numbers, not the machine's cores: the same
 *      scenario gives the same plan (and the same k6 script) on every machine.
 * `-d` alone is not a profile: it sets the length of whichever applies (executors.ts).
 * Pure; the label says which applied, for the plan line.
 */
import type { AnyAgentDefinition } from '../agent/agent.ts';
import type { LoadSection } from '../scenario/load-schema.ts';
import type { Scenario } from '../scenario/scenario.ts';

export const DERIVED = {
  ratePerSecond: 10,
  keysPerSecond: 2,
  durationMs: 30_000,
  maxInFlight: 20,
  gracefulStopMs: 10_000,
} as const;

export type ProfileSource = 'flags' | 'file' | 'derived';

export interface ScenarioProfile {
  readonly load: LoadSection;
  readonly source: ProfileSource;
}

/** What a scenario's derived profile starts from: its agents, length and whether they derive keys. */
export function derivedRate(
  scenario: Pick<Scenario, 'populations'>,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
): { rate: number; timeUnitMs: number } {
  const agentCount = scenario.populations.reduce((total, population) => total + population.count, 0);
  const derivesKeys = scenario.populations.some((population) => agents[population.agent]?.warmUp !== undefined);
  const perSecond = derivesKeys ? DERIVED.keysPerSecond : DERIVED.ratePerSecond;
  return { rate: Math.max(1, Math.min(agentCount, perSecond)), timeUnitMs: 1_000 };
}

/** The profile a scenario without a `load:` section runs on. */
export function derivedLoad(
  scenario: Pick<Scenario, 'populations' | 'durationMs'>,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
): LoadSection {
  const agentCount = scenario.populations.reduce((total, population) => total + population.count, 0);
  const rate = derivedRate(scenario, agents);
  return {
    executor: 'constant-arrival-rate',
    rate: rate.rate,
    time_unit: rate.timeUnitMs,
    duration: Math.max(1_000, Math.min(scenario.durationMs, DERIVED.durationMs)),
    max_in_flight: Math.max(1, Math.min(agentCount, DERIVED.maxInFlight)),
    graceful_stop: DERIVED.gracefulStopMs,
  };
}

/** The scenario's profile: the flags' (null: none given), else the file's, else the derived one. */
export function scenarioProfile(
  scenario: Pick<Scenario, 'populations' | 'durationMs' | 'load'>,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
  fromFlags: Omit<LoadSection, 'thresholds'> | null,
): ScenarioProfile {
  if (fromFlags !== null) {
    const kept = scenario.load;
    return {
      source: 'flags',
      load: {
        ...fromFlags,
        ...(kept?.graceful_stop === undefined ? {} : { graceful_stop: kept.graceful_stop }),
        ...(kept?.thresholds === undefined ? {} : { thresholds: kept.thresholds }),
      },
    };
  }
  if (scenario.load !== null) return { source: 'file', load: scenario.load };
  return { source: 'derived', load: derivedLoad(scenario, agents) };
}

/** The plan line's note on where the profile came from (null: the file's own). */
export function profileSourceNote(profile: ScenarioProfile): string | null {
  switch (profile.source) {
    case 'flags':
      return "the profile is the flags' (--rate, -u/--vus, -i/--iterations, --stage); the file's thresholds stay";
    case 'file':
      return null;
    case 'derived': {
      const { rate = 0, duration = 0, max_in_flight: inFlight = 0 } = profile.load;
      return `the scenario has no load: section: a profile derived from it, ${rate} of its agents' steps a second (${DERIVED.ratePerSecond}/s, ${DERIVED.keysPerSecond}/s where agents derive wallet keys, one a second per agent at most) for ${duration / 1000}s (its duration, ${DERIVED.durationMs / 1000}s at most), ${inFlight} in flight at most; pin one with load:, or override with --rate, -u/--vus, -d/--duration, -i/--iterations, --stage`;
    }
  }
}
