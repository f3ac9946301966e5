/**
 * The domains' record sets and lists as afp operations (route-operations.ts's rows for them):
 * style A's DNS upsert (`POST /api/v1/dns`) is `domains.dns-set`, its read of a name's records
 * (`GET /api/v1/dns?domain=`) `domains.dns-records`, and both styles' list of the caller's domains
 * `domains.list`. A name's id on the target (a deployment reads and writes records by it) is the
 * one its live registration answered (`ids.domain`).
 * Why: a domain scenario's DNS managers and squatters spend a fifth of their traffic on these, and
 * a deployment has each (DEPLOYED.md §7: `/v1/dns/records`, `GET /v1/domains`).
 * The recorded upsert body is read as the documents' route reads it (routes/domains/domains.ts
 * parseRecord): a missing name is `@`, a missing TTL the default, names and host values lowercased
 * (a TXT value kept as written); a body the route would refuse as malformed is bad input.
 */
import type { DnsInput, OperationName } from '../live.ts';
import { DNS_LIMITS, DNS_TYPES } from '../services/domains/dns-records.ts';
import { isObject } from './json-pointer.ts';
import type { AnyRouteOperation, IdTranslation, RouteOperation } from './route-operations-types.ts';

function row<O extends OperationName>(route: string, op: O, input: RouteOperation<O>['input']): RouteOperation<O> {
  return { route, op, input };
}

/** One recorded record as style A reads it; null when the route would refuse it as malformed. */
function recordOf(value: unknown): DnsInput | null {
  if (!isObject(value)) return null;
  const { type, name = '@', value: content, ttl = DNS_LIMITS.ttlDefault, priority = null } = value;
  if (typeof type !== 'string' || !(DNS_TYPES as readonly string[]).includes(type)) return null;
  if (typeof name !== 'string' || typeof content !== 'string' || typeof ttl !== 'number') return null;
  if (priority !== null && typeof priority !== 'number') return null;
  return {
    type,
    name: name.toLowerCase(),
    content: type === 'TXT' ? content : content.toLowerCase(),
    ttl,
    priority,
  };
}

function nameOf(text: unknown): string | null {
  return typeof text === 'string' && text !== '' ? text.toLowerCase() : null;
}

function setInput(
  body: unknown,
  ids: IdTranslation,
): { domain: string; domainId: string | null; records: DnsInput[] } | null {
  const domain = nameOf(isObject(body) ? body['domain'] : undefined);
  const raw = isObject(body) ? body['records'] : undefined;
  if (domain === null || !Array.isArray(raw) || raw.length < 1 || raw.length > DNS_LIMITS.recordsPerRequest)
    return null;
  const records = raw.map(recordOf);
  if (records.some((record) => record === null)) return null;
  return { domain, domainId: ids.domain(domain), records: records as DnsInput[] };
}

export const DOMAINS_ROUTE_OPERATIONS: readonly AnyRouteOperation[] = [
  row('domains.A.domains', 'domains.list', () => ({})),
  row('domains.B.domains', 'domains.list', () => ({})),
  row('domains.A.dns', 'domains.dns-set', (call, ids) => setInput(call.body, ids)),
  row('domains.A.dns.list', 'domains.dns-records', (call, ids) => {
    const domain = nameOf(call.query['domain']);
    return domain === null ? null : { domain, domainId: ids.domain(domain) };
  }),
];
