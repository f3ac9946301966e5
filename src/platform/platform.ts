/**
 * Platform: one deterministic state machine composing the services over one ledger, one agent
 * registry, one timer queue and one rng, with the shared rules of spec/platform.md (bearer auth,
 * rate limits, fault windows, `_info`).
 *
 * Determinism: the platform never reads a clock. Callers pass `nowMs` and must call
 * `advanceTo(nowMs)` before an operation at that time, so timers due at or before `nowMs`
 * (escrow expiry at its exact instant, dispute windows, referral sweeps) run first, in
 * (time, sequence) order. The dispatcher does that on every request.
 *
 * Auth memo: a bounded in-memory map from the exact Authorization header text to its caller, so
 * a known key is hashed once, not on every request (keys are never rotated or revoked, so an
 * answer never goes stale). Only hits are remembered: unknown keys cannot fill it. At most
 * `authMemoMax` entries (default AUTH_MEMO_MAX), oldest dropped first. Keys at rest stay
 * SHA-256 hashes only; the memo holds the header texts callers sent, in memory, for this process.
 * The last header answered from the memo is kept beside it: half the requests of a simulated
 * population come right after one with the same header (bursts of one agent), and comparing the
 * text saves the memo's table probe (memory the rest of the request does not touch).
 */
import { assert } from '../core/assert.ts';
import type { Clock } from '../core/clock.ts';
import type { IdSource as IdSourceType } from '../core/ids.ts';
import { IdSource, hashKey, KEY_PREFIX } from '../core/ids.ts';
import { EXTERNAL, FAUCET_POOL, Ledger } from '../core/ledger.ts';
import { Rng } from '../core/rng.ts';
import { Scheduler } from '../core/scheduler.ts';
import { ClosureSchedule, type GameClosure } from '../services/casino/closure-schedule.ts';
import { CasinoService } from '../services/casino/casino.ts';
import { DomainsService } from '../services/domains/domains.ts';
import { EscrowService } from '../services/escrow/escrow.ts';
import { FaucetService } from '../services/faucet/faucet.ts';
import { TradingService } from '../services/trading/trading.ts';
import { WalletService } from '../services/wallet/wallet.ts';
import type { MarketClosure, PriceShock, TradingSchedule } from '../services/trading/trading-record.ts';
import { AgentRegistry, type Agent } from '../services/shared/agents.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { DefectName, PlatformTimer, ServiceContext } from '../services/shared/context.ts';
import { EventBus, type DomainEvent } from '../services/shared/events.ts';
import { ReferralBook } from '../services/shared/referral.ts';
import { LimiterHandle, limiterIdentityOfAgent, RateLimiter, type RateLimiterOptions } from './rate-limiter.ts';

import type { ServiceName } from './service-names.ts';

export { SERVICE_NAMES, type ServiceName } from './service-names.ts';

/** A scenario's fault window: `service` answers `status` for every request in [fromMs, untilMs). */
export interface FaultWindow {
  readonly service: ServiceName;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly status: 500 | 503;
}

/**
 * An authenticated caller, with the identity string the rate limiter keys its state by. It is its
 * own limiter handle (the shortcut to this identity's limiter state): one object per request
 * instead of two, on the path every authenticated request takes.
 */
export class AuthenticatedCaller extends LimiterHandle {
  readonly agent: Agent;

  /** `limiter`: the platform's, which may adopt this record as the agent's limiter entry. */
  constructor(agent: Agent, limiter: RateLimiter) {
    super(limiterIdentityOfAgent(agent.id), limiter);
    this.agent = agent;
  }

  /** `limiterIdentityOfAgent(agent.id)`, built once per key instead of per request. */
  get limiterIdentity(): string {
    return this.identity;
  }
}

/**
 * The services' context. Why a class: `emit` is a method (one function for every platform)
 * where a closure per platform would be a constant in the optimized code of every service that
 * emits, and each new platform (a bench round, a check run) would throw that code away (the same
 * holds for PlatformInstant and for the ledger's observers).
 */
class PlatformContext implements ServiceContext {
  readonly ledger: Ledger;
  readonly agents: AgentRegistry;
  readonly ids: IdSourceType;
  readonly rng: Rng;
  readonly config: PlatformConfig;
  readonly timers: Scheduler<PlatformTimer>;
  readonly referrals: ReferralBook;
  readonly defects: ReadonlySet<DefectName>;
  private readonly events: EventBus;

  constructor(parts: Omit<ServiceContext, 'emit'> & { readonly events: EventBus }) {
    this.ledger = parts.ledger;
    this.agents = parts.agents;
    this.ids = parts.ids;
    this.rng = parts.rng;
    this.config = parts.config;
    this.timers = parts.timers;
    this.referrals = parts.referrals;
    this.defects = parts.defects;
    this.events = parts.events;
  }

  emit(event: DomainEvent): void {
    this.events.emit(event);
  }
}

/** The platform's current instant as a Clock (the casino's journal timestamps its entries with it). */
class PlatformInstant implements Clock {
  private readonly platform: { readonly nowMs: number };

  constructor(platform: { readonly nowMs: number }) {
    this.platform = platform;
  }

  nowMs(): number {
    return this.platform.nowMs;
  }
}

/**
 * A request's caller as resolved from its Authorization header, without the key: 'none' (no
 * header), 'invalid' (a header that named no live key), or the SHA-256 of a live key. afp serve's
 * command log stores this instead of the header (keys at rest stay hashed); its replay
 * authenticates with it (`identifyCredential`, ApiRequest.credential).
 */
export type Credential = { readonly keyHash: string } | 'none' | 'invalid';

/**
 * Default bound of the Authorization-header memo (~1 MiB when full; see the header comment). Why
 * not one entry per key: with a million simulated agents that is ~200 B an agent (issue 19: 4 KB
 * each); a key past the bound costs one SHA-256 (~3 µs) when it comes back, and half the requests
 * of a population are answered by the last-header shortcut anyway.
 */
export const AUTH_MEMO_MAX = 4_096;

export interface PlatformOptions {
  readonly seed: string;
  readonly startMs: number;
  readonly config?: PlatformConfig;
  readonly defects?: readonly DefectName[];
  readonly faults?: readonly FaultWindow[];
  /** Casino game closures at absolute instants (a scenario's `casino.closures`). */
  readonly closures?: readonly GameClosure[];
  /** Trading price shocks and market closures at absolute instants (a scenario's `trading`). */
  readonly trading?: { readonly shocks?: readonly PriceShock[]; readonly closures?: readonly MarketClosure[] };
  /** Bound of the Authorization-header memo; default AUTH_MEMO_MAX (tests use small ones). */
  readonly authMemoMax?: number;
  /** The rate limiter's memory bound; default in rate-limiter.ts (1,000,000; tests use small ones). */
  readonly limiter?: RateLimiterOptions;
  /**
   * Trading funding applied in spans, not by a timer per instant (TradingService.fundingSpans:
   * the same state, no per-instant funding events; afp serve's clock moves). Default false.
   */
  readonly fundingSpans?: boolean;
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
  readonly casino: CasinoService;
  readonly domains: DomainsService;
  readonly trading: TradingService;
  readonly wallet: WalletService;
  readonly limiter: RateLimiter;
  readonly faults: readonly FaultWindow[];
  readonly closures: readonly GameClosure[];
  /** The trading price shocks and market closures it was built with (GET /_afp/platform lists them). */
  readonly tradingSchedule: TradingSchedule;
  private readonly closureSchedule: ClosureSchedule;
  private readonly events = new EventBus();
  private readonly authMemo = new Map<string, AuthenticatedCaller>();
  private readonly authMemoMax: number;
  /** The last header the memo answered, and its caller (see the header). '' = none yet. */
  private lastAuthorization = '';
  private lastCaller: AuthenticatedCaller | null = null;
  /** Initialized where declared: a field declared bare starts as undefined and then holds every later time boxed (an allocation and a write barrier per request). */
  private lastMs = 0;

  constructor(options: PlatformOptions) {
    this.seed = options.seed;
    this.config = options.config ?? DEFAULT_CONFIG;
    this.faults = options.faults ?? [];
    this.closures = options.closures ?? [];
    this.closureSchedule = new ClosureSchedule(this.closures);
    this.tradingSchedule = { shocks: options.trading?.shocks ?? [], closures: options.trading?.closures ?? [] };
    this.lastMs = options.startMs;
    this.authMemoMax = options.authMemoMax ?? AUTH_MEMO_MAX;
    assert(Number.isSafeInteger(this.authMemoMax) && this.authMemoMax >= 1, 'the auth memo holds at least one entry');
    const rng = new Rng(options.seed).fork('platform');
    this.referrals = new ReferralBook({ ledger: this.ledger, events: this.events });
    this.context = new PlatformContext({
      ledger: this.ledger,
      agents: this.agents,
      ids: new IdSource(rng.fork('ids')),
      rng: rng.fork('services'),
      config: this.config,
      timers: this.timers,
      referrals: this.referrals,
      defects: new Set(options.defects ?? []),
      events: this.events,
    });
    this.ledger.transfer({
      from: EXTERNAL,
      to: FAUCET_POOL,
      amountMicro: this.config.faucet.poolFundingMicro,
      reason: 'faucet.pool-funding',
      reference: 'genesis',
    });
    this.faucet = new FaucetService(this.context);
    this.escrow = new EscrowService(this.context);
    this.casino = new CasinoService(this.context, this.config.casino, new PlatformInstant(this));
    this.domains = new DomainsService(this.context);
    this.trading = new TradingService(this.context, { seed: options.seed, ...options.trading });
    this.trading.fundingSpans = options.fundingSpans === true;
    this.trading.settleFunding(options.startMs);
    this.wallet = new WalletService(this.context, this.trading.prices);
    this.limiter = new RateLimiter(this.config.limits, options.limiter);
    this.timers.schedule(nextBoundary(options.startMs, this.config.referralSweepMs), { kind: 'referral.sweep' });
  }

  onEvent(listener: (event: DomainEvent) => void): void {
    this.events.add(listener);
  }

  /**
   * The instant of the next timer or game-closure change, if any: the simulator wakes the platform
   * exactly then, and afp serve's timer pump arms for it.
   */
  nextTimerMs(): number | undefined {
    const timerMs = this.timers.peek()?.atMs;
    const closureMs = this.closureSchedule.nextMs();
    if (closureMs === undefined) return timerMs;
    return timerMs === undefined ? closureMs : Math.min(timerMs, closureMs);
  }

  /**
   * Runs every timer and game-closure change due at or before `nowMs`, in (time, sequence) order;
   * at one instant the timers run first, then that instant's closure changes. `settle` false: the
   * funding instants passed are left for a later advance (a clock move's steps inside one slice,
   * which nothing observes; funding in spans gives the same state whenever it is applied).
   */
  advanceTo(nowMs: number, settle = true): void {
    // The message is built only on failure: this runs on every request.
    if (nowMs < this.lastMs) assert(false, `platform time runs forward (${nowMs} < ${this.lastMs})`);
    this.lastMs = nowMs;
    for (;;) {
      const next = this.timers.peek();
      const closureMs = this.closureSchedule.nextMs();
      const timerDue = next !== undefined && next.atMs <= nowMs;
      if (timerDue && (closureMs === undefined || next.atMs <= closureMs)) {
        this.timers.pop();
        // During a timer, "now" is the timer's own instant (transaction history, events).
        this.lastMs = next.atMs;
        this.runTimer(next.payload, next.atMs);
        this.lastMs = nowMs;
        continue;
      }
      if (closureMs === undefined || closureMs > nowMs) break;
      this.closureSchedule.applyDue(closureMs, this.casino);
    }
    // Funding in spans: the instants passed since the last timer (none run in between: nothing else reads what funding moves).
    if (settle) this.trading.settleFunding(nowMs);
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
      case 'casino.crash-round':
      case 'casino.tournament':
      case 'casino.challenge-expire':
      case 'casino.deposit-confirm':
      case 'casino.withdrawal-review':
        this.casino.onTimer(timer, atMs);
        return;
      case 'domains.expire':
      case 'domains.release':
        this.domains.onTimer(timer, atMs);
        return;
      case 'trading.tick':
      case 'trading.funding':
        this.trading.onTimer(timer, atMs);
        return;
      case 'wallet.block':
      case 'wallet.swap':
        this.wallet.onTimer(timer, atMs);
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
    const identified = this.identify(authorization);
    return typeof identified === 'object' && identified !== null ? identified.agent : identified;
  }

  /** `authenticate`, with the caller's rate-limiter identity; the dispatcher's form. */
  identify(authorization: string | undefined): AuthenticatedCaller | null | 'invalid' {
    if (authorization === undefined || authorization === '') return null;
    if (authorization === this.lastAuthorization && this.lastCaller !== null) return this.lastCaller;
    const remembered = this.authMemo.get(authorization) ?? this.admit(authorization);
    if (remembered !== undefined) {
      this.lastAuthorization = authorization;
      this.lastCaller = remembered;
      return remembered;
    }
    return 'invalid';
  }

  /** The caller of a header not in the memo, remembered when the key is known; undefined otherwise. */
  private admit(authorization: string): AuthenticatedCaller | undefined {
    if (!authorization.startsWith('Bearer ')) return undefined;
    const key = authorization.slice(7).trim();
    if (!key.startsWith(KEY_PREFIX)) return undefined;
    const agent = this.agents.byKey(hashKey(key));
    if (agent === undefined) return undefined;
    const caller = new AuthenticatedCaller(agent, this.limiter);
    if (this.authMemo.size >= this.authMemoMax) {
      const oldest = this.authMemo.keys().next();
      if (oldest.done !== true) this.authMemo.delete(oldest.value);
    }
    this.authMemo.set(authorization, caller);
    return caller;
  }

  /**
   * `identify` for a caller resolved earlier (afp serve --data replays its command log with it):
   * the same answer `identify` gave for the original header. No memo: replay only, off the hot path.
   */
  identifyCredential(credential: Credential): AuthenticatedCaller | null | 'invalid' {
    if (credential === 'none') return null;
    if (credential === 'invalid') return 'invalid';
    const agent = this.agents.byKey(credential.keyHash);
    if (agent === undefined) return 'invalid';
    return new AuthenticatedCaller(agent, this.limiter);
  }

  /** Entries in the Authorization-header memo (at most `authMemoMax`). */
  get authMemoSize(): number {
    return this.authMemo.size;
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
