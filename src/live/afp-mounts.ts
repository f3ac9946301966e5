/**
 * What an afp serve's `GET /_afp/mounts` says about a target, in one file: every command that asks
 * a serve for its mounts, or reads the answer, does it here (resolve-target.ts builds a Target from
 * it, discoverTarget the URLs of check, conformance and replay, afp target probe names a serve by it,
 * afp export k6 and its script's setup() read it). The answer says:
 *   - `mounts`: each service's base URL, a string or `{ url, dialect }` (announcedMounts), and the
 *     `api` mount's own (announcedApi);
 *   - each mount's dialect: its own, else the answer's top-level `dialect`, else style A, what a
 *     documents serve speaks at a service mount (servedDialects); a deployed one is refused to afp
 *     load's agents with the same words everywhere (deployedDialectRefusal), before any request;
 *   - `fairness`: the scheme its casino plays, afp's when absent (servedFairness);
 *   - `forwarded_for`: whether the serve reads this caller's X-Forwarded-For (`--trust-proxy`):
 *     `trusted` gets set-up calls fresh client addresses, `ignored` makes every simulated agent one
 *     IP to its per-IP limits, which the commands that send simulated addresses say once
 *     (forwardedForNote);
 *   - `limits: lifted`: a deployed serve started with --lift-deployed-limits keeps none.
 * An unknown dialect or scheme name counts as absent. k6 lacks node's URL: the exported script's
 * setup() (src/export/k6/k6-setup.ts, which has the answer only) reads it through mountField and
 * servedDialects, which check no URL.
 * Non-goals: service discovery beyond that one request; retries (a target that does not answer
 * is an error the command reports). Bounded: one request, at most `timeoutMs` (default 10 s).
 */
import { AdminClient } from '../client/admin-client.ts';
import { parseTarget, targetUrlError } from '../client/target.ts';
import type { MountUrls } from '../client/transport.ts';
import type { ServiceName } from '../platform/platform.ts';
import { FAIRNESS_SCHEME_NAMES, type FairnessSchemeName } from '../audit/options.ts';
import { DIALECT_NAMES, type DialectName } from './target.ts';

/** The service mounts a mounts list may name, in the order they are read. */
export const ANNOUNCED: readonly ServiceName[] = ['faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino'];

const DISCOVERY_TIMEOUT_MS = 10_000;

/** What `GET <api>/_afp/mounts` said: an afp serve's mounts list, another answer, or no answer at all. */
export type MountsAnswer =
  | { readonly kind: 'mounts'; readonly api: string; readonly body: unknown }
  | { readonly kind: 'other'; readonly api: string; readonly status: number }
  | { readonly kind: 'unreachable'; readonly api: string; readonly message: string };

/**
 * Asks `url` for its mounts (bounded by `timeoutMs`). Any answer other than 200 with a JSON
 * body is 'other' (not an afp serve); a network failure or timeout is 'unreachable'.
 * Throws on a URL `targetUrlError` refuses.
 */
export async function readMounts(url: string, options: { timeoutMs?: number } = {}): Promise<MountsAnswer> {
  const api = parseTarget(url).api as string;
  const answer = await AdminClient.ofUrl(api, { timeoutMs: options.timeoutMs ?? DISCOVERY_TIMEOUT_MS }).mounts();
  if (answer.ok) return { kind: 'mounts', api, body: answer.value };
  switch (answer.kind) {
    case 'unreachable':
      return {
        kind: 'unreachable',
        api,
        message: `target ${api} does not answer (GET ${api}/_afp/mounts): ${answer.detail}`,
      };
    case 'unreadable':
      // 200 with JSON that is no object: still what the serve said (announcedMounts finds nothing in it).
      return answer.text === undefined
        ? { kind: 'mounts', api, body: answer.body }
        : { kind: 'other', api, status: 200 };
    case 'status':
      return { kind: 'other', api, status: answer.status };
  }
}

/**
 * `parseTarget` plus the style-A mounts an afp server announces. Rejects when the target does
 * not answer at all (unreachable, timeout); any answer other than a valid mounts list means
 * "not an afp server": only `api` is known. `onForwardedFor` hears what the mounts say of this
 * caller's X-Forwarded-For (`trusted`, `ignored`), or null from anything else.
 */
export async function discoverTarget(
  url: string,
  options: {
    timeoutMs?: number;
    onNote?: (note: string) => void;
    onForwardedFor?: (forwardedFor: string | null) => void;
  } = {},
): Promise<MountUrls> {
  const answer = await readMounts(url, options);
  switch (answer.kind) {
    case 'unreachable':
      throw new Error(answer.message);
    case 'other':
      options.onForwardedFor?.(null);
      return { api: answer.api };
    case 'mounts': {
      const forwardedFor = (answer.body as { forwarded_for?: unknown } | null)?.forwarded_for;
      options.onForwardedFor?.(typeof forwardedFor === 'string' ? forwardedFor : null);
      const note = forwardedForNote(answer.api, answer.body);
      if (note !== null) options.onNote?.(note);
      return { ...announcedMounts(answer.body), api: answer.api };
    }
  }
}

/** The warning for a serve that ignores this caller's X-Forwarded-For (its mounts say `forwarded_for: ignored`), or null. */
export function forwardedForNote(api: string, body: unknown): string | null {
  if (typeof body !== 'object' || body === null || (body as { forwarded_for?: unknown }).forwarded_for !== 'ignored')
    return null;
  return `the afp serve at ${api} ignores X-Forwarded-For from this address (started without --trust-proxy): all simulated agents count as one IP for its per-IP limits (registrations, faucet claims), so expect 429s; start it with --trust-proxy 127.0.0.1/32 to count each agent's address`;
}

/** Whether the serve reads this caller's X-Forwarded-For (`forwarded_for: trusted`): set-up calls may announce fresh client addresses. */
export function forwardedForTrusted(body: unknown): boolean {
  return field(body, 'forwarded_for') === 'trusted';
}

/** The fairness scheme the serve's casino plays, as announced; afp's when it names none afp knows. */
export function servedFairness(body: unknown): FairnessSchemeName {
  const announced = field(body, 'fairness');
  return (FAIRNESS_SCHEME_NAMES as readonly unknown[]).includes(announced) ? (announced as FairnessSchemeName) : 'afp';
}

/** Whether a serve that speaks the deployed dialect keeps none of the deployment's limits (`limits: lifted`). */
export function limitsLifted(body: unknown): boolean {
  return field(body, 'limits') === 'lifted';
}

/**
 * The service mounts a mounts list names, normalized; `api` is not among them. A mount is a URL,
 * or `{ url, … }` (a serve that also says the mount's dialect: servedDialects reads it).
 */
export function announcedMounts(body: unknown): MountUrls {
  const found: MountUrls = {};
  if (typeof body !== 'object' || body === null) return found;
  const mounts = (body as { mounts?: unknown }).mounts;
  if (typeof mounts !== 'object' || mounts === null) return found;
  for (const service of ANNOUNCED) {
    const value = (mounts as Record<string, unknown>)[service];
    const url = typeof value === 'object' && value !== null ? (value as { url?: unknown }).url : value;
    if (typeof url === 'string' && targetUrlError(url) === null) found[service] = parseTarget(url).api;
  }
  return found;
}

/** The api mount the serve announces (its --public-url, or the caller's Host), normalized; null when none. */
export function announcedApi(body: unknown): string | null {
  const mounts = typeof body === 'object' && body !== null ? (body as { mounts?: unknown }).mounts : undefined;
  const api = typeof mounts === 'object' && mounts !== null ? (mounts as { api?: unknown }).api : undefined;
  return typeof api === 'string' && targetUrlError(api) === null ? api.replace(/\/+$/, '') : null;
}

/** Every URL text the mounts list names, `api` included, unchecked: whether a serve names an address as its own. */
export function mountUrlsNamed(body: unknown): string[] {
  const mounts = field(body, 'mounts');
  if (typeof mounts !== 'object' || mounts === null || Array.isArray(mounts)) return [];
  return Object.values(mounts as Record<string, unknown>)
    .map((value) => (typeof value === 'string' ? value : field(value, 'url')))
    .filter((named): named is string => typeof named === 'string');
}

/** One mount's entry of the mounts list as written (a URL text, `{ url, … }` or absent), unchecked (k6's setup() checks it). */
export function mountField(body: unknown, service: string): unknown {
  return field(field(body, 'mounts'), service);
}

/** The dialect the answer announces for the whole serve (its top-level `dialect`), else style A. */
export function servedDialect(body: unknown): DialectName {
  return dialectOf(field(body, 'dialect')) ?? 'A';
}

/** Each named service mount's dialect, in the order announcedMounts reads them. */
export function servedDialects(body: unknown): Partial<Record<ServiceName, DialectName>> {
  const top = servedDialect(body);
  const mounts = field(body, 'mounts');
  const dialects: Partial<Record<ServiceName, DialectName>> = {};
  for (const service of ANNOUNCED) {
    const mount = field(mounts, service);
    if (mount === undefined || mount === null) continue;
    dialects[service] = dialectOf(field(mount, 'dialect')) ?? top;
  }
  return dialects;
}

/** Why afp load's agents cannot drive `services` of `targetName`: they speak the deployed dialect. */
export function deployedDialectRefusal(targetName: string, services: readonly string[]): string {
  return `${targetName}: ${services.join(', ')} speak the deployed dialect; afp load's agents speak the documents' styles A and B only (serve the documents' dialect, or describe a documents-style target in a file)`;
}

export function dialectOf(value: unknown): DialectName | null {
  return (DIALECT_NAMES as readonly unknown[]).includes(value) ? (value as DialectName) : null;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
