/**
 * The URLs afp serve announces for its mounts: what it prints at start and what `GET /_afp/mounts`
 * answers, so a teammate's machine or a k6 pod is pointed at an address it can reach.
 *
 * Three sources, first that applies per mount:
 *   1. `--public-url SERVICE=URL`: that mount's URL as given (a reverse proxy's name, say);
 *   2. `--public-url URL`: its scheme and host for every mount; its port (or the scheme's default
 *      when it names none) is the api mount's, and each other mount keeps its offset from the api
 *      mount's listening port (faucet +1, …), so a plain forward of the whole port range works
 *      unchanged (where that offset gives no port, as ephemeral `--port 0` ports may, the mount's
 *      own port on the public host); a URL with a path keeps it on every mount (a proxy's prefix);
 *   3. none given: the listening URL, with the caller's Host in place of the bound address in
 *      `/_afp/mounts` (a client that reached `afp serve --host 0.0.0.0` through 10.1.2.3 is told
 *      10.1.2.3, never the 127.0.0.1 it cannot reach); printed at start as listening.
 * Only a Host that is a plain host name or address (with an optional port, which is dropped: each
 * mount keeps its own) is used; anything else leaves the listening URL. Reflecting a caller's Host
 * back to that caller tells it nothing it did not send.
 * Limits: URLS_MAX public URLs; a URL at most URL_CHARS_MAX characters, http or https, no user or
 * password, no query or fragment.
 */
import type { Mount } from '../http/route.ts';

export const URL_CHARS_MAX = 2_048;
export const URLS_MAX = 16;
const HOST_CHARS_MAX = 253;
const PORT_MAX = 65_535;

/** `--public-url` as parsed: a URL for every mount, and per-mount ones. */
export interface PublicUrls {
  readonly all?: string;
  readonly perMount: Readonly<Partial<Record<Mount, string>>>;
}

/** One `--public-url` value (URL or SERVICE=URL), checked: the parsed form, or why it is not one. */
export function parsePublicUrl(
  text: string,
  mounts: readonly Mount[],
): { readonly mount: Mount | null; readonly url: string } | { readonly error: string } {
  const equals = text.indexOf('=');
  const named = equals > 0 && /^[a-z]+$/.test(text.slice(0, equals)) ? text.slice(0, equals) : null;
  const mount = named === null ? null : (mounts.find((candidate) => candidate === named) ?? null);
  if (named !== null && mount === null)
    return { error: `--public-url ${named}=…: no such service; valid: ${mounts.join(', ')}` };
  const urlText = named === null ? text : text.slice(equals + 1);
  const problem = urlProblem(urlText);
  if (problem !== null) return { error: `--public-url '${text.slice(0, 80)}': ${problem}` };
  return { mount, url: urlText.replace(/\/+$/, '') };
}

function urlProblem(text: string): string | null {
  if (text.length > URL_CHARS_MAX) return `a URL is at most ${URL_CHARS_MAX} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL (such as https://afp.team.example or http://10.1.2.3:8700)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'a public URL is http or https';
  if (url.username !== '' || url.password !== '') return 'a public URL carries no user or password';
  if (url.search !== '' || url.hash !== '') return 'a public URL has no query or fragment';
  return null;
}

/**
 * The announced URL of every mount. `listening`: the mounts' listening URLs (the api mount's among
 * them when it listens); `host`: the caller's Host header (absent at start).
 */
export function announcedUrls(
  listening: Readonly<Partial<Record<Mount, string>>>,
  publicUrls: PublicUrls | undefined,
  host?: string,
): Record<string, string> {
  const callerHost = host === undefined ? null : plainHostName(host);
  const announced: Record<string, string> = {};
  for (const [mount, url] of Object.entries(listening) as Array<[Mount, string]>) {
    const own = publicUrls?.perMount[mount];
    announced[mount] =
      own ??
      (publicUrls?.all !== undefined
        ? shiftedUrl(publicUrls.all, url, listening)
        : callerHost === null
          ? url
          : withHost(url, callerHost));
  }
  return announced;
}

/** The public base with this mount's offset from the api mount's port (the api mount: the base itself). */
function shiftedUrl(base: string, mountUrl: string, listening: Readonly<Partial<Record<Mount, string>>>): string {
  const publicUrl = new URL(base);
  const apiListening = listening.api ?? Object.values(listening)[0];
  const offset = apiListening === undefined ? 0 : portOf(new URL(mountUrl)) - portOf(new URL(apiListening));
  const path = publicUrl.pathname === '/' ? '' : publicUrl.pathname.replace(/\/+$/, '');
  if (offset === 0) return `${publicUrl.protocol}//${publicUrl.host}${path}`;
  const shifted = portOf(publicUrl) + offset;
  // Mounts on ports of no layout (`--port 0`: each its own ephemeral port) can give no port at the
  // offset: the mount's own listening port is announced on the public host then (a 1:1 forward).
  const port = shifted >= 1 && shifted <= PORT_MAX ? shifted : portOf(new URL(mountUrl));
  return `${publicUrl.protocol}//${publicUrl.hostname}:${port}${path}`;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The host name or address of a Host header, without its port; null for anything else. */
function plainHostName(host: string): string | null {
  const text = host.trim();
  if (text.length === 0 || text.length > HOST_CHARS_MAX + 8) return null;
  const bracketed = /^(\[[0-9a-fA-F:.]+\])(?::\d{1,5})?$/.exec(text);
  if (bracketed !== null) return bracketed[1] ?? null;
  const plain = /^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/.exec(text);
  return plain !== null && (plain[1] ?? '').length <= HOST_CHARS_MAX ? (plain[1] ?? null) : null;
}

/** `url` with its host name replaced by `hostName`, its port kept. */
function withHost(url: string, hostName: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${hostName}${parsed.port === '' ? '' : `:${parsed.port}`}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
