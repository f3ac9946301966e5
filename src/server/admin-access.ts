/**
 * Who may use afp serve's admin doors (`/_afp/*`): why a request is refused, or null.
 *
 * Without an admin token the doors answer loopback callers only: the socket's peer must be
 * loopback, and so must every client the request's own forwarding headers name, so that a reverse
 * proxy on the same host does not open them to whoever it forwards (client-ip.ts
 * `forwardedBeyondLoopback`). With `afp serve --admin-token TOKEN` (or AFP_ADMIN_TOKEN) a caller
 * beyond loopback that sends the token in ADMIN_TOKEN_HEADER is let in too, so a teammate's machine
 * or a k6 pod can move the clock, read the mounts and take snapshots; one beyond loopback without
 * it is answered 401 (a credential is missing), where a serve with no token answers 403 (nothing
 * would let it in). A token sent that is not this serve's is 401 from any peer: a wrong credential
 * is never ignored, so a misconfigured client hears of it on its first call. A serve with no token
 * ignores the header (a user whose AFP_ADMIN_TOKEN is set for a team's stand-in still drives a
 * local one of their own).
 * The header and variable are src/http/admin-token.ts's. The comparison takes the same time whatever the token sent (timingSafeEqual over
 * SHA-256 digests, so lengths do not leak either).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { fail, failWithStatus, type Failure } from '../core/errors.ts';
import { forwardedBeyondLoopback, isLoopback } from '../http/client-ip.ts';
import type { EdgeRequest } from '../http/server.ts';
import { ADMIN_TOKEN_ENV, ADMIN_TOKEN_HEADER } from '../http/admin-token.ts';

/** A token's bounds: long enough not to be guessed in a day of tries, short enough for one header. */
export const ADMIN_TOKEN_CHARS_MIN = 16;
export const ADMIN_TOKEN_CHARS_MAX = 256;

/** Why `token` cannot be an admin token (its length, its characters), or null when it can. */
export function adminTokenProblem(token: string): string | null {
  if (token.length < ADMIN_TOKEN_CHARS_MIN || token.length > ADMIN_TOKEN_CHARS_MAX)
    return `an admin token has ${ADMIN_TOKEN_CHARS_MIN} to ${ADMIN_TOKEN_CHARS_MAX} characters, got ${token.length}`;
  if (!/^[\x21-\x7e]+$/.test(token))
    return 'an admin token is printable ASCII without spaces (it travels in an HTTP header)';
  return null;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether `sent` is `token`, in a time that does not depend on where they differ. */
function sameToken(sent: string, token: string): boolean {
  return timingSafeEqual(digest(sent), digest(token));
}

/**
 * Why an admin row refuses this caller, or null. `token`: this serve's admin token (null: none,
 * the doors are loopback-only).
 */
export function adminRefusal(request: EdgeRequest, token: string | null): Failure | null {
  const sent = token === null ? undefined : request.headers[ADMIN_TOKEN_HEADER];
  if (sent !== undefined && token !== null) {
    if (sameToken(sent, token)) return null;
    return failWithStatus(401, 'UNAUTHORIZED', `the ${ADMIN_TOKEN_HEADER} sent is not this afp serve's admin token`);
  }
  const beyond = beyondLoopback(request);
  if (beyond === null) return null;
  if (token !== null)
    return failWithStatus(
      401,
      'UNAUTHORIZED',
      `afp admin endpoints answer callers beyond loopback (this one: ${beyond.who}) only with the admin token: send it in the ${ADMIN_TOKEN_HEADER} header (${ADMIN_TOKEN_ENV} for afp's own commands)`,
    );
  return fail(
    'FORBIDDEN',
    beyond.forwarded
      ? `afp admin endpoints answer loopback clients only: this request was forwarded for ${beyond.who} (by a proxy in front of afp serve, or a tool that sends forwarding headers: send admin calls without them, or start afp serve with --admin-token)`
      : 'afp admin endpoints answer loopback peers only (afp serve --admin-token opens them to callers that send the token)',
  );
}

/** Who beyond loopback this request comes from (the peer, or an address its forwarding headers name), or null when it is local throughout. */
function beyondLoopback(request: EdgeRequest): { readonly who: string; readonly forwarded: boolean } | null {
  if (!isLoopback(request.peer)) return { who: `peer ${request.peer}`, forwarded: false };
  const forwarded = request.sentForwarding === null ? null : forwardedBeyondLoopback(request.sentForwarding);
  return forwarded === null ? null : { who: forwarded, forwarded: true };
}
