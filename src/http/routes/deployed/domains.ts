/**
 * The deployed domains (spec/DEPLOYED.md §7, `agent-domains:src/server.ts`, base /v1 on its own
 * address) over afp's DomainsService and its rules (NOTES.md prices, valuation, DNS types and TTL):
 *   POST /v1/auth/register { referral_code? } → 201 { agent_id, api_key (sk_domains_…), referral_code,
 *        tier, balance_usd, pricing, message, next_steps }; GET /v1/auth/account;
 *   public: GET /v1/domains/check?names=a.com,b.xyz, /v1/domains/value?name=, /v1/whois/:name;
 *   POST /v1/domains/register { domain } (1 year; 400 `domain_unavailable` when held, 400
 *        `insufficient_balance`) → 201; GET /v1/domains, /v1/domains/:id;
 *   /v1/dns/records: POST { domain_id, type, name, content, ttl, priority? }, GET ?domain_id=,
 *        PUT / DELETE /:recordId; POST /v1/domains/:id/transfer { to_agent_id, note? } (a gift).
 * A domains agent is an afp agent registered on this address; its key is afp's key with the
 * deployment's `sk_domains_` prefix (service-keys.ts), its balance afp's (docs/decisions/deployed-dialect.md).
 * Domains and DNS records are named by id, the caller's own only (another's is 404 `not_found`);
 * a record's id is a hash of its domain id, type, host and content, so it is stable and needs no
 * state. Unknown body fields are ignored, as the deployment does; bad known fields → 400, nothing
 * changed. No renew, no priced transfer, no rate limit (§7).
 * Search, bulk-check, expiring, suggest and portfolio-value are in domains-discovery.ts.
 * Non-goals: auctions (§7 shows no shape), deposits (afp funds through its admin deposit).
 */
import { createHash } from 'node:crypto';
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import { isReference } from '../../../core/reference.ts';
import { DNS_LIMITS, DNS_TYPES, type DnsRecord, type DnsType } from '../../../services/domains/dns-records.ts';
import {
  DOMAIN_TEXT_MAX,
  parseDomainName,
  parseRegistrableName,
  SUPPORTED_TLDS,
  yearlyPriceMicro,
} from '../../../services/domains/domain-name.ts';
import type { DomainCharge, DomainRecord } from '../../../services/domains/domain-record.ts';
import type { Valuation } from '../../../services/domains/valuation.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import { agentAccount } from '../../../core/ledger.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { serviceKeyOf } from '../../deployed/service-keys.ts';
import { isoTime, moneyA } from '../../render.ts';
import { type Route, type RouteContext, type RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { optionalString } from '../../validate.ts';
import { casinoCaller } from '../casino/casino-games.ts';
import { registerAgent } from '../faucet/register-agent.ts';

/** At most this many names per check (`names=` is comma-separated). */
export const CHECK_NAMES_MAX = 50;
const NOTE_MAX = 500;
const RECORD_KEYS: readonly string[] = ['type', 'name', 'content', 'ttl', 'priority'];
export const RECORD_CONTENT_MAX = Math.max(DNS_LIMITS.hostnameLengthMax, DNS_LIMITS.txtLengthMax);

function fieldsOf(body: unknown): Record<string, unknown> | Failure {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return deployedFailure(400, 'invalid_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A domains service refusal in the deployment's names (§7: taken and funds are 400). */
function domainsRefusal(failure: Failure): Failure {
  if (failure.extra?.['error'] !== undefined) return failure;
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'NOT_FOUND') return renamed(failure, 'not_found', 404);
  if (failure.code === 'FORBIDDEN') return renamed(failure, 'forbidden', 403);
  if (failure.code === 'CONFLICT' && failure.message.includes('already registered'))
    return renamed(failure, 'domain_unavailable', 400);
  // afp's caps (100 domains an agent, the registrar's total): the deployment shows none; named for what they are.
  if (failure.code === 'CONFLICT' && failure.message.includes('maximum'))
    return renamed(failure, 'domain_limit_reached', 400);
  if (failure.code === 'CONFLICT') return renamed(failure, 'invalid_status', 409);
  return renamed(failure, 'invalid_request', 400);
}

function domainText(value: unknown, field: string): string | Failure {
  if (typeof value !== 'string' || value.trim() === '' || value.length > DOMAIN_TEXT_MAX)
    return deployedFailure(400, 'invalid_domain', `${field} must be a domain name such as example.com`);
  return value.trim().toLowerCase();
}

/** A sold name (syntax and TLD) as the deployment reads it: trimmed, lowercased; 400 `invalid_domain` otherwise. */
export function parseRegistrable(value: unknown, field: string): string | Failure {
  const text = domainText(value, field);
  if (isFailure(text)) return text;
  const parsed = parseRegistrableName(text, field);
  return isFailure(parsed) ? deployedFailure(400, 'invalid_domain', parsed.message) : parsed.name;
}

/** Any syntactically valid name (valuation takes every TLD). */
export function parseAnyName(value: unknown, field: string): string | Failure {
  const text = domainText(value, field);
  if (isFailure(text)) return text;
  const parsed = parseDomainName(text, field);
  return isFailure(parsed) ? deployedFailure(400, 'invalid_domain', parsed.message) : parsed.name;
}

/** `names=a.com,b.xyz`: 1 to CHECK_NAMES_MAX sold names. */
export function parseCheckNames(raw: string | undefined): readonly string[] | Failure {
  if (raw === undefined || raw.trim() === '')
    return deployedFailure(400, 'missing_names', 'names is required: ?names=example.com,example.xyz');
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0)
    return deployedFailure(400, 'missing_names', 'names is required: ?names=example.com,example.xyz');
  if (names.length > CHECK_NAMES_MAX)
    return deployedFailure(400, 'too_many_names', `at most ${CHECK_NAMES_MAX} names per check`);
  for (const name of names) {
    const parsed = parseRegistrable(name, 'names');
    if (isFailure(parsed)) return parsed;
  }
  return names;
}

function balanceMicro(context: RouteContext, agentId: string): Micro {
  return context.platform.ledger.balance(agentAccount(agentId));
}

function pricing(): JsonObject {
  const prices: JsonObject = {};
  for (const tld of SUPPORTED_TLDS) {
    const parsed = parseRegistrableName(`a.${tld}`);
    if (!isFailure(parsed)) prices[`.${tld}`] = moneyA(yearlyPriceMicro(parsed));
  }
  return { currency: 'USD', per_year: prices };
}

/** The caller's own domain by id, else 404 (another's is not shown). */
function ownDomain(context: RouteContext, domainId: string): DomainRecord | Failure {
  const found = context.platform.domains.list(casinoCaller(context)).find((domain) => domain.id === domainId);
  return found ?? deployedFailure(404, 'not_found', `Domain ${domainId.slice(0, 64)} not found`);
}

function domainView(domain: DomainRecord): JsonObject {
  return {
    domain_id: domain.id,
    domain: domain.name,
    status: domain.status,
    registered_at: isoTime(domain.registeredAtMs),
    expires_at: isoTime(domain.expiresAtMs),
    auto_renew: false,
  };
}

export function recordIdOf(domainId: string, record: DnsRecord): string {
  return `rec_${createHash('sha256').update(`${domainId}\n${record.type}\n${record.host}\n${record.value}`).digest('hex').slice(0, 16)}`;
}

function recordView(domain: DomainRecord, record: DnsRecord): JsonObject {
  return {
    id: recordIdOf(domain.id, record),
    domain_id: domain.id,
    type: record.type,
    name: record.host,
    content: record.value,
    ttl: record.ttl,
    priority: record.priority,
  };
}

const register = deployedRoute<{ referralCode: string | null }, Registration>({
  id: 'domains.deployed.register',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: 'Create a domains agent ({ referral_code? }): its own sk_domains_ key and balance.',
  parse: (input) => {
    const fields = input.body === undefined || input.body === null ? {} : fieldsOf(input.body);
    if (isFailure(fields)) return fields;
    const code = optionalString(fields['referral_code'], 'referral_code', 128);
    return isFailure(code) ? deployedFailure(400, 'invalid_request', code.message) : { referralCode: code ?? null };
  },
  run: (context, command) => {
    const referrer =
      command.referralCode === null ? null : (context.platform.agents.resolve(command.referralCode)?.id ?? null);
    const registered = registerAgent(context, context.platform.context.ids.next('ag_', 12), referrer ?? undefined);
    return registered.ok ? registered : domainsRefusal(registered);
  },
  successStatus: 201,
  render: (registration) => ({
    agent_id: registration.agent.id,
    api_key: serviceKeyOf('domains', registration.apiKey),
    referral_code: registration.agent.referralCode,
    tier: registration.agent.tier,
    balance_usd: moneyA(registration.balanceMicro),
    pricing: pricing(),
    message: 'Agent registered. Keep your api_key: it is shown once.',
    next_steps: [
      'Check names: GET /v1/domains/check?names=example.com',
      'Register one: POST /v1/domains/register { domain }',
    ],
  }),
});

const account = deployedRoute<null, string>({
  id: 'domains.deployed.account',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your domains account: balance and how many domains you hold.',
  parse: () => null,
  run: (context) => succeed(casinoCaller(context)),
  successStatus: 200,
  render: (agentId, context) => {
    const agent = context.platform.agents.get(agentId);
    return {
      agent_id: agentId,
      referral_code: agent?.referralCode ?? null,
      tier: agent?.tier ?? null,
      balance_usd: moneyA(balanceMicro(context, agentId)),
      domains_count: context.platform.domains.list(agentId).length,
      created_at: agent === undefined ? null : isoTime(agent.createdAtMs),
    };
  },
});

const check = deployedRoute<readonly string[], readonly JsonObject[]>({
  id: 'domains.deployed.check',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: `Availability and yearly price of up to ${CHECK_NAMES_MAX} names (?names=a.com,b.xyz).`,
  parse: (input: RouteInput) => parseCheckNames(input.query['names']),
  run: (context, names) => {
    const results: JsonObject[] = [];
    for (const name of names) {
      const availability = context.platform.domains.check(name);
      if (!availability.ok) return domainsRefusal(availability);
      const tld = name.slice(name.lastIndexOf('.') + 1);
      results.push({
        domain: availability.value.domain,
        available: availability.value.available,
        price_usd: moneyA(availability.value.yearlyPriceMicro),
        tld,
        currency: 'USD',
      });
    }
    return succeed(results);
  },
  successStatus: 200,
  render: (results) => ({
    results: [...results],
    count: results.length,
    available_count: results.filter((one) => one['available'] === true).length,
  }),
});

export function valuationBody(valuation: Valuation): JsonObject {
  const dot = valuation.domain.lastIndexOf('.');
  const floor = valuation.floorMicro;
  return {
    domain: valuation.domain,
    label: valuation.domain.slice(0, dot),
    tld: valuation.domain.slice(dot + 1),
    valuation: {
      score: valuation.scoreCenti / 100,
      category: valuation.category,
      estimated_market_value_usd: moneyA(valuation.valueMicro),
      floor_price_usd: moneyA(floor),
      premium_multiple: floor === 0n ? null : Math.round(Number((valuation.valueMicro * 100n) / floor)) / 100,
    },
    factors: {
      tld: valuation.tldScore,
      length: valuation.lengthScore,
      keyword: valuation.keywordBonus,
      penalty: valuation.penalty,
      pronounceability: valuation.pronounceability,
    },
  };
}

const value = deployedRoute<string, Valuation>({
  id: 'domains.deployed.value',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: 'The NOTES.md heuristic valuation of any name (?name=).',
  parse: (input) => parseAnyName(input.query['name'], 'name'),
  run: (context, name) => context.platform.domains.valuation(name),
  successStatus: 200,
  render: valuationBody,
});

const whois = deployedRoute<string, string>({
  id: 'domains.deployed.whois',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: 'Who holds a name (public): registrant, dates, status; `registered: false` when free.',
  parse: (input) => parseRegistrable(input.params['name'], 'name'),
  run: (_context, name) => succeed(name),
  successStatus: 200,
  render: (name, context): JsonObject => {
    const held = context.platform.domains.find(name);
    if (held === undefined) return { domain: name, registered: false, available: true };
    return {
      domain: name,
      registered: true,
      available: false,
      status: held.status,
      registrant: held.ownerId,
      registered_at: isoTime(held.registeredAtMs),
      expires_at: isoTime(held.expiresAtMs),
      registrar: 'agent-domains',
    };
  },
});

const registerDomain = deployedRoute<string, DomainCharge>({
  id: 'domains.deployed.register-domain',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary:
    'Register a name for 1 year ({ domain }); 400 domain_unavailable when held, insufficient_balance when short.',
  parse: (input) => {
    const fields = fieldsOf(input.body);
    return isFailure(fields) ? fields : parseRegistrable(fields['domain'], 'domain');
  },
  run: (context, domain) => {
    const charged = context.platform.domains.register(
      { callerId: casinoCaller(context), domain, years: 1, resolver: null },
      context.nowMs,
    );
    return charged.ok ? charged : domainsRefusal(charged);
  },
  successStatus: 201,
  render: (charge, context) => ({
    domain_id: charge.domain.id,
    domain: charge.domain.name,
    status: charge.domain.status,
    expires_at: isoTime(charge.domain.expiresAtMs),
    cost: {
      registration_usd: moneyA(charge.costMicro),
      years: charge.years,
      total_usd: moneyA(charge.costMicro),
      currency: 'USD',
    },
    balance_usd: moneyA(balanceMicro(context, charge.domain.ownerId)),
    transaction_id: charge.txHash,
    next_steps: [
      `Add DNS records: POST /v1/dns/records { domain_id: "${charge.domain.id}", type, name, content, ttl }`,
      `See it: GET /v1/domains/${charge.domain.id}`,
    ],
  }),
});

const listDomains = deployedRoute<null, readonly DomainRecord[]>({
  id: 'domains.deployed.list',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Your domains, by name.',
  parse: () => null,
  run: (context) => succeed(context.platform.domains.list(casinoCaller(context))),
  successStatus: 200,
  render: (domains) => ({ domains: domains.map(domainView), count: domains.length }),
});

const getDomain = deployedRoute<string, DomainRecord>({
  id: 'domains.deployed.get',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'One of your domains with its DNS records.',
  parse: (input) => input.params['id'] ?? '',
  run: (context, domainId) => {
    const found = ownDomain(context, domainId);
    return isFailure(found) ? found : succeed(found);
  },
  successStatus: 200,
  render: (domain) => ({
    ...domainView(domain),
    dns_records: domain.records.map((record) => recordView(domain, record)),
  }),
});

/** A DNS record from the deployment's fields (types and TTL as NOTES.md); names and host content lowercased. */
function parseRecordFields(fields: Record<string, unknown>): DnsRecord | Failure {
  const type = fields['type'];
  if (typeof type !== 'string' || !(DNS_TYPES as readonly string[]).includes(type.toUpperCase()))
    return deployedFailure(400, 'invalid_type', `type must be one of ${DNS_TYPES.join(', ')}`);
  const host = fields['name'] ?? '@';
  if (typeof host !== 'string' || host === '' || host.length > DNS_LIMITS.hostnameLengthMax)
    return deployedFailure(
      400,
      'invalid_name',
      `name must be '@' or a host of 1 to ${DNS_LIMITS.hostnameLengthMax} characters`,
    );
  const content = fields['content'];
  if (typeof content !== 'string' || content === '' || content.length > RECORD_CONTENT_MAX)
    return deployedFailure(400, 'invalid_content', `content must be 1 to ${RECORD_CONTENT_MAX} characters`);
  const ttl = fields['ttl'] ?? DNS_LIMITS.ttlDefault;
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < DNS_LIMITS.ttlMin || ttl > DNS_LIMITS.ttlMax)
    return deployedFailure(
      400,
      'invalid_ttl',
      `ttl must be a whole number from ${DNS_LIMITS.ttlMin} to ${DNS_LIMITS.ttlMax}`,
    );
  const dnsType = type.toUpperCase() as DnsType;
  const priority = fields['priority'];
  if (
    priority !== undefined &&
    priority !== null &&
    (typeof priority !== 'number' ||
      !Number.isSafeInteger(priority) ||
      priority < 0 ||
      priority > DNS_LIMITS.priorityMax)
  ) {
    return deployedFailure(
      400,
      'invalid_priority',
      `priority must be a whole number from 0 to ${DNS_LIMITS.priorityMax}`,
    );
  }
  return {
    type: dnsType,
    host: host.toLowerCase(),
    value: dnsType === 'TXT' ? content : content.toLowerCase(),
    ttl,
    priority: dnsType === 'MX' ? (typeof priority === 'number' ? priority : 10) : null,
  };
}

const addRecord = deployedRoute<{ domainId: string; record: DnsRecord }, { domain: DomainRecord; record: DnsRecord }>({
  id: 'domains.deployed.dns.add',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Add a DNS record ({ domain_id, type, name, content, ttl, priority? }).',
  parse: (input) => {
    const fields = fieldsOf(input.body);
    if (isFailure(fields)) return fields;
    const domainId = fields['domain_id'];
    if (typeof domainId !== 'string' || domainId === '' || domainId.length > 64)
      return deployedFailure(400, 'missing_domain_id', 'domain_id is required');
    const record = parseRecordFields(fields);
    return isFailure(record) ? record : { domainId, record };
  },
  run: (context, command) => {
    const domain = ownDomain(context, command.domainId);
    if (isFailure(domain)) return domain;
    const exists = domain.records.some(
      (one) =>
        one.type === command.record.type && one.host === command.record.host && one.value === command.record.value,
    );
    if (exists) return deployedFailure(409, 'record_exists', 'the domain already has this DNS record');
    // Added beside the held set of its type and host (the service's upsert replaces a set: send it whole).
    const set = domain.records.filter((one) => one.type === command.record.type && one.host === command.record.host);
    const updated = context.platform.domains.setDns({
      callerId: casinoCaller(context),
      domain: domain.name,
      records: [...set, command.record],
    });
    return updated.ok ? succeed({ domain: updated.value, record: command.record }) : domainsRefusal(updated);
  },
  successStatus: 201,
  render: ({ domain, record }) => ({ record: recordView(domain, record), message: 'DNS record created.' }),
});

const listRecords = deployedRoute<string, DomainRecord>({
  id: 'domains.deployed.dns.list',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'The DNS records of one of your domains (?domain_id=).',
  parse: (input) => {
    const domainId = input.query['domain_id'];
    return domainId === undefined || domainId === ''
      ? deployedFailure(400, 'missing_domain_id', 'domain_id is required: ?domain_id=dom_…')
      : domainId;
  },
  run: (context, domainId) => {
    const domain = ownDomain(context, domainId);
    return isFailure(domain) ? domain : succeed(domain);
  },
  successStatus: 200,
  render: (domain) => ({
    domain_id: domain.id,
    domain: domain.name,
    records: domain.records.map((record) => recordView(domain, record)),
    count: domain.records.length,
  }),
});

/** The caller's record by id: its domain and the record, else 404. */
function ownRecord(context: RouteContext, recordId: string): { domain: DomainRecord; record: DnsRecord } | Failure {
  for (const domain of context.platform.domains.list(casinoCaller(context))) {
    const record = domain.records.find((one) => recordIdOf(domain.id, one) === recordId);
    if (record !== undefined) return { domain, record };
  }
  return deployedFailure(404, 'not_found', `DNS record ${recordId.slice(0, 64)} not found`);
}

const updateRecord = deployedRoute<
  { recordId: string; fields: Record<string, unknown> },
  { domain: DomainRecord; record: DnsRecord }
>({
  id: 'domains.deployed.dns.update',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Change a DNS record (type, name, content, ttl, priority; the fields not sent are kept).',
  parse: (input) => {
    const fields = fieldsOf(input.body);
    if (isFailure(fields)) return fields;
    // The fields sent are checked now (over placeholders for the others), so a bad one changes nothing.
    const sent: Record<string, unknown> = { type: 'A', name: '@', content: '127.0.0.1', ttl: DNS_LIMITS.ttlDefault };
    for (const key of RECORD_KEYS) if (Object.hasOwn(fields, key)) sent[key] = fields[key];
    const checked = parseRecordFields(sent);
    return isFailure(checked) ? checked : { recordId: input.params['recordId'] ?? '', fields };
  },
  run: (context, command) => {
    const found = ownRecord(context, command.recordId);
    if (isFailure(found)) return found;
    const { domain, record } = found;
    const merged: Record<string, unknown> = {
      type: record.type,
      name: record.host,
      content: record.value,
      ttl: record.ttl,
      priority: record.priority,
    };
    for (const key of RECORD_KEYS) if (Object.hasOwn(command.fields, key)) merged[key] = command.fields[key];
    const next = parseRecordFields(merged);
    if (isFailure(next)) return next;
    const edited = context.platform.domains.editDnsRecord({
      callerId: casinoCaller(context),
      domain: domain.name,
      old: record,
      next,
    });
    return edited.ok ? succeed({ domain: edited.value, record: next }) : domainsRefusal(edited);
  },
  successStatus: 200,
  render: ({ domain, record }) => ({ record: recordView(domain, record), message: 'DNS record updated.' }),
});

const deleteRecord = deployedRoute<string, { domain: DomainRecord; recordId: string }>({
  id: 'domains.deployed.dns.delete',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Delete a DNS record.',
  parse: (input) => input.params['recordId'] ?? '',
  run: (context, recordId) => {
    const found = ownRecord(context, recordId);
    if (isFailure(found)) return found;
    const edited = context.platform.domains.editDnsRecord({
      callerId: casinoCaller(context),
      domain: found.domain.name,
      old: found.record,
      next: null,
    });
    return edited.ok ? succeed({ domain: edited.value, recordId }) : domainsRefusal(edited);
  },
  successStatus: 200,
  render: ({ recordId }) => ({ deleted: true, id: recordId }),
});

const transfer = deployedRoute<
  { domainId: string; to: string; note: string | null },
  { domain: DomainRecord; fromId: string; note: string | null }
>({
  id: 'domains.deployed.transfer',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Give one of your domains to another agent ({ to_agent_id, note? }); no price.',
  parse: (input) => {
    const fields = fieldsOf(input.body);
    if (isFailure(fields)) return fields;
    const to = fields['to_agent_id'];
    if (typeof to !== 'string' || !isReference(to))
      return deployedFailure(400, 'invalid_recipient', 'to_agent_id must be an agent id');
    const note = optionalString(fields['note'], 'note', NOTE_MAX);
    if (isFailure(note)) return deployedFailure(400, 'invalid_request', note.message);
    return { domainId: input.params['id'] ?? '', to, note: note ?? null };
  },
  run: (context, command) => {
    const domain = ownDomain(context, command.domainId);
    if (isFailure(domain)) return domain;
    const callerId = casinoCaller(context);
    if (command.to === callerId) return deployedFailure(400, 'invalid_recipient', 'to_agent_id must be another agent');
    const moved = context.platform.domains.transfer(
      { callerId, domain: domain.name, to: command.to, priceMicro: null },
      context.nowMs,
    );
    if (!moved.ok)
      return moved.code === 'NOT_FOUND' ? renamed(moved, 'recipient_not_found', 404) : domainsRefusal(moved);
    return succeed({ domain: moved.value.domain, fromId: callerId, note: command.note });
  },
  successStatus: 200,
  render: ({ domain, fromId, note }, context) => ({
    domain_id: domain.id,
    domain: domain.name,
    status: 'transferred',
    from_agent_id: fromId,
    to_agent_id: domain.ownerId,
    note,
    transferred_at: isoTime(context.nowMs),
  }),
});

export const deployedDomainsRoutes: readonly Route[] = [
  register,
  account,
  check,
  value,
  whois,
  registerDomain,
  listDomains,
  getDomain,
  addRecord,
  listRecords,
  updateRecord,
  deleteRecord,
  transfer,
];
