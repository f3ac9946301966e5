/**
 * The parts of a URL test's request that every way of giving one reads alike — `afp load URL`'s
 * flags (url-flags.ts) and a --requests file's items (url-requests-file.ts): header lines and
 * maps, and a URL's credentials taken out of it (k6 sends `user:pw@` as Basic auth). Why apart
 * from url-flags.ts: the requests file reads them too, and url-flags.ts reads the requests file.
 */

export const HEADER_LIMITS = { headers: 100, headerBytes: 8_192 } as const;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const OWN_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection'];

/** `Name: value` lines (--header flags; `where` names them in errors, e.g. `request 2 (home): headers`) as a map of lower-case names. */
export function headersOf(values: readonly string[], errors: string[], where = '--header'): Record<string, string> {
  const headers: Record<string, string> = {};
  if (values.length > HEADER_LIMITS.headers)
    errors.push(`${where}: at most ${HEADER_LIMITS.headers} headers, got ${values.length}`);
  for (const value of values.slice(0, HEADER_LIMITS.headers)) {
    const colon = value.indexOf(':');
    const name = colon === -1 ? '' : value.slice(0, colon).trim().toLowerCase();
    const text = colon === -1 ? '' : value.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name) || /[\r\n\0]/.test(text) || value.length > HEADER_LIMITS.headerBytes)
      errors.push(
        `${where} '${value.slice(0, 100)}' is not 'Name: value' (a token name, a value without line breaks, ${HEADER_LIMITS.headerBytes} bytes at most)`,
      );
    else if (OWN_HEADERS.includes(name)) errors.push(`${where} ${name}: afp's client sets ${name} itself`);
    else headers[name] = text;
  }
  return headers;
}

export interface UrlCredentials {
  /** The URL without user and password. */
  readonly url: string;
  /** The URL for lines and reports: `user:***@host` (the user kept, the password never). */
  readonly shownUrl: string;
  /** `Basic base64(user:pw)` of the percent-decoded userinfo; null when the URL has none. */
  readonly authorization: string | null;
}

/** The credentials of a URL (`http://user:pw@host/`) taken out of it: what afp sends and what it shows instead. */
export function urlCredentials(url: string): UrlCredentials {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url, shownUrl: url, authorization: null };
  const userinfo = `${safeDecode(parsed.username)}:${safeDecode(parsed.password)}`;
  const authorization = `Basic ${Buffer.from(userinfo, 'utf8').toString('base64')}`;
  if (parsed.password !== '') parsed.password = '***';
  const shownUrl = parsed.href;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, shownUrl, authorization };
}

/** Percent-decoding as a browser does for Basic auth; a stray `%` stays as it is. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
