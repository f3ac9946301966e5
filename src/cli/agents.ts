/**
 * `afp agents [NAME...] [--json]`: lists the agent archetypes a scenario's populations can name,
 * each with its one-line description and its parameters — type, default, range, description.
 * Everything shown comes from the metadata the editor schema is generated from
 * (scenario-schema.ts `archetypeParamsJsonSchema` over the agents/ registry), so this listing,
 * schemas/scenario.schema.json and the validation never disagree; the range column is the
 * `x-range` text the schema folds into its descriptions, else the schema's bounds.
 * Output: a text table per archetype, archetypes in name order, parameters in declaration order;
 * `--json` prints one array of { name, description, params } with params as JSON Schema.
 * Exit codes: 0 listed · 2 bad flags or an unknown archetype (the known ones are named).
 * The names are checked against the lazy archetype table (archetype-loaders.ts, the same names as
 * agents/index.ts); the listing (agents-listing.ts) loads every archetype, only once they pass.
 */
import { STDERR, STDOUT } from './colour.ts';
import { ARCHETYPE_NAMES as AGENT_NAMES } from '../../agents/archetype-loaders.ts';
import { parseArgs } from './args.ts';
import { type Ending, invalidInput, PASSED } from '../core/command-failure.ts';

export const AGENTS_USAGE = 'afp agents [NAME...] [--json]';

const HELP = `usage: ${AGENTS_USAGE}
  lists the agent archetypes (agent: in a scenario's populations) and their parameters
  (params:): type, default, range and description. NAME limits the list to those archetypes.
  --json   one JSON array of { name, description, params } (params as JSON Schema)
exit codes: 0 listed · 2 invalid input (an unknown archetype is named with the known ones)
`;

export interface AgentsIo {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_IO: AgentsIo = { out: STDOUT, err: STDERR };

export async function runAgents(argv: readonly string[], io: AgentsIo): Promise<Ending> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(HELP);
    return PASSED;
  }
  const args = parseArgs(argv, { json: 'boolean' });
  const errors = [...args.errors];
  const unknown = args.positionals.filter((name) => !AGENT_NAMES.includes(name));
  for (const name of unknown) errors.push(`unknown archetype '${name}'; known: ${AGENT_NAMES.join(', ')}`);
  if (errors.length > 0) {
    return invalidInput(`${errors.map((error) => `afp agents: ${error}`).join('\n')}\nusage: ${AGENTS_USAGE}`);
  }
  // The archetypes and their schemas load only for a listing: a wrong flag or name is refused without them.
  const { listAgents } = await import('./agents-listing.ts');
  io.out(listAgents(args.positionals, args.flags['json'] === true));
  return PASSED;
}

export function main(argv: string[]): Promise<Ending> {
  return runAgents(argv, PROCESS_IO);
}
