/**
 * The documents' domains (platform.md "Domains") as dialect rows, for the money probes: register
 * (style A on the domains service's address, style B on the shared api address), style A's check
 * (a name's availability and yearly price: the price a registration must take), and the style-B
 * transfer and lookup, which style A does not have — a style-A target reaches them on the
 * documents' shared api_url (only an afp serve names it), as its casino reaches B's history.
 */
import { formatDecimal } from '../../../core/money.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { row, type DialectTable } from '../dialect.ts';
import type { DnsInput, ListedDomain } from '../../operations.ts';
import type { WireReader } from '../../wire-reader.ts';
import { dnsEntryOf, sortedDomains, sortedEntries } from '../dns-entries.ts';

const transferBody = (input: { domain: string; to: string; priceMicro: bigint | null }): JsonObject => ({
  domain: input.domain,
  to: input.to,
  ...(input.priceMicro === null ? {} : { price: formatDecimal(input.priceMicro) }),
});

/** The caller's domains list: A names its instants `*_at`, B `expires` and `grace_ends` (routes/domains/domains.ts). */
function domainsOf(reader: WireReader): { domains: ListedDomain[] } {
  reader.knows('count');
  const domains = reader.items('domains', (element): ListedDomain | null => {
    element.knows('registered_at', 'expires_at', 'grace_ends_at', 'expires', 'grace_ends', 'resolver');
    const domain = element.string('domain');
    return domain === null ? null : { domain, status: element.string('status', { optional: true }), domainId: null };
  });
  return { domains: sortedDomains(domains) };
}

/** Style A's record set answer: { domain, records: [{ type, name, value, ttl, priority }], count }. */
function recordSetOf(reader: WireReader): { records: ReturnType<typeof sortedEntries> } {
  reader.knows('domain', 'count');
  return { records: sortedEntries(reader.items('records', (element) => dnsEntryOf(element, 'value'))) };
}

function recordBody(record: DnsInput): JsonObject {
  const { type, name, content, ttl, priority } = record;
  return { type, name, value: content, ttl, ...(priority === null ? {} : { priority }) };
}

/** The style-B rows; `api`: on the shared api address instead of the domains service's own. */
function rowsB(base: 'api' | undefined): DialectTable {
  const where = base === undefined ? {} : { base };
  return {
    'domains.register': row('domains.register', {
      ...where,
      request: (input) => ({
        service: 'domains',
        method: 'POST',
        path: '/domains-api/register',
        body: { domain: input.domain, years: input.years },
        auth: true,
      }),
      read: (reader) => {
        reader.knows('expires', 'tx_hash');
        return {
          domain: reader.string('domain', { optional: true }),
          costMicro: reader.money('cost', { optional: true }),
        };
      },
    }),
    'domains.transfer': row('domains.transfer', {
      ...where,
      request: (input) => ({
        service: 'domains',
        method: 'POST',
        path: '/domains-api/transfer',
        body: transferBody(input),
        auth: true,
      }),
      read: (reader) => {
        reader.knows('domain', 'from', 'to', 'price', 'tx_hash');
        return {
          status: reader.string('status', { optional: true }),
          owner: reader.string('owner', { optional: true }),
        };
      },
    }),
    'domains.lookup': row('domains.lookup', {
      ...where,
      request: (input) => ({
        service: 'domains',
        method: 'GET',
        path: `/domains-api/lookup/${encodeURIComponent(input.domain)}`,
        auth: true,
      }),
      read: (reader) => {
        reader.knows(
          'domain',
          'owner_address',
          'registered_at',
          'expires',
          'grace_ends',
          'resolver',
          'records',
          'offer',
        );
        return {
          owner: reader.string('owner', { optional: true }),
          status: reader.string('status', { optional: true }),
        };
      },
    }),
    'domains.list': row('domains.list', {
      ...where,
      request: () => ({ service: 'domains', method: 'GET', path: '/domains-api/domains', auth: true }),
      read: domainsOf,
    }),
  };
}

export const DOMAINS_B: DialectTable = rowsB(undefined);

export const DOMAINS_A: DialectTable = {
  ...rowsB('api'),
  // platform.md "Domains": check A takes one name (`domain`) and answers {available, price_usdc}.
  'domains.check': row('domains.check', {
    request: (input) => ({
      service: 'domains',
      method: 'GET',
      path: '/api/v1/check',
      query: { domain: input.names[0] ?? '' },
      auth: true,
    }),
    unsupported: (input) =>
      input.names.length === 1 ? null : `the documents' check A takes one name, not ${input.names.length}`,
    // The documents' answer names no domain: the one asked for (an afp serve also echoes it).
    read: (reader, input) => {
      reader.knows('domain');
      const available = reader.boolean('available');
      const priceMicro = reader.money('price_usdc');
      return { results: [{ domain: input.names[0] ?? '', available, priceMicro }] };
    },
  }),
  'domains.register': row('domains.register', {
    request: (input) => ({
      service: 'domains',
      method: 'POST',
      path: '/api/v1/register',
      body: { domain: input.domain, years: input.years },
      auth: true,
    }),
    read: (reader) => {
      reader.knows('expires_at');
      return { domain: reader.string('domain', { optional: true }), costMicro: null };
    },
  }),
  'domains.list': row('domains.list', {
    request: () => ({ service: 'domains', method: 'GET', path: '/api/v1/domains', auth: true }),
    read: domainsOf,
  }),
  // The record set of a name (public in the documents; the key is sent all the same).
  'domains.dns-records': row('domains.dns-records', {
    request: (input) => ({
      service: 'domains',
      method: 'GET',
      path: '/api/v1/dns',
      query: { domain: input.domain },
      auth: true,
    }),
    read: recordSetOf,
  }),
  'domains.dns-set': row('domains.dns-set', {
    request: (input) => ({
      service: 'domains',
      method: 'POST',
      path: '/api/v1/dns',
      body: { domain: input.domain, records: input.records.map(recordBody) },
      auth: true,
    }),
    read: recordSetOf,
  }),
};
