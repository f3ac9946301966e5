// The originating IP: the peer, or (from a trusted proxy) the rightmost X-Forwarded-For entry outside the trusted ranges.
// firstForwarded's fast answer for a bare address (no comma, nothing trim would cut) must equal the general split-and-trim.
import { BlockList, isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { firstForwarded, forwardedBeyondLoopback, originatingIp } from '../../src/http/client-ip.ts';
import { ipv4Value, LOOPBACK_PROXIES, NO_PROXIES, TrustedProxies } from '../../src/http/trusted-proxies.ts';

/** The definition: the text before the first comma, trimmed; none when empty or over 64 characters. */
function reference(value: string): string | undefined {
  const first = (value.split(',')[0] ?? '').trim();
  return first === '' || first.length > 64 ? undefined : first;
}

describe('firstForwarded', () => {
  test('answers as the split-and-trim definition, bare addresses and lists alike', () => {
    const unit = fc.constantFrom(
      '1',
      '9',
      '.',
      ':',
      'a',
      'f',
      ',',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\ufeff',
      '\u2028',
      '~',
      '\u007f',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (value) => {
        expect(firstForwarded(value)).toBe(reference(value));
      }),
      { seed: 11, numRuns: 5000 },
    );
  });

  test('examples: one address, a list, padding, empty, too long', () => {
    expect(firstForwarded('203.0.113.7')).toBe('203.0.113.7');
    expect(firstForwarded(' 203.0.113.7 , 10.0.0.1')).toBe('203.0.113.7');
    expect(firstForwarded('::1')).toBe('::1');
    expect(firstForwarded('')).toBeUndefined();
    expect(firstForwarded(' , 10.0.0.1')).toBeUndefined();
    expect(firstForwarded('1'.repeat(65))).toBeUndefined();
    expect(firstForwarded(undefined)).toBeUndefined();
  });
});

describe('originatingIp under --trust-proxy', () => {
  const loopback = LOOPBACK_PROXIES;
  const chain = TrustedProxies.parse(['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8']) as TrustedProxies;

  test('without trusted proxies the socket address is the client, whatever the header says', () => {
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '203.0.113.7', trusted: NO_PROXIES })).toBe('127.0.0.1');
    expect(originatingIp({ peer: '::ffff:198.51.100.2', forwardedFor: '203.0.113.7', trusted: NO_PROXIES })).toBe(
      '198.51.100.2',
    );
  });

  test('a peer outside the ranges is the client; a trusted one forwards its rightmost untrusted entry', () => {
    expect(originatingIp({ peer: '198.51.100.2', forwardedFor: '203.0.113.7', trusted: loopback })).toBe(
      '198.51.100.2',
    );
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '203.0.113.7', trusted: loopback })).toBe('203.0.113.7');
    expect(originatingIp({ peer: '::1', forwardedFor: '2001:db8::5', trusted: loopback })).toBe('2001:db8::5');
    // A forged left part does not count: the proxy appended the address it saw at the right.
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '1.1.1.1, 203.0.113.7', trusted: loopback })).toBe(
      '203.0.113.7',
    );
    // Trusted hops are skipped from the right.
    expect(
      originatingIp({ peer: '127.0.0.1', forwardedFor: '1.1.1.1, 203.0.113.7, 10.0.0.2, fd00::3', trusted: chain }),
    ).toBe('203.0.113.7');
  });

  test('no header, only trusted hops or a non-address falls back to the socket address', () => {
    expect(originatingIp({ peer: '::ffff:127.0.0.1', forwardedFor: undefined, trusted: loopback })).toBe('127.0.0.1');
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '10.0.0.1, 10.0.0.2', trusted: chain })).toBe('127.0.0.1');
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: 'agent-7', trusted: loopback })).toBe('127.0.0.1');
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '203.0.113.7, ', trusted: loopback })).toBe('127.0.0.1');
    expect(originatingIp({ peer: '127.0.0.1', forwardedFor: '10.0.0.1,'.repeat(40), trusted: chain })).toBe(
      '127.0.0.1',
    );
  });

  test('any chain: the answer is the peer, or an untrusted address of the header that no untrusted entry follows', () => {
    const address = fc.constantFrom('127.0.0.1', '10.1.2.3', '203.0.113.7', '198.51.100.1', 'fd00::1', '2001:db8::9');
    fc.assert(
      fc.property(address, fc.array(address, { maxLength: 6 }), (peer, hops) => {
        const ip = originatingIp({
          peer,
          forwardedFor: hops.length === 0 ? undefined : hops.join(', '),
          trusted: chain,
        });
        const untrusted = hops.filter((hop) => !chain.contains(hop));
        expect(ip).toBe(chain.contains(peer) ? (untrusted.at(-1) ?? peer) : peer);
      }),
      { seed: 43, numRuns: 2000 },
    );
  });
});

describe('TrustedProxies.parse', () => {
  test('IPv4 and IPv6 ranges, bare addresses, comma-separated values', () => {
    const parsed = TrustedProxies.parse(['10.0.0.0/8,192.0.2.1', 'fd00::/8', '::1']);
    if (!(parsed instanceof TrustedProxies)) throw new Error(parsed.errors.join('; '));
    expect(parsed.ranges).toEqual(['10.0.0.0/8', '192.0.2.1/32', 'fd00::/8', '::1/128']);
    expect([parsed.contains('10.255.0.1'), parsed.contains('192.0.2.2'), parsed.contains('fd12::1')]).toEqual([
      true,
      false,
      true,
    ]);
    expect(parsed.contains('::1')).toBe(true);
  });

  test('every bad range is reported', () => {
    expect(TrustedProxies.parse(['10.0.0.0/33', 'example.com', '::/129', '', '1.2.3.4/x'])).toEqual({
      errors: [
        "--trust-proxy: '10.0.0.0/33' has a prefix length outside 0..32",
        "--trust-proxy: 'example.com' is not a CIDR range such as 10.0.0.0/8, 127.0.0.1/32 or fd00::/8",
        "--trust-proxy: '::/129' has a prefix length outside 0..128",
        "--trust-proxy: '' is not a CIDR range such as 10.0.0.0/8, 127.0.0.1/32 or fd00::/8",
        "--trust-proxy: '1.2.3.4/x' has a prefix length outside 0..32",
      ],
    });
  });
});

describe('forwardedBeyondLoopback', () => {
  const none = { xForwardedFor: undefined, xRealIp: undefined, forwarded: undefined };
  const loopback = fc.constantFrom('127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1');
  const afar = fc.constantFrom('203.0.113.7', '2001:db8::1', '10.0.0.1', 'unknown', '_hidden');

  test('names nothing when every header names loopback clients, or none is sent', () => {
    expect(forwardedBeyondLoopback(none)).toBeNull();
    fc.assert(
      fc.property(fc.array(loopback, { minLength: 1, maxLength: 32 }), loopback, (list, single) => {
        expect(forwardedBeyondLoopback({ ...none, xForwardedFor: list.join(', ') })).toBeNull();
        expect(forwardedBeyondLoopback({ ...none, xRealIp: single })).toBeNull();
        const elements = list.map((address) => `for="[${address}]:80";proto=http`).join(', ');
        expect(forwardedBeyondLoopback({ ...none, forwarded: elements })).toBeNull();
      }),
    );
  });

  test('names the first client beyond loopback, wherever it stands in the list', () => {
    fc.assert(
      fc.property(
        fc.array(loopback, { maxLength: 20 }),
        afar,
        fc.array(fc.oneof(loopback, afar), { maxLength: 10 }),
        (before, client, after) => {
          const list = [...before, client, ...after];
          expect(forwardedBeyondLoopback({ ...none, xForwardedFor: list.join(',') })).toBe(client);
          const elements = list.map((address) => `for=${address.includes(':') ? `"[${address}]"` : address}`);
          expect(forwardedBeyondLoopback({ ...none, forwarded: elements.join(', ') })).toBe(client);
        },
      ),
    );
  });

  test('reads Forwarded pairs in any case and order, quotes, brackets and ports removed; an element without for= names none', () => {
    expect(forwardedBeyondLoopback({ ...none, forwarded: 'proto=https;FOR="192.0.2.60:8080"' })).toBe('192.0.2.60');
    expect(forwardedBeyondLoopback({ ...none, forwarded: 'by=203.0.113.1;proto=https' })).toBeNull();
    expect(forwardedBeyondLoopback({ ...none, xRealIp: ' 198.51.100.4 ' })).toBe('198.51.100.4');
    expect(forwardedBeyondLoopback({ ...none, xForwardedFor: '127.0.0.1, , ', xRealIp: '' })).toBeNull();
  });

  test('refuses more than 32 entries whole, and cuts an over-long name to 64 characters', () => {
    const flood = Array.from({ length: 33 }, () => '127.0.0.1').join(',');
    expect(forwardedBeyondLoopback({ ...none, xForwardedFor: flood })).toBe('more than 32 clients');
    expect(forwardedBeyondLoopback({ ...none, xForwardedFor: 'x'.repeat(100) })).toBe('x'.repeat(64));
  });
});

describe('TrustedProxies.contains: IPv4 compared as numbers', () => {
  /** The definition: node:net's BlockList over the same ranges (an IPv6 range may hold an IPv4-mapped address). */
  function blockListContains(ranges: readonly string[], address: string): boolean {
    const list = new BlockList();
    for (const range of ranges) {
      const [base = '', prefix] = range.split('/');
      const family = isIP(base) === 4 ? 'ipv4' : 'ipv6';
      list.addSubnet(base, Number(prefix ?? (family === 'ipv4' ? 32 : 128)), family);
    }
    return list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }

  const octet = fc.integer({ min: 0, max: 255 });
  const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));
  const range = fc.oneof(
    fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([base, prefix]) => `${base}/${prefix}`),
    fc.constantFrom('::1/128', 'fd00::/8', '::/0', '::ffff:10.0.0.0/104', '::ffff:0:0/96', '::/96', '64:ff9b::/96'),
  );

  test('answers as BlockList for any IPv4 address and any ranges, IPv6 ones included', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 5 }), ipv4, (ranges, address) => {
        const trusted = TrustedProxies.parse(ranges);
        if ('errors' in trusted) throw new Error(trusted.errors.join('; '));
        expect(trusted.contains(address)).toBe(blockListContains(ranges, address));
      }),
      { numRuns: 500 },
    );
  });

  test('ipv4Value reads what isIP calls IPv4, and nothing else', () => {
    for (const text of ['0.0.0.0', '255.255.255.255', '10.1.2.3', '127.0.0.1'])
      expect(ipv4Value(text)).toBe(text.split('.').reduce((value, part) => value * 256 + Number(part), 0));
    for (const text of ['01.2.3.4', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1..2.3', '', '::1', '1.2.3.4 ', 'a.b.c.d'])
      expect([text, ipv4Value(text)]).toEqual([text, isIP(text) === 4 ? ipv4Value(text) : -1]);
    // Texts of digits and dots (near-addresses), and any text.
    const nearly = fc
      .array(fc.constantFrom('0', '1', '2', '5', '9', '.', '25', '255', '256'), { maxLength: 9 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(nearly, fc.string({ maxLength: 16 })), (text) => {
        expect(ipv4Value(text) >= 0).toBe(isIP(text) === 4);
      }),
      { numRuns: 2000 },
    );
  });
});
