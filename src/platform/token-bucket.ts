/**
 * Token buckets and daily counters in exact integer arithmetic: the state of the rate limiter.
 *
 * A bucket's level is held in units of 1/60,000 token, so a bucket refilled at `perMinute` tokens
 * per minute gains exactly `perMinute` units per millisecond: refill is integer math for any
 * integer rate, with no rounding and no drift. One request costs UNITS_PER_TOKEN units.
 * Invariants: 0 <= units, and units <= the capacity of the shape last applied; `lastMs` only moves
 * forward; every value is a safe integer (checked once per shape, in `bucketShape`).
 * A daily counter counts the requests of one UTC calendar day (day index = floor(ms / DAY_MS)).
 * The functions work on any object with the fields (`BucketLevel`, `DayCount`), so a bucket and
 * a counter that are always used together live in one object (`BucketAndDay`): the limiter runs
 * on every request, and one object is one memory access where two objects would be two.
 * Non-goals: policy (which buckets apply, which one binds) lives in rate-limiter.ts.
 */
import { assert } from '../core/assert.ts';
import { DAY_MS } from '../core/clock.ts';

export const UNITS_PER_TOKEN = 60_000;

/** What a bucket is: its sustained rate, its capacity and the name it is reported under. */
export interface BucketShape {
  /** Requests per minute: the header's limit, and the refill in units per millisecond. */
  readonly perMinute: number;
  readonly capacityUnits: number;
  /** Reported as `LimitDecision.scope`, e.g. 'tier', 'service:faucet'. */
  readonly scope: string;
}

export function bucketShape(perMinute: number, capacity: number, scope: string): BucketShape {
  assert(Number.isSafeInteger(perMinute) && perMinute >= 1, `${scope}: perMinute is a positive integer (${perMinute})`);
  assert(Number.isSafeInteger(capacity) && capacity >= 1, `${scope}: capacity is a positive integer (${capacity})`);
  const capacityUnits = capacity * UNITS_PER_TOKEN;
  // unitsAt multiplies at most capacityUnits ms by perMinute; keep that product exact.
  assert(capacityUnits * perMinute * 2 <= Number.MAX_SAFE_INTEGER, `${scope}: refill arithmetic stays exact`);
  return { perMinute, capacityUnits, scope };
}

/** A bucket's level, in units, as of `lastMs`. */
export interface BucketLevel {
  units: number;
  lastMs: number;
}

/** The count of requests in the UTC day `dayIndex`. */
export interface DayCount {
  dayIndex: number;
  count: number;
}

export class TokenBucket implements BucketLevel {
  units: number;
  lastMs: number;

  constructor(units: number, lastMs: number) {
    this.units = units;
    this.lastMs = lastMs;
  }
}

/** The bucket's level at `nowMs` under `shape`, without changing it (a smaller shape clamps it). */
export function unitsAt(bucket: BucketLevel, shape: BucketShape, nowMs: number): number {
  const elapsedMs = nowMs - bucket.lastMs;
  if (elapsedMs <= 0) return Math.min(bucket.units, shape.capacityUnits);
  // Any wait of capacityUnits ms or more fills the bucket (the rate is >= 1 unit per ms);
  // capping the wait keeps the product exact after any idle time.
  const gainUnits = Math.min(elapsedMs, shape.capacityUnits) * shape.perMinute;
  return Math.min(bucket.units + gainUnits, shape.capacityUnits);
}

/** Brings the bucket's stored level up to `nowMs`. Idempotent: refilling is not consuming. */
export function refill(bucket: BucketLevel, shape: BucketShape, nowMs: number): void {
  bucket.units = unitsAt(bucket, shape, nowMs);
  if (nowMs > bucket.lastMs) bucket.lastMs = nowMs;
}

/** Milliseconds until a bucket holding `units` is full again. */
export function msUntilFull(units: number, shape: BucketShape): number {
  return ceilDiv(shape.capacityUnits - units, shape.perMinute);
}

/** Milliseconds until a bucket holding `units` holds one whole token (0 when it does). */
export function msUntilToken(units: number, shape: BucketShape): number {
  return units >= UNITS_PER_TOKEN ? 0 : ceilDiv(UNITS_PER_TOKEN - units, shape.perMinute);
}

/** Requests counted in one UTC calendar day; `dayIndex` = floor(ms / DAY_MS). */
export class DayCounter implements DayCount {
  dayIndex: number;
  count = 0;

  constructor(nowMs: number) {
    this.dayIndex = dayIndexOf(nowMs);
  }
}

/** A token bucket and a daily counter that are always charged together, in one object. */
export class BucketAndDay implements BucketLevel, DayCount {
  units: number;
  lastMs: number;
  dayIndex: number;
  count = 0;

  constructor(units: number, nowMs: number) {
    this.units = units;
    this.lastMs = nowMs;
    this.dayIndex = dayIndexOf(nowMs);
  }
}

export function dayIndexOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The count of the UTC day of `nowMs`, without changing the counter. */
export function countAt(counter: DayCount, nowMs: number): number {
  return counter.dayIndex === dayIndexOf(nowMs) ? counter.count : 0;
}

/** Starts a new day's count when `nowMs` is in a later UTC day than the counter's. */
export function rollDay(counter: DayCount, nowMs: number): void {
  const today = dayIndexOf(nowMs);
  if (today > counter.dayIndex) {
    counter.dayIndex = today;
    counter.count = 0;
  }
}

/** The next UTC midnight strictly after `nowMs`. */
export function nextMidnightMs(nowMs: number): number {
  return (dayIndexOf(nowMs) + 1) * DAY_MS;
}

/** ceil(numerator / denominator) for non-negative safe integers, exactly. */
function ceilDiv(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  return quotient * denominator < numerator ? quotient + 1 : quotient;
}
