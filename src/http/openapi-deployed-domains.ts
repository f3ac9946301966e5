/**
 * The deployed domains rows' definitions (src/http/routes/deployed/domains.ts, spec/DEPLOYED.md §7)
 * for openapi-deployed.ts: what each row takes (checked by the rows' own name parsers, so the
 * definitions and the rows cannot drift), what it answers, and its refusals. Request objects are
 * loose (the deployment ignores fields it does not read); success bodies strict, with `_info`.
 */
import * as z from 'zod';
import { isFailure } from '../core/errors.ts';
import { DNS_LIMITS, DNS_TYPES } from '../services/domains/dns-records.ts';
import type { RequestContract } from './openapi-fields.ts';
import { instant, reference, usdcNumber as usdc, withInfo } from './openapi-fields.ts';
import { parseAnyName, parseCheckNames, parseRegistrable, RECORD_CONTENT_MAX } from './routes/deployed/domains.ts';

/** One name's line of a check answer (also in the discovery rows' answers: openapi-deployed-extras.ts). */
export const CHECK_ROW_FIELDS = {
  domain: z.string(),
  available: z.boolean(),
  price_usd: usdc(),
  tld: z.string(),
  currency: z.literal('USD'),
};
/** A name's valuation (the value row's answer, and each line of the portfolio value's). */
export const VALUATION_FIELDS = {
  domain: z.string(),
  label: z.string(),
  tld: z.string(),
  valuation: z.strictObject({
    score: z.number(),
    category: z.string(),
    estimated_market_value_usd: usdc(),
    floor_price_usd: usdc(),
    premium_multiple: z.number().nullable(),
  }),
  factors: z.strictObject({
    tld: z.number(),
    length: z.number(),
    keyword: z.number(),
    penalty: z.number(),
    pronounceability: z.number(),
  }),
};

const optionalText = (max: number): z.ZodOptional<z.ZodNullable<z.ZodString>> =>
  z.string().max(max).regex(/\S/).nullable().optional();
const soldName = (field: string): z.ZodType =>
  z
    .string()
    .refine((value) => !isFailure(parseRegistrable(value, field)))
    .describe('A name of a sold TLD (example.com), any case; trimmed');
const anyName = z
  .string()
  .refine((value) => !isFailure(parseAnyName(value, 'name')))
  .describe('Any syntactically valid name, any TLD');
const dnsType = z
  .string()
  .refine((value) => (DNS_TYPES as readonly string[]).includes(value.toUpperCase()))
  .describe(`${DNS_TYPES.join(', ')} (any case)`);
const host = z
  .string()
  .min(1)
  .max(DNS_LIMITS.hostnameLengthMax)
  .nullable()
  .describe("'@' (default) or a relative host");
const content = z
  .string()
  .min(1)
  .max(RECORD_CONTENT_MAX)
  .describe("The record's content, checked for its type when it is stored");
const ttl = z
  .int()
  .min(DNS_LIMITS.ttlMin)
  .max(DNS_LIMITS.ttlMax)
  .nullable()
  .describe(`Seconds, ${DNS_LIMITS.ttlMin} to ${DNS_LIMITS.ttlMax} (default ${DNS_LIMITS.ttlDefault})`);
const priority = z
  .int()
  .min(0)
  .max(DNS_LIMITS.priorityMax)
  .nullable()
  .describe('MX only (default 10); ignored for other types');
const anyId = (what: string): z.ZodString => z.string().describe(what);

export const DOMAINS_DEPLOYED_REQUESTS: Readonly<Record<string, RequestContract>> = {
  'domains.deployed.register': {
    body: z.looseObject({ referral_code: optionalText(128).describe('A referral code (an unknown one is ignored)') }),
    bodyOptional: true,
  },
  'domains.deployed.check': {
    query: z.looseObject({
      names: z
        .string()
        .refine((value) => !isFailure(parseCheckNames(value)))
        .describe('1 to 50 comma-separated names of sold TLDs'),
    }),
  },
  'domains.deployed.value': { query: z.looseObject({ name: anyName }) },
  'domains.deployed.whois': { params: z.strictObject({ name: soldName('name') }) },
  'domains.deployed.register-domain': { body: z.looseObject({ domain: soldName('domain') }) },
  'domains.deployed.get': { params: z.strictObject({ id: anyId('Your domain id (dom_...)') }) },
  'domains.deployed.dns.add': {
    body: z.looseObject({
      domain_id: z.string().min(1).max(64).describe('Your domain id (dom_...)'),
      type: dnsType,
      name: host.optional(),
      content,
      ttl: ttl.optional(),
      priority: priority.optional(),
    }),
  },
  'domains.deployed.dns.list': {
    query: z.looseObject({ domain_id: z.string().min(1).describe('Your domain id (dom_...)') }),
  },
  'domains.deployed.dns.update': {
    params: z.strictObject({ recordId: anyId('The record id (rec_...)') }),
    body: z.looseObject({
      type: dnsType.optional(),
      name: host.optional(),
      content: content.optional(),
      ttl: ttl.optional(),
      priority: priority.optional(),
    }),
  },
  // The deployment reads no body on DELETE and ignores one sent.
  'domains.deployed.dns.delete': {
    params: z.strictObject({ recordId: anyId('The record id (rec_...)') }),
    body: z.looseObject({}),
    bodyOptional: true,
  },
  'domains.deployed.transfer': {
    params: z.strictObject({ id: anyId('Your domain id (dom_...)') }),
    body: z.looseObject({
      to_agent_id: reference().describe('The receiving domains agent'),
      note: optionalText(500).describe('Kept on the answer'),
    }),
  },
};

const domainView = {
  domain_id: z.string(),
  domain: z.string(),
  status: z.enum(['active', 'expired']),
  registered_at: instant(),
  expires_at: instant(),
  auto_renew: z.boolean(),
};
const recordView = z.strictObject({
  id: z.string(),
  domain_id: z.string(),
  type: z.enum(DNS_TYPES),
  name: z.string(),
  content: z.string(),
  ttl: z.int(),
  priority: z.int().nullable(),
});

export const DOMAINS_DEPLOYED_RESPONSES: Readonly<Record<string, z.ZodType>> = {
  'domains.deployed.register': withInfo({
    agent_id: z.string(),
    api_key: z.string().regex(/^sk_domains_/),
    referral_code: z.string(),
    tier: z.string(),
    balance_usd: usdc(),
    pricing: z.strictObject({ currency: z.literal('USD'), per_year: z.record(z.string(), usdc()) }),
    message: z.string(),
    next_steps: z.array(z.string()),
  }),
  'domains.deployed.account': withInfo({
    agent_id: z.string(),
    referral_code: z.string().nullable(),
    tier: z.string().nullable(),
    balance_usd: usdc(),
    domains_count: z.int(),
    created_at: instant().nullable(),
  }),
  'domains.deployed.check': withInfo({
    results: z.array(z.strictObject(CHECK_ROW_FIELDS)),
    count: z.int(),
    available_count: z.int(),
  }),
  'domains.deployed.value': withInfo(VALUATION_FIELDS),
  'domains.deployed.whois': z.union([
    withInfo({ domain: z.string(), registered: z.literal(false), available: z.literal(true) }),
    withInfo({
      domain: z.string(),
      registered: z.literal(true),
      available: z.literal(false),
      status: z.string(),
      registrant: z.string(),
      registered_at: instant(),
      expires_at: instant(),
      registrar: z.string(),
    }),
  ]),
  'domains.deployed.register-domain': withInfo({
    domain_id: z.string(),
    domain: z.string(),
    status: z.string(),
    expires_at: instant(),
    cost: z.strictObject({
      registration_usd: usdc(),
      years: z.literal(1),
      total_usd: usdc(),
      currency: z.literal('USD'),
    }),
    balance_usd: usdc(),
    transaction_id: z.string(),
    next_steps: z.array(z.string()),
  }),
  'domains.deployed.list': withInfo({ domains: z.array(z.strictObject(domainView)), count: z.int() }),
  'domains.deployed.get': withInfo({ ...domainView, dns_records: z.array(recordView) }),
  'domains.deployed.dns.add': withInfo({ record: recordView, message: z.string() }),
  'domains.deployed.dns.list': withInfo({
    domain_id: z.string(),
    domain: z.string(),
    records: z.array(recordView),
    count: z.int(),
  }),
  'domains.deployed.dns.update': withInfo({ record: recordView, message: z.string() }),
  'domains.deployed.dns.delete': withInfo({ deleted: z.literal(true), id: z.string() }),
  'domains.deployed.transfer': withInfo({
    domain_id: z.string(),
    domain: z.string(),
    status: z.literal('transferred'),
    from_agent_id: z.string(),
    to_agent_id: z.string(),
    note: z.string().nullable(),
    transferred_at: instant(),
  }),
};

export const DOMAINS_DEPLOYED_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  'domains.deployed.register': { 400: ['invalid_request'] },
  'domains.deployed.check': { 400: ['missing_names', 'too_many_names', 'invalid_domain'] },
  'domains.deployed.value': { 400: ['invalid_domain'] },
  'domains.deployed.whois': { 400: ['invalid_domain'] },
  'domains.deployed.register-domain': {
    400: ['invalid_request', 'invalid_domain', 'domain_unavailable', 'insufficient_balance', 'domain_limit_reached'],
    409: ['invalid_status'],
  },
  'domains.deployed.get': { 404: ['not_found'] },
  'domains.deployed.dns.add': {
    400: [
      'invalid_request',
      'missing_domain_id',
      'invalid_type',
      'invalid_name',
      'invalid_content',
      'invalid_ttl',
      'invalid_priority',
    ],
    404: ['not_found'],
    409: ['record_exists', 'invalid_status'],
  },
  'domains.deployed.dns.list': { 400: ['missing_domain_id'], 404: ['not_found'] },
  'domains.deployed.dns.update': {
    400: ['invalid_request', 'invalid_type', 'invalid_name', 'invalid_content', 'invalid_ttl', 'invalid_priority'],
    404: ['not_found'],
    409: ['invalid_status'],
  },
  'domains.deployed.dns.delete': { 404: ['not_found'], 409: ['invalid_status'] },
  'domains.deployed.transfer': {
    400: ['invalid_request', 'invalid_recipient', 'domain_limit_reached'],
    404: ['not_found', 'recipient_not_found'],
    409: ['invalid_status'],
  },
};
