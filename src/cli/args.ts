/**
 * A small strict flag parser shared by the commands: `--name value` and `--name=value`, boolean
 * flags declared as such, positionals in order. Unknown flags and missing values are errors
 * (exit 2), all reported together.
 */

export interface FlagSpec {
  readonly [name: string]: 'string' | 'boolean';
}

export interface ParsedArgs {
  readonly flags: Readonly<Record<string, string | true>>;
  readonly positionals: readonly string[];
  readonly errors: readonly string[];
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  const errors: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const equalsAt = arg.indexOf('=');
    const name = arg.slice(2, equalsAt < 0 ? undefined : equalsAt);
    const kind = spec[name];
    if (kind === undefined) {
      errors.push(`unknown flag --${name}`);
      continue;
    }
    if (kind === 'boolean') {
      if (equalsAt >= 0) errors.push(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = equalsAt >= 0 ? arg.slice(equalsAt + 1) : argv[++index];
    if (value === undefined || value === '') errors.push(`--${name} needs a value`);
    else flags[name] = value;
  }
  return { flags, positionals, errors };
}

/** A flag's value as a string, or undefined. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}
