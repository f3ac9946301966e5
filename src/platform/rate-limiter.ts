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
 * Memory: at most `maxEntries` entries (identities and IPs, two sharded lookups: core/sharded-map.ts),
 * kept on one list by last use. Making room for a new entry is O(1): the least recently used entries
 * are dropped first when idle (every bucket full again and the daily counts of an earlier UTC day: a
 * fresh entry would behave the same), at most two per new entry; at the bound the least recently used
 * one is dropped whatever its state (its caller starts afresh). No scan of the entries, ever: a flood
 * of new identities (one per forged X-Forwarded-For) costs O(1) per request and never refuses anyone
 * for want of room. Deterministic: the order is a function of the requests alone. Per request:
 * integer math over the buckets that apply (`resolve` gathers them in one small record) and a fresh
 * decision. An identity's tier bucket and daily count are one object; a `LimiterHandle` passed with
 * the request (Platform keeps one per key, with its identity) skips the lookup (limiter-entry.ts).
 * Which bucket binds, and the decision and 429 texts it gives, are limit-binding.ts.
 */
import { assert } from '../core/assert.ts';
import type { JsonObject } from '../core/errors.ts';
import type { RouteLimits } from './route-limits.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { PlatformConfig } from '../services/shared/config.ts';
import type { ServiceName } from './service-names.ts';
import { findServiceEntry, IdentityEntry, ServiceEntry, type LimiterHandle, type ServiceRow } from './limiter-entry.ts';
import { ShardedMap } from '../core/sharded-map.ts';
import {
  Binding,
  RejectionTexts,
  unlimitedDecision,
  visitBucket,
  visitDay,
  type LimitDecision,
  type Mode,
} from './limit-binding.ts';
import { bucketShape, countAt, DayCounter, unitsAt, type BucketShape } from './token-bucket.ts';

export { LimiterHandle } from './limiter-entry.ts';
// The names importers have always taken from here; each is defined once, in the file named.
export { UNLIMITED, type LimitDecision } from './limit-binding.ts';

/** The identity of a request with a valid key. */
export function limiterIdentityOfAgent(agentId: string): string {
  return `agent:${agentId}`;
}

/** The identity of a request without a valid key. */
export function limiterIdentityOfIp(ip: string): string {
  return `ip:${ip}`;
}

export interface LimitRequest {
  /** 'agent:<id>' for a valid key, otherwise 'ip:<address>' (the two functions above). */
  readonly identity: string;
  /** 'free' when no valid key. */
  readonly tier: Tier;
  readonly ip: string;
  /** null for unknown routes on the shared api mount. */
  readonly service: ServiceName | null;
  readonly limits: RouteLimits | undefined;
  /** The caller's shortcut to this identity's state, when it keeps one (same answers, faster). */
  readonly handle?: LimiterHandle;
}

export interface RateLimiterOptions {
  /** Bound on held entries (at least 2: one request may add an IP bucket and an identity). */
  readonly maxEntries?: number;
}

export const UPGRADE_URL = '/docs#upgrade';
const MAX_ENTRIES_DEFAULT = 1_000_000;
/** Idle entries dropped from the old end per new entry: more than one, so idle ones drain. */
const IDLE_RECLAIM_PER_ADMIT = 2;

interface TierLimits {
  readonly shape: BucketShape | null;
  readonly perDay: number | null;
}

interface EndpointCap {
  readonly perDay: number;
  readonly scope: string;
}

/** The buckets that apply to one request (`resolve`); an entry is undefined only when peeking at one never charged. */
interface Applicable {
  readonly entry: IdentityEntry | undefined;
  readonly tier: TierLimits;
  readonly ipApplies: boolean;
  readonly ip: IdentityEntry | undefined;
  readonly serviceRow: ServiceRow | null;
  readonly service: ServiceEntry | undefined;
  readonly endpointCap: EndpointCap | null;
  readonly endpoint: DayCounter | undefined;
}

export class RateLimiter {
  private readonly tiers: Readonly<Record<Tier, TierLimits>>;
  private readonly registerShape: BucketShape;
  private readonly serviceRows = new Map<string, ServiceRow>();
  private readonly endpointCaps = new Map<string, EndpointCap>();
  private readonly identities = new ShardedMap<IdentityEntry>();
  private readonly registerByIp = new ShardedMap<IdentityEntry>();
  private readonly maxEntries: number;
  /** The ends of the list of held entries by last use (limiter-entry.ts `older`/`newer`). */
  private oldest: IdentityEntry | null = null;
  private newest: IdentityEntry | null = null;
  private readonly rejectionTexts = new RejectionTexts();

  constructor(config: PlatformConfig['limits'], options: RateLimiterOptions = {}) {
    const multiplier = config.burstMultiplier;
    const tierLimits = (tier: { readonly perMinute: number | null; readonly perDay: number | null }): TierLimits => {
      assertDailyCap(tier.perDay, 'daily');
      const shape = tier.perMinute === null ? null : bucketShape(tier.perMinute, tier.perMinute * multiplier, 'tier');
      return { shape, perDay: tier.perDay };
    };
    const tiers = config.tiers;
    this.tiers = { free: tierLimits(tiers.free), pro: tierLimits(tiers.pro), enterprise: tierLimits(tiers.enterprise) };
    // Capacity = the per-minute cap itself: "10 per minute per IP, no tier lifts it" (docs/decisions/platform.md).
    this.registerShape = bucketShape(config.registerPerMinutePerIp, config.registerPerMinutePerIp, 'register-ip');
    for (const [service, row] of Object.entries(config.serviceB)) {
      assertDailyCap(row.perDay, `service-daily:${service}`);
      this.serviceRows.set(service, {
        minute: bucketShape(row.perMinute, row.burst, `service:${service}`),
        perDay: row.perDay,
        dailyScope: `service-daily:${service}`,
      });
    }
    for (const [key, perDay] of Object.entries(config.endpointDailyB)) {
      assertDailyCap(perDay, `endpoint:${key}`);
      this.endpointCaps.set(key, { perDay, scope: `endpoint:${key}` });
    }
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES_DEFAULT;
    assert(
      Number.isSafeInteger(this.maxEntries) && this.maxEntries >= 2,
      'the limiter holds at least two entries (an IP bucket and an identity)',
    );
  }

  /** Held entries: one per identity (its tier, daily and per-service buckets) and one per IP. */
  get bucketCount(): number {
    return this.identities.size + this.registerByIp.size;
  }

  /** Charges the request: every applicable bucket is checked, and when all have room each is taken from. */
  charge(request: LimitRequest, nowMs: number): LimitDecision {
    assert(Number.isSafeInteger(nowMs), 'limiter time is an integer millisecond');
    const tier = request.tier;
    if (request.limits === undefined && this.tiers[tier].shape === null) return unlimitedDecision(tier, nowMs);
    const applicable = this.resolve(request, nowMs, true);
    const checked = new Binding();
    this.visitAll(applicable, checked, 'check', nowMs);
    if (checked.refused) return checked.decision(tier, nowMs);
    const taken = new Binding();
    this.visitAll(applicable, taken, 'take', nowMs);
    return taken.decision(tier, nowMs);
  }

  /** The identity's entry if held: through the request's handle when it is valid, else the map. */
  private heldEntry(identity: string, handle: LimiterHandle | undefined): IdentityEntry | undefined {
    if (handle === undefined) return this.identities.get(identity);
    const cached = handle.entry;
    if (cached !== null && cached.held && cached.owner === this && cached.identity === identity) return cached;
    const entry = this.identities.get(identity);
    handle.entry = entry ?? null;
    return entry;
  }

  /**
   * A new entry for the request's identity (makes room first), noted in its handle: the handle
   * itself when it was built for this identity and this limiter and is not held (limiter-entry.ts).
   */
  private addEntry(
    identity: string,
    handle: LimiterHandle | undefined,
    tierShape: BucketShape | null,
    nowMs: number,
    keep: IdentityEntry | null,
  ): IdentityEntry {
    this.admit(nowMs, keep);
    const entry =
      handle !== undefined && handle.owner === this && handle.identity === identity && !handle.held
        ? handle
        : new IdentityEntry(identity, this);
    entry.start(tierShape, nowMs);
    this.identities.set(identity, entry);
    this.link(entry);
    if (handle !== undefined) handle.entry = entry;
    return entry;
  }

  private serviceRowOf(key: string | null): ServiceRow {
    assert(key !== null, 'a style-B service row needs a service');
    const row = this.serviceRows.get(key);
    if (row === undefined) assert(false, `config.limits.serviceB has a row for ${key}`);
    return row;
  }

  private endpointCapOf(key: string): EndpointCap {
    const cap = this.endpointCaps.get(key);
    if (cap === undefined) assert(false, `config.limits.endpointDailyB has ${key}`);
    return cap;
  }

  /** Read-only view of the binding state for an identity: creates, refills and evicts nothing. */
  peek(request: LimitRequest, nowMs: number): { limit: number; remaining: number; resetAtSeconds: number } {
    const binding = new Binding();
    this.visitAll(this.resolve(request, nowMs, false), binding, 'peek', nowMs);
    const decision = binding.decision(request.tier, nowMs);
    return { limit: decision.limit, remaining: decision.remaining, resetAtSeconds: decision.resetAtSeconds };
  }

  /**
   * The spec's 429 body, fresh per call, ending with the platform's `_info` (written in the literal,
   * not added afterwards). Its two texts are remembered from the last refusal: an abusive caller is
   * refused many times a second with the same message and the same reset instant, and rebuilding
   * them was most of a refusal's cost.
   */
  rejectionBody(decision: LimitDecision, tier: Tier, info: Readonly<JsonObject>): JsonObject {
    return {
      error: 'rate_limit_exceeded',
      code: 'RATE_LIMIT',
      message: this.rejectionTexts.message(decision),
      limit: decision.limit,
      window: decision.window,
      retry_after_seconds: decision.retryAfterSeconds,
      reset_at: this.rejectionTexts.resetAt(decision.atMs + decision.retryAfterSeconds * 1000),
      tier,
      upgrade_url: UPGRADE_URL,
      _info: info,
    };
  }

  /** The buckets that apply to the request; `create` adds missing entries. */
  private resolve(request: LimitRequest, nowMs: number, create: boolean): Applicable {
    const limits = request.limits;
    const tier = this.tiers[request.tier];
    const serviceRow = limits?.serviceRowB === true ? this.serviceRowOf(limits.row ?? request.service) : null;
    const endpointCap = limits?.endpointDaily === undefined ? null : this.endpointCapOf(limits.endpointDaily);
    const ipApplies = limits?.registerPerIp === true;
    const ip = ipApplies ? this.ipBucketOf(request.ip, nowMs, create) : undefined;
    const entry =
      tier.shape !== null || serviceRow !== null || endpointCap !== null
        ? this.identityEntryOf(request, tier.shape, nowMs, create, ip ?? null)
        : undefined;
    let service: ServiceEntry | undefined;
    if (entry !== undefined && serviceRow !== null)
      service = create ? serviceEntryOf(entry, serviceRow, nowMs) : findServiceEntry(entry, serviceRow);
    let endpoint: DayCounter | undefined;
    if (entry !== undefined && endpointCap !== null)
      endpoint = create ? endpointCounterOf(entry, endpointCap, nowMs) : entry.endpoints?.get(endpointCap.scope);
    return { entry, tier, ipApplies, ip, serviceRow, service, endpointCap, endpoint };
  }

  /** The per-IP register bucket; `create` adds it when missing, and marks it as just used. */
  private ipBucketOf(ip: string, nowMs: number, create: boolean): IdentityEntry | undefined {
    const held = this.registerByIp.get(ip);
    if (!create) return held;
    if (held !== undefined) {
      this.touch(held);
      return held;
    }
    this.admit(nowMs, null);
    const bucket = new IdentityEntry(ip, this);
    bucket.registerIp = true;
    bucket.start(this.registerShape, nowMs);
    this.registerByIp.set(ip, bucket);
    this.link(bucket);
    return bucket;
  }

  /** The identity's entry; `create` adds it when missing, marks it as just used and applies the tier's shape. */
  private identityEntryOf(
    request: LimitRequest,
    tierShape: BucketShape | null,
    nowMs: number,
    create: boolean,
    keep: IdentityEntry | null,
  ): IdentityEntry | undefined {
    const held = this.heldEntry(request.identity, request.handle);
    if (!create) return held;
    const entry = held ?? this.addEntry(request.identity, request.handle, tierShape, nowMs, keep);
    this.touch(entry);
    if (tierShape !== null) {
      // First limited request of an identity seen only as Enterprise so far: its bucket starts full.
      if (entry.tierShape === null) entry.units = tierShape.capacityUnits;
      entry.tierShape = tierShape;
    }
    return entry;
  }

  /** Visits every applicable bucket in the fixed order that breaks binding ties. */
  private visitAll(applicable: Applicable, binding: Binding, mode: Mode, nowMs: number): void {
    const { entry, tier, serviceRow, endpointCap } = applicable;
    if (tier.shape !== null) visitBucket(binding, entry, tier.shape, mode, nowMs);
    if (tier.perDay !== null) visitDay(binding, entry, tier.perDay, 'daily', mode, nowMs);
    if (applicable.ipApplies) visitBucket(binding, applicable.ip, this.registerShape, mode, nowMs);
    if (serviceRow !== null) {
      visitBucket(binding, applicable.service, serviceRow.minute, mode, nowMs);
      if (serviceRow.perDay !== null)
        visitDay(binding, applicable.service, serviceRow.perDay, serviceRow.dailyScope, mode, nowMs);
    }
    if (endpointCap !== null)
      visitDay(binding, applicable.endpoint, endpointCap.perDay, endpointCap.scope, mode, nowMs);
  }

  /**
   * Makes room for one more entry, in O(1): drops up to IDLE_RECLAIM_PER_ADMIT idle entries from
   * the old end, then, at the bound, the least recently used entry whatever its state. `keep` (the
   * IP bucket the request being charged has just resolved, a fresh one idle) is never dropped.
   */
  private admit(nowMs: number, keep: IdentityEntry | null): void {
    for (let reclaimed = 0; reclaimed < IDLE_RECLAIM_PER_ADMIT; reclaimed++) {
      const oldest = this.oldest;
      if (oldest === null || oldest === keep || !isIdle(oldest, nowMs)) break;
      this.evict(oldest);
    }
    if (this.bucketCount >= this.maxEntries) {
      const oldest = this.oldest;
      // `keep` was just used: it is the newest, so the oldest only when it is alone (below the bound).
      assert(oldest !== null && oldest !== keep, 'a full limiter holds at least two entries');
      this.evict(oldest);
    }
    assert(this.bucketCount < this.maxEntries, 'room was made');
  }

  /** Drops a held entry: out of its map and off the list; a handle to it no longer finds it. */
  private evict(entry: IdentityEntry): void {
    const removed = entry.registerIp
      ? this.registerByIp.delete(entry.identity)
      : this.identities.delete(entry.identity);
    assert(removed, 'an entry on the list is in its map');
    this.unlink(entry);
    entry.held = false;
  }

  /** Puts a new entry at the new end of the list. */
  private link(entry: IdentityEntry): void {
    entry.older = this.newest;
    entry.newer = null;
    if (this.newest === null) this.oldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
  }

  private unlink(entry: IdentityEntry): void {
    if (entry.older === null) this.oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === null) this.newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = null;
    entry.newer = null;
  }

  /** Marks a held entry as just used: moved to the new end (nothing to do when it is there). */
  private touch(entry: IdentityEntry): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.link(entry);
  }
}

/** The identity's state for a service row, created on first use. */
function serviceEntryOf(entry: IdentityEntry, row: ServiceRow, nowMs: number): ServiceEntry {
  const found = findServiceEntry(entry, row);
  if (found !== undefined) return found;
  const service = new ServiceEntry(row, nowMs, entry.services);
  entry.services = service;
  return service;
}

/** The identity's counter for an endpoint cap, created on first use. */
function endpointCounterOf(entry: IdentityEntry, cap: EndpointCap, nowMs: number): DayCounter {
  let counter = entry.endpoints?.get(cap.scope);
  if (counter === undefined) {
    counter = new DayCounter(nowMs);
    (entry.endpoints ??= new Map()).set(cap.scope, counter);
  }
  return counter;
}

function isIdle(entry: IdentityEntry, nowMs: number): boolean {
  if (entry.tierShape !== null && unitsAt(entry, entry.tierShape, nowMs) < entry.tierShape.capacityUnits) return false;
  if (countAt(entry, nowMs) > 0) return false;
  for (let service = entry.services; service !== null; service = service.next) {
    if (unitsAt(service, service.row.minute, nowMs) < service.row.minute.capacityUnits) return false;
    if (countAt(service, nowMs) > 0) return false;
  }
  if (entry.endpoints !== null) {
    for (const counter of entry.endpoints.values()) {
      if (countAt(counter, nowMs) > 0) return false;
    }
  }
  return true;
}

function assertDailyCap(perDay: number | null, scope: string): void {
  assert(
    perDay === null || (Number.isSafeInteger(perDay) && perDay >= 1),
    `${scope}: perDay is a positive integer or null`,
  );
}
