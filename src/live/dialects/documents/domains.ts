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

const transferBody = (input: { domain: string; to: string; priceMicro: bigint | null }): JsonObject => ({
  domain: input.domain,
  to: input.to,
  ...(input.priceMicro === null ? {} : { price: formatDecimal(input.priceMicro) }),
});

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
};
