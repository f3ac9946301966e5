/**
 * The originating IP address of a request, decided the same way by the HTTP server and the
 * in-process transport: the first X-Forwarded-For entry when the peer is trusted (a loopback
 * peer of `afp serve`, or the in-process caller), else the peer's own address.
 * Why trust loopback only: `afp serve` listens on 127.0.0.1, so only local tools (afp's own
 * load generator, a developer's proxy) can set the header; per-IP limits stay meaningful.
 */

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const MAX_IP_LENGTH = 64;

export const DEFAULT_IP = '127.0.0.1';

export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK.test(address);
}

/** `::ffff:127.0.0.1` → `127.0.0.1`; undefined (socket already gone) → the default. */
export function normalizePeer(address: string | undefined): string {
  if (address === undefined) return DEFAULT_IP;
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * The first entry of an X-Forwarded-For value, or undefined when empty or absurdly long. It runs
 * on every in-process request: a value with no comma whose first and last characters are
 * printable ASCII other than the space (what clients send: one bare address) is its own answer,
 * since trimming cannot cut it, found with a comma search and two character reads rather than a
 * loop over every character; anything else takes the general split and trim.
 */
export function firstForwarded(forwardedFor: string | undefined): string | undefined {
  if (forwardedFor === undefined) return undefined;
  const length = forwardedFor.length;
  if (
    length > 0 &&
    length <= MAX_IP_LENGTH &&
    untrimmable(forwardedFor.charCodeAt(0)) &&
    untrimmable(forwardedFor.charCodeAt(length - 1)) &&
    !forwardedFor.includes(',')
  ) {
    return forwardedFor;
  }
  const commaAt = forwardedFor.indexOf(',');
  const first = (commaAt < 0 ? forwardedFor : forwardedFor.slice(0, commaAt)).trim();
  return first === '' || first.length > MAX_IP_LENGTH ? undefined : first;
}

/** Printable ASCII other than the space: a character `trim` never removes. */
function untrimmable(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

export function originatingIp(options: {
  peer: string | undefined;
  forwardedFor: string | undefined;
  trustProxy: boolean;
}): string {
  const peer = normalizePeer(options.peer);
  if (!options.trustProxy || !isLoopback(options.peer ?? DEFAULT_IP)) return peer;
  return firstForwarded(options.forwardedFor) ?? peer;
}
