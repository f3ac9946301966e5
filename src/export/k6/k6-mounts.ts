/**
 * The style-A service mounts an exported scenario's agents may send to, beside the style-B `api`
 * mount (AFP_TARGET): what `afp export k6 --k8s` must put in the TestRun as AFP_TARGET_<SERVICE>
 * and what the script's setup() requires a URL for before any iteration runs, so a pod that
 * cannot learn a mount fails at once instead of failing every request.
 *
 * Read from the populations, not from a run: an archetype's service (its folder) is its mount,
 * every service when the archetype crosses them (no `service`), and `faucet` for a population whose
 * agents may speak style A (they register and claim there: src/agent/agent-kit.ts `register`).
 * Conservative by design: a style-B faucet or escrow population is counted at its service's mount
 * though it may never call it; asking for a URL the run does not use costs a line of the TestRun,
 * missing one costs the run (docs/decisions/k6-k8s-mounts.md).
 */
import type { AnyAgentDefinition } from '../../agent/agent.ts';
import type { Population } from '../../scenario/scenario.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { ANNOUNCED } from '../../live.ts';

/** The env variable that gives a k6 run a style-A mount's URL: AFP_TARGET_FAUCET… */
export function mountEnvName(mount: string): string {
  return `AFP_TARGET_${mount.toUpperCase()}`;
}

/** The style-A mounts the populations' agents may send to, in ANNOUNCED order. */
export function mountsNeeded(
  populations: readonly Pick<Population, 'agent' | 'style'>[],
  agents: Readonly<Record<string, AnyAgentDefinition>>,
): ServiceName[] {
  const needed = new Set<ServiceName>();
  for (const population of populations) {
    const service = agents[population.agent]?.service;
    if (service === undefined) return [...ANNOUNCED];
    needed.add(service);
    if (population.style !== 'B') needed.add('faucet');
  }
  return ANNOUNCED.filter((mount) => needed.has(mount));
}
