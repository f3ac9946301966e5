/**
 * The proxies whose X-Forwarded-For `afp serve` believes (`--trust-proxy CIDR…`), as address
 * ranges: IPv4 (`10.0.0.0/8`) and IPv6 (`fd00::/8`) CIDRs, or a bare address (one host: /32 or
 * /128). None by default: then the socket's peer is every request's client (src/http/client-ip.ts).
 * An IPv4-mapped IPv6 peer (`::ffff:10.1.2.3`) is compared as its IPv4 address (client-ip.ts
 * normalizes it first).
 * Limits: at most MAX_TRUSTED_RANGES ranges; each text at most MAX_RANGE_TEXT_LENGTH characters.
 * Every bad range is reported, not only the first.
 * An IPv4 address is compared with the IPv4 ranges as numbers (a network and a mask each, no
 * parse by node:net): a load test's agents each forward their own address, so a memo of answers
 * misses on every request, and BlockList.check parses the address text on every call, about 5 µs,
 * asked two or three times a request (peer, forwarding hops): near a tenth of a serve's CPU per
 * exchange. Other answers are remembered per address (at most MAX_REMEMBERED) and come from the
 * BlockList, and so does an IPv4 address outside the IPv4 ranges when an IPv6 range may hold it as
 * an IPv4-mapped address (`::ffff:10.0.0.0/104`, `::/0`), which BlockList matches too.
 */
import { BlockList, isIP } from 'node:net';
import { BoundedMemo } from '../core/bounded-memo.ts';

export const MAX_TRUSTED_RANGES = 64;
const MAX_RANGE_TEXT_LENGTH = 64;
const MAX_REMEMBERED = 4096;

/** The IPv4-mapped IPv6 addresses, ::ffff:0:0/96: an IPv6 range overlapping them may hold an IPv4 address. */
const MAPPED_IPV4 = new BlockList();
MAPPED_IPV4.addSubnet('::ffff:0:0', 96, 'ipv6');

interface Range {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

export class TrustedProxies {
  /** The ranges as given (normalized to `address/prefix`), for GET /_afp/mounts and the start line. */
  readonly ranges: readonly string[];
  private readonly list = new BlockList();
  private readonly answers = new BoundedMemo<string, boolean>(MAX_REMEMBERED);
  /** The IPv4 ranges as [network, mask] pairs of unsigned 32-bit numbers. */
  private readonly ipv4: ReadonlyArray<readonly [number, number]>;
  /** Whether an IPv6 range may hold an IPv4 address (then an IPv4 miss asks the BlockList too). */
  private readonly ipv6HoldsIpv4: boolean;

  private constructor(ranges: readonly Range[]) {
    this.ranges = ranges.map((range) => `${range.address}/${range.prefix}`);
    for (const range of ranges) this.list.addSubnet(range.address, range.prefix, range.family);
    this.ipv4 = ranges.filter((range) => range.family === 'ipv4').map(ipv4Range);
    this.ipv6HoldsIpv4 = ranges.some((range) => range.family === 'ipv6' && overlapsMappedIpv4(range));
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /** `address` must already be an address (client-ip.ts checks it); anything else is not contained. */
  contains(address: string): boolean {
    if (this.ranges.length === 0) return false;
    const value = ipv4Value(address);
    if (value >= 0) {
      for (const [network, mask] of this.ipv4) if ((value & mask) >>> 0 === network) return true;
      if (!this.ipv6HoldsIpv4) return false;
    }
    return this.answers.get(address, (text) => {
      const family = isIP(text);
      return family !== 0 && this.list.check(text, family === 4 ? 'ipv4' : 'ipv6');
    });
  }

  /** Ranges from flag values; a value may hold several, comma-separated. Every error is listed. */
  static parse(texts: readonly string[]): TrustedProxies | { readonly errors: readonly string[] } {
    const errors: string[] = [];
    const ranges: Range[] = [];
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

/** Dotted IPv4 text (as node:net's isIP accepts it: no leading zeros) as an unsigned 32-bit number; -1 when it is not one. */
export function ipv4Value(text: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x2e) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
      continue;
    }
    if (code < 0x30 || code > 0x39 || (digits === 1 && octet === 0)) return -1;
    octet = octet * 10 + (code - 0x30);
    digits++;
    if (octet > 255) return -1;
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : -1;
}

/** An IPv4 range as its network and mask. */
function ipv4Range(range: Range): readonly [number, number] {
  const mask = range.prefix === 0 ? 0 : (0xffffffff << (32 - range.prefix)) >>> 0;
  return [(ipv4Value(range.address) & mask) >>> 0, mask];
}

/** Whether an IPv6 range and ::ffff:0:0/96 share an address: one holds the other's first address. */
function overlapsMappedIpv4(range: Range): boolean {
  const alone = new BlockList();
  alone.addSubnet(range.address, range.prefix, 'ipv6');
  return alone.check('::ffff:0:0', 'ipv6') || MAPPED_IPV4.check(range.address, 'ipv6');
}

function parseRange(text: string): Range | string {
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
