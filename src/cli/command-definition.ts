/**
 * The shape of one afp command or subcommand as data: its name, a one-line summary, its
 * positionals and every flag (long name, optional short, value name, description, default,
 * repeatable), the exit codes it can give. One definition drives four things, so they cannot
 * drift apart: the parser (args.ts, over node:util parseArgs), `--help`, `afp --help`'s list and the
 * usage blocks of README.md and docs/*.md (scripts/gen-docs.ts).
 *
 * Rendering is pure and byte-stable: the same definition always gives the same text.
 * Non-goals: validating flag values (each command checks its own, reporting every error at once).
 */
import { EXIT, EXIT_MEANINGS, type ExitCode, type ExitName } from '../core/exit-codes.ts';

export interface FlagDefinition {
  /** The long name, without `--`. */
  readonly name: string;
  /** One letter, without `-`. */
  readonly short?: string;
  /** The value's name in usage (`N`, `URL|FILE`); absent for a boolean flag. */
  readonly value?: string;
  readonly description: string;
  /** The default as shown to a reader. */
  readonly default?: string;
  /** The flag may be given several times; every value is kept. */
  readonly repeatable?: boolean;
  /** The flag must be given. */
  readonly required?: boolean;
  /** The flag names a file the command writes (checked before it runs, as a `DIR` value is: src/cli/output-path.ts). */
  readonly writesFile?: boolean;
}

export interface PositionalDefinition {
  readonly name: string;
  readonly description: string;
  readonly optional?: boolean;
  /** One or more (`URL...`). */
  readonly repeatable?: boolean;
}

export interface CommandDefinition {
  /** The words after `afp`: `['audit', 'house-edge']`. */
  readonly path: readonly string[];
  readonly summary: string;
  readonly positionals: readonly PositionalDefinition[];
  readonly flags: readonly FlagDefinition[];
  /** The exit codes this command gives besides 0, in the order of the shared table. */
  /** The endings the command can have besides 0, by name in exit-codes.ts's table. */
  readonly exits: readonly ExitName[];
  /** What `--json` prints, for commands that print a verdict (documented under the flags). */
  readonly json?: string;
  /** Extra lines printed after the flags (a second form, a note); the docs keep their own prose. */
  readonly notes?: readonly string[];
}

/** The help flag every command has (not listed in a definition: the entry answers it). */
export const HELP_FLAG: FlagDefinition = { name: 'help', short: 'h', description: 'print this help and exit 0' };

/** Columns of a help text; descriptions wrap below it. */
const WIDTH = 100;

export function commandName(definition: CommandDefinition): string {
  return ['afp', ...definition.path].join(' ');
}

function positionalText(positional: PositionalDefinition): string {
  const name = positional.repeatable === true ? `${positional.name}...` : positional.name;
  return positional.optional === true ? `[${name}]` : name;
}

function flagUsage(flag: FlagDefinition): string {
  const text = flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
  const repeated = flag.repeatable === true ? `${text}...` : text;
  return flag.required === true ? repeated : `[${repeated}]`;
}

/** `afp run FILE [--seed N] ...`: the one-line synopsis. */
export function usageLine(definition: CommandDefinition): string {
  return [
    commandName(definition),
    ...definition.positionals.map(positionalText),
    ...definition.flags.map(flagUsage),
  ].join(' ');
}

function flagLabel(flag: FlagDefinition): string {
  const long = flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
  return flag.short === undefined ? `    ${long}` : `-${flag.short}, ${long}`;
}

function flagDescription(flag: FlagDefinition): string {
  const extras = [
    flag.required === true ? 'required' : '',
    flag.default === undefined ? '' : `default ${flag.default}`,
    flag.repeatable === true ? 'repeatable' : '',
  ].filter((text) => text !== '');
  return extras.length === 0 ? flag.description : `${flag.description} (${extras.join('; ')})`;
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Label and description in two columns, the description wrapped under its column. */
function twoColumns(rows: readonly (readonly [string, string])[]): string[] {
  const labelWidth = Math.min(32, Math.max(...rows.map(([label]) => label.length)) + 2);
  const lines: string[] = [];
  for (const [label, description] of rows) {
    const wrapped = wrap(description, WIDTH - 2 - labelWidth);
    const first = label.length + 2 > labelWidth ? [`  ${label}`] : [];
    const [head, ...tail] = first.length > 0 ? ['', ...wrapped] : wrapped;
    if (first.length > 0) lines.push(...first);
    if (head !== undefined && head !== '') lines.push(`  ${label.padEnd(labelWidth)}${head}`);
    for (const more of tail) lines.push(`  ${' '.repeat(labelWidth)}${more}`);
  }
  return lines;
}

export function exitLine(definition: CommandDefinition): string {
  const named = definition.exits.map((name) => EXIT[name]);
  const codes = [0, ...named].filter((code, index, all) => all.indexOf(code) === index) as ExitCode[];
  return `exit codes: ${codes.map((code) => `${code} ${EXIT_MEANINGS[code]}`).join(' · ')}`;
}

/** The whole `--help` text of a command (also its usage block in docs/). */
export function helpText(definition: CommandDefinition): string {
  const lines = [`${commandName(definition)}: ${definition.summary}`, '', `usage: ${usageLine(definition)}`];
  if (definition.positionals.length > 0)
    lines.push(
      '',
      'arguments:',
      ...twoColumns(definition.positionals.map((positional) => [positionalText(positional), positional.description])),
    );
  lines.push(
    '',
    'options:',
    ...twoColumns([...definition.flags, HELP_FLAG].map((flag) => [flagLabel(flag), flagDescription(flag)])),
  );
  if (definition.json !== undefined)
    lines.push(
      '',
      ...wrap(
        `--json: stdout is exactly one JSON object, ${definition.json}; verdict is ok, failed, invalid-input, liveness, threshold-failed or crash, as the exit code says; human lines go to stderr, progress is off.`,
        WIDTH,
      ),
    );
  for (const note of definition.notes ?? []) lines.push('', ...wrap(note, WIDTH));
  lines.push('', exitLine(definition));
  return `${lines.join('\n')}\n`;
}

/** `afp audit --help`: a group's subcommands with their summaries and usage lines. */
export function groupHelpText(group: string, definitions: readonly CommandDefinition[]): string {
  const members = definitions.filter((definition) => definition.path[0] === group);
  const lines = [
    `usage: ${members.map(usageLine).join('\n       ')}`,
    '',
    'subcommands:',
    ...twoColumns(members.map((definition) => [definition.path.slice(1).join(' ') || group, definition.summary])),
  ];
  lines.push('', `afp ${group} SUBCOMMAND --help prints a subcommand's flags.`);
  return `${lines.join('\n')}\n`;
}

/** `afp --help`: every command with its summary, the version flag and the exit-code table. */
export function rootHelpText(definitions: readonly CommandDefinition[]): string {
  const lines = [
    'usage: afp COMMAND [ARGS] [--help]',
    '',
    'commands:',
    ...twoColumns(definitions.map((definition) => [definition.path.join(' '), definition.summary])),
  ];
  lines.push('', "afp COMMAND --help prints a command's usage and flags; afp --version (-V) prints the version.", '');
  lines.push(
    `exit codes: ${Object.entries(EXIT_MEANINGS)
      .map(([code, meaning]) => `${code} ${meaning}`)
      .join(' · ')}`,
  );
  return `${lines.join('\n')}\n`;
}
