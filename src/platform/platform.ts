/**
 * Platform: one deterministic state machine composing the services over one ledger, one agent
 * registry, one timer queue and one rng, with the shared rules of spec/platform.md (bearer auth,
 * rate limits, fault windows, `_info`).
 *
 * Determinism: the platform never reads a clock. Callers pass `nowMs` and must call
 * `advanceTo(nowMs)` before an operation at that time, so timers due at or before `nowMs`
 * (escrow expiry at its exact instant, dispute windows, referral sweeps) run first, in
 * (time, sequence) order. The dispatcher does that on every request.
 */
import { assert } from '../core/assert.ts';
import { IdSource, hashKey, KEY_PREFIX } from '../core/ids.ts';
import { EXTERNAL, FAUCET_POOL, Ledger } from '../core/ledger.ts';
import { Rng } from '../core/rng.ts';
import { Scheduler } from '../core/scheduler.ts';
import { EscrowService } from '../services/escrow/escrow.ts';
import { FaucetService } from '../services/faucet/faucet.ts';
import { AgentRegistry, type Agent } from '../services/shared/agents.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { DefectName, PlatformTimer, ServiceContext } from '../services/shared/context.ts';
import type { DomainEvent } from '../services/shared/events.ts';
import { ReferralBook } from '../services/shared/referral.ts';
import { RateLimiter } from './rate-limiter.ts';

export type ServiceName = 'faucet' | 'escrow' | 'trading' | 'domains' | 'wallet' | 'casino';
export const SERVICE_NAMES: readonly ServiceName[] = ['faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino'];

/** A scenario's fault window: `service` answers `status` for every request in [fromMs, untilMs). */
export interface FaultWindow {
  readonly service: ServiceName;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly status: 500 | 503;
}

export interface PlatformOptions {
  readonly seed: string;
  readonly startMs: number;
  readonly config?: PlatformConfig;
  readonly defects?: readonly DefectName[];
  readonly faults?: readonly FaultWindow[];
}

export class Platform {
  readonly seed: string;
  readonly config: PlatformConfig;
  readonly ledger = new Ledger();
  readonly agents = new AgentRegistry();
  readonly timers = new Scheduler<PlatformTimer>();
  readonly referrals: ReferralBook;
  readonly context: ServiceContext;
  readonly faucet: FaucetService;
  readonly escrow: EscrowService;
  readonly limiter: RateLimiter;
  readonly faults: readonly FaultWindow[];
  private readonly listeners: ((event: DomainEvent) => void)[] = [];
  private lastMs: number;

  constructor(options: PlatformOptions) {
    this.seed = options.seed;
    this.config = options.config ?? DEFAULT_CONFIG;
    this.faults = options.faults ?? [];
    this.lastMs = options.startMs;
    const rng = new Rng(options.seed).fork('platform');
    const emit = (event: DomainEvent): void => {
      for (const listener of this.listeners) listener(event);
    };
    this.referrals = new ReferralBook({ ledger: this.ledger, emit });
    this.context = {
      ledger: this.ledger,
      agents: this.agents,
      ids: new IdSource(rng.fork('ids')),
      rng: rng.fork('services'),
      config: this.config,
      timers: this.timers,
      emit,
      referrals: this.referrals,
      defects: new Set(options.defects ?? []),
    };
    this.ledger.transfer({
      from: EXTERNAL,
      to: FAUCET_POOL,
      amountMicro: this.config.faucet.poolFundingMicro,
      reason: 'faucet.pool-funding',
      reference: 'genesis',
    });
    this.faucet = new FaucetService(this.context);
    this.escrow = new EscrowService(this.context);
    this.limiter = new RateLimiter(this.config.limits);
    this.timers.schedule(nextBoundary(options.startMs, this.config.referralSweepMs), { kind: 'referral.sweep' });
  }

  onEvent(listener: (event: DomainEvent) => void): void {
    this.listeners.push(listener);
  }

  /** The instant of the next timer, if any; the simulator wakes the platform exactly then. */
  nextTimerMs(): number | undefined {
    return this.timers.peek()?.atMs;
  }

  /** Runs every timer due at or before `nowMs`, in (time, sequence) order. */
  advanceTo(nowMs: number): void {
    assert(nowMs >= this.lastMs, `platform time runs forward (${nowMs} < ${this.lastMs})`);
    this.lastMs = nowMs;
    for (;;) {
      const next = this.timers.peek();
      if (next === undefined || next.atMs > nowMs) return;
      this.timers.pop();
      this.runTimer(next.payload, next.atMs);
    }
  }

  get nowMs(): number {
    return this.lastMs;
  }

  private runTimer(timer: PlatformTimer, atMs: number): void {
    switch (timer.kind) {
      case 'escrow.expire':
      case 'escrow.dispute-window':
        this.escrow.onTimer(timer, atMs);
        return;
      case 'referral.sweep':
        this.referrals.sweep(atMs);
        this.timers.schedule(atMs + this.config.referralSweepMs, { kind: 'referral.sweep' });
        return;
    }
  }

  /**
   * Resolves an Authorization header to its agent. `null` when the header is absent;
   * `'invalid'` when present but not a known live key (both answer 401 on bearer routes).
   */
  authenticate(authorization: string | undefined): Agent | null | 'invalid' {
    if (authorization === undefined || authorization === '') return null;
    if (!authorization.startsWith('Bearer ')) return 'invalid';
    const key = authorization.slice(7).trim();
    if (!key.startsWith(KEY_PREFIX)) return 'invalid';
    return this.agents.byKey(hashKey(key)) ?? 'invalid';
  }

  /** The fault window active for `service` at `nowMs`, if any. */
  activeFault(service: ServiceName, nowMs: number): FaultWindow | undefined {
    for (const fault of this.faults) {
      if (fault.service === service && nowMs >= fault.fromMs && nowMs < fault.untilMs) return fault;
    }
    return undefined;
  }
}

/** The first multiple of `periodMs` (since the Unix epoch) strictly after `ms`. */
function nextBoundary(ms: number, periodMs: number): number {
  return (Math.floor(ms / periodMs) + 1) * periodMs;
}
