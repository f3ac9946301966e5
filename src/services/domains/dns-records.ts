/**
 * DNS records of a domain: the five types (A, AAAA, CNAME, MX, TXT), their validation, and the
 * upsert rule of POST /api/v1/dns.
 *
 * Upsert rule (spec silent; docs/decisions/domains.md "Domains"): the records of one request are grouped by
 * (type, host); each group REPLACES the domain's records of that type and host (a record set, as
 * Route 53's UPSERT), other records stay. So an update is "send the set again", an addition is a
 * new (type, host) or the set with one more value. A CNAME owns its host: it may not share it with
 * any other record (RFC 1034 §3.6.2), checked on the merged result. A request either applies whole
 * or changes nothing. Limits: at most DNS_LIMITS.recordsPerDomain records per domain.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { fail, type Failure } from '../../core/errors.ts';

export type DnsType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT';
export const DNS_TYPES: readonly DnsType[] = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'];

export const DNS_LIMITS = {
  recordsPerDomain: 50,
  recordsPerRequest: 20,
  ttlMin: 60,
  ttlMax: 86_400,
  ttlDefault: 3_600,
  priorityMax: 65_535,
  txtLengthMax: 255,
  hostnameLengthMax: 253,
} as const;

export interface DnsRecord {
  readonly type: DnsType;
  /** '@' for the domain itself, else a relative host name (`www`, `mail.eu`). */
  readonly host: string;
  readonly value: string;
  readonly ttl: number;
  /** MX only; null for the other types. */
  readonly priority: number | null;
}

const HOST_LABEL = /^(?:\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)$/;
const HOSTNAME_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** '@' or dot-separated labels (a leading '*' label allowed, '_' for service labels). */
export function checkHost(host: string): Failure | null {
  if (host === '@') return null;
  if (host.length === 0 || host.length > DNS_LIMITS.hostnameLengthMax)
    return fail('BAD_REQUEST', `record host must be '@' or 1 to ${DNS_LIMITS.hostnameLengthMax} characters`);
  const labels = host.split('.');
  for (let index = 0; index < labels.length; index++) {
    const label = labels[index] as string;
    if (!HOST_LABEL.test(label) || (label === '*' && index > 0))
      return fail(
        'BAD_REQUEST',
        `record host '${host}' is not a valid relative host name (labels of a-z, 0-9, '-', '_'; '*' only first)`,
      );
  }
  return null;
}

/** A fully qualified host name (CNAME and MX targets, resolver addresses): at least two labels. */
export function isHostname(value: string): boolean {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name.length === 0 || name.length > DNS_LIMITS.hostnameLengthMax) return false;
  const labels = name.split('.');
  return (
    labels.length >= 2 &&
    labels.every((label) => HOSTNAME_LABEL.test(label)) &&
    /^[a-z]/.test(labels[labels.length - 1] as string)
  );
}

/** Printable ASCII (space to '~'). */
function isPrintable(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 32 || code > 126) return false;
  }
  return true;
}

/** Checks one record's content for its type; the record's fields are already typed. */
export function checkRecord(record: DnsRecord): Failure | null {
  const hostFailure = checkHost(record.host);
  if (hostFailure !== null) return hostFailure;
  if (!Number.isSafeInteger(record.ttl) || record.ttl < DNS_LIMITS.ttlMin || record.ttl > DNS_LIMITS.ttlMax) {
    return fail(
      'BAD_REQUEST',
      `ttl must be a whole number of seconds between ${DNS_LIMITS.ttlMin} and ${DNS_LIMITS.ttlMax}`,
    );
  }
  if (record.type === 'MX') {
    if (
      record.priority === null ||
      !Number.isSafeInteger(record.priority) ||
      record.priority < 0 ||
      record.priority > DNS_LIMITS.priorityMax
    ) {
      return fail('BAD_REQUEST', `an MX record needs a priority between 0 and ${DNS_LIMITS.priorityMax}`);
    }
  } else if (record.priority !== null) {
    return fail('BAD_REQUEST', `priority is for MX records only, not ${record.type}`);
  }
  switch (record.type) {
    case 'A':
      return isIPv4(record.value)
        ? null
        : fail('BAD_REQUEST', `an A record's value must be an IPv4 address, got '${record.value}'`);
    case 'AAAA':
      return isIPv6(record.value) && !record.value.includes('%')
        ? null
        : fail('BAD_REQUEST', `an AAAA record's value must be an IPv6 address, got '${record.value}'`);
    case 'CNAME':
    case 'MX':
      return isHostname(record.value)
        ? null
        : fail(
            'BAD_REQUEST',
            `a ${record.type} record's value must be a host name such as mail.example.com, got '${record.value}'`,
          );
    case 'TXT':
      if (record.value.length === 0 || record.value.length > DNS_LIMITS.txtLengthMax)
        return fail('BAD_REQUEST', `a TXT record's value must be 1 to ${DNS_LIMITS.txtLengthMax} characters`);
      return isPrintable(record.value) ? null : fail('BAD_REQUEST', "a TXT record's value must be printable ASCII");
  }
}

const keyOf = (record: DnsRecord): string => `${record.type} ${record.host}`;

/**
 * The domain's records after an upsert of `incoming` (already checked one by one), or a failure
 * (duplicates, CNAME sharing a host, too many records). Order: existing records kept in place,
 * then replaced sets where their first old record was, new sets at the end — stable and readable.
 */
export function upsertRecords(
  existing: readonly DnsRecord[],
  incoming: readonly DnsRecord[],
): readonly DnsRecord[] | Failure {
  if (incoming.length === 0) return fail('BAD_REQUEST', 'records must hold at least one record');
  if (incoming.length > DNS_LIMITS.recordsPerRequest)
    return fail('BAD_REQUEST', `at most ${DNS_LIMITS.recordsPerRequest} records per request`);
  const groups = new Map<string, DnsRecord[]>();
  const seen = new Set<string>();
  for (const record of incoming) {
    const exact = `${keyOf(record)} ${record.value}`;
    if (seen.has(exact))
      return fail('BAD_REQUEST', `record ${record.type} ${record.host} ${record.value} is listed twice`);
    seen.add(exact);
    const group = groups.get(keyOf(record));
    if (group === undefined) groups.set(keyOf(record), [record]);
    else group.push(record);
  }
  const merged: DnsRecord[] = [];
  const placed = new Set<string>();
  for (const record of existing) {
    const key = keyOf(record);
    const replacement = groups.get(key);
    if (replacement === undefined) merged.push(record);
    else if (!placed.has(key)) {
      merged.push(...replacement);
      placed.add(key);
    }
  }
  for (const [key, group] of groups) if (!placed.has(key)) merged.push(...group);
  if (merged.length > DNS_LIMITS.recordsPerDomain)
    return fail('BAD_REQUEST', `a domain holds at most ${DNS_LIMITS.recordsPerDomain} DNS records`);
  const cnameFailure = checkCnameAlone(merged);
  return cnameFailure ?? merged;
}

/** A whole record set after an edit of one record (deployed PUT/DELETE): no exact duplicate, the count, the CNAME rule. */
export function checkRecordSet(records: readonly DnsRecord[]): Failure | null {
  const seen = new Set<string>();
  for (const record of records) {
    const exact = `${keyOf(record)} ${record.value}`;
    if (seen.has(exact))
      return fail('BAD_REQUEST', `record ${record.type} ${record.host} ${record.value} is listed twice`);
    seen.add(exact);
  }
  if (records.length > DNS_LIMITS.recordsPerDomain)
    return fail('BAD_REQUEST', `a domain holds at most ${DNS_LIMITS.recordsPerDomain} DNS records`);
  return checkCnameAlone(records);
}

/** A CNAME's host holds that one CNAME and nothing else. */
function checkCnameAlone(records: readonly DnsRecord[]): Failure | null {
  const perHost = new Map<string, { cnames: number; others: number }>();
  for (const record of records) {
    const counts = perHost.get(record.host) ?? { cnames: 0, others: 0 };
    if (record.type === 'CNAME') counts.cnames++;
    else counts.others++;
    perHost.set(record.host, counts);
  }
  for (const [host, counts] of perHost) {
    if (counts.cnames > 1) return fail('BAD_REQUEST', `host ${host} may hold one CNAME record only`);
    if (counts.cnames === 1 && counts.others > 0)
      return fail('BAD_REQUEST', `host ${host} has a CNAME record and so may hold no other record`);
  }
  return null;
}
