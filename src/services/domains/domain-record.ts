/**
 * The domain record and the commands of the domains service.
 *
 * A record's lifecycle: registered (active) → expired at exactly `expiresAtMs` (shown as expired,
 * only its owner may renew it) → released at exactly `expiresAtMs + grace` (the record leaves the
 * book and the name is available again). A renewal moves `expiresAtMs` on and, in grace, makes the
 * domain active again. A record has exactly one owner at every instant; a transfer replaces it.
 * A pending offer (a priced transfer waiting for its buyer) is at most one per domain, and is
 * dropped whenever the owner changes, the domain expires, or the owner makes a new offer.
 * Records are handed out as read-only views; only the service mutates them.
 */
import type { Micro } from '../../core/money.ts';
import type { DnsRecord } from './dns-records.ts';

export type DomainStatus = 'active' | 'expired';

export interface DomainOffer {
  readonly buyerId: string;
  readonly priceMicro: Micro;
  readonly offeredAtMs: number;
}

export interface DomainRecord {
  /** `dom_` + 16 hex: one registration (a released and re-registered name gets a new id). */
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly registeredAtMs: number;
  readonly expiresAtMs: number;
  /** When the grace period ends and the name is released: expiresAtMs + grace. */
  readonly releaseAtMs: number;
  readonly status: DomainStatus;
  readonly resolver: string | null;
  readonly records: readonly DnsRecord[];
  readonly offer: DomainOffer | null;
  /** The last transaction of the record (registration, renewal, transfer). */
  readonly txHash: string;
}

export interface RegisterDomainCommand {
  readonly callerId: string;
  readonly domain: string;
  readonly years: number;
  readonly resolver: string | null;
}

export interface RenewDomainCommand {
  readonly callerId: string;
  readonly domain: string;
  readonly years: number;
}

export interface TransferDomainCommand {
  readonly callerId: string;
  readonly domain: string;
  /** Agent id, address or referral code. */
  readonly to: string;
  /** null: a gift, moved at once; else a sale (an offer, or the buyer's acceptance). */
  readonly priceMicro: Micro | null;
}

export interface DnsCommand {
  readonly callerId: string;
  readonly domain: string;
  readonly records: readonly DnsRecord[];
}

export interface DomainCharge {
  readonly domain: DomainRecord;
  readonly years: number;
  readonly costMicro: Micro;
  readonly txHash: string;
}

export type TransferResult =
  | {
      readonly kind: 'offered';
      readonly domain: DomainRecord;
      readonly fromId: string;
      readonly toId: string;
      readonly priceMicro: Micro;
    }
  | {
      readonly kind: 'transferred';
      readonly domain: DomainRecord;
      readonly fromId: string;
      readonly toId: string;
      readonly priceMicro: Micro | null;
      readonly txHash: string;
    };

export interface Availability {
  readonly domain: string;
  readonly available: boolean;
  readonly yearlyPriceMicro: Micro;
  /** The record holding the name, when taken (active or in grace). */
  readonly status: DomainStatus | null;
}
