/**
 * A scenario run's profile from its k6 flags (profile-flags.ts) and its file
 * (src/load/scenario-profile.ts), for `afp load SCENARIO` and `afp export k6 SCENARIO` alike, so the
 * two engines run the same plan. What the flags leave open comes from the scenario: the rate of
 * its file's constant profile, else of its derived one (for -i alone), its profile's length, the
 * file's max_in_flight else the derived one's.
 */
import type { AnyAgentDefinition } from '../agent/agent.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { derivedLoad, derivedRate, scenarioProfile, type ScenarioProfile } from '../load/options.ts';
import { givesProfile, sectionOfFlags, type ProfileFlags } from './profile-flags.ts';

export function profileOfScenario(
  scenario: Scenario,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
  flags: ProfileFlags,
): ScenarioProfile {
  if (!givesProfile(flags)) return scenarioProfile(scenario, agents, null);
  const derived = derivedLoad(scenario, agents);
  const fromFlags = sectionOfFlags(flags, {
    rate:
      scenario.load?.rate === undefined
        ? derivedRate(scenario, agents)
        : { rate: scenario.load.rate, timeUnitMs: scenario.load.time_unit ?? 1_000 },
    durationMs: scenario.load?.duration ?? derived.duration ?? scenario.durationMs,
    maxInFlight: scenario.load?.max_in_flight ?? derived.max_in_flight ?? 1,
  });
  return scenarioProfile(scenario, agents, fromFlags);
}
