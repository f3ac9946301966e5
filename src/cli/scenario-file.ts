/**
 * Reading a scenario file for a command (run, sweep, load, export k6, scenario check, load merge):
 * read it, parse it against the agents table, and say what is wrong the one way every command
 * says it — a file that cannot be read as `<command>: cannot read FILE: reason`, a scenario with
 * errors as the scenario's own formatted list (each error with its path and line).
 * Why one function: six commands had a copy each, and a copy drifts (a message, an agent table).
 */
import { readFile } from 'node:fs/promises';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { formatScenarioErrors, parseScenario, type Scenario } from '../sim/scenario.ts';

export type ScenarioFile =
  | { readonly ok: true; readonly scenario: Scenario; readonly text: string }
  | { readonly ok: false; readonly kind: 'unreadable' | 'invalid'; readonly message: string };

export async function readScenarioFile(file: string): Promise<ScenarioFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: 'unreadable', message: `cannot read ${file}: ${reason}` };
  }
  const parsed = parseScenario(text, {
    fileName: file,
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) return { ok: false, kind: 'invalid', message: formatScenarioErrors(file, parsed.errors) };
  return { ok: true, scenario: parsed.scenario, text };
}

/** The scenario and its text, or null once the reason is printed on `err` (prefixed by `command` when unreadable). */
export async function loadScenarioFile(
  command: string,
  file: string,
  err: (text: string) => void,
): Promise<{ readonly scenario: Scenario; readonly text: string } | null> {
  const read = await readScenarioFile(file);
  if (read.ok) return read;
  err(read.kind === 'unreadable' ? `${command}: ${read.message}\n` : `${read.message}\n`);
  return null;
}
