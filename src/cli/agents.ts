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
 */
import { STDERR, STDOUT } from './colour.ts';
import { AGENT_NAMES, ARCHETYPE_DESCRIPTIONS, ARCHETYPE_PARAMS } from '../../agents/index.ts';
import { textTable } from '../report/summary-table.ts';
import { archetypeParamsJsonSchema, RANGE_KEY } from '../sim/scenario-schema.ts';
import { parseArgs } from './args.ts';
import { EXIT } from '../core/exit-codes.ts';

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

/** Enumerations longer than this are cut in the table (the JSON has them all). */
const ENUM_SHOWN_MAX = 6;

type JsonSchema = Readonly<Record<string, unknown>>;

function typeText(field: JsonSchema): string {
  if (Array.isArray(field['anyOf'])) return (field['anyOf'] as JsonSchema[]).map(typeText).join(' or ');
  const type = field['type'];
  if (Array.isArray(type)) return type.join(' or ');
  if (typeof type === 'string')
    return type === 'string' && field['pattern'] === '^[0-9]{1,16}(ms|s|m|h|d)$' ? 'duration' : type;
  return 'any';
}

function rangeText(field: JsonSchema): string {
  if (typeof field[RANGE_KEY] === 'string') return field[RANGE_KEY].replace(/^duration /, '');
  if (Array.isArray(field['anyOf']))
    return (field['anyOf'] as JsonSchema[])
      .map(rangeText)
      .filter((text) => text !== '')
      .join('; ');
  const values = field['enum'];
  if (Array.isArray(values))
    return `one of ${values.slice(0, ENUM_SHOWN_MAX).join(', ')}${values.length > ENUM_SHOWN_MAX ? `, … (${values.length})` : ''}`;
  const low = field['minimum'] ?? field['minItems'] ?? field['minLength'];
  const high = field['maximum'] ?? field['maxItems'] ?? field['maxLength'];
  const above = field['exclusiveMinimum'];
  const from = low !== undefined ? String(low) : above !== undefined ? `above ${String(above)}` : undefined;
  if (from !== undefined && high !== undefined)
    return `${from} to ${String(high)}${field['maxLength'] !== undefined ? ' characters' : ''}`;
  if (from !== undefined) return `${from} or more`;
  return high === undefined ? '' : `at most ${String(high)}`;
}

function defaultText(field: JsonSchema): string {
  return 'default' in field ? JSON.stringify(field['default']) : '';
}

function archetypeText(name: string): string {
  const schema = archetypeParamsJsonSchema(ARCHETYPE_PARAMS[name] as Parameters<typeof archetypeParamsJsonSchema>[0], {
    fold: false,
  });
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, JsonSchema>>;
  const rows = Object.entries(properties).map(([key, field]) => [
    key,
    typeText(field),
    defaultText(field),
    rangeText(field),
    typeof field['description'] === 'string' ? field['description'] : '',
  ]);
  const table = textTable(['parameter', 'type', 'default', 'range', 'description'], rows, [
    'left',
    'left',
    'left',
    'left',
    'left',
  ]);
  return [`${name}: ${ARCHETYPE_DESCRIPTIONS[name] ?? ''}`, ...table.map((line) => `  ${line}`)].join('\n');
}

export async function runAgents(argv: readonly string[], io: AgentsIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(HELP);
    return EXIT.ok;
  }
  const args = parseArgs(argv, { json: 'boolean' });
  const errors = [...args.errors];
  const unknown = args.positionals.filter((name) => !AGENT_NAMES.includes(name));
  for (const name of unknown) errors.push(`unknown archetype '${name}'; known: ${AGENT_NAMES.join(', ')}`);
  if (errors.length > 0) {
    io.err(`${errors.map((error) => `afp agents: ${error}`).join('\n')}\nusage: ${AGENTS_USAGE}\n`);
    return EXIT.invalidInput;
  }
  const names =
    args.positionals.length === 0 ? AGENT_NAMES : AGENT_NAMES.filter((name) => args.positionals.includes(name));
  if (args.flags['json'] === true) {
    const list = names.map((name) => ({
      name,
      description: ARCHETYPE_DESCRIPTIONS[name] ?? '',
      params: archetypeParamsJsonSchema(ARCHETYPE_PARAMS[name] as Parameters<typeof archetypeParamsJsonSchema>[0]),
    }));
    io.out(`${JSON.stringify(list, null, 2)}\n`);
    return EXIT.ok;
  }
  io.out(`${names.map(archetypeText).join('\n\n')}\n`);
  return EXIT.ok;
}

export function main(argv: string[]): Promise<number> {
  return runAgents(argv, PROCESS_IO);
}
