/**
 * The method of a URL run (`afp load URL --method M`, `afp export k6 URL`): the methods it may
 * send, `--method` read against them, and the name a URL's request goes by. Why apart from
 * url-source.ts: the flags are checked before the run loads, and the source brings the HTTP clients.
 */
import type { WireMethod } from '../client/transport.ts';

/** The methods of a URL run: k6's and autocannon's (HEAD answers are read without a body). */
export const URL_METHODS: readonly WireMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** `--method` as given (any case), or why it cannot be sent: not a method of URL_METHODS, or a HEAD with a body. */
export function urlMethodOf(
  given: string,
  hasBody: boolean,
): { readonly method: WireMethod } | { readonly error: string } {
  const method = URL_METHODS.find((known) => known === given.toUpperCase());
  if (method === undefined)
    return { error: `--method must be one of ${URL_METHODS.join(', ')}, got '${given.slice(0, 20)}'` };
  if (method === 'HEAD' && hasBody)
    return { error: '--method HEAD takes no --body or --body-file: a HEAD request carries no body' };
  return { method };
}

/** `METHOD /path`: the endpoint's name in reports, thresholds (`{endpoint:GET /}`), k6 tags and metric labels. */
export function urlEndpointName(request: { readonly url: string; readonly method: string }): string {
  return `${request.method} ${new URL(request.url).pathname}`;
}
