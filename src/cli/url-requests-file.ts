/**
 * `afp load --requests FILE` (and `afp export k6 --requests FILE`): a URL test of several requests
 * per iteration, as a k6 user writes a default function with several http calls. FILE is a YAML
 * or JSON list, sent in order every iteration:
 *
 *   - name: home                        # the metric's name tag; default `METHOD /path`
 *     url: http://127.0.0.1:8080/       # absolute http(s); several origins are fine
 *     checks: { status: 200, body_contains: ok }
 *   - method: POST                      # default GET
 *     url: http://127.0.0.1:8080/api/items
 *     headers: { x-run: r1 }
 *     body: { sku: a-1 }                # a string goes as it is; anything else as its JSON text
 *     checks: { status_in: [200, 201], json: { path: $.ok, equals: true } }
 *
 * Bounded: the file at most REQUESTS_FILE_LIMITS.bytes, at most .requests items, their checks at
 * most MAX_CHECKS in all (the recorder's limit), each body at most BODY_BYTES_MAX. Every problem is
 * returned at once, each naming the item (`request 2 (home)`) and the field.
 * Why its own file: the file is a format of its own (url-flags.ts reads the flags around it).
 */
import { parse } from 'yaml';
import { readTextFile } from '../core/text-file.ts';
import { MAX_CHECKS, type UrlRequest } from '../load.ts';
import { checksOfMap, URL_METHODS } from '../load/options.ts';
import { headersOf, urlCredentials } from './url-request-parts.ts';

export const REQUESTS_FILE_LIMITS = { bytes: 1_048_576, requests: 100, nameChars: 200 } as const;

const FIELDS = ['name', 'method', 'url', 'headers', 'body', 'checks'];

/** The requests of FILE (null, with every problem in `errors`, when it cannot be run). */
export async function readRequestsFile(
  file: string,
  bodyBytesMax: number,
  errors: string[],
): Promise<UrlRequest[] | null> {
  const read = await readTextFile(file, REQUESTS_FILE_LIMITS.bytes);
  if (!read.ok) {
    errors.push(`--requests: cannot read ${file}: ${read.reason}`);
    return null;
  }
  let items: unknown;
  try {
    items = parse(read.text, { maxAliasCount: 100 });
  } catch (error) {
    errors.push(`--requests ${file}: not YAML or JSON: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  const before = errors.length;
  const requests = requestsOf(items, file, bodyBytesMax, errors);
  return errors.length > before ? null : requests;
}

/** The list's requests; problems named by item and field. */
export function requestsOf(items: unknown, file: string, bodyBytesMax: number, errors: string[]): UrlRequest[] {
  const { requests: max } = REQUESTS_FILE_LIMITS;
  if (!Array.isArray(items) || items.length === 0 || items.length > max) {
    errors.push(`--requests ${file}: a list of 1 to ${max} requests (each with a url), got ${describe(items)}`);
    return [];
  }
  const requests = items.map((item: unknown, index) => requestOf(item, index + 1, bodyBytesMax, errors));
  const checks = requests.reduce((sum, request) => sum + request.checks.length, 0);
  if (checks > MAX_CHECKS) errors.push(`--requests ${file}: at most ${MAX_CHECKS} checks in all, got ${checks}`);
  return requests;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} items`;
  return value === null ? 'nothing' : `a ${typeof value}`;
}

function requestOf(item: unknown, number: number, bodyBytesMax: number, errors: string[]): UrlRequest {
  const fields: Record<string, unknown> =
    item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
  const named = typeof fields['name'] === 'string' ? ` (${fields['name'].slice(0, 40)})` : '';
  const where = `request ${number}${named}`;
  if (fields !== item) errors.push(`${where}: a map with a url, got ${describe(item)}`);
  for (const field of Object.keys(fields))
    if (!FIELDS.includes(field)) errors.push(`${where}: ${field.slice(0, 40)} is not a field (${FIELDS.join(', ')})`);
  const url = urlField(fields['url'], where, errors);
  const method = methodField(fields['method'], where, errors);
  const body = bodyField(fields['body'], where, bodyBytesMax, errors);
  if (method === 'HEAD' && body !== undefined) errors.push(`${where}: body: a HEAD request carries no body`);
  const headers = headersOf(headerLines(fields['headers'], where, errors), errors, `${where}: headers`);
  const credentials = url === null ? null : urlCredentials(url);
  const sent =
    credentials === null || credentials.authorization === null || headers['authorization'] !== undefined
      ? headers
      : { ...headers, authorization: credentials.authorization };
  const plainUrl = credentials?.url ?? 'http://invalid/';
  return {
    url: plainUrl,
    method,
    headers: sent,
    body,
    name: nameField(fields['name'], `${method} ${new URL(plainUrl).pathname}`, where, errors),
    checks: checksOfMap(fields['checks'], where, errors),
  };
}

function urlField(value: unknown, where: string, errors: string[]): string | null {
  if (typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value)) return new URL(value).href;
  errors.push(`${where}: url: an absolute http(s) URL is required`);
  return null;
}

function methodField(value: unknown, where: string, errors: string[]): UrlRequest['method'] {
  if (value === undefined) return 'GET';
  const method = URL_METHODS.find((known) => typeof value === 'string' && known === value.toUpperCase());
  if (method === undefined) errors.push(`${where}: method: one of ${URL_METHODS.join(', ')}`);
  return method ?? 'GET';
}

function nameField(value: unknown, fallback: string, where: string, errors: string[]): string {
  if (value === undefined) return fallback;
  const max = REQUESTS_FILE_LIMITS.nameChars;
  if (typeof value === 'string' && value.trim() !== '' && value.length <= max && !/[\r\n]/.test(value)) return value;
  errors.push(`${where}: name: a text of 1 to ${max} characters on one line`);
  return fallback;
}

function bodyField(value: unknown, where: string, max: number, errors: string[]): Buffer | undefined {
  if (value === undefined) return undefined;
  const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  if (body.length > max) errors.push(`${where}: body: longer than ${max} bytes`);
  return body;
}

function headerLines(value: unknown, where: string, errors: string[]): string[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    errors.push(`${where}: headers: a map of names to texts`);
    return [];
  }
  return Object.entries(value as Record<string, unknown>).flatMap(([name, text]) => {
    if (typeof text === 'string' || typeof text === 'number') return [`${name}: ${text}`];
    errors.push(`${where}: headers.${name.slice(0, 40)}: a text`);
    return [];
  });
}
