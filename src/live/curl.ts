/**
 * curlOf: a request as it went out (SentRequest), as one line a person pastes into a POSIX shell
 * to send it again — the `reproduce` of a finding.
 *
 * `curl -sS -X POST 'URL' -H 'Content-Type: application/json' -H "Authorization: Bearer $AFP_KEY" --data '{…}'`
 * Invariants: the API key is never in the line: an authenticated request reads it from `$AFP_KEY`
 * (the only expansion in the line); the URL, the headers and the body are single-quoted, a `'`
 * inside written `'\''`, so the shell passes their bytes through unchanged. One line:
 * the URL is the one fetch sent (WHATWG-normalised: tabs and newlines removed, other control
 * characters percent-encoded) and the body is JSON.stringify's text, which escapes line breaks.
 * `-X` only for methods other than GET (and for a GET with a body, which curl would POST);
 * `--data` only with a body (JSON text never starts with `@`, so curl never reads a file);
 * `-g` only when the URL has `[]{}` (curl would glob them).
 * A key that travels in the body (an MCP tool's argument, written KEY_PLACEHOLDER there) is
 * `'"$AFP_KEY"'` in the data: the single-quoted text closed around the one expansion. An Accept
 * header is written where the request asked for one (an MCP door refuses a request without it).
 * Non-goals: other shells.
 */
import type { SentRequest } from './live-session.ts';
import { KEY_PLACEHOLDER } from './mcp-call.ts';
import { shellQuote } from '../core/shell-words.ts';

// oxlint-disable-next-line no-control-regex -- control characters are exactly what is encoded
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The URL as fetch sends it; one a URL parser refuses keeps its text, control characters encoded. */
function sentUrl(url: string): string {
  if (URL.canParse(url)) return new URL(url).href;
  return url.replace(CONTROL_CHARACTERS, (character) => encodeURIComponent(character));
}

export function curlOf(request: SentRequest): string {
  const url = sentUrl(request.url);
  const words = ['curl', '-sS'];
  if (/[[\]{}]/.test(url)) words.push('-g');
  if (request.method !== 'GET' || request.body !== undefined)
    words.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method));
  words.push(shellQuote(url));
  if (request.body !== undefined) words.push('-H', shellQuote('Content-Type: application/json'));
  if (request.accept !== undefined) words.push('-H', shellQuote(`Accept: ${request.accept}`));
  if (request.auth) words.push('-H', '"Authorization: Bearer $AFP_KEY"');
  if (request.body !== undefined) {
    const data = shellQuote(JSON.stringify(request.body));
    // A key carried in the body (an MCP argument): the quoted text is closed around "$AFP_KEY".
    words.push('--data', request.keyInBody === true ? data.replaceAll(KEY_PLACEHOLDER, `'"$AFP_KEY"'`) : data);
  }
  return words.join(' ');
}
