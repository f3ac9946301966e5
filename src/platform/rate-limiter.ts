/**
 * RateLimiter: the rate-limit rules of spec/platform.md "Limits", charged on every request (4xx and
 * unknown routes included) by the dispatcher before anything else answers.
 *
 * Buckets that apply to a request (each costs 1 token or 1 count):
 *   - 'tier': a token bucket per identity, capacity burstMultiplier × perMinute, refilled at
 *     perMinute per minute; 'daily': the tier's quota per identity per UTC day (none for Enterprise);
 *   - 'register-ip': `limits.registerPerIp`, a bucket per originating IP, capacity and rate
 *     registerPerMinutePerIp, whatever the tier or key;
 *   - 'service:<name>' / 'service-daily:<name>': `limits.serviceRowB`, the style-B row of the service;
 *   - 'endpoint:<key>': `limits.endpointDaily`, a per-identity daily cap.
 * Invariants: a request passes only if every applicable bucket has room, and then takes from all of
 * them; a refused request changes no level or count (refilling and day roll-over are not
 * consumption). The binding (reported) bucket is, when refused, the refusing one with the longest
 * wait (so that a request at now + retry_after passes), else the one with the fewest remaining
 * requests, the lower limit winning ties, then the order above. All state is integers.
 * Memory: an entry (an identity or an IP) is evicted once every bucket in it is full again and its
 * daily counts belong to an earlier UTC day (a fresh entry would behave the same); sweeps run when
 * the entry count doubles past the last sweep; `maxEntries` is a hard cap, asserted.
 * Hot path: one Map lookup per bucket, integer math, no closures or arrays per request; the
 * per-request state lives in reused scratch fields (the limiter is synchronous, never reentered).
 */
import { assert } from '../core/assert.ts';
import type { JsonObject } from '../core/errors.ts';
import type { RouteLimits, Style } from '../http/route.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { PlatformConfig } from '../services/shared/config.ts';
import type { ServiceName } from './platform.ts';
import {
  bucketShape, countAt, DayCounter, msUntilFull, msUntilToken, nextMidnightMs, refill, rollDay,
  TokenBucket, UNITS_PER_TOKEN, unitsAt, type BucketShape,
} from './token-bucket.ts';

export interface LimitRequest {
  /** 'agent:<id>' for a valid key, otherwise 'ip:<address>'. */
  readonly identity: string;
  /** 'free' when no valid key. */
  readonly tier: Tier;
  readonly ip: string;
  /** null for unknown routes on the shared api mount. */
  readonly service: ServiceName | null;
  readonly style: Style | null;
  readonly limits: RouteLimits | undefined;
}

export interface LimitDecision {
  readonly allowed: boolean;
  /** The binding bucket's per-minute (or per-day) limit. */
  readonly limit: number;
  /** Whole requests left in the binding bucket after this one (>= 0). */
  readonly remaining: number;
  /** Unix seconds (ceil) when the binding bucket is full again. */
  readonly resetAtSeconds: number;
  /** 0 when allowed; else ceil seconds until a request would pass (>= 1). */
  readonly retryAfterSeconds: number;
  readonly window: '1m' | '1d';
  /** Which bucket bound: 'tier', 'daily', 'register-ip', 'service:faucet', 'endpoint:escrow.create'... */
  readonly scope: string;
  readonly tier: Tier;
  /** The instant of the decision (the 429 body's reset_at is atMs + retry). */
  readonly atMs: number;
}

export interface RateLimiterOptions {
  /** Entry count that triggers the first eviction sweep. */
  readonly sweepAtEntries?: number;
  /** Hard cap on held entries; exceeding it is a bug (an unbounded population). */
  readonly maxEntries?: number;
}

/** Reported when nothing limits the request (Enterprise on a route without endpoint caps). */
export const UNLIMITED = 2_147_483_647;
export const UPGRADE_URL = '/docs#upgrade';
const SWEEP_AT_ENTRIES_DEFAULT = 65_536;
const MAX_ENTRIES_DEFAULT = 1_000_000;

type Mode = 'check' | 'take' | 'peek';
type Window = LimitDecision['window'];

/**
 * The binding bucket of one request, chosen as the buckets are visited: a refusing bucket beats any
 * that has room; among refusing ones the longest wait wins, among the others the fewest remaining;
 * then the lower limit; then the first visited. Reused across requests (no per-request arrays).
 */
class Binding {
  found = false;
  refused = false;
  limit = 0;
  remaining = 0;
  resetAtMs = 0;
  waitMs = 0;
  window: Window = '1m';
  scope = '';

  clear(): void {
    this.found = false;
    this.refused = false;
  }

  offer(limit: number, remaining: number, resetAtMs: number, window: Window, scope: string): void {
    if (this.refused) return;
    if (this.found && (remaining > this.remaining || (remaining === this.remaining && limit >= this.limit))) return;
    this.set(limit, remaining, resetAtMs, window, scope);
    this.waitMs = 0;
  }

  offerRefusal(limit: number, resetAtMs: number, waitMs: number, window: Window, scope: string): void {
    if (this.refused && (waitMs < this.waitMs || (waitMs === this.waitMs && limit >= this.limit))) return;
    this.set(limit, 0, resetAtMs, window, scope);
    this.refused = true;
    this.waitMs = waitMs;
  }

  decision(tier: Tier, nowMs: number): LimitDecision {
    assert(this.found, 'a decision needs a binding bucket');
    return {
      allowed: !this.refused,
      limit: this.limit,
      remaining: this.remaining,
      resetAtSeconds: Math.ceil(this.resetAtMs / 1000),
      retryAfterSeconds: this.refused ? Math.max(1, Math.ceil(this.waitMs / 1000)) : 0,
      window: this.window,
      scope: this.scope,
      tier,
      atMs: nowMs,
    };
  }

  private set(limit: number, remaining: number, resetAtMs: number, window: Window, scope: string): void {
    this.found = true;
    this.limit = limit;
    this.remaining = remaining;
    this.resetAtMs = resetAtMs;
    this.window = window;
    this.scope = scope;
  }
}

interface ServiceRow {
  readonly minute: BucketShape;
  readonly perDay: number | null;
  readonly dailyScope: string;
}

interface EndpointCap {
  readonly perDay: number;
  readonly scope: string;
}

class ServiceEntry {
  readonly row: ServiceRow;
  readonly bucket: TokenBucket;
  readonly day: DayCounter;

  constructor(row: ServiceRow, nowMs: number) {
    this.row = row;
    this.bucket = new TokenBucket(row.minute.capacityUnits, nowMs);
    this.day = new DayCounter(nowMs);
  }
}

/** Everything held for one identity; the sub-maps are created on first use. */
class IdentityEntry {
  /** The tier shape last applied to `bucket` (null until a limited tier is seen). */
  tierShape: BucketShape | null;
  readonly bucket: TokenBucket;
  readonly day: DayCounter;
  services: Map<string, ServiceEntry> | null = null;
  endpoints: Map<string, DayCounter> | null = null;

  constructor(tierShape: BucketShape | null, nowMs: number) {
    this.tierShape = tierShape;
    this.bucket = new TokenBucket(tierShape === null ? 0 : tierShape.capacityUnits, nowMs);
    this.day = new DayCounter(nowMs);
  }
}

export class RateLimiter {
  private readonly tierShapes: Readonly<Record<Tier, BucketShape | null>>;
  private readonly tierDaily: Readonly<Record<Tier, number | null>>;
  private readonly registerShape: BucketShape;
  private readonly serviceRows = new Map<string, ServiceRow>();
  private readonly endpointCaps = new Map<string, EndpointCap>();
  private readonly identities = new Map<string, IdentityEntry>();
  private readonly registerByIp = new Map<string, TokenBucket>();
  private readonly sweepAtEntriesMin: number;
  private readonly maxEntries: number;
  private sweepAtEntries: number;
  private readonly binding = new Binding();

  // Scratch: the buckets that apply to the request being charged or peeked (see `resolve`).
  private slotEntry: IdentityEntry | undefined = undefined;
  private slotTierShape: BucketShape | null = null;
  private slotTierDaily: number | null = null;
  private slotIpApplies = false;
  private slotIp: TokenBucket | undefined = undefined;
  private slotServiceRow: ServiceRow | null = null;
  private slotService: ServiceEntry | undefined = undefined;
  private slotEndpointCap: EndpointCap | null = null;
  private slotEndpoint: DayCounter | undefined = undefined;

  constructor(config: PlatformConfig['limits'], options: RateLimiterOptions = {}) {
    const multiplier = config.burstMultiplier;
    const tierShape = (perMinute: number | null): BucketShape | null =>
      perMinute === null ? null : bucketShape(perMinute, perMinute * multiplier, 'tier');
    const tiers = config.tiers;
    this.tierShapes = { free: tierShape(tiers.free.perMinute), pro: tierShape(tiers.pro.perMinute), enterprise: tierShape(tiers.enterprise.perMinute) };
    this.tierDaily = { free: tiers.free.perDay, pro: tiers.pro.perDay, enterprise: tiers.enterprise.perDay };
    for (const perDay of Object.values(this.tierDaily)) assertDailyCap(perDay, 'daily');
    // Capacity = the per-minute cap itself: "10 per minute per IP, no tier lifts it" (docs/decisions.md).
    this.registerShape = bucketShape(config.registerPerMinutePerIp, config.registerPerMinutePerIp, 'register-ip');
    for (const [service, row] of Object.entries(config.serviceB)) {
      assertDailyCap(row.perDay, `service-daily:${service}`);
      this.serviceRows.set(service, { minute: bucketShape(row.perMinute, row.burst, `service:${service}`), perDay: row.perDay, dailyScope: `service-daily:${service}` });
    }
    for (const [key, perDay] of Object.entries(config.endpointDailyB)) {
      assertDailyCap(perDay, `endpoint:${key}`);
      this.endpointCaps.set(key, { perDay, scope: `endpoint:${key}` });
    }
    this.sweepAtEntriesMin = options.sweepAtEntries ?? SWEEP_AT_ENTRIES_DEFAULT;
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES_DEFAULT;
    assert(this.sweepAtEntriesMin >= 1 && this.sweepAtEntriesMin <= this.maxEntries, 'sweep threshold within the hard cap');
    this.sweepAtEntries = this.sweepAtEntriesMin;
  }

  /** Held entries: one per identity (its tier, daily and per-service buckets) and one per IP. */
  get bucketCount(): number {
    return this.identities.size + this.registerByIp.size;
  }

  charge(request: LimitRequest, nowMs: number): LimitDecision {
    assert(Number.isSafeInteger(nowMs), 'limiter time is an integer millisecond');
    if (this.tierShapes[request.tier] === null && request.limits === undefined) return unlimited(request.tier, nowMs);
    this.resolve(request, nowMs, true);
    const binding = this.binding;
    binding.clear();
    this.visitAll('check', nowMs);
    if (!binding.refused) {
      binding.clear();
      this.visitAll('take', nowMs);
    }
    return binding.found ? binding.decision(request.tier, nowMs) : unlimited(request.tier, nowMs);
  }

  /** Read-only view of the binding state for an identity: creates, refills and evicts nothing. */
  peek(request: LimitRequest, nowMs: number): { limit: number; remaining: number; resetAtSeconds: number } {
    this.resolve(request, nowMs, false);
    const binding = this.binding;
    binding.clear();
    this.visitAll('peek', nowMs);
    if (!binding.found) return { limit: UNLIMITED, remaining: UNLIMITED, resetAtSeconds: Math.ceil(nowMs / 1000) };
    const decision = binding.decision(request.tier, nowMs);
    return { limit: decision.limit, remaining: decision.remaining, resetAtSeconds: decision.resetAtSeconds };
  }

  rejectionBody(decision: LimitDecision, tier: Tier): JsonObject {
    const per = decision.window === '1m' ? 'minute' : 'day';
    return {
      error: 'rate_limit_exceeded',
      code: 'RATE_LIMIT',
      message: `Rate limit exceeded: ${decision.limit} requests per ${per} (${decision.scope}). Retry in ${decision.retryAfterSeconds} s.`,
      limit: decision.limit,
      window: decision.window,
      retry_after_seconds: decision.retryAfterSeconds,
      reset_at: new Date(decision.atMs + decision.retryAfterSeconds * 1000).toISOString(),
      tier,
      upgrade_url: UPGRADE_URL,
    };
  }

  /** Fills the scratch slots with the buckets that apply; `create` adds missing entries. */
  private resolve(request: LimitRequest, nowMs: number, create: boolean): void {
    const limits = request.limits;
    this.slotTierShape = this.tierShapes[request.tier];
    this.slotTierDaily = this.tierDaily[request.tier];
    this.slotServiceRow = null;
    this.slotEndpointCap = null;
    if (limits?.serviceRowB === true) {
      assert(request.service !== null, 'a style-B service row needs a service');
      const row = this.serviceRows.get(request.service);
      assert(row !== undefined, `config.limits.serviceB has a row for ${request.service}`);
      this.slotServiceRow = row;
    }
    if (limits?.endpointDaily !== undefined) {
      const cap = this.endpointCaps.get(limits.endpointDaily);
      assert(cap !== undefined, `config.limits.endpointDailyB has ${limits.endpointDaily}`);
      this.slotEndpointCap = cap;
    }
    this.slotIpApplies = limits?.registerPerIp === true;
    this.slotIp = this.slotIpApplies ? this.registerByIp.get(request.ip) : undefined;
    if (create && this.slotIpApplies && this.slotIp === undefined) {
      this.admit(nowMs);
      this.slotIp = new TokenBucket(this.registerShape.capacityUnits, nowMs);
      this.registerByIp.set(request.ip, this.slotIp);
    }
    this.resolveIdentity(request, nowMs, create);
  }

  private resolveIdentity(request: LimitRequest, nowMs: number, create: boolean): void {
    this.slotService = undefined;
    this.slotEndpoint = undefined;
    const needed = this.slotTierShape !== null || this.slotServiceRow !== null || this.slotEndpointCap !== null;
    let entry = needed ? this.identities.get(request.identity) : undefined;
    if (create && needed && entry === undefined) {
      this.admit(nowMs);
      entry = new IdentityEntry(this.slotTierShape, nowMs);
      this.identities.set(request.identity, entry);
    }
    this.slotEntry = entry;
    if (entry === undefined) return;
    if (create && this.slotTierShape !== null) {
      // First limited request of an identity seen only as Enterprise so far: its bucket starts full.
      if (entry.tierShape === null) entry.bucket.units = this.slotTierShape.capacityUnits;
      entry.tierShape = this.slotTierShape;
    }
    const row = this.slotServiceRow;
    if (row !== null) {
      this.slotService = entry.services?.get(row.minute.scope);
      if (create && this.slotService === undefined) {
        this.slotService = new ServiceEntry(row, nowMs);
        (entry.services ??= new Map()).set(row.minute.scope, this.slotService);
      }
    }
    const cap = this.slotEndpointCap;
    if (cap !== null) {
      this.slotEndpoint = entry.endpoints?.get(cap.scope);
      if (create && this.slotEndpoint === undefined) {
        this.slotEndpoint = new DayCounter(nowMs);
        (entry.endpoints ??= new Map()).set(cap.scope, this.slotEndpoint);
      }
    }
  }

  /** Visits every applicable bucket in the fixed order that breaks binding ties. */
  private visitAll(mode: Mode, nowMs: number): void {
    const entry = this.slotEntry;
    if (this.slotTierShape !== null) this.visitBucket(entry?.bucket, this.slotTierShape, mode, nowMs);
    if (this.slotTierDaily !== null) this.visitDay(entry?.day, this.slotTierDaily, 'daily', mode, nowMs);
    if (this.slotIpApplies) this.visitBucket(this.slotIp, this.registerShape, mode, nowMs);
    const row = this.slotServiceRow;
    if (row !== null) {
      this.visitBucket(this.slotService?.bucket, row.minute, mode, nowMs);
      if (row.perDay !== null) this.visitDay(this.slotService?.day, row.perDay, row.dailyScope, mode, nowMs);
    }
    const cap = this.slotEndpointCap;
    if (cap !== null) this.visitDay(this.slotEndpoint, cap.perDay, cap.scope, mode, nowMs);
  }

  /** `bucket` is undefined only when peeking at an identity never charged: a full bucket. */
  private visitBucket(bucket: TokenBucket | undefined, shape: BucketShape, mode: Mode, nowMs: number): void {
    if (mode === 'peek') {
      const units = bucket === undefined ? shape.capacityUnits : unitsAt(bucket, shape, nowMs);
      this.binding.offer(shape.perMinute, Math.floor(units / UNITS_PER_TOKEN), nowMs + msUntilFull(units, shape), '1m', shape.scope);
      return;
    }
    assert(bucket !== undefined, 'charged buckets exist');
    if (mode === 'check') {
      refill(bucket, shape, nowMs);
      if (bucket.units < UNITS_PER_TOKEN) {
        this.binding.offerRefusal(shape.perMinute, nowMs + msUntilFull(bucket.units, shape), msUntilToken(bucket.units, shape), '1m', shape.scope);
      }
      return;
    }
    bucket.units -= UNITS_PER_TOKEN;
    assert(bucket.units >= 0, 'a checked bucket had a token');
    this.binding.offer(shape.perMinute, Math.floor(bucket.units / UNITS_PER_TOKEN), nowMs + msUntilFull(bucket.units, shape), '1m', shape.scope);
  }

  private visitDay(counter: DayCounter | undefined, perDay: number, scope: string, mode: Mode, nowMs: number): void {
    if (mode === 'peek') {
      const count = counter === undefined ? 0 : countAt(counter, nowMs);
      this.binding.offer(perDay, perDay - count, count === 0 ? nowMs : nextMidnightMs(nowMs), '1d', scope);
      return;
    }
    assert(counter !== undefined, 'charged counters exist');
    if (mode === 'check') {
      rollDay(counter, nowMs);
      if (counter.count >= perDay) {
        const midnightMs = nextMidnightMs(nowMs);
        this.binding.offerRefusal(perDay, midnightMs, midnightMs - nowMs, '1d', scope);
      }
      return;
    }
    counter.count += 1;
    assert(counter.count <= perDay, 'a checked counter had room');
    this.binding.offer(perDay, perDay - counter.count, nextMidnightMs(nowMs), '1d', scope);
  }

  /** Makes room for one more entry: sweeps when the count reaches the threshold, then asserts the cap. */
  private admit(nowMs: number): void {
    if (this.bucketCount >= this.sweepAtEntries) {
      this.sweep(nowMs);
      this.sweepAtEntries = Math.min(this.maxEntries, Math.max(this.sweepAtEntriesMin, 2 * this.bucketCount));
    }
    assert(this.bucketCount < this.maxEntries, `rate limiter holds at most ${this.maxEntries} entries`);
  }

  /** Evicts every entry that a fresh one would replace exactly (all full, no count today). */
  private sweep(nowMs: number): void {
    for (const [ip, bucket] of this.registerByIp) {
      if (unitsAt(bucket, this.registerShape, nowMs) === this.registerShape.capacityUnits) this.registerByIp.delete(ip);
    }
    for (const [identity, entry] of this.identities) {
      if (isIdle(entry, nowMs)) this.identities.delete(identity);
    }
  }
}

function isIdle(entry: IdentityEntry, nowMs: number): boolean {
  if (entry.tierShape !== null && unitsAt(entry.bucket, entry.tierShape, nowMs) < entry.tierShape.capacityUnits) return false;
  if (countAt(entry.day, nowMs) > 0) return false;
  if (entry.services !== null) {
    for (const service of entry.services.values()) {
      if (unitsAt(service.bucket, service.row.minute, nowMs) < service.row.minute.capacityUnits) return false;
      if (countAt(service.day, nowMs) > 0) return false;
    }
  }
  if (entry.endpoints !== null) {
    for (const counter of entry.endpoints.values()) {
      if (countAt(counter, nowMs) > 0) return false;
    }
  }
  return true;
}

/** No bucket applies: the headers report the largest 32-bit integer and a reset of now. */
function unlimited(tier: Tier, nowMs: number): LimitDecision {
  return {
    allowed: true, limit: UNLIMITED, remaining: UNLIMITED, resetAtSeconds: Math.ceil(nowMs / 1000),
    retryAfterSeconds: 0, window: '1m', scope: 'unlimited', tier, atMs: nowMs,
  };
}

function assertDailyCap(perDay: number | null, scope: string): void {
  assert(perDay === null || (Number.isSafeInteger(perDay) && perDay >= 1), `${scope}: perDay is a positive integer or null`);
}
