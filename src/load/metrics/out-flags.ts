/**
 * `afp load --out`, repeatable: one plain DIR for the reports, and any number of metrics outputs,
 * `prometheus=URL` (remote write) and `json=FILE` (metrics-outputs.ts runs them). At most
 * OUTPUTS_MAX outputs. Why apart from metrics-outputs.ts: the flags are checked before the run
 * loads, and the outputs' writers are part of the run.
 */
export const OUTPUTS_MAX = 8;

export type OutputSpec =
  | { readonly kind: 'prometheus'; readonly url: string }
  | { readonly kind: 'json'; readonly file: string };

export interface OutFlags {
  /** The reports' directory (`--out DIR`), if one was given. */
  readonly dir: string | undefined;
  readonly outputs: readonly OutputSpec[];
  /** `--tag NAME=VALUE` labels for every series and point (parseTagFlags). */
  readonly tags: Readonly<Record<string, string>>;
  readonly errors: readonly string[];
}

/** Every `--out` value: one plain DIR, and any number of `prometheus=URL` and `json=FILE`; and the `--tag` values. */
export function parseOutFlags(values: readonly string[], tagValues: readonly string[] = []): OutFlags {
  const { tags, errors } = parseTagFlags(tagValues);
  const outputs: OutputSpec[] = [];
  const dirs: string[] = [];
  for (const value of values) {
    const named = /^([a-z][a-z0-9-]{0,40})=(.*)$/s.exec(value);
    if (named === null) {
      dirs.push(value);
      continue;
    }
    const [, kind, rest = ''] = named;
    if (kind === 'prometheus') {
      if (/^https?:\/\/[^\s]+$/.test(rest) && URL.canParse(rest)) outputs.push({ kind, url: rest });
      else
        errors.push(
          `--out prometheus=URL needs an http(s) remote-write URL, e.g. prometheus=http://127.0.0.1:9090/api/v1/write, got '${rest.slice(0, 200)}'`,
        );
    } else if (kind === 'json') {
      if (rest !== '') outputs.push({ kind, file: rest });
      else errors.push('--out json=FILE needs a file name');
    } else {
      errors.push(
        `--out ${kind}=…: unknown output '${kind}' (afp streams to prometheus=URL and json=FILE; a plain --out DIR is where the reports go)`,
      );
    }
  }
  if (dirs.length > 1)
    errors.push(`--out DIR given ${dirs.length} times (${dirs.join(', ')}): the reports go to one directory`);
  if (outputs.length > OUTPUTS_MAX) errors.push(`at most ${OUTPUTS_MAX} metrics outputs, got ${outputs.length}`);
  return { dir: dirs[0], outputs, tags, errors };
}

/** At most this many --tag values; a name and a value at most these many characters. */
export const TAGS_MAX = 16;
const TAG_VALUE_CHARS_MAX = 256;
/** Labels afp's series set themselves (metric-series.ts, k6-json.ts): a --tag may not replace them. */
const RESERVED_TAGS = ['method', 'name', 'status', 'scenario', 'expected_response', 'le', 'job', 'check', 'quantile'];

/** Every `--tag NAME=VALUE` (k6's flag): the labels, and what is wrong with each value that is not one. */
export function parseTagFlags(values: readonly string[]): { tags: Record<string, string>; errors: string[] } {
  const tags: Record<string, string> = {};
  const errors: string[] = [];
  if (values.length > TAGS_MAX) errors.push(`--tag is given at most ${TAGS_MAX} times, got ${values.length}`);
  for (const value of values.slice(0, TAGS_MAX)) {
    const tag = /^([A-Za-z_][A-Za-z0-9_]{0,63})=(.*)$/s.exec(value);
    if (tag === null) {
      errors.push(`--tag needs NAME=VALUE (a name of letters, digits and _), got '${value.slice(0, 80)}'`);
      continue;
    }
    const [, name = '', text = ''] = tag;
    if (RESERVED_TAGS.includes(name)) errors.push(`--tag ${name}=…: afp sets ${name} itself`);
    else if (text.length === 0 || text.length > TAG_VALUE_CHARS_MAX)
      errors.push(`--tag ${name}=…: a value has 1 to ${TAG_VALUE_CHARS_MAX} characters`);
    else if (tags[name] !== undefined) errors.push(`--tag ${name} is given twice`);
    else tags[name] = text;
  }
  return { tags, errors };
}
