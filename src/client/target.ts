/**
 * `--target URL` → base URLs per mount. A single URL is the style-B `api` mount; what an afp serve
 * says at `GET <api>/_afp/mounts` beside it (the style-A services' addresses, its dialect, its
 * fairness scheme, whether it trusts this caller's X-Forwarded-For) is read in one place,
 * src/live/afp-mounts.ts. A live deployment without that endpoint is addressed through `api` only.
 * Non-goals: any request (this file only checks and normalizes URLs).
 */
export { describeError } from './describe-error.ts';
import type { MountUrls } from './transport.ts';

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
