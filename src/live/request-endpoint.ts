/**
 * A finding's `endpoint` from the request that showed it: the operation, then the method and the
 * path as they went out, `casino.bet (POST /api/v1/games/coin-flip)` (finding.ts). Why: live audit
 * findings named the operation alone (`casino.bet`) or nothing, and a reader could not tell which
 * of the target's paths answered so.
 * The path is the sent URL's (a target's base path included), without host or query; a URL a
 * parser refuses is given as sent.
 */
import type { SentRequest } from './live-session.ts';

export function endpointOf(op: string, request: SentRequest): string {
  const path = URL.canParse(request.url) ? new URL(request.url).pathname : request.url;
  return `${op} (${request.method} ${path})`;
}
