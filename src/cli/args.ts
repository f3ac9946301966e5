/**
 * A small strict flag parser shared by the commands: `--name value` and `--name=value`, boolean
 * flags declared as such, positionals in order. Unknown flags and missing values are errors
 * (exit 2), all reported together; an unknown flag close to a known one (a typo, or the start of
 * one) names it: `unknown flag --sed (did you mean --seed?)`.
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
      const near = nearestFlag(name, Object.keys(spec));
      errors.push(`unknown flag --${name}${near === undefined ? '' : ` (did you mean --${near}?)`}`);
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
  for (let i = 0; i <= a.length; i++) rows.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.MAX_SAFE_INTEGER;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, at(i - 2, j - 2) + 1);
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
