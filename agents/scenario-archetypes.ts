/**
 * The archetypes a scenario's text names, loaded (archetype-loaders.ts) and nothing else: a first
 * pass of the parser collects the names it asks params for; the caller's second pass validates
 * against those archetypes' params. For every process that runs a scenario from its text (a
 * command, a sweep's or a load's worker thread): the archetypes a file does not name cost a start
 * about 70 modules (afp check's models among them), and a run looks archetypes up only by its
 * populations' names, so the smaller table runs exactly as the whole one.
 */
import { loadArchetypes } from './archetype-loaders.ts';
import type { AnyAgentDefinition } from '../src/agent/agent.ts';
import { parseScenario } from '../src/scenario/scenario.ts';

/** The archetypes `text`'s populations name, as the scenario parser asks for them (unknown names left out). */
export async function scenarioArchetypes(
  text: string,
  fileName: string,
): Promise<Readonly<Record<string, AnyAgentDefinition>>> {
  const named = new Set<string>();
  parseScenario(text, {
    fileName,
    agentParams: (name) => {
      named.add(name);
      return undefined;
    },
  });
  return loadArchetypes(named);
}
