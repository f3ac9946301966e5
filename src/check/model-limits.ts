/**
 * RateBudget: keeps every run of `afp check` well inside the platform's rate limits instead of
 * modelling the limiter (docs/decisions/check.md "Model-based check").
 *
 * Requests sent without a key get a never-used originating IP each (RunNames.freshIp), so per-IP
 * buckets never bind. Requests with an agent's key are counted here per agent and per bucket
 * (tier, style-B service rows, daily caps). A command runs only when every bucket it will charge
 * has room for all its requests; the count is conservative: a minute bucket is credited back only
 * whole tokens for the time the run itself advanced (the real bucket refills at least that much),
 * a daily count resets only when the UTC day changes. So a command that runs can never meet a 429.
 * Non-goals: predicting 429 answers (a run that would need them is simply never generated).
 */
import type { BucketRow, PlatformConfig } from '../services/shared/config.ts';

export type BudgetScope =
  | 'tier'
  | 'tier-daily'
  | 'faucet'
  | 'faucet-daily'
  | 'escrow'
  | 'escrow-daily'
  | 'escrow-create'
  | 'domains'
  | 'domains-daily'
  | 'domains-register'
  | 'trading'
  | 'trading-order'
  | 'trading-positions'
  | 'wallet'
  | 'wallet-daily'
  | 'wallet-send'
  | 'wallet-swap';

/** Which buckets one request with an agent's key charges. */
export const SCOPES = {
  /** Style-A rows: the tier only. */
  styleA: ['tier', 'tier-daily'],
  faucetB: ['tier', 'tier-daily', 'faucet', 'faucet-daily'],
  escrowB: ['tier', 'tier-daily', 'escrow', 'escrow-daily'],
  escrowCreateB: ['tier', 'tier-daily', 'escrow', 'escrow-daily', 'escrow-create'],
  domainsB: ['tier', 'tier-daily', 'domains', 'domains-daily'],
  /** Domain registrations: 10 a day per agent, styles A and B together. */
  domainsRegisterA: ['tier', 'tier-daily', 'domains-register'],
  domainsRegisterB: ['tier', 'tier-daily', 'domains', 'domains-daily', 'domains-register'],
  /** Style-B trading rows: 120 per minute, burst 200; order placement also 50,000 a day. */
  tradingB: ['tier', 'tier-daily', 'trading'],
  tradingOrderB: ['tier', 'tier-daily', 'trading', 'trading-order'],
  /** A's /positions: 300 per minute on top of the tier. */
  tradingPositionsA: ['tier', 'tier-daily', 'trading-positions'],
  /** Wallet rows: the tier; sends (every style) 20 per minute, swaps 120 per minute; style B's other rows 60 per minute, 5,000 a day. */
  walletPrimary: ['tier', 'tier-daily'],
  walletSend: ['tier', 'tier-daily', 'wallet-send'],
  walletSwap: ['tier', 'tier-daily', 'wallet-swap'],
  walletB: ['tier', 'tier-daily', 'wallet', 'wallet-daily'],
} as const satisfies Record<string, readonly BudgetScope[]>;

export interface Charge {
  readonly slot: number;
  readonly scopes: readonly BudgetScope[];
}

interface Shape {
  /** Requests the bucket holds (a token bucket's capacity, or a daily cap). */
  readonly capacity: number;
  /** Sustained refill per minute; null for a daily count. */
  readonly perMinute: number | null;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const NO_LIMIT: Shape = { capacity: Number.MAX_SAFE_INTEGER, perMinute: null };

/** A style-B service row's minute bucket (its burst and refill); a row without one never binds. */
function minuteShape(row: BucketRow | undefined): Shape {
  return row === undefined ? NO_LIMIT : { capacity: row.burst, perMinute: row.perMinute };
}

/** A daily count; none (absent, or null: no daily cap) never binds. */
function dailyShape(cap: number | null | undefined): Shape {
  return cap === undefined || cap === null ? NO_LIMIT : { capacity: cap, perMinute: null };
}

export class RateBudget {
  private readonly shapes: Readonly<Record<BudgetScope, Shape>>;
  private readonly used = new Map<string, number>();

  constructor(limits: PlatformConfig['limits']) {
    const free = limits.tiers.free;
    const service = (name: string): BucketRow | undefined => limits.serviceB[name];
    const endpoint = (name: string): Shape => dailyShape(limits.endpointDailyB[name]);
    this.shapes = {
      tier:
        free.perMinute === null
          ? NO_LIMIT
          : { capacity: free.perMinute * limits.burstMultiplier, perMinute: free.perMinute },
      'tier-daily': dailyShape(free.perDay),
      faucet: minuteShape(service('faucet')),
      'faucet-daily': dailyShape(service('faucet')?.perDay),
      escrow: minuteShape(service('escrow')),
      'escrow-daily': dailyShape(service('escrow')?.perDay),
      'escrow-create': endpoint('escrow.create'),
      domains: minuteShape(service('domains')),
      'domains-daily': dailyShape(service('domains')?.perDay),
      'domains-register': endpoint('domains.register'),
      trading: minuteShape(service('trading')),
      'trading-order': endpoint('trading.order'),
      'trading-positions': minuteShape(service('trading-positions')),
      wallet: minuteShape(service('wallet')),
      'wallet-daily': dailyShape(service('wallet')?.perDay),
      'wallet-send': minuteShape(service('wallet-send')),
      'wallet-swap': minuteShape(service('wallet-swap')),
    };
  }

  /** True when every bucket the charges name has room for all of them together. */
  canTake(charges: readonly Charge[]): boolean {
    const wanted = new Map<string, number>();
    for (const charge of charges) {
      for (const scope of charge.scopes) {
        const key = `${charge.slot}:${scope}`;
        wanted.set(key, (wanted.get(key) ?? 0) + 1);
      }
    }
    for (const [key, count] of wanted) {
      const scope = key.slice(key.indexOf(':') + 1) as BudgetScope;
      if ((this.used.get(key) ?? 0) + count > this.shapes[scope].capacity) return false;
    }
    return true;
  }

  take(charges: readonly Charge[]): void {
    for (const charge of charges) {
      for (const scope of charge.scopes) {
        const key = `${charge.slot}:${scope}`;
        this.used.set(key, (this.used.get(key) ?? 0) + 1);
      }
    }
  }

  /** Credits back what the buckets surely regained while time moved from `fromMs` to `toMs`. */
  elapse(fromMs: number, toMs: number): void {
    if (toMs <= fromMs) return;
    const newDay = Math.floor(toMs / DAY_MS) > Math.floor(fromMs / DAY_MS);
    for (const [key, count] of this.used) {
      const shape = this.shapes[key.slice(key.indexOf(':') + 1) as BudgetScope];
      if (shape.perMinute === null) {
        if (newDay) this.used.set(key, 0);
        continue;
      }
      const regained = Math.floor(((toMs - fromMs) * shape.perMinute) / MINUTE_MS);
      this.used.set(key, Math.max(0, count - regained));
    }
  }

  /** Requests counted against one agent's bucket (tests). */
  usedBy(slot: number, scope: BudgetScope): number {
    return this.used.get(`${slot}:${scope}`) ?? 0;
  }
}
