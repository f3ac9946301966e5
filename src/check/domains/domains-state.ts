/**
 * The domains part of `afp check`'s model state (check-model.ts): the run's few names, each held
 * or not, with its owner, expiry, offer and DNS records, as the wire showed them. Only the state
 * and its empty start: the rules that move it are in model-domains.ts. Its own file so that the
 * whole model's state names it without importing the rules, which take the whole model.
 */
import type { Micro } from '../../core/money.ts';

/** Names per run: few, so registrations, renewals and transfers meet. */
export const DOMAIN_COUNT = 4;

export interface ModelOffer {
  readonly buyerSlot: number;
  readonly priceMicro: Micro;
  readonly offeredAtMs: number;
}

export interface ModelDnsRecord {
  readonly host: string;
  value: string;
}

export interface ModelDomain {
  ownerSlot: number;
  readonly registeredAtMs: number;
  expiresAtMs: number;
  status: 'active' | 'expired';
  offer: ModelOffer | null;
  /** A records only (the commands send those), in the service's order: kept in place, new at the end. */
  records: ModelDnsRecord[];
}

export interface DomainsModel {
  /** By name index; undefined while unheld (never registered, or released). */
  readonly held: (ModelDomain | undefined)[];
}

export function createDomainsModel(): DomainsModel {
  return { held: Array.from({ length: DOMAIN_COUNT }, () => undefined) };
}
