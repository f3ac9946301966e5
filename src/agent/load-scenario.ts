/**
 * A scenario from YAML text against an archetype table (the caller's: agents/index.ts's AGENTS or a test's), for callers that want a Scenario or an
 * exception (tests, embedders): `afp run` reports the errors itself instead (exit 2).
 */
import type { AnyAgentDefinition } from './agent.ts';
import { formatScenarioErrors, parseScenario, type Scenario } from '../scenario/scenario.ts';

export function scenarioFromTable(
  text: string,
  options: { readonly fileName?: string; readonly agents: Readonly<Record<string, AnyAgentDefinition>> },
): Scenario {
  const fileName = options.fileName ?? 'scenario.yaml';
  const table = options.agents;
  const parsed = parseScenario(text, {
    fileName,
    agentParams: (name) => table[name]?.params,
    knownAgents: Object.keys(table),
  });
  if (!parsed.ok) throw new Error(`invalid scenario:\n${formatScenarioErrors(fileName, parsed.errors)}`);
  return parsed.scenario;
}
