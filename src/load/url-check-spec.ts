/**
 * The checks of a URL test as a user writes them (url-checks.ts says what each judges): a
 * --requests file item's `checks:` map, or a `--check` flag of `afp load URL`. Why apart from
 * url-checks.ts: reading what a user wrote (every problem named, with where it is) is not judging
 * an answer, and the k6 export needs only the judging side's names.
 *
 *   checks: { status: 200, status_in: [200, 201], body_contains: "ok", json: { path: "$.ok", equals: true } }
 *   --check status=200   --check status=200,201   --check 'body~ok'   --check 'json:$.ok=true'
 *
 * A --check json value is read as JSON when it is a JSON scalar (true, 3, null, "x"), else as text.
 * Problems are returned as lines, never thrown.
 */
import { jsonSteps, type JsonScalar, type UrlCheck } from './url-checks.ts';

/** At most this many checks for a request, and characters in a body_contains text or a json path. */
export const CHECK_LIMITS = { perRequest: 20, textChars: 1_000 } as const;

const CHECK_KEYS = ['status', 'status_in', 'body_contains', 'json'] as const;

const isStatus = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;

const isScalar = (value: unknown): value is JsonScalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** One `checks:` entry, or what is wrong with it (`where` names the item and field). */
function checkOf(key: string, value: unknown, where: string): UrlCheck | string {
  switch (key) {
    case 'status':
      return isStatus(value) ? { kind: 'status', status: value } : `${where}: a status is a whole number 100..599`;
    case 'status_in':
      return Array.isArray(value) && value.length > 0 && value.length <= 100 && value.every(isStatus)
        ? { kind: 'status_in', statuses: value }
        : `${where}: a list of 1 to 100 statuses, each a whole number 100..599`;
    case 'body_contains':
      return typeof value === 'string' && value.length > 0 && value.length <= CHECK_LIMITS.textChars
        ? { kind: 'body_contains', text: value }
        : `${where}: a text of 1 to ${CHECK_LIMITS.textChars} characters`;
    case 'json':
      return jsonCheckOf(value, where);
    default:
      return `${where}: not a check (known: ${CHECK_KEYS.join(', ')})`;
  }
}

function jsonCheckOf(value: unknown, where: string): UrlCheck | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `${where}: { path: "$.field", equals: VALUE }`;
  const fields = value as Record<string, unknown>;
  const extra = Object.keys(fields).find((name) => name !== 'path' && name !== 'equals');
  if (extra !== undefined) return `${where}.${extra}: not a field (path, equals)`;
  const path = fields['path'];
  const steps = typeof path === 'string' && path.length <= CHECK_LIMITS.textChars ? jsonSteps(path) : null;
  if (typeof path !== 'string' || steps === null)
    return `${where}.path: a path such as $.ok or $.items[0].id (names of letters, digits, _ and -; indices)`;
  if (!Object.hasOwn(fields, 'equals') || !isScalar(fields['equals']))
    return `${where}.equals: a string, a number, a boolean or null`;
  return { kind: 'json', path, steps, equals: fields['equals'] };
}

/** A request's `checks:` map (undefined: none); `where` is e.g. `request 2 (home)`. */
export function checksOfMap(value: unknown, where: string, errors: string[]): UrlCheck[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    errors.push(`${where}: checks is a map, e.g. { status: 200, body_contains: "ok" }`);
    return [];
  }
  const checks: UrlCheck[] = [];
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const check = checkOf(key, entry, `${where}: checks.${key}`);
    if (typeof check === 'string') errors.push(check);
    else checks.push(check);
  }
  return checks;
}

/** `--check` values of `afp load URL`: status=N[,N…], body~TEXT, json:PATH=VALUE. */
export function checksOfFlags(values: readonly string[], errors: string[]): UrlCheck[] {
  if (values.length > CHECK_LIMITS.perRequest)
    errors.push(`at most ${CHECK_LIMITS.perRequest} --check flags, got ${values.length}`);
  const checks: UrlCheck[] = [];
  for (const value of values.slice(0, CHECK_LIMITS.perRequest)) {
    const check = checkOfFlag(value);
    if (typeof check === 'string') errors.push(check);
    else checks.push(check);
  }
  return checks;
}

function checkOfFlag(value: string): UrlCheck | string {
  const where = `--check '${value.slice(0, 100)}'`;
  const status = /^status=([\d,\s]+)$/.exec(value);
  if (status !== null) {
    const statuses = (status[1] ?? '').split(',').map((part) => Number(part.trim()));
    if (statuses.length === 1) return checkOf('status', statuses[0], where);
    return checkOf('status_in', statuses, where);
  }
  if (value.startsWith('body~')) return checkOf('body_contains', value.slice('body~'.length), where);
  const json = /^json:(\$[^=]*)=(.*)$/s.exec(value);
  if (json !== null) return checkOf('json', { path: json[1], equals: scalarOf(json[2] ?? '') }, where);
  return `${where}: not a check: status=200, status=200,201, body~TEXT or json:$.path=VALUE`;
}

/** A --check json value: a JSON scalar as such, anything else as the text given. */
function scalarOf(text: string): JsonScalar {
  try {
    const value: unknown = JSON.parse(text);
    return isScalar(value) ? value : text;
  } catch {
    return text;
  }
}
