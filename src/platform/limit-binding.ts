/**
 * Which bucket binds a request and what its answer says: the buckets are visited in a fixed order
 * (check, then take, or peek), each offering its limit, remaining requests and reset to a
 * `Binding`, which keeps the refusing one with the longest wait, else the one with the fewest
 * remaining (the lower limit winning ties, then the first visited); the decision is that bucket's,
 * and a 429's texts are rebuilt only when what they say changes. Why a file of its own: the rule
 * that picks the reported bucket is one concept (spec/platform.md "Limits"), apart from which
 * buckets apply and how the limiter keeps its entries (rate-limiter.ts).
 */
import { assert } from '../core/assert.ts';
import { isoTime } from '../core/iso-time.ts';
import type { Tier } from '../services/shared/agents.ts';
import {
  countAt,
  msUntilFull,
  msUntilToken,
  nextMidnightMs,
  refill,
  rollDay,
  UNITS_PER_TOKEN,
  unitsAt,
  type BucketLevel,
  type BucketShape,
  type DayCount,
} from './token-bucket.ts';

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

/** Reported when nothing limits the request (Enterprise on a route without endpoint caps). */
export const UNLIMITED = 2_147_483_647;

export type Mode = 'check' | 'take' | 'peek';

export type Window = LimitDecision['window'];

/**
 * The binding bucket of one request, chosen as the buckets are visited: a refusing bucket beats any
 * that has room; among refusing ones the longest wait wins, among the others the fewest remaining;
 * then the lower limit; then the first visited. One per charge (or peek).
 */
export class Binding {
  found = false;
  refused = false;
  limit = 0;
  remaining = 0;
  resetAtMs = 0;
  waitMs = 0;
  window: Window = '1m';
  scope = '';

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

  /** The decision of the visit: the binding bucket's, or unlimited when none bound. */
  decision(tier: Tier, nowMs: number): LimitDecision {
    if (!this.found) return unlimitedDecision(tier, nowMs);
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

/** The last 429 message and reset text, rebuilt only when what they say changes. */
export class RejectionTexts {
  private limit = -1;
  private window: Window = '1m';
  private scope = '';
  private retryAfterSeconds = -1;
  private lastMessage = '';
  private resetAtMs = -1;
  private resetAtText = '';

  message(decision: LimitDecision): string {
    if (
      decision.limit !== this.limit ||
      decision.window !== this.window ||
      decision.scope !== this.scope ||
      decision.retryAfterSeconds !== this.retryAfterSeconds
    ) {
      this.limit = decision.limit;
      this.window = decision.window;
      this.scope = decision.scope;
      this.retryAfterSeconds = decision.retryAfterSeconds;
      const per = decision.window === '1m' ? 'minute' : 'day';
      this.lastMessage = `Rate limit exceeded: ${decision.limit} requests per ${per} (${decision.scope}). Retry in ${decision.retryAfterSeconds} s.`;
    }
    return this.lastMessage;
  }

  resetAt(atMs: number): string {
    if (atMs !== this.resetAtMs) {
      this.resetAtMs = atMs;
      this.resetAtText = isoTime(atMs);
    }
    return this.resetAtText;
  }
}

/** No bucket applies: the headers report the largest 32-bit integer and a reset of now. */
export function unlimitedDecision(tier: Tier, nowMs: number): LimitDecision {
  return {
    allowed: true,
    limit: UNLIMITED,
    remaining: UNLIMITED,
    resetAtSeconds: Math.ceil(nowMs / 1000),
    retryAfterSeconds: 0,
    window: '1m',
    scope: 'unlimited',
    tier,
    atMs: nowMs,
  };
}

/** `bucket` is undefined only when peeking at an identity never charged: a full bucket. */
export function visitBucket(
  binding: Binding,
  bucket: BucketLevel | undefined,
  shape: BucketShape,
  mode: Mode,
  nowMs: number,
): void {
  if (mode === 'peek') {
    const units = bucket === undefined ? shape.capacityUnits : unitsAt(bucket, shape, nowMs);
    const remaining = Math.floor(units / UNITS_PER_TOKEN);
    binding.offer(shape.perMinute, remaining, nowMs + msUntilFull(units, shape), '1m', shape.scope);
    return;
  }
  assert(bucket !== undefined, 'charged buckets exist');
  if (mode === 'check') {
    // Refills, and offers the bucket as a refusal when it lacks a whole token.
    refill(bucket, shape, nowMs);
    if (bucket.units < UNITS_PER_TOKEN) {
      const resetAtMs = nowMs + msUntilFull(bucket.units, shape);
      binding.offerRefusal(shape.perMinute, resetAtMs, msUntilToken(bucket.units, shape), '1m', shape.scope);
    }
    return;
  }
  // Take (every bucket passed the check): takes one token and offers what is left.
  bucket.units -= UNITS_PER_TOKEN;
  assert(bucket.units >= 0, 'a checked bucket had a token');
  const remaining = Math.floor(bucket.units / UNITS_PER_TOKEN);
  binding.offer(shape.perMinute, remaining, nowMs + msUntilFull(bucket.units, shape), '1m', shape.scope);
}

export function visitDay(
  binding: Binding,
  counter: DayCount | undefined,
  perDay: number,
  scope: string,
  mode: Mode,
  nowMs: number,
): void {
  if (mode === 'peek') {
    const count = counter === undefined ? 0 : countAt(counter, nowMs);
    binding.offer(perDay, perDay - count, count === 0 ? nowMs : nextMidnightMs(nowMs), '1d', scope);
    return;
  }
  assert(counter !== undefined, 'charged counters exist');
  if (mode === 'check') {
    rollDay(counter, nowMs);
    if (counter.count >= perDay) {
      const midnightMs = nextMidnightMs(nowMs);
      binding.offerRefusal(perDay, midnightMs, midnightMs - nowMs, '1d', scope);
    }
    return;
  }
  counter.count += 1;
  assert(counter.count <= perDay, 'a checked counter had room');
  binding.offer(perDay, perDay - counter.count, nextMidnightMs(nowMs), '1d', scope);
}
