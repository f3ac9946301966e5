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
  readonly errors: readonly string[];
}

/** Every `--out` value: one plain DIR, and any number of `prometheus=URL` and `json=FILE`. */
export function parseOutFlags(values: readonly string[]): OutFlags {
  const errors: string[] = [];
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
  return { dir: dirs[0], outputs, errors };
}
