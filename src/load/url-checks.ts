/**
 * The checks of a URL test (`afp load URL --check …`, a --requests file's `checks:`): what an
 * answer must show, judged on each answer as k6's `check()` judges a response, and counted as k6
 * counts them (the `checks` rate: a pass or a fail per check per answer). Why its own file: afp
 * load judges them (url-source.ts), the k6 export writes them as `check()` calls that judge the
 * same (k6-url-requests.ts), and both name them alike, so a check's passes and fails can be compared
 * name for name between the two engines.
 *
 *   status: N               the status is N
 *   status_in: [N, …]       the status is one of them
 *   body_contains: TEXT     the body (as text) holds TEXT
 *   json: {path, equals}    the body parsed as JSON holds the scalar `equals` at `path`
 *                           (`$`, `$.a.b`, `$.items[0].id`: names of [A-Za-z0-9_-] and indices)
 *
 * An answer that never came (status 0, no body) fails every check, as k6's does. `equals` is a
 * scalar (a string, a number, a boolean or null), compared with ===: no deep equality to differ
 * between engines. The body judged is the part afp keeps (MAX_ANSWER_BYTES); a longer body's
 * JSON checks fail (a cut JSON text is no JSON). Pure.
 */
import { parseBoundedJson } from '../client/bounded-json.ts';

export type JsonScalar = string | number | boolean | null;
/** A JSON path as its steps: a property name, or an array index. */
export type JsonStep = string | number;

export type UrlCheck =
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'status_in'; readonly statuses: readonly number[] }
  | { readonly kind: 'body_contains'; readonly text: string }
  | { readonly kind: 'json'; readonly path: string; readonly steps: readonly JsonStep[]; readonly equals: JsonScalar };

/** What a check reads of an answer: its status (0 for none) and its body's text, read only when a check needs it. */
export interface CheckedAnswer {
  readonly status: number;
  readonly text: () => string;
}

const JSON_PATH = /^\$((?:\.[A-Za-z0-9_-]{1,100}|\[\d{1,9}\]){0,32})$/;

/** `$.a[0].b` as its steps, or null when it is not a path of this small syntax. */
export function jsonSteps(path: string): JsonStep[] | null {
  const match = JSON_PATH.exec(path);
  if (match === null) return null;
  const steps: JsonStep[] = [];
  for (const step of (match[1] ?? '').matchAll(/\.([A-Za-z0-9_-]+)|\[(\d+)\]/g))
    steps.push(step[1] === undefined ? Number(step[2]) : step[1]);
  return steps;
}

/** The check's name in every count and summary line, k6's `check()` key: `REQUEST: what it checks`. */
export function checkName(request: string, check: UrlCheck): string {
  switch (check.kind) {
    case 'status':
      return `${request}: status is ${check.status}`;
    case 'status_in':
      return `${request}: status in ${check.statuses.join(', ')}`;
    case 'body_contains':
      return `${request}: body contains ${JSON.stringify(check.text)}`;
    case 'json':
      return `${request}: ${check.path} is ${JSON.stringify(check.equals)}`;
  }
}

/** The value at `steps` in a parsed JSON value (undefined where there is none). */
export function valueAtSteps(value: unknown, steps: readonly JsonStep[]): unknown {
  let at: unknown = value;
  for (const step of steps) {
    if (typeof step === 'number') at = Array.isArray(at) ? (at as unknown[])[step] : undefined;
    else
      at =
        at !== null && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, step)
          ? (at as Record<string, unknown>)[step]
          : undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** Whether `answer` passes `check`. */
export function passes(check: UrlCheck, answer: CheckedAnswer): boolean {
  if (answer.status === 0) return false;
  switch (check.kind) {
    case 'status':
      return answer.status === check.status;
    case 'status_in':
      return check.statuses.includes(answer.status);
    case 'body_contains':
      return answer.text().includes(check.text);
    case 'json': {
      const parsed = parseBoundedJson(answer.text());
      return parsed.kind === 'json' && valueAtSteps(parsed.value, check.steps) === check.equals;
    }
  }
}
