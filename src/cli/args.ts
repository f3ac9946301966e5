/**
 * The flag parser shared by the commands: node:util's parseArgs, driven by a command's definition
 * (command-definition.ts) or a plain flag spec. `--name value` and `--name=value`, boolean flags
 * declared as such, repeatable flags keeping every value, positionals in order, `--` ending the
 * flags. Strict: unknown flags, missing values and values given to booleans are errors (exit 2),
 * all reported together (parseArgs' own strict mode stops at the first, so its tokens are checked
 * here); an unknown flag close to a known one names it: `unknown flag --sed (did you mean --seed?)`.
 */
import { parseArgs as parseTokens } from 'node:util';
import type { CommandDefinition } from './command-definition.ts';
import { outDirProblem, outFileProblem } from './output-path.ts';

export interface FlagSpec {
  readonly [name: string]: 'string' | 'boolean' | 'strings';
}

export interface ParsedArgs {
  readonly flags: Readonly<Record<string, string | true>>;
  /** Every value of a repeatable flag, in order (also the last one in `flags`). */
  readonly lists: Readonly<Record<string, readonly string[]>>;
  readonly positionals: readonly string[];
  readonly errors: readonly string[];
}

/** The flag spec of a definition (optionally without some flags: another form of the command owns them). */
export function flagSpecOf(definition: CommandDefinition, without: readonly string[] = []): FlagSpec {
  const spec: Record<string, 'string' | 'boolean' | 'strings'> = {};
  for (const flag of definition.flags) {
    if (without.includes(flag.name)) continue;
    spec[flag.name] = flag.value === undefined ? 'boolean' : flag.repeatable === true ? 'strings' : 'string';
  }
  return spec;
}

/** The argv of a command, parsed by its definition. */
export function parseCommand(
  argv: readonly string[],
  definition: CommandDefinition,
  without: readonly string[] = [],
): ParsedArgs {
  const shorts: Record<string, string> = {};
  for (const flag of definition.flags)
    if (flag.short !== undefined && !without.includes(flag.name)) shorts[flag.short] = flag.name;
  const parsed = parseArgs(argv, flagSpecOf(definition, without), shorts);
  return { ...parsed, errors: [...parsed.errors, ...outputErrors(parsed, definition, without)] };
}

/**
 * An output flag whose value cannot be written (output-path.ts): a directory flag (its value named
 * `DIR`, or `DIR|…` with other forms written `name=…`) or one that writes a file (`writesFile`).
 * An error now, not a crash after the run.
 */
function outputErrors(parsed: ParsedArgs, definition: CommandDefinition, without: readonly string[]): string[] {
  const errors: string[] = [];
  for (const flag of definition.flags) {
    if (without.includes(flag.name) || flag.value === undefined) continue;
    const forms = flag.value.split('|');
    const check = flag.writesFile === true ? outFileProblem : forms[0] === 'DIR' ? outDirProblem : undefined;
    if (check === undefined) continue;
    const given =
      parsed.lists[flag.name] ?? (typeof parsed.flags[flag.name] === 'string' ? [parsed.flags[flag.name]] : []);
    for (const value of given) {
      if (typeof value !== 'string' || (forms.length > 1 && /^[a-z]+=/.test(value))) continue;
      const problem = check(value);
      if (problem !== null) errors.push(`--${flag.name} ${value}: ${problem}`);
    }
  }
  return errors;
}

export function parseArgs(
  argv: readonly string[],
  spec: FlagSpec,
  shorts: Readonly<Record<string, string>> = {},
): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, kind] of Object.entries(spec))
    options[name] = {
      type: kind === 'boolean' ? 'boolean' : 'string',
      ...(kind === 'strings' ? { multiple: true } : {}),
    };
  for (const [short, name] of Object.entries(shorts))
    if (options[name] !== undefined) options[name] = { ...options[name], short };
  const { tokens } = parseTokens({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const flags: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  const positionals: string[] = [];
  const errors: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const kind = spec[token.name];
    if (kind === undefined) {
      const near = token.rawName.startsWith('--') ? nearestFlag(token.name, Object.keys(spec)) : undefined;
      errors.push(`unknown flag ${token.rawName}${near === undefined ? '' : ` (did you mean --${near}?)`}`);
      continue;
    }
    if (kind === 'boolean') {
      if (token.inlineValue === true) errors.push(`--${token.name} takes no value`);
      else flags[token.name] = true;
      continue;
    }
    if (token.value === undefined || token.value === '') {
      errors.push(`--${token.name} needs a value`);
      continue;
    }
    flags[token.name] = token.value;
    if (kind === 'strings') (lists[token.name] ??= []).push(token.value);
  }
  return { flags, lists, positionals, errors };
}

/**
 * The flags of another form of a command given to this one (a scenario run's `--workers` to a URL
 * run): one error naming them and the form they belong to, e.g. `--workers applies to a scenario
 * run (afp load SCENARIO --target URL)`. Parse with the whole definition and ask this, rather than
 * parse without them: an unknown flag leaves its value behind as a positional, and the user reads
 * "unknown flag" then a count of positionals that is not what they gave.
 */
export function otherFormFlags(args: ParsedArgs, names: readonly string[], form: string): string[] {
  const given = names.filter((name) => args.flags[name] !== undefined);
  if (given.length === 0) return [];
  return [`${given.map((name) => `--${name}`).join(', ')} ${given.length === 1 ? 'applies' : 'apply'} to ${form}`];
}

/** Names longer than this are not compared (the distance table is quadratic in their lengths). */
const NAME_LENGTH_MAX = 64;

/**
 * The known flag nearest to `name`: the one it starts (`--dur` for `--duration`), else the one at
 * the smallest edit distance, if that is at most 2 and less than half the name. Ties go to the
 * first in `known`, so the answer is stable.
 */
export function nearestFlag(name: string, known: readonly string[]): string | undefined {
  if (name.length === 0 || name.length > NAME_LENGTH_MAX) return undefined;
  const prefixed = known.filter((candidate) => name.length >= 2 && candidate.startsWith(name));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor((name.length - 1) / 2));
  for (const candidate of known) {
    if (candidate.length > NAME_LENGTH_MAX) continue;
    const distance = editDistance(name, candidate);
    if (distance <= bestDistance && (best === undefined || distance < editDistance(name, best))) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, with a transposition counted as one edit (`--sede` → `--seed`). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++)
    rows.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.MAX_SAFE_INTEGER;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = distance;
    }
  }
  return at(a.length, b.length);
}

/** A flag's value as a string, or undefined. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}
