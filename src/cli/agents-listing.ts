/**
 * The text `afp agents` prints (agents.ts checks its flags and names first): a table per archetype
 * of its parameters, or with --json one array of { name, description, params } (params as JSON
 * Schema), from the metadata the editor schema is generated from. Why apart from agents.ts: this
 * loads every archetype and the scenario schema, which a wrong flag or name should not pay for.
 */
import { AGENT_NAMES, ARCHETYPE_DESCRIPTIONS, ARCHETYPE_PARAMS } from '../../agents/index.ts';
import { textTable } from '../report/summary-table.ts';
import { archetypeParamsJsonSchema, RANGE_KEY } from '../scenario/scenario-schema.ts';

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

/** The listing of `names` (every archetype when empty), in name order: the text tables, or the JSON array. */
export function listAgents(names: readonly string[], json: boolean): string {
  const shown = names.length === 0 ? AGENT_NAMES : AGENT_NAMES.filter((name) => names.includes(name));
  if (json) {
    const list = shown.map((name) => ({
      name,
      description: ARCHETYPE_DESCRIPTIONS[name] ?? '',
      params: archetypeParamsJsonSchema(ARCHETYPE_PARAMS[name] as Parameters<typeof archetypeParamsJsonSchema>[0]),
    }));
    return `${JSON.stringify(list, null, 2)}\n`;
  }
  return `${shown.map(archetypeText).join('\n\n')}\n`;
}
