/**
 * `afp scenario new [FILE] [--name NAME] [--force]` writes a commented starting scenario: valid,
 * and it runs (`afp run FILE`) — faucet farmers and escrow buyers and sellers over one virtual
 * day, every key explained, the buyers' parameters written out with their defaults and
 * descriptions from the archetype's own metadata (the editor schema's: scenario-schema.ts
 * `archetypeParamsJsonSchema`), so the file stays true when an archetype changes.
 * `afp scenario check FILE` validates a file as `afp run` would — the schema, the archetypes'
 * parameters and the semantic checks (src/scenario/scenario-check.ts) — without running it; with
 * --json its verdict is one JSON object on stdout (json-output.ts), the errors under `errors`.
 * Without FILE `new` prints the scenario on stdout; an existing FILE is replaced only with --force.
 * Exit codes: 0 written or valid · 2 bad flags, an existing FILE, or an invalid scenario (every
 * error with its path and line).
 */
import { writeFileAtomic } from '../core/atomic-file.ts';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { loadArchetypes } from '../../agents/archetype-loaders.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import { archetypeParamsJsonSchema, DEFAULT_START, INVARIANT_NAMES } from '../scenario/scenario-schema.ts';
import { parseArgs, stringFlag } from './args.ts';
import { outFileProblem } from './output-path.ts';
import { shellWord } from '../core/shell-words.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { AUDIT_PROCESS_IO, runSubcommand, type AuditIo, type Subcommands } from './audit-io.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { CommandFailure, type Ending, invalidInput, PASSED } from '../core/command-failure.ts';

export const SCENARIO_USAGE = 'afp scenario new [FILE] [--name NAME] [--force] | afp scenario check FILE [--json]';

const NAME_PATTERN = /^[a-z0-9-]{1,64}$/;
const COMMENT_COLUMN = 30;

/** The scenario name a file suggests: its base name without extension, lower-cased, if it fits. */
export function nameFromFile(file: string | undefined): string {
  if (file === undefined) return 'starter';
  const stem = basename(file)
    .replace(/\.(ya?ml)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return NAME_PATTERN.test(stem) ? stem : 'starter';
}

/** `text` padded so that `# comment` starts at COMMENT_COLUMN (one space at least). */
function commented(text: string, comment: string): string {
  return `${text.padEnd(Math.max(COMMENT_COLUMN, text.length + 1))}# ${comment}`;
}

/** A word YAML reads as the same text unquoted (not a number, boolean or null). */
const PLAIN_WORD = /^[a-z][a-z0-9_-]*$/i;
const YAML_KEYWORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/** A default as YAML: numbers, booleans and null as they are; words plain; other texts double-quoted (JSON is valid YAML). */
function yamlValue(value: unknown): string {
  return typeof value === 'string' && PLAIN_WORD.test(value) && !YAML_KEYWORDS.has(value.toLowerCase())
    ? value
    : JSON.stringify(value);
}

/** The archetypes the starting scenario names (their descriptions and the buyer's parameters are in its comments). */
export type StarterArchetypes = Readonly<Record<string, AnyAgentDefinition>>;

/** The starter's archetypes, loaded (only these three: `afp scenario` loads no other archetype). */
export function starterArchetypes(): Promise<StarterArchetypes> {
  return loadArchetypes(['faucet-farmer', 'escrow-seller', 'escrow-buyer']);
}

/** The archetype's parameters that have a default, one line each with its description. */
function paramLines(definition: AnyAgentDefinition | undefined, indent: string): string[] {
  const schema = archetypeParamsJsonSchema(definition?.params as Parameters<typeof archetypeParamsJsonSchema>[0]);
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  return Object.entries(properties)
    .filter(([, field]) => 'default' in field)
    .map(([key, field]) =>
      commented(
        `${indent}${key}: ${yamlValue(field['default'])}`,
        typeof field['description'] === 'string' ? field['description'] : '',
      ),
    );
}

/**
 * The starting scenario's text: valid, commented, and it runs. Pure, given the starter's archetypes
 * (starterArchetypes) and the file it goes to (its run line names it; `NAME.yaml` when printed).
 */
export function starterScenarioText(name: string, archetypes: StarterArchetypes, file?: string): string {
  return [
    `# A starting afp scenario (written by afp scenario new). Run it: npx afp run ${shellWord(file ?? `${name}.yaml`)}`,
    "# Every key is described, with its range, in afp's JSON Schema (schemas/scenario.schema.json);",
    '# `npx afp agents` lists the agent archetypes and their parameters. Durations are an integer',
    '# and a unit: ms, s, m, h or d. `npx afp scenario check FILE` validates without running.',
    // Quoted where YAML would read it as no text (123, 1e5, true): the scenario's name is text.
    commented(`name: ${yamlValue(name)}`, 'a-z, 0-9 and -; names the reports folder'),
    commented('seed: 1', 'the default seed; --seed overrides it; same seed, same digest'),
    commented(`start: ${DEFAULT_START.replace('.000', '')}`, 'virtual start instant (UTC)'),
    commented('duration: 1d', 'virtual run length, 1s to 365d'),
    'populations:',
    `  # faucet-farmer: ${archetypes['faucet-farmer']?.description ?? ''}`,
    '  - agent: faucet-farmer',
    commented('    count: 20', 'agents in this population'),
    commented('    style: mixed', 'addressing style: A, B or mixed (default B)'),
    commented('    tier: free', 'rate-limit tier: free, pro or enterprise'),
    `  # escrow-seller: ${archetypes['escrow-seller']?.description ?? ''}`,
    '  - agent: escrow-seller',
    '    count: 10',
    `  # escrow-buyer: ${archetypes['escrow-buyer']?.description ?? ''}`,
    '  # Its parameters with their defaults; release, refund, dispute and let_expire must sum to 1.',
    '  - agent: escrow-buyer',
    '    count: 10',
    '    params:',
    ...paramLines(archetypes['escrow-buyer'], '      '),
    '# Faults: windows in which a service answers 503 (or 500) to every request.',
    'faults:',
    commented('  - { service: escrow, from: 6h, for: 30m, answer: 503 }', 'from: after the start; for: length'),
    commented(
      `invariants: [${INVARIANT_NAMES.filter((invariant) => !invariant.startsWith('casino')).join(', ')}]`,
      'default: all',
    ),
    commented('reports: [summary, agents, endpoints, escrows, events]', 'default: all'),
    '# Casino runs add casino archetypes (fixed-bettor, martingale, kelly-bettor, batch-bettor, ...)',
    "# and deposits: casino: { starting_deposit: '100.00' }; afp agents lists their parameters.",
    '',
  ].join('\n');
}

async function scenarioNew(argv: readonly string[], io: AuditIo): Promise<Ending> {
  const args = parseArgs(argv, { name: 'string', force: 'boolean' });
  const errors = [...args.errors];
  if (args.positionals.length > 1) errors.push(`name at most one file, got ${args.positionals.length}`);
  const file = args.positionals[0];
  const name = stringFlag(args, 'name') ?? nameFromFile(file);
  if (!NAME_PATTERN.test(name))
    errors.push(`--name must be 1 to 64 characters of a-z, 0-9 and -, got '${name.slice(0, 80)}'`);
  const unwritable = file === undefined ? null : outFileProblem(file);
  if (file !== undefined && unwritable !== null) errors.push(`${file}: ${unwritable}`);
  else if (file !== undefined && args.flags['force'] !== true && existsSync(file))
    errors.push(`${file} exists: pass --force to replace it`);
  if (errors.length > 0) {
    return invalidInput(`${errors.map((error) => `afp scenario new: ${error}`).join('\n')}\nusage: ${SCENARIO_USAGE}`);
  }
  const text = starterScenarioText(name, await starterArchetypes(), file);
  if (file === undefined) {
    io.out(text);
    return PASSED;
  }
  await mkdir(dirname(file), { recursive: true });
  writeFileAtomic(file, text);
  io.out(`wrote ${file}; run it: npx afp run ${shellWord(file)}\n`);
  return PASSED;
}

function scenarioCheck(argv: readonly string[], io: AuditIo): Promise<Ending> {
  return withJsonOutput('afp scenario check', argv, io, (human, record) => checkScenarioFile(argv, human, record));
}

async function checkScenarioFile(argv: readonly string[], io: AuditIo, record: RecordFields): Promise<Ending> {
  const args = parseArgs(argv, { json: 'boolean' });
  const errors = [...args.errors];
  if (args.positionals.length !== 1) errors.push(`name exactly one scenario file, got ${args.positionals.length}`);
  const file = args.positionals[0];
  if (errors.length > 0 || file === undefined) {
    record({ errors });
    return invalidInput(
      `${errors.map((error) => `afp scenario check: ${error}`).join('\n')}\nusage: ${SCENARIO_USAGE}`,
    );
  }
  record({ file });
  const loaded = await loadScenarioFile('afp scenario check', file);
  if (loaded instanceof CommandFailure) return loaded;
  const agents = loaded.scenario.populations.reduce((total, population) => total + population.count, 0);
  record({ scenario: loaded.scenario.name, populations: loaded.scenario.populations.length, agents });
  io.out(`${file}: valid (${loaded.scenario.populations.length} populations, ${agents} agents)\n`);
  return PASSED;
}

const SUBCOMMANDS: Subcommands = { new: scenarioNew, check: scenarioCheck };

export function runScenarioCommand(argv: readonly string[], io: AuditIo): Promise<Ending> {
  return runSubcommand(argv, io, {
    name: 'scenario',
    missing: 'name what to do: new or check',
    noun: 'subcommand',
    subcommands: SUBCOMMANDS,
    usage: SCENARIO_USAGE,
  });
}

export function main(argv: string[]): Promise<Ending> {
  return runScenarioCommand(argv, AUDIT_PROCESS_IO);
}
