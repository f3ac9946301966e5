/**
 * A Transport over k6's `http.asyncRequest`: the third transport of the one agent runtime (after
 * the in-process dispatcher and afp load's node HTTP), so afp's AfpClient and agents run
 * unchanged inside a k6 VU.
 *
 * As afp load's sender does (src/load/load-run-transport.ts): the path goes under its mount's base
 * URL, JSON bodies with `content-type: application/json`, `accept: application/json` on every
 * request, answers parsed as JSON or passed on as text, header names lower-cased. Every request
 * is tagged `endpoint` (and `name`, so k6 keeps one series per endpoint, not per URL) with the
 * afp route id afp load names it by (src/replay/endpoint-name.ts). k6's http_req_failed counts
 * what afp load counts as failed (no answer, 429, 5xx): the `expected` callback the script
 * passes in says so. A request k6 could not send answers status 0 (k6 does not throw). A request
 * to a mount without a URL aborts the whole run (k6's exec.test.abort: exit 108) with the fix,
 * where afp load refuses the run before it starts: one line, not a failure per iteration and an
 * exit 0.
 * Non-goal: timing from an intended start (k6 measures its own requests).
 */
import type { MountUrls, Transport, TransportRequest, TransportResponse } from '../../client/transport.ts';
import { endpointName } from '../../replay/endpoint-name.ts';

/** What the bundle needs of k6's `k6/http` module. */
export interface K6Http {
  asyncRequest(method: string, url: string, body: string | null, params: K6RequestParams): Promise<K6Response>;
}

export interface K6RequestParams {
  readonly headers: Readonly<Record<string, string>>;
  readonly tags: Readonly<Record<string, string>>;
  readonly timeout: string;
  /** k6's `http.expectedStatuses(...)` result: which statuses are not failures. */
  readonly responseCallback: unknown;
}

export interface K6Response {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

export interface K6TransportOptions {
  readonly http: K6Http;
  readonly urls: MountUrls;
  readonly timeout: string;
  readonly expected: unknown;
  /** k6's `exec.test.abort(reason)`: ends the whole run (k6 exits 108); it does not return. */
  abort(message: string): never;
}

export function k6Transport(options: K6TransportOptions): Transport {
  const { http, urls } = options;
  return async (request: TransportRequest): Promise<TransportResponse> => {
    const base = urls[request.mount];
    if (base === undefined) options.abort(`${request.method} ${request.path}: ${missingMounts([request.mount], '')}`);
    const endpoint = endpointName(request);
    const body = bodyOf(request);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (body !== null) headers['content-type'] = request.rawBody?.contentType ?? 'application/json';
    const answer = await http.asyncRequest(request.method, base + request.path + queryString(request.query), body, {
      headers,
      tags: { endpoint, name: endpoint },
      timeout: options.timeout,
      responseCallback: options.expected,
    });
    return { status: answer.status, headers: lowerCased(answer.headers), body: answerBody(answer.body) };
  };
}

/**
 * Why the run cannot go on: the mounts without a URL, where a URL could have come from, and how to
 * give one. Shared with setup()'s check (k6-setup.ts), which says what it `heard` from /_afp/mounts.
 */
export function missingMounts(missing: readonly string[], heard: string): string {
  const names = missing.map((mount) => (mount === 'api' ? 'AFP_TARGET' : `AFP_TARGET_${mount.toUpperCase()}`));
  return `no URL for mount ${missing.map((mount) => `'${mount}'`).join(', ')}, which the scenario's agents send to${heard === '' ? '' : ` (${heard})`}: set ${names.map((name) => `${name}=<its URL>`).join(', ')} (the TestRun of afp export k6 --k8s sets them), or run against an afp serve whose /_afp/mounts this run can read`;
}

function bodyOf(request: TransportRequest): string | null {
  if (request.rawBody !== undefined) return request.rawBody.text;
  return request.body === undefined ? null : JSON.stringify(request.body);
}

function queryString(query: Readonly<Record<string, string>> | undefined): string {
  if (query === undefined) return '';
  const text = Object.entries(query)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return text === '' ? '' : `?${text}`;
}

function lowerCased(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}

function answerBody(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
