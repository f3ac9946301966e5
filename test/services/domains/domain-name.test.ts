// Domain names and DNS record rules: what a name is (case-insensitive, second level, label and
// TLD syntax), which TLDs are sold, and each DNS type's content check and the upsert rule.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isFailure } from '../../../src/core/errors.ts';
import { checkRecord, upsertRecords, type DnsRecord } from '../../../src/services/domains/dns-records.ts';
import { parseDomainName, parseRegistrableName } from '../../../src/services/domains/domain-name.ts';

const record = (type: DnsRecord['type'], host: string, value: string, priority: number | null = null): DnsRecord => ({
  type,
  host,
  value,
  ttl: 300,
  priority,
});

describe('domain names', () => {
  test('lowercased; label and TLD split', () => {
    expect(parseDomainName('My-Shop.COM')).toEqual({ name: 'my-shop.com', label: 'my-shop', tld: 'com' });
    expect(isFailure(parseRegistrableName('ok.agent'))).toBe(true);
    expect(isFailure(parseDomainName('ok.agent'))).toBe(false);
  });

  test('property: generated valid names parse; names with a bad character do not', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?$/),
        fc.constantFrom('com', 'io', 'ai'),
        fc.constantFrom(' ', '_', '!', '.', '/', 'é'),
        (label, tld, bad) => {
          expect(isFailure(parseRegistrableName(`${label}.${tld}`))).toBe(false);
          expect(isFailure(parseRegistrableName(`${label}${bad}x.${tld}`))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('DNS records', () => {
  test('valid records of each type pass', () => {
    for (const entry of [
      record('A', '@', '192.0.2.1'),
      record('AAAA', 'www', '2001:db8::1'),
      record('CNAME', 'blog', 'hosting.example.net'),
      record('MX', '@', 'mx1.example.com', 10),
      record('TXT', '_dmarc', 'v=DMARC1; p=none'),
      record('A', '*.dev', '10.1.2.3'),
    ]) {
      expect(checkRecord(entry)).toBeNull();
    }
  });

  test('upsert replaces a (type, host) set and keeps the rest in place', () => {
    const existing = [record('A', '@', '10.0.0.1'), record('TXT', '@', 'a'), record('A', 'www', '10.0.0.2')];
    const merged = upsertRecords(existing, [record('A', '@', '10.0.0.9')]);
    if (isFailure(merged)) throw new Error(merged.message);
    expect(merged.map((entry) => entry.value)).toEqual(['10.0.0.9', 'a', '10.0.0.2']);
  });

  test('property: an upsert never leaves a CNAME sharing its host and never exceeds the cap', () => {
    const entry = fc
      .record({
        type: fc.constantFrom<DnsRecord['type']>('A', 'CNAME', 'TXT'),
        host: fc.constantFrom('@', 'www', 'api'),
        n: fc.integer({ min: 1, max: 9 }),
      })
      .map(({ type, host, n }) =>
        record(type, host, type === 'A' ? `10.0.0.${n}` : type === 'CNAME' ? `t${n}.example.com` : `text ${n}`),
      );
    fc.assert(
      fc.property(fc.array(fc.array(entry, { minLength: 1, maxLength: 4 }), { maxLength: 8 }), (requests) => {
        let records: readonly DnsRecord[] = [];
        for (const request of requests) {
          const merged = upsertRecords(records, request);
          if (!isFailure(merged)) records = merged;
          const hosts = new Map<string, string[]>();
          for (const held of records) hosts.set(held.host, [...(hosts.get(held.host) ?? []), held.type]);
          for (const types of hosts.values()) if (types.includes('CNAME')) expect(types).toEqual(['CNAME']);
          expect(records.length).toBeLessThanOrEqual(50);
        }
      }),
      { numRuns: 150 },
    );
  });
});
