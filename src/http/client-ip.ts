/**
 * The originating IP address of a request. The HTTP server decides it from the socket's peer and
 * the X-Forwarded-For header, under the proxies it trusts (`afp serve --trust-proxy CIDR…`,
 * src/http/trusted-proxies.ts):
 *   - a peer that is not a trusted proxy is the client, whatever it sends in X-Forwarded-For;
 *   - a trusted peer forwards: walking X-Forwarded-For from the right (the entries the nearest
 *     proxies appended), the first address that is not itself a trusted proxy is the client;
 *   - no such address (no header, only trusted proxies in it, or an entry that is not an address)
 *     → the peer itself.
 * Why from the right: a client may write anything into the header; only what a trusted proxy
 * appended is known, and each proxy appends the address it saw at the right end.
 *
 * The in-process transport (src/client/in-process.ts) is afp's own caller, trusted whole: it takes
 * the first entry (`firstForwarded`), which is the same address for the single value afp's tools send.
 * Limits: at most MAX_FORWARDED_ENTRIES entries are walked, each at most MAX_IP_LENGTH characters.
 */
import { isIP } from 'node:net';
import type { TrustedProxies } from './trusted-proxies.ts';

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const MAX_IP_LENGTH = 64;
/** More hops than any real proxy chain: past them the peer is the client (a flood of entries is not read). */
const MAX_FORWARDED_ENTRIES = 32;

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

/** Whether the peer's X-Forwarded-For is read at all: the peer is a trusted proxy. */
export function forwardsFor(peer: string | undefined, trusted: TrustedProxies): boolean {
  return !trusted.empty && trusted.contains(normalizePeer(peer));
}

export function originatingIp(options: {
  peer: string | undefined;
  forwardedFor: string | undefined;
  trusted: TrustedProxies;
}): string {
  const peer = normalizePeer(options.peer);
  if (options.forwardedFor === undefined || !forwardsFor(peer, options.trusted)) return peer;
  return rightmostUntrusted(options.forwardedFor, options.trusted) ?? peer;
}

/** From the right: the first entry that is not a trusted proxy; undefined at a non-address or past the bound. */
function rightmostUntrusted(forwardedFor: string, trusted: TrustedProxies): string | undefined {
  let end = forwardedFor.length;
  for (let walked = 0; walked < MAX_FORWARDED_ENTRIES && end >= 0; walked++) {
    const commaAt = forwardedFor.lastIndexOf(',', end - 1);
    const entry = normalizePeer(forwardedFor.slice(commaAt + 1, end).trim());
    if (entry.length > MAX_IP_LENGTH || isIP(entry) === 0) return undefined;
    if (!trusted.contains(entry)) return entry;
    if (commaAt < 0) return undefined;
    end = commaAt;
  }
  return undefined;
}

/** The forwarding headers as the client sent them, before the edge rewrote them (server.ts passForwarded). */
export interface SentForwarding {
  readonly xForwardedFor: string | undefined;
  readonly xRealIp: string | undefined;
  readonly forwarded: string | undefined;
}

/**
 * The first address beyond loopback that a request's own forwarding headers name (each
 * X-Forwarded-For entry, X-Real-IP, each `for=` of RFC 7239 Forwarded), whoever sent them and
 * whether or not its proxy is trusted; null when they name none. Why: a reverse proxy on the same
 * host reaches afp serve from a loopback peer, so the peer alone cannot tell a local tool from a
 * stranger the proxy forwarded; the headers a proxy adds can (nginx with
 * `$proxy_add_x_forwarded_for`, Caddy and Traefik by default). Believing them only ever refuses:
 * a client that writes them can deny itself, never admit itself. A name that is not an address
 * (`unknown`, an obfuscated `_hidden`, an over-long entry) counts as beyond loopback.
 * Limits: at most MAX_FORWARDED_ENTRIES entries of each header are read; a header with more is
 * refused whole (`more than 32 clients`), not walked.
 */
export function forwardedBeyondLoopback(sent: SentForwarding): string | null {
  return (
    beyondIn(sent.xForwardedFor, (entry) => entry) ??
    beyondIn(sent.xRealIp, (entry) => entry) ??
    beyondIn(sent.forwarded, forwardedFor)
  );
}

function beyondIn(value: string | undefined, addressOf: (element: string) => string | null): string | null {
  if (value === undefined) return null;
  const elements = value.split(',', MAX_FORWARDED_ENTRIES + 1);
  for (let index = 0; index < elements.length; index++) {
    const element = (elements[index] ?? '').trim();
    if (index === MAX_FORWARDED_ENTRIES) return `more than ${MAX_FORWARDED_ENTRIES} clients`;
    if (element === '') continue;
    const address = addressOf(element);
    if (address === null) continue;
    if (address.length > MAX_IP_LENGTH || !isLoopback(normalizePeer(address))) return address.slice(0, MAX_IP_LENGTH);
  }
  return null;
}

/** The node a `Forwarded` element names in `for=` (quotes, brackets and port removed); null when it names none. */
function forwardedFor(element: string): string | null {
  for (const pair of element.split(';')) {
    const equalsAt = pair.indexOf('=');
    if (equalsAt < 0 || pair.slice(0, equalsAt).trim().toLowerCase() !== 'for') continue;
    let node = pair.slice(equalsAt + 1).trim();
    if (node.startsWith('"') && node.endsWith('"') && node.length >= 2) node = node.slice(1, -1);
    if (node.startsWith('[')) {
      const closeAt = node.indexOf(']');
      return closeAt < 0 ? node : node.slice(1, closeAt);
    }
    const colonAt = node.indexOf(':');
    return colonAt < 0 ? node : node.slice(0, colonAt);
  }
  return null;
}
