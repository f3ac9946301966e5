/**
 * The domains' views as afp's operations (operations.ts) answer them: a name's availability, a DNS
 * record as a target shows it (with its id), a record of a set by its fields, and one of the
 * caller's domains as its list shows it. A file of its own so the operations' table stays one
 * readable page under the size limit; operations.ts re-exports each name.
 */
import type { Micro } from '../core/money.ts';

export interface NameAvailability {
  readonly domain: string;
  readonly available: boolean | null;
  readonly priceMicro: Micro | null;
}

export interface DnsView {
  readonly recordId: string;
  readonly type: string | null;
  readonly name: string | null;
  readonly content: string | null;
  readonly ttl: number | null;
  /** MX only; null (or absent) where the answer gives none. */
  readonly priority?: number | null;
}

/** A DNS record of a record set by its fields (no id: sets are compared by what they hold). */
export interface DnsEntry {
  readonly type: string;
  readonly name: string;
  readonly content: string;
  readonly ttl: number | null;
  readonly priority: number | null;
}

/** One of the caller's domains as its list shows it; `domainId` where the list names one. */
export interface ListedDomain {
  readonly domain: string;
  readonly status: string | null;
  readonly domainId: string | null;
}
