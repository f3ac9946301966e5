/**
 * The domains service's numbers in one place (STYLE rule 7), merged into PlatformConfig as
 * `config.domains`. Spec values: years 1 to 10 (Limits 8), 15% referral share (Referral
 * programme). afp's choices (docs/decisions/domains.md "Domains"): the year is 365 days, the grace period
 * after expiry is 30 days, an agent holds at most 100 domains, no renewal past 10 years ahead.
 */
import { MAX_AMOUNT_MICRO, type Micro } from '../../core/money.ts';

export interface DomainsConfig {
  readonly yearsMin: number;
  readonly yearsMax: number;
  /** Length of a registration year (a fixed 365 days, no calendar arithmetic). */
  readonly yearMs: number;
  /** After expiry the domain shows as expired for this long (only its owner may renew), then it is released. */
  readonly graceMs: number;
  /** The referrer's share of a domain fee (registration and renewal), in basis points. */
  readonly referralShareBps: bigint;
  /** Domains one agent may hold (active and in grace). */
  readonly domainsPerAgentMax: number;
  /** Domains held platform-wide. */
  readonly domainsMax: number;
  /** Largest price of a priced transfer (an offer). */
  readonly offerPriceMaxMicro: Micro;
}

const DAY_MS = 86_400_000;

export const DEFAULT_DOMAINS_CONFIG: DomainsConfig = {
  yearsMin: 1,
  yearsMax: 10,
  yearMs: 365 * DAY_MS,
  graceMs: 30 * DAY_MS,
  referralShareBps: 1500n,
  domainsPerAgentMax: 100,
  domainsMax: 1_000_000,
  offerPriceMaxMicro: MAX_AMOUNT_MICRO,
};
