/**
 * `--target URL` → base URLs per mount. A single URL is the style-B `api` mount; when it is an
 * `afp serve`, `GET <api>/_afp/mounts` also names the style-A services' addresses (faucet,
 * escrow...). A live deployment without that endpoint is addressed through `api` only.
 * Its `forwarded_for` says whether the serve reads this caller's X-Forwarded-For (`--trust-proxy`):
 * when it is `ignored`, every simulated agent is one IP to its per-IP limits, and the commands that
 * send simulated addresses say so once (`forwardedForNote`).
 * Non-goals: service discovery beyond that one request; retries (a target that does not answer
 * is an error the command reports).
 */
import type { ServiceName } from '../platform/platform.ts';
import { AdminClient } from './admin-client.ts';

export { describeError } from './describe-error.ts';
import type { MountUrls } from './transport.ts';

/** The services a mounts list may name (a type-only import keeps the platform out of live tools). */
/** The service mounts a mounts list may name, in the order they are read. */
export const ANNOUNCED: readonly ServiceName[] = ['faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino'];

const DISCOVERY_TIMEOUT_MS = 10_000;

/** Why `url` cannot be a target, or null when it can (commands check this before exit 2). */
export function targetUrlError(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `invalid target URL '${url}'`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `target URL '${url}' must start with http:// or https://`;
  if (parsed.search !== '' || parsed.hash !== '') return `target URL '${url}' must not carry a query or fragment`;
  return null;
}

/** The base URL without a trailing slash (paths are appended to it). */
function normalizeBase(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** A single `--target` URL is the `api` mount. Throws on a URL `targetUrlError` refuses. */
export function parseTarget(url: string): MountUrls {
  const error = targetUrlError(url);
  if (error !== null) throw new Error(error);
  return { api: normalizeBase(url) };
}

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

/**
 * The service mounts a mounts list names, normalized; `api` is not among them. A mount is a URL,
 * or `{ url, … }` (a serve that also says the mount's dialect: src/live/resolve-target.ts reads it).
 */
export function announcedMounts(body: unknown): MountUrls {
  const found: MountUrls = {};
  if (typeof body !== 'object' || body === null) return found;
  const mounts = (body as { mounts?: unknown }).mounts;
  if (typeof mounts !== 'object' || mounts === null) return found;
  for (const service of ANNOUNCED) {
    const value = (mounts as Record<string, unknown>)[service];
    const url = typeof value === 'object' && value !== null ? (value as { url?: unknown }).url : value;
    if (typeof url === 'string' && targetUrlError(url) === null) found[service] = normalizeBase(url);
  }
  return found;
}
