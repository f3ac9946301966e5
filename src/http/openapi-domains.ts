/**
 * The domains rows' OpenAPI definitions (requests, success bodies, domain error codes), kept in one
 * file of the service so the shared tables in openapi-requests.ts, openapi-responses.ts and
 * openapi.ts each gain one spread line. Bounds come from the same constants the rows read
 * (src/http/routes/domains/domains.ts); test/http/openapi-contract.test.ts holds the request
 * definitions to the rows' parse, test/http/openapi-responses.test.ts the bodies to the tour's.
 */
import * as z from 'zod';
import type { ErrorCode } from '../core/errors.ts';
import { DNS_LIMITS, DNS_TYPES } from '../services/domains/dns-records.ts';
import { SUPPORTED_TLDS } from '../services/domains/domain-name.ts';
import { DEFAULT_DOMAINS_CONFIG } from '../services/domains/domains-config.ts';
import {
  amountNumberOrText,
  instant,
  listLimitQuery,
  named,
  optional,
  reference,
  nonBlankString,
  usdcNumber,
  usdcString,
  withInfo,
  type RequestContract,
} from './openapi-fields.ts';
import { RECORD_VALUE_MAX, RESOLVER_TEXT_MAX } from './routes/domains/domains.ts';

const { yearsMin, yearsMax } = DEFAULT_DOMAINS_CONFIG;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** domain-name.ts `parseRegistrableName`: `<label>.<tld>`, any case, a sold TLD. */
const registrable = (): z.ZodString =>
  z
    .string()
    .regex(new RegExp(`^${LABEL}\\.(?:${SUPPORTED_TLDS.join('|')})$`, 'i'))
    .describe(`A second-level name <label>.<tld> (case-insensitive); TLDs: ${SUPPORTED_TLDS.join(', ')}`);
/** domain-name.ts `parseDomainName`: any TLD of 2 to 24 letters. */
const anyName = (): z.ZodString =>
  z
    .string()
    .regex(new RegExp(`^${LABEL}\\.[A-Za-z]{2,24}$`))
    .describe('A second-level name <label>.<tld>, any TLD of 2 to 24 letters');
const yearsField = optional(
  z.int().min(yearsMin).max(yearsMax).describe(`Whole years, ${yearsMin} to ${yearsMax} (default ${yearsMin})`),
);
const domainQuery = z.strictObject({ domain: registrable() });

const record = z.strictObject({
  type: z.enum(DNS_TYPES as [string, ...string[]]),
  name: optional(
    nonBlankString(DNS_LIMITS.hostnameLengthMax).describe(
      "'@' (default) or a relative host (www, mail.eu, *.dev, _dmarc)",
    ),
  ),
  value: nonBlankString(RECORD_VALUE_MAX).describe(
    'A: IPv4; AAAA: IPv6; CNAME and MX: a host name; TXT: 1 to 255 printable ASCII characters',
  ),
  ttl: optional(
    z.int().min(DNS_LIMITS.ttlMin).max(DNS_LIMITS.ttlMax).describe(`Seconds (default ${DNS_LIMITS.ttlDefault})`),
  ),
  priority: optional(z.int().min(0).max(DNS_LIMITS.priorityMax).describe('MX only, required there')),
});

export const DOMAINS_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'domains.A.check': { query: domainQuery },
  'domains.A.register': { body: z.strictObject({ domain: registrable(), years: yearsField }) },
  'domains.A.dns': {
    body: z.strictObject({
      domain: registrable(),
      records: z
        .array(record)
        .min(1)
        .max(DNS_LIMITS.recordsPerRequest)
        .describe('Each (type, name) set sent replaces the held one'),
    }),
  },
  'domains.A.dns.list': { query: domainQuery.extend(listLimitQuery('every record').shape) },
  'domains.A.domains': { query: listLimitQuery('every domain') },
  'domains.B.domains': { query: listLimitQuery('every domain') },
  'domains.A.valuation': { query: z.strictObject({ domain: anyName() }) },
  'domains.B.register': {
    body: z.strictObject({
      domain: registrable(),
      years: yearsField,
      resolver: optional(nonBlankString(RESOLVER_TEXT_MAX).describe('A custom resolver: a host name or an IP address')),
    }),
  },
  'domains.B.lookup': { params: z.strictObject({ domain: registrable() }) },
  'domains.B.renew': { body: z.strictObject({ domain: registrable(), years: yearsField }) },
  'domains.B.transfer': {
    body: z.strictObject({
      domain: registrable(),
      to: reference().describe(
        'The recipient (agent id, address or referral code); the buyer accepting an offer sends itself',
      ),
      price: optional(
        amountNumberOrText().describe('A sale price in USDC: the owner offers; the buyer accepts with the same price'),
      ),
    }),
  },
};

const nullable = <T extends z.ZodType>(schema: T): z.ZodNullable<T> => schema.nullable();
const hash = (): z.ZodString => z.string().regex(/^0x[0-9a-f]{64}$/);
const status = z.enum(['active', 'expired']);
const recordOut = named(
  'DnsRecord',
  z.strictObject({
    type: z.enum(DNS_TYPES as [string, ...string[]]),
    name: z.string(),
    value: z.string(),
    ttl: z.int(),
    priority: nullable(z.int()),
  }),
);
const dnsBody = (): z.ZodObject => withInfo({ domain: z.string(), records: z.array(recordOut), count: z.int().min(0) });
const itemA = named(
  'DomainA',
  z.strictObject({
    domain: z.string(),
    status,
    registered_at: instant(),
    expires_at: instant(),
    grace_ends_at: instant(),
    resolver: nullable(z.string()),
  }),
);
const itemB = named(
  'DomainB',
  z.strictObject({
    domain: z.string(),
    status,
    registered_at: instant(),
    expires: instant(),
    grace_ends: instant(),
    resolver: nullable(z.string()),
  }),
);

export const DOMAINS_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'domains.A.check': withInfo({
    domain: z.string(),
    available: z.boolean(),
    price_usdc: usdcNumber().describe('Yearly price'),
  }),
  'domains.A.register': withInfo({ domain: z.string(), expires_at: instant() }),
  'domains.A.domains': withInfo({ domains: z.array(itemA), count: z.int().min(0) }),
  'domains.A.dns': dnsBody(),
  'domains.A.dns.list': dnsBody(),
  'domains.A.valuation': withInfo({
    domain: z.string(),
    score: z.number().min(0).max(100),
    value_usdc: usdcNumber(),
    category: z.enum(['premium', 'standard', 'budget', 'low-value']),
    breakdown: z.strictObject({
      tld: z.int(),
      length: z.int(),
      keyword: z.int(),
      penalty: z.int(),
      pronounceability: z.int(),
    }),
  }),
  'domains.B.register': withInfo({ domain: z.string(), cost: usdcString(), expires: instant(), tx_hash: hash() }),
  'domains.B.lookup': withInfo({
    domain: z.string(),
    status,
    owner: z.string(),
    owner_address: z.string(),
    registered_at: instant(),
    expires: instant(),
    grace_ends: instant(),
    resolver: nullable(z.string()),
    records: z.array(recordOut),
    offer: nullable(z.strictObject({ to: z.string(), price: usdcString(), offered_at: instant() })),
  }),
  'domains.B.domains': withInfo({ domains: z.array(itemB), count: z.int().min(0) }),
  'domains.B.renew': withInfo({
    domain: z.string(),
    years: z.int(),
    cost: usdcString(),
    expires: instant(),
    tx_hash: hash(),
  }),
  'domains.B.transfer': withInfo({
    domain: z.string(),
    status: z.enum(['offered', 'completed']),
    from: z.string(),
    to: z.string(),
    price: nullable(usdcString()),
    owner: z.string(),
    tx_hash: nullable(hash()),
  }),
};

export const DOMAINS_DOMAIN_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  'domains.A.check': [],
  'domains.A.register': ['CONFLICT', 'INSUFFICIENT_BALANCE'],
  'domains.A.domains': [],
  'domains.A.dns': ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'],
  'domains.A.dns.list': ['NOT_FOUND'],
  'domains.A.valuation': [],
  'domains.B.register': ['CONFLICT', 'INSUFFICIENT_BALANCE'],
  'domains.B.lookup': ['NOT_FOUND'],
  'domains.B.domains': [],
  'domains.B.renew': ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  'domains.B.transfer': ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
};
