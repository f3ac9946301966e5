/**
 * The proxies whose X-Forwarded-For `afp serve` believes (`--trust-proxy CIDR…`), as address
 * ranges: IPv4 (`10.0.0.0/8`) and IPv6 (`fd00::/8`) CIDRs, or a bare address (one host: /32 or
 * /128). None by default: then the socket's peer is every request's client (src/http/client-ip.ts).
 * An IPv4-mapped IPv6 peer (`::ffff:10.1.2.3`) is compared as its IPv4 address (client-ip.ts
 * normalizes it first).
 * Limits: at most MAX_TRUSTED_RANGES ranges; each text at most MAX_RANGE_TEXT_LENGTH characters.
 * Every bad range is reported, not only the first.
 * Answers are remembered per address (at most MAX_REMEMBERED): BlockList.check parses the address
 * text on every call, about 5 µs, and a request asks two or three times (peer, forwarding hops):
 * near a tenth of a serve's CPU per exchange.
 */
import { BlockList, isIP } from 'node:net';
import { BoundedMemo } from '../core/bounded-memo.ts';

export const MAX_TRUSTED_RANGES = 64;
const MAX_RANGE_TEXT_LENGTH = 64;
const MAX_REMEMBERED = 4096;

export class TrustedProxies {
  /** The ranges as given (normalized to `address/prefix`), for GET /_afp/mounts and the start line. */
  readonly ranges: readonly string[];
  private readonly list = new BlockList();
  private readonly answers = new BoundedMemo<string, boolean>(MAX_REMEMBERED);

  private constructor(ranges: ReadonlyArray<{ address: string; prefix: number; family: 'ipv4' | 'ipv6' }>) {
    this.ranges = ranges.map((range) => `${range.address}/${range.prefix}`);
    for (const range of ranges) this.list.addSubnet(range.address, range.prefix, range.family);
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /** `address` must already be an address (client-ip.ts checks it); anything else is not contained. */
  contains(address: string): boolean {
    if (this.ranges.length === 0) return false;
    return this.answers.get(address, (text) => {
      const family = isIP(text);
      return family !== 0 && this.list.check(text, family === 4 ? 'ipv4' : 'ipv6');
    });
  }

  /** Ranges from flag values; a value may hold several, comma-separated. Every error is listed. */
  static parse(texts: readonly string[]): TrustedProxies | { readonly errors: readonly string[] } {
    const errors: string[] = [];
    const ranges: Array<{ address: string; prefix: number; family: 'ipv4' | 'ipv6' }> = [];
    for (const text of texts.flatMap((value) => value.split(','))) {
      const range = parseRange(text.trim());
      if (typeof range === 'string') errors.push(range);
      else ranges.push(range);
    }
    if (ranges.length > MAX_TRUSTED_RANGES)
      errors.push(`--trust-proxy takes at most ${MAX_TRUSTED_RANGES} ranges, got ${ranges.length}`);
    return errors.length > 0 ? { errors } : new TrustedProxies(ranges);
  }
}

/** No proxy is trusted: X-Forwarded-For is never read (afp serve's default). */
export const NO_PROXIES = TrustedProxies.parse([]) as TrustedProxies;

/**
 * The loopback addresses, trusted: afp's own tools and tests start their stand-in with these, so
 * the simulated agents' addresses they send in X-Forwarded-For count (`--trust-proxy 127.0.0.1/32,::1/128`).
 */
export const LOOPBACK_PROXIES = TrustedProxies.parse(['127.0.0.1/32', '::1/128']) as TrustedProxies;

function parseRange(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
  const shown = text.length > MAX_RANGE_TEXT_LENGTH ? `${text.slice(0, MAX_RANGE_TEXT_LENGTH)}…` : text;
  const invalid = `--trust-proxy: '${shown}' is not a CIDR range such as 10.0.0.0/8, 127.0.0.1/32 or fd00::/8`;
  if (text === '' || text.length > MAX_RANGE_TEXT_LENGTH) return invalid;
  const slashAt = text.indexOf('/');
  const address = slashAt < 0 ? text : text.slice(0, slashAt);
  const family = isIP(address);
  if (family === 0) return invalid;
  const bits = family === 4 ? 32 : 128;
  const prefixText = slashAt < 0 ? String(bits) : text.slice(slashAt + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits)
    return `--trust-proxy: '${shown}' has a prefix length outside 0..${bits}`;
  return { address, prefix: Number(prefixText), family: family === 4 ? 'ipv4' : 'ipv6' };
}
