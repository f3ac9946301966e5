/**
 * Which key prefix each deployed service accepts (spec/DEPLOYED.md §1.1): trading has its own
 * registration and keys (`sk_trade_`). afp's stand-in keeps one platform, so such a key is the
 * platform key under another prefix (src/core/ids.ts `KEY_PREFIX_ALIASES`); on that service's
 * address a key without the service's prefix (a casino `sk_live_` key) is unknown, as it is on the
 * deployment, whose services keep separate databases. Services not named accept the casino's keys.
 */
import type { ServiceName } from '../../platform/platform.ts';

const SERVICE_KEY_PREFIXES: Readonly<Partial<Record<ServiceName, string>>> = {
  trading: 'sk_trade_',
};

/** Whether a bearer header's key may be used on `service` (true without a header: auth decides). */
export function keyFitsService(service: ServiceName, authorization: string | undefined): boolean {
  const prefix = SERVICE_KEY_PREFIXES[service];
  if (prefix === undefined || authorization === undefined || !authorization.startsWith('Bearer ')) return true;
  return authorization.slice(7).trim().startsWith(prefix);
}
