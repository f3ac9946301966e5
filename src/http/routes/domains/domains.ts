/**
 * Domains route rows, styles A (mount 'domains', /api/v1/...) and B (mount 'api', /domains-api/...),
 * over the one DomainsService. Wire shapes: spec/platform.md "Domains" where it shows them (check,
 * register, renew and transfer requests, the A and B register responses); the rest is afp's
 * (docs/decisions/domains.md "Domains"). A renders money as JSON numbers (`price_usdc`, `value_usdc`), B as
 * decimal strings (`cost`, `price`); A names instants `*_at`, B says `expires`.
 *
 * Invariants: `parse` validates every field — names (syntax and sold TLD), years 1..10, DNS record
 * fields, prices, unknown fields and query parameters — before anything runs, so bad input changes
 * nothing; `run` passes the authenticated caller to the service; register answers 201, the rest 200.
 * Non-goals: domain rules (availability, ownership, expiry, DNS content per type) — the service's.
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import { isReference } from '../../../core/reference.ts';
import { DNS_LIMITS, DNS_TYPES, type DnsRecord, type DnsType } from '../../../services/domains/dns-records.ts';
import { DOMAIN_TEXT_MAX, parseDomainName, parseRegistrableName } from '../../../services/domains/domain-name.ts';
import type {
  Availability,
  DomainCharge,
  DomainRecord,
  TransferResult,
} from '../../../services/domains/domain-record.ts';
import type { Valuation } from '../../../services/domains/valuation.ts';
import { DEFAULT_DOMAINS_CONFIG } from '../../../services/domains/domains-config.ts';
import { isoTime, moneyA, moneyB } from '../../render.ts';
import { listCall, type ListShape } from '../../list-call.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { styleAFamily, styleBFamily } from '../../route-family.ts';
import {
  knownQuery,
  NO_KEYS,
  objectBody,
  optionalInteger,
  optionalString,
  requiredAmount,
  requiredString,
} from '../../validate.ts';

interface NameCommand {
  readonly domain: string;
}

interface RegisterCommand extends NameCommand {
  readonly years: number;
  readonly resolver: string | null;
}

interface RenewCommand extends NameCommand {
  readonly years: number;
}

interface TransferCommand extends NameCommand {
  readonly to: string;
  readonly priceMicro: Micro | null;
}

interface DnsCommandBody extends NameCommand {
  readonly records: readonly DnsRecord[];
}

const DOMAIN_QUERY: readonly string[] = ['domain'];
const REGISTER_FIELDS_A: readonly string[] = ['domain', 'years'];
const REGISTER_FIELDS_B: readonly string[] = ['domain', 'years', 'resolver'];
const RENEW_FIELDS: readonly string[] = ['domain', 'years'];
const TRANSFER_FIELDS: readonly string[] = ['domain', 'to', 'price'];
const DNS_FIELDS: readonly string[] = ['domain', 'records'];
const RECORD_FIELDS: readonly string[] = ['type', 'name', 'value', 'ttl', 'priority'];
export const RESOLVER_TEXT_MAX = 253;
/** The longest record value: a host name (253) or a TXT string (255). */
export const RECORD_VALUE_MAX = Math.max(DNS_LIMITS.hostnameLengthMax, DNS_LIMITS.txtLengthMax);

const { yearsMin, yearsMax } = DEFAULT_DOMAINS_CONFIG;

function callerId(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

/** A sold name (syntax and TLD), lowercased; 400 otherwise. */
function registrable(value: unknown, name: string): string | Failure {
  const text = requiredString(value, name, DOMAIN_TEXT_MAX);
  if (isFailure(text)) return text;
  const parsed = parseRegistrableName(text, name);
  return isFailure(parsed) ? parsed : parsed.name;
}

/** `?domain=` and nothing else; `anyTld` for valuation (every TLD is valued). */
function parseDomainQuery(input: RouteInput, anyTld: boolean): NameCommand | Failure {
  const unknown = knownQuery(input.query, DOMAIN_QUERY);
  if (unknown !== null) return unknown;
  const text = requiredString(input.query['domain'], 'domain', DOMAIN_TEXT_MAX);
  if (isFailure(text)) return text;
  const parsed = anyTld ? parseDomainName(text) : parseRegistrableName(text);
  return isFailure(parsed) ? parsed : { domain: parsed.name };
}

function parseNoInput(input: RouteInput): null | Failure {
  return knownQuery(input.query, NO_KEYS) ?? null;
}

function years(value: unknown): number | Failure {
  const parsed = optionalInteger(value, 'years', yearsMin, yearsMax);
  return isFailure(parsed) ? parsed : (parsed ?? yearsMin);
}

function parseRegister(body: unknown, style: 'A' | 'B'): RegisterCommand | Failure {
  const fields = objectBody(body, style === 'A' ? REGISTER_FIELDS_A : REGISTER_FIELDS_B);
  if (isFailure(fields)) return fields;
  const domain = registrable(fields['domain'], 'domain');
  if (isFailure(domain)) return domain;
  const count = years(fields['years']);
  if (isFailure(count)) return count;
  const resolver = optionalString(fields['resolver'], 'resolver', RESOLVER_TEXT_MAX);
  if (isFailure(resolver)) return resolver;
  return { domain, years: count, resolver: resolver ?? null };
}

function parseRenew(body: unknown): RenewCommand | Failure {
  const fields = objectBody(body, RENEW_FIELDS);
  if (isFailure(fields)) return fields;
  const domain = registrable(fields['domain'], 'domain');
  if (isFailure(domain)) return domain;
  const count = years(fields['years']);
  return isFailure(count) ? count : { domain, years: count };
}

function parseTransfer(body: unknown): TransferCommand | Failure {
  const fields = objectBody(body, TRANSFER_FIELDS);
  if (isFailure(fields)) return fields;
  const domain = registrable(fields['domain'], 'domain');
  if (isFailure(domain)) return domain;
  const to = requiredString(fields['to'], 'to', 64);
  if (isFailure(to)) return to;
  if (!isReference(to))
    return fail(
      'BAD_REQUEST',
      "to must be an agent id, address or referral code (1 to 64 characters of A-Z, a-z, 0-9, '_', '.' or '-')",
    );
  const rawPrice = fields['price'];
  const priceMicro =
    rawPrice === undefined || rawPrice === null ? null : requiredAmount(rawPrice, 'price', 'number-or-decimal-string');
  if (isFailure(priceMicro)) return priceMicro;
  return { domain, to, priceMicro };
}

function parseRecord(value: unknown, index: number): DnsRecord | Failure {
  const where = `records[${index}]`;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return fail('BAD_REQUEST', `${where} must be a JSON object`);
  const fields = objectBody(value, RECORD_FIELDS);
  if (isFailure(fields)) return fail('BAD_REQUEST', `${where}: ${fields.message}`);
  const type = fields['type'];
  if (typeof type !== 'string' || !(DNS_TYPES as readonly string[]).includes(type))
    return fail('BAD_REQUEST', `${where}.type must be one of ${DNS_TYPES.join(', ')}`);
  const host = optionalString(fields['name'], `${where}.name`, DNS_LIMITS.hostnameLengthMax);
  if (isFailure(host)) return host;
  const recordValue = requiredString(fields['value'], `${where}.value`, RECORD_VALUE_MAX);
  if (isFailure(recordValue)) return recordValue;
  const ttl = optionalInteger(fields['ttl'], `${where}.ttl`, DNS_LIMITS.ttlMin, DNS_LIMITS.ttlMax);
  if (isFailure(ttl)) return ttl;
  const priority = optionalInteger(fields['priority'], `${where}.priority`, 0, DNS_LIMITS.priorityMax);
  if (isFailure(priority)) return priority;
  const dnsType = type as DnsType;
  // Names and host values compare in lowercase (DNS is case-insensitive); TXT keeps its text.
  const lowered = dnsType === 'TXT' ? recordValue : recordValue.toLowerCase();
  return {
    type: dnsType,
    host: (host ?? '@').toLowerCase(),
    value: lowered,
    ttl: ttl ?? DNS_LIMITS.ttlDefault,
    priority: priority ?? null,
  };
}

function parseDns(body: unknown): DnsCommandBody | Failure {
  const fields = objectBody(body, DNS_FIELDS);
  if (isFailure(fields)) return fields;
  const domain = registrable(fields['domain'], 'domain');
  if (isFailure(domain)) return domain;
  const raw = fields['records'];
  if (!Array.isArray(raw)) return fail('BAD_REQUEST', 'records must be an array of DNS records');
  if (raw.length < 1 || raw.length > DNS_LIMITS.recordsPerRequest)
    return fail('BAD_REQUEST', `records must hold 1 to ${DNS_LIMITS.recordsPerRequest} records`);
  const records: DnsRecord[] = [];
  for (let index = 0; index < raw.length; index++) {
    const record = parseRecord(raw[index], index);
    if (isFailure(record)) return record;
    records.push(record);
  }
  return { domain, records };
}

function renderRecord(record: DnsRecord): JsonObject {
  return { type: record.type, name: record.host, value: record.value, ttl: record.ttl, priority: record.priority };
}

function dnsBody(domain: DomainRecord): JsonObject {
  return { domain: domain.name, records: domain.records.map(renderRecord), count: domain.records.length };
}

function itemA(domain: DomainRecord): JsonObject {
  return {
    domain: domain.name,
    status: domain.status,
    registered_at: isoTime(domain.registeredAtMs),
    expires_at: isoTime(domain.expiresAtMs),
    grace_ends_at: isoTime(domain.releaseAtMs),
    resolver: domain.resolver,
  };
}

function itemB(domain: DomainRecord): JsonObject {
  return {
    domain: domain.name,
    status: domain.status,
    registered_at: isoTime(domain.registeredAtMs),
    expires: isoTime(domain.expiresAtMs),
    grace_ends: isoTime(domain.releaseAtMs),
    resolver: domain.resolver,
  };
}

function lookupBody(domain: DomainRecord, context: RouteContext): JsonObject {
  const owner = context.platform.agents.get(domain.ownerId);
  assert(owner !== undefined, 'a domain is owned by a registered agent');
  const offer = domain.offer;
  return {
    domain: domain.name,
    status: domain.status,
    owner: owner.id,
    owner_address: owner.address,
    registered_at: isoTime(domain.registeredAtMs),
    expires: isoTime(domain.expiresAtMs),
    grace_ends: isoTime(domain.releaseAtMs),
    resolver: domain.resolver,
    records: domain.records.map(renderRecord),
    offer:
      offer === null
        ? null
        : { to: offer.buyerId, price: moneyB(offer.priceMicro), offered_at: isoTime(offer.offeredAtMs) },
  };
}

function transferBody(result: TransferResult): JsonObject {
  const price = result.priceMicro === null ? null : moneyB(result.priceMicro);
  const completed = result.kind === 'transferred';
  return {
    domain: result.domain.name,
    status: completed ? 'completed' : 'offered',
    from: result.fromId,
    to: result.toId,
    price,
    owner: result.domain.ownerId,
    tx_hash: completed ? result.txHash : null,
  };
}

function valuationBody(valuation: Valuation): JsonObject {
  return {
    domain: valuation.domain,
    score: valuation.scoreCenti / 100,
    value_usdc: moneyA(valuation.valueMicro),
    category: valuation.category,
    breakdown: {
      tld: valuation.tldScore,
      length: valuation.lengthScore,
      keyword: valuation.keywordBonus,
      penalty: valuation.penalty,
      pronounceability: valuation.pronounceability,
    },
  };
}

function checkBody(availability: Availability): JsonObject {
  return {
    domain: availability.domain,
    available: availability.available,
    price_usdc: moneyA(availability.yearlyPriceMicro),
  };
}

const rowA = styleAFamily('domains');
const rowB = styleBFamily('domains');
/** List calls (platform.md Limits 7): ?limit= cuts the list, `count` counts what is kept (list-call.ts). */
const DOMAINS_LIST: ListShape = { items: ['domains'], count: 'count' };
const DNS_LIST: ListShape = { items: ['records'], count: 'count' };

const rowsA: readonly Route[] = [
  rowA<NameCommand, Availability>('check', {
    method: 'GET',
    path: '/api/v1/check',
    summary: 'Whether a domain is available, and its yearly price in USDC (query domain).',
    parse: (input) => parseDomainQuery(input, false),
    run: (context, command) => context.platform.domains.check(command.domain),
    render: checkBody,
  }),
  rowA<RegisterCommand, DomainCharge>('register', {
    method: 'POST',
    path: '/api/v1/register',
    limits: { endpointDaily: 'domains.register' },
    summary: 'Register a domain for 1 to 10 years (default 1), charged at the yearly price; 409 when taken.',
    parse: (input) => parseRegister(input.body, 'A'),
    run: (context, command) =>
      context.platform.domains.register(
        { callerId: callerId(context), domain: command.domain, years: command.years, resolver: null },
        context.nowMs,
      ),
    successStatus: 201,
    render: (charge) => ({ domain: charge.domain.name, expires_at: isoTime(charge.domain.expiresAtMs) }),
  }),
  listCall(
    DOMAINS_LIST,
    rowA<null, readonly DomainRecord[]>('domains', {
      method: 'GET',
      path: '/api/v1/domains',
      summary: "The caller's domains (active and expired in grace), by name.",
      parse: parseNoInput,
      run: (context) => succeed(context.platform.domains.list(callerId(context))),
      render: (domains) => ({ domains: domains.map(itemA), count: domains.length }),
    }),
  ),
  rowA<DnsCommandBody, DomainRecord>('dns', {
    method: 'POST',
    path: '/api/v1/dns',
    summary:
      'Add or update DNS records (A, AAAA, CNAME, MX, TXT); each (type, name) set sent replaces the held one (owner only).',
    parse: (input) => parseDns(input.body),
    run: (context, command) =>
      context.platform.domains.setDns({
        callerId: callerId(context),
        domain: command.domain,
        records: command.records,
      }),
    render: dnsBody,
  }),
  listCall(
    DNS_LIST,
    rowA<NameCommand, DomainRecord>('dns.list', {
      method: 'GET',
      path: '/api/v1/dns',
      summary: 'The DNS records of a registered domain (query domain; public).',
      parse: (input) => parseDomainQuery(input, false),
      run: (context, command) => context.platform.domains.lookup(command.domain),
      render: dnsBody,
    }),
  ),
  rowA<NameCommand, Valuation>('valuation', {
    method: 'GET',
    path: '/api/v1/valuation',
    summary: 'Heuristic valuation of any domain name: score, value in USDC, category (query domain).',
    parse: (input) => parseDomainQuery(input, true),
    run: (context, command) => context.platform.domains.valuation(command.domain),
    render: valuationBody,
  }),
];

const rowsB: readonly Route[] = [
  rowB<RegisterCommand, DomainCharge>('register', {
    method: 'POST',
    path: '/domains-api/register',
    limits: { serviceRowB: true, endpointDaily: 'domains.register' },
    summary: 'Register a domain for 1 to 10 years (default 1), with an optional resolver; 409 when taken.',
    parse: (input) => parseRegister(input.body, 'B'),
    run: (context, command) =>
      context.platform.domains.register(
        { callerId: callerId(context), domain: command.domain, years: command.years, resolver: command.resolver },
        context.nowMs,
      ),
    successStatus: 201,
    render: (charge) => ({
      domain: charge.domain.name,
      cost: moneyB(charge.costMicro),
      expires: isoTime(charge.domain.expiresAtMs),
      tx_hash: charge.txHash,
    }),
  }),
  rowB<NameCommand, DomainRecord>('lookup', {
    method: 'GET',
    path: '/domains-api/lookup/:domain',
    summary: 'Owner, registration date, expiry, resolver and DNS records of a registered domain (public).',
    parse: (input) => {
      const unknown = knownQuery(input.query, NO_KEYS);
      if (unknown !== null) return unknown;
      const domain = registrable(input.params['domain'], 'domain');
      return isFailure(domain) ? domain : { domain };
    },
    run: (context, command) => context.platform.domains.lookup(command.domain),
    render: lookupBody,
  }),
  listCall(
    DOMAINS_LIST,
    rowB<null, readonly DomainRecord[]>('domains', {
      method: 'GET',
      path: '/domains-api/domains',
      summary: "The caller's domains with their expiry status, by name.",
      parse: parseNoInput,
      run: (context) => succeed(context.platform.domains.list(callerId(context))),
      render: (domains) => ({ domains: domains.map(itemB), count: domains.length }),
    }),
  ),
  rowB<RenewCommand, DomainCharge>('renew', {
    method: 'POST',
    path: '/domains-api/renew',
    summary: 'Extend a domain from its current expiry by 1 to 10 years (owner only; also in grace).',
    parse: (input) => parseRenew(input.body),
    run: (context, command) =>
      context.platform.domains.renew(
        { callerId: callerId(context), domain: command.domain, years: command.years },
        context.nowMs,
      ),
    render: (charge) => ({
      domain: charge.domain.name,
      years: charge.years,
      cost: moneyB(charge.costMicro),
      expires: isoTime(charge.domain.expiresAtMs),
      tx_hash: charge.txHash,
    }),
  }),
  rowB<TransferCommand, TransferResult>('transfer', {
    method: 'POST',
    path: '/domains-api/transfer',
    summary:
      'Give a domain to an agent; with a price, offer it for sale — the buyer accepts with the same transfer (to = itself, same price), an atomic swap.',
    parse: (input) => parseTransfer(input.body),
    run: (context, command) =>
      context.platform.domains.transfer(
        { callerId: callerId(context), domain: command.domain, to: command.to, priceMicro: command.priceMicro },
        context.nowMs,
      ),
    render: transferBody,
  }),
];

/** Every domains row, both styles. */
export const domainsRoutes: readonly Route[] = [...rowsA, ...rowsB];
