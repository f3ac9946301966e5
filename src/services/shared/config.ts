/**
 * PlatformConfig: every number of the platform's rules in one place (STYLE rule 7: defaults live
 * in one place). Values come from spec/platform.md; where the spec is silent the choice is in
 * docs/decisions/ (one file per area). Scenarios may override any of them.
 */
import { usdc, type Micro } from '../../core/money.ts';
import { DEFAULT_CASINO_CONFIG, type CasinoConfig } from '../casino/casino-config.ts';
import { DEFAULT_DOMAINS_CONFIG, type DomainsConfig } from '../domains/domains-config.ts';
import { DEFAULT_TRADING_CONFIG, type TradingConfig } from '../trading/trading-config.ts';
import type { Tier } from './agents.ts';

export interface TierLimits {
  /** Sustained requests per minute; null = unlimited. */
  readonly perMinute: number | null;
  readonly perDay: number | null;
}

export interface BucketRow {
  readonly perMinute: number;
  /** Token-bucket capacity. */
  readonly burst: number;
  readonly perDay: number | null;
}

export interface PlatformConfig {
  readonly faucet: {
    readonly poolFundingMicro: Micro;
    readonly claimAMicro: Micro;
    readonly registrationGrantBMicro: Micro;
    readonly claimBMicro: Micro;
    readonly cooldownMs: number;
    /** Referrer's share of the referred agent's future fees, in basis points. */
    readonly referralShareBps: bigint;
  };
  readonly escrow: {
    readonly minimumMicro: Micro;
    readonly defaultExpiresInSeconds: number;
    readonly maxExpiresInSeconds: number;
    readonly feeBps: bigint;
    readonly referralShareBps: bigint;
    readonly disputeWindowMs: number;
    /** What the end of an unresolved dispute window does (spec silent; docs/decisions/escrow.md). */
    readonly disputeOutcome: 'refund' | 'release';
    readonly listLimitDefault: number;
    readonly listLimitMax: number;
  };
  readonly limits: {
    readonly tiers: Readonly<Record<Tier, TierLimits>>;
    /** Token-bucket capacity as a multiple of the per-minute limit (platform.md Limits rule 2). */
    readonly burstMultiplier: number;
    readonly registerPerMinutePerIp: number;
    /** Style-B per-service rows (platform.md Limits rule 5), keyed by service. */
    readonly serviceB: Readonly<Record<string, BucketRow>>;
    /** Per-endpoint daily caps of style B, keyed `service.endpoint` (escrow create 100/day). */
    readonly endpointDailyB: Readonly<Record<string, number>>;
  };
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes: number;
  /** The casino's rules (src/services/casino/casino-config.ts). */
  readonly casino: CasinoConfig;
  /** The domains service's rules (src/services/domains/domains-config.ts). */
  readonly domains: DomainsConfig;
  /** The trading service's rules (src/services/trading/trading-config.ts). */
  readonly trading: TradingConfig;
  /** Referral payable is swept to referrers' balances every this many ms (UTC-aligned). */
  readonly referralSweepMs: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const DEFAULT_CONFIG: PlatformConfig = {
  faucet: {
    poolFundingMicro: usdc(100_000_000),
    claimAMicro: usdc(1),
    registrationGrantBMicro: usdc(10),
    claimBMicro: usdc(2),
    cooldownMs: 24 * HOUR_MS,
    referralShareBps: 1500n,
  },
  escrow: {
    minimumMicro: 100_000n,
    defaultExpiresInSeconds: 86_400,
    maxExpiresInSeconds: 90 * 86_400,
    feeBps: 100n,
    referralShareBps: 1500n,
    disputeWindowMs: 48 * HOUR_MS,
    disputeOutcome: 'refund',
    listLimitDefault: 20,
    listLimitMax: 100,
  },
  limits: {
    tiers: {
      free: { perMinute: 100, perDay: 10_000 },
      pro: { perMinute: 1_000, perDay: 1_000_000 },
      enterprise: { perMinute: null, perDay: null },
    },
    burstMultiplier: 3,
    registerPerMinutePerIp: 10,
    serviceB: {
      faucet: { perMinute: 10, burst: 10, perDay: 100 },
      escrow: { perMinute: 60, burst: 80, perDay: 10_000 },
      // casino.md Limits 4: style B 60 per minute, burst 100; its 10,000 a day is per game type
      // (counted by the casino itself, src/services/casino/daily-game-cap.ts).
      casino: { perMinute: 60, burst: 100, perDay: null },
      // casino.md Limits 4: "/play hard cap 60 requests per minute (one bet per second)".
      'casino-play': { perMinute: 60, burst: 60, perDay: null },
      domains: { perMinute: 30, burst: 50, perDay: 1_000 },
      // platform.md Limits 5: trading 120 per minute, burst 200; its 50,000 a day is order placement.
      trading: { perMinute: 120, burst: 200, perDay: null },
      // platform.md Limits 3: trading /positions 300 per minute (style A), on top of the tier.
      'trading-positions': { perMinute: 300, burst: 300, perDay: null },
      // wallet.md Limits 2: style B wallet 60 per minute, burst 80, 5,000 a day.
      wallet: { perMinute: 60, burst: 80, perDay: 5_000 },
      // wallet.md Limits 1 and 2: /swap hard cap 120 per minute; style B send 20 per minute (afp: every style's send).
      'wallet-swap': { perMinute: 120, burst: 120, perDay: null },
      'wallet-send': { perMinute: 20, burst: 20, perDay: null },
    },
    endpointDailyB: { 'escrow.create': 100, 'trading.order': 50_000, 'domains.register': 10 },
  },
  maxBodyBytes: 64 * 1024,
  casino: DEFAULT_CASINO_CONFIG,
  trading: DEFAULT_TRADING_CONFIG,
  domains: DEFAULT_DOMAINS_CONFIG,
  referralSweepMs: 24 * HOUR_MS,
};
