/**
 * What the deployed domains' requests read, and how the domains service's refusals are named on
 * the deployment's wire (§7): a JSON object body, a domain name as the deployment reads it
 * (trimmed, lowercased; 400 `invalid_domain`), a `names=` list, the caller's own domain by id (404
 * otherwise). Why a file of its own: the domain routes (domains.ts), the DNS routes
 * (domains-dns.ts), discovery and the OpenAPI examples all read requests the same way.
 */
import { isFailure, type Failure } from '../../../core/errors.ts';
import { DOMAIN_TEXT_MAX, parseDomainName, parseRegistrableName } from '../../../services/domains/domain-name.ts';
import type { DomainRecord } from '../../../services/domains/domain-record.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import type { RouteContext } from '../../route.ts';
import { casinoCaller } from '../casino/casino-games.ts';

/** At most this many names per check (`names=` is comma-separated). */
export const CHECK_NAMES_MAX = 50;

export function fieldsOf(body: unknown): Record<string, unknown> | Failure {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return deployedFailure(400, 'invalid_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A domains service refusal in the deployment's names (§7: taken and funds are 400). */
export function domainsRefusal(failure: Failure): Failure {
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

/** The caller's own domain by id, else 404 (another's is not shown). */
export function ownDomain(context: RouteContext, domainId: string): DomainRecord | Failure {
  const found = context.platform.domains.list(casinoCaller(context)).find((domain) => domain.id === domainId);
  return found ?? deployedFailure(404, 'not_found', `Domain ${domainId.slice(0, 64)} not found`);
}
