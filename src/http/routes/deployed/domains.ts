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
 * Search, bulk-check, expiring, suggest and portfolio-value are in domains-discovery.ts; the DNS
 * records' routes in domains-dns.ts; reading a request's fields and naming refusals domains-fields.ts.
 * Non-goals: auctions (§7 shows no shape), deposits (afp funds through its admin deposit).
 */
import { isFailure, succeed, type JsonObject } from '../../../core/errors.ts';
import type { Micro } from '../../../core/money.ts';
import { isReference } from '../../../core/reference.ts';
import { parseRegistrableName, SUPPORTED_TLDS, yearlyPriceMicro } from '../../../services/domains/domain-name.ts';
import type { DomainCharge, DomainRecord } from '../../../services/domains/domain-record.ts';
import type { Valuation } from '../../../services/domains/valuation.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import { agentAccount } from '../../../core/ledger.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { serviceKeyOf } from '../../deployed/service-keys.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { optionalString } from '../../validate.ts';
import { casinoCaller } from '../casino/casino-games.ts';
import { registerAgent } from '../faucet/register-agent.ts';
import { deployedDnsRoutes, recordView } from './domains-dns.ts';
import {
  CHECK_NAMES_MAX,
  domainsRefusal,
  fieldsOf,
  ownDomain,
  parseAnyName,
  parseCheckNames,
  parseRegistrable,
} from './domains-fields.ts';

// The names importers (discovery, the OpenAPI examples) have always taken from here; each is defined once, in the file named.
export { CHECK_NAMES_MAX, parseAnyName, parseCheckNames, parseRegistrable } from './domains-fields.ts';
export { RECORD_CONTENT_MAX } from './domains-dns.ts';

const NOTE_MAX = 500;

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
  ...deployedDnsRoutes,
  transfer,
];
