/**
 * Reading a scenario file for a command (run, sweep, load, export k6, scenario check, load merge):
 * read it, parse it against the agents table, and say what is wrong the one way every command
 * says it — a file that cannot be read as `<command>: cannot read FILE: reason`, a scenario with
 * errors as the scenario's own formatted list (each error with its path and line), a threshold
 * afp load cannot judge as afp load words it (load/thresholds.ts, the one rule).
 * Why one function: six commands had a copy each, and a copy drifts (a message, an agent table).
 * Only the archetypes the file names are loaded (agents/scenario-archetypes.ts), and they come
 * back with the scenario as the table to run it with.
 * The parser, its schema and the archetypes are loaded once the file has been read: a file that is
 * missing or unreadable is refused without them (a command's fast failure on a typo).
 */
import { readTextFile } from '../core/text-file.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { MAX_SCENARIO_BYTES } from '../scenario/scenario-size.ts';
import { invalidInput, type CommandFailure } from '../core/command-failure.ts';

/** A parsed scenario file: the scenario, its text, and the archetypes it names (the table to run it with). */
export interface LoadedScenario {
  readonly scenario: Scenario;
  readonly text: string;
  readonly agents: Readonly<Record<string, AnyAgentDefinition>>;
}

type ScenarioFile =
  | ({ readonly ok: true } & LoadedScenario)
  | { readonly ok: false; readonly kind: 'unreadable' | 'invalid'; readonly message: string };

export async function readScenarioFile(file: string): Promise<ScenarioFile> {
  const read = await readTextFile(file, MAX_SCENARIO_BYTES);
  if (!read.ok) return { ok: false, kind: 'unreadable', message: `cannot read ${file}: ${read.reason}` };
  const text = read.text;
  const [{ parseThresholds }, { ARCHETYPE_NAMES }, { scenarioArchetypes }, { formatScenarioErrors, parseScenario }] =
    await Promise.all([
      import('../load/thresholds.ts'),
      import('../../agents/archetype-loaders.ts'),
      import('../../agents/scenario-archetypes.ts'),
      import('../scenario/scenario.ts'),
    ]);
  const agents = await scenarioArchetypes(text, file);
  const parsed = parseScenario(text, {
    fileName: file,
    agentParams: (name) => agents[name]?.params,
    knownAgents: ARCHETYPE_NAMES,
  });
  if (!parsed.ok) return { ok: false, kind: 'invalid', message: formatScenarioErrors(file, parsed.errors) };
  // A threshold afp load cannot judge (iteration_duration, a status filter on a latency) is an
  // error of the scenario for every command: afp export k6 wrote it into a script afp load
  // refused, and afp scenario check called the file valid.
  const thresholds = parseThresholds(parsed.scenario.load?.thresholds);
  if (!thresholds.ok)
    return { ok: false, kind: 'invalid', message: thresholds.errors.map((error) => `${file}: ${error}`).join('\n') };
  return { ok: true, scenario: parsed.scenario, text, agents };
}

/** The scenario and its text, or the invalid-input failure that says why (prefixed by `command` when unreadable). */
export async function loadScenarioFile(command: string, file: string): Promise<LoadedScenario | CommandFailure> {
  const read = await readScenarioFile(file);
  if (read.ok) return read;
  return invalidInput(read.kind === 'unreadable' ? `${command}: ${read.message}` : read.message);
}
