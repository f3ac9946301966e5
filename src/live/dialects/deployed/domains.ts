/**
 * The deployed domains (spec/DEPLOYED.md §7, base /v1 on its own address): its own accounts and
 * keys (`POST /v1/auth/register`, `GET /v1/auth/account`), registration by name only (1 year,
 * `cost.total_usd`, `domain_id`), the holder from the public `GET /v1/whois/:name`, and a transfer
 * that is a gift by domain id (`POST /v1/domains/:id/transfer { to_agent_id, note? }`). What the
 * deployment has no field for is not sent: a priced transfer (an offer or a purchase: the
 * deployment has no sale) and a transfer without the domain's id are `unsupported`, with the
 * reason, so no probe can give a name away by accident. Renamed fields are read under the
 * deployment's names and recorded as documented deviations (§7's table). Also the public
 * `GET /v1/domains/check?names=` and the DNS records (`/v1/dns/records`: POST, GET ?domain_id=,
 * PUT and DELETE /:recordId; a record's id may change with its content, the answer names the new one).
 */
import type { DnsView, ListedDomain, NameAvailability } from '../../operations.ts';
import type { WireReader } from '../../wire-reader.ts';
import { row, type DialectTable } from '../dialect.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';
import { dnsEntryOf, sortedDomains, sortedEntries } from '../dns-entries.ts';

/** An unknown key's answer, without a message (DEPLOYED.md §1: `{"error":"invalid_key"}`). */
const BARE_ERRORS = ['invalid_key'];

function dnsRecordOf(reader: WireReader): DnsView | null {
  reader.knows('domain_id', 'priority');
  const recordId = reader.string('id');
  const priority = reader.has('priority') ? reader.any('priority') : null;
  const view = {
    type: reader.string('type', { optional: true }),
    name: reader.string('name', { optional: true }),
    content: reader.string('content', { optional: true }),
    ttl: reader.number('ttl', { optional: true }),
    priority: typeof priority === 'number' ? priority : null,
  };
  return recordId === null ? null : { recordId, ...view };
}

/** The answer of a DNS record added or updated: { message, record }. */
function recordAnswerOf(reader: WireReader): DnsView | null {
  reader.knows('message');
  const record = reader.object('record');
  return record === null ? null : dnsRecordOf(reader.nested(record, 'record'));
}

export const DOMAINS_DEPLOYED: DialectTable = {
  'domains.account': row('domains.account', {
    bareErrors: BARE_ERRORS,
    request: () => ({
      service: 'domains',
      method: 'POST',
      path: deployedPath('domains.deployed.register'),
      body: {},
      auth: false,
    }),
    read: (reader) => {
      const agentId = reader.string('agent_id');
      const apiKey = reader.string('api_key');
      reader.knows('referral_code', 'tier', 'balance_usd', 'pricing', 'message', 'next_steps');
      return agentId === null || apiKey === null ? null : { agentId, apiKey };
    },
  }),
  'domains.balance': row('domains.balance', {
    bareErrors: BARE_ERRORS,
    request: () => ({ service: 'domains', method: 'GET', path: deployedPath('domains.deployed.account'), auth: true }),
    read: (reader) => {
      const agentId = reader.string('agent_id', { optional: true });
      const balanceMicro = reader.money('balance_usd', { documents: 'balance' });
      reader.knows('referral_code', 'tier', 'domains_count', 'created_at');
      return balanceMicro === null ? null : { agentId, balanceMicro };
    },
  }),
  'domains.register': row('domains.register', {
    bareErrors: BARE_ERRORS,
    // §7: `domain` only, one year; a request for more years is sent as one year and the answer says so.
    request: (input) => ({
      service: 'domains',
      method: 'POST',
      path: deployedPath('domains.deployed.register-domain'),
      body: { domain: input.domain },
      auth: true,
    }),
    unsupported: (input) =>
      input.years === 1 ? null : `the deployed domains register for 1 year only (DEPLOYED.md §7), not ${input.years}`,
    read: (reader) => {
      reader.knows('status', 'balance_usd', 'next_steps', 'cost');
      reader.string('expires_at', { documents: 'expires', optional: true });
      reader.string('transaction_id', { documents: 'tx_hash', optional: true });
      return {
        domain: reader.string('domain', { optional: true }),
        costMicro: reader.money('cost.total_usd', { optional: true }),
        domainId: reader.id('domain_id', { optional: true }),
      };
    },
  }),
  'domains.transfer': row('domains.transfer', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'POST',
      path: deployedPath('domains.deployed.transfer', { id: input.domainId ?? '' }),
      auth: true,
      body: { to_agent_id: input.to },
    }),
    unsupported: (input) => {
      if (input.priceMicro !== null)
        return 'the deployed domains have no priced transfer (no offer, no purchase): a transfer is a gift by its owner (DEPLOYED.md §7)';
      return input.domainId === undefined || input.domainId === null
        ? 'the deployed domains transfer by domain id (POST /v1/domains/:id/transfer), which this call does not know'
        : null;
    },
    read: (reader) => {
      reader.knows('domain_id', 'domain', 'from_agent_id', 'note', 'transferred_at');
      return {
        status: reader.string('status', { optional: true }),
        owner: reader.string('to_agent_id', { optional: true, documents: 'owner' }),
      };
    },
  }),
  'domains.lookup': row('domains.lookup', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'GET',
      path: deployedPath('domains.deployed.whois', { name: input.domain }),
      auth: false,
    }),
    read: (reader) => {
      reader.knows('domain', 'available', 'registered_at', 'expires_at', 'registrar');
      // A free name is `registered: false` with no holder fields: nobody holds it.
      if (reader.boolean('registered', { optional: true }) === false) return { owner: null, status: null };
      return {
        owner: reader.string('registrant', { optional: true, documents: 'owner' }),
        status: reader.string('status', { optional: true }),
      };
    },
  }),
  'domains.check': row('domains.check', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'GET',
      path: deployedPath('domains.deployed.check'),
      query: { names: input.names.join(',') },
      auth: false,
    }),
    read: (reader) => {
      reader.knows('count', 'available_count');
      const results = reader.items('results', (element): NameAvailability | null => {
        element.knows('tld', 'currency');
        const domain = element.string('domain');
        const view = {
          available: element.boolean('available'),
          priceMicro: element.money('price_usd', { documents: 'price_usdc' }),
        };
        return domain === null ? null : { domain, ...view };
      });
      return { results };
    },
  }),
  'domains.dns-add': row('domains.dns-add', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'POST',
      path: deployedPath('domains.deployed.dns.add'),
      auth: true,
      body: {
        domain_id: input.domainId,
        type: input.record.type,
        name: input.record.name,
        content: input.record.content,
        ttl: input.record.ttl,
        ...(input.record.priority === null ? {} : { priority: input.record.priority }),
      },
    }),
    read: recordAnswerOf,
  }),
  'domains.dns-list': row('domains.dns-list', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'GET',
      path: deployedPath('domains.deployed.dns.list'),
      query: { domain_id: input.domainId },
      auth: true,
    }),
    read: (reader) => {
      reader.knows('domain_id', 'domain', 'count');
      return { records: reader.items('records', dnsRecordOf) };
    },
  }),
  'domains.list': row('domains.list', {
    bareErrors: BARE_ERRORS,
    request: () => ({ service: 'domains', method: 'GET', path: deployedPath('domains.deployed.list'), auth: true }),
    read: (reader) => {
      reader.knows('count');
      const domains = reader.items('domains', (element): ListedDomain | null => {
        element.knows('registered_at', 'expires_at', 'auto_renew');
        const domain = element.string('domain');
        const view = { status: element.string('status', { optional: true }), domainId: element.id('domain_id') };
        return domain === null ? null : { domain, ...view };
      });
      return { domains: sortedDomains(domains) };
    },
  }),
  // The documents read a name's records; a deployment reads them by the domain's id, which the caller must know.
  'domains.dns-records': row('domains.dns-records', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'GET',
      path: deployedPath('domains.deployed.dns.list'),
      query: { domain_id: input.domainId ?? '' },
      auth: true,
    }),
    unsupported: (input) =>
      input.domainId === null
        ? `the deployed domains read DNS records by domain id, and no id of ${input.domain} is known here`
        : null,
    read: (reader) => {
      reader.knows('domain_id', 'domain', 'count');
      return { records: sortedEntries(reader.items('records', (element) => dnsEntryOf(element, 'content'))) };
    },
  }),
  'domains.dns-update': row('domains.dns-update', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'PUT',
      path: deployedPath('domains.deployed.dns.update', { recordId: input.recordId }),
      body: { content: input.content, ttl: input.ttl },
      auth: true,
    }),
    read: recordAnswerOf,
  }),
  'domains.dns-delete': row('domains.dns-delete', {
    bareErrors: BARE_ERRORS,
    request: (input) => ({
      service: 'domains',
      method: 'DELETE',
      path: deployedPath('domains.deployed.dns.delete', { recordId: input.recordId }),
      auth: true,
    }),
    read: (reader) => {
      reader.knows('id', 'message');
      return { deleted: reader.boolean('deleted', { optional: true }) };
    },
  }),
};
