/**
 * The deployed DNS records (§7 `/v1/dns/records`): add one beside the held set of its type and
 * host, list a domain's, change one (the fields not sent are kept; a bad one changes nothing) or
 * delete it. A record's id is a hash of its domain id, type, host and content, so it is stable and
 * needs no state. Why a file of its own: DNS records are their own resource on the deployment's
 * wire, with their own fields and checks; the domains themselves are domains.ts.
 */
import { createHash } from 'node:crypto';
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import { DNS_LIMITS, DNS_TYPES, type DnsRecord, type DnsType } from '../../../services/domains/dns-records.ts';
import type { DomainRecord } from '../../../services/domains/domain-record.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import type { Route, RouteContext } from '../../route.ts';
import { casinoCaller } from '../casino/casino-games.ts';
import { deployedRoute } from './deployed-row.ts';
import { domainsRefusal, fieldsOf, ownDomain } from './domains-fields.ts';

const RECORD_KEYS: readonly string[] = ['type', 'name', 'content', 'ttl', 'priority'];
export const RECORD_CONTENT_MAX = Math.max(DNS_LIMITS.hostnameLengthMax, DNS_LIMITS.txtLengthMax);

export function recordIdOf(domainId: string, record: DnsRecord): string {
  return `rec_${createHash('sha256').update(`${domainId}\n${record.type}\n${record.host}\n${record.value}`).digest('hex').slice(0, 16)}`;
}

export function recordView(domain: DomainRecord, record: DnsRecord): JsonObject {
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

/** The DNS routes, in the route table's order. */
export const deployedDnsRoutes: readonly Route[] = [addRecord, listRecords, updateRecord, deleteRecord];
