/**
 * The deployment's per-service keys (spec/DEPLOYED.md §1.1): the domains service has its own
 * registration, key prefix `sk_domains_` and balance. The stand-in keeps afp's one agent table: a
 * domains agent is an afp agent registered on the domains address, and its key is afp's key with
 * the domains prefix in place of afp's. On the domains address only a `sk_domains_` key is
 * accepted (rewritten to afp's key before the platform looks it up); elsewhere it is unknown.
 * Non-goals: trading's prefix (its own service, its own rows).
 */
import { KEY_PREFIX } from '../../core/ids.ts';
import type { ServiceName } from '../../platform/platform.ts';

export const DOMAINS_KEY_PREFIX = 'sk_domains_';

/** The key a domains agent is shown: afp's key under the domains prefix. */
export function domainsKeyOf(afpKey: string): string {
  return afpKey.startsWith(KEY_PREFIX) ? `${DOMAINS_KEY_PREFIX}${afpKey.slice(KEY_PREFIX.length)}` : afpKey;
}

/**
 * The Authorization header as afp's platform reads it, for a request to `service`: unchanged on
 * services without their own keys; on domains a `Bearer sk_domains_…` becomes afp's key, and any
 * other bearer key an unknown one (`'invalid'`), as the deployment's separate database answers.
 */
export function platformAuthorization(service: ServiceName, header: string | undefined): string | undefined | 'invalid' {
  if (service !== 'domains' || header === undefined || header === '') return header;
  if (!header.startsWith('Bearer ')) return header;
  const key = header.slice(7).trim();
  return key.startsWith(DOMAINS_KEY_PREFIX) ? `Bearer ${KEY_PREFIX}${key.slice(DOMAINS_KEY_PREFIX.length)}` : 'invalid';
}
