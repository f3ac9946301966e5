/**
 * The deployment's per-service keys (spec/DEPLOYED.md §1.1): trading and domains each keep their
 * own registration, key prefix and balance. The stand-in keeps afp's one agent table: such an agent
 * is an afp agent registered on that service's address, and its key is afp's key with the
 * service's prefix in place of afp's `sk_live_`. One table, service → prefix: on a service in the
 * table only a key with its prefix is accepted (rewritten to afp's key before the platform looks it
 * up), any other bearer key is unknown; a service's key is unknown elsewhere, since afp's platform
 * reads only `sk_live_`. Services not in the table read afp's keys unchanged.
 * Non-goals: the platform and core know nothing of these prefixes (only this dispatcher step does).
 */
import { KEY_PREFIX } from '../../core/ids.ts';
import type { ServiceName } from '../../platform/platform.ts';

export const SERVICE_KEY_PREFIXES: Readonly<Partial<Record<ServiceName, string>>> = {
  trading: 'sk_trade_',
  domains: 'sk_domains_',
  wallet: 'pk_live_',
};

/** The key an agent registered on `service` is shown: afp's key under the service's prefix (unchanged for a service without one). */
export function serviceKeyOf(service: ServiceName, afpKey: string): string {
  const prefix = SERVICE_KEY_PREFIXES[service];
  return prefix !== undefined && afpKey.startsWith(KEY_PREFIX) ? `${prefix}${afpKey.slice(KEY_PREFIX.length)}` : afpKey;
}

/**
 * The Authorization header as afp's platform reads it, for a request to `service`: unchanged on
 * services without their own prefix; on one with a prefix a `Bearer <prefix>…` becomes afp's key,
 * and any other bearer key an unknown one (`'invalid'`), as the deployment's separate databases answer.
 */
export function platformAuthorization(
  service: ServiceName,
  header: string | undefined,
): string | undefined | 'invalid' {
  const prefix = SERVICE_KEY_PREFIXES[service];
  if (prefix === undefined || header === undefined || header === '' || !header.startsWith('Bearer ')) return header;
  const key = header.slice(7).trim();
  return key.startsWith(prefix) ? `Bearer ${KEY_PREFIX}${key.slice(prefix.length)}` : 'invalid';
}
