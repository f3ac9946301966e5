/**
 * What the rate limiter holds per identity: the tier bucket and daily count (inline, one object),
 * the style-B service rows and endpoint caps it has met, and `LimiterHandle`, a caller-held
 * shortcut to an identity's entry.
 *
 * Why handles: the limiter runs on every request, and finding an identity's entry in a large Map
 * costs memory accesses on each one. Platform's record of an authenticated key is itself a handle
 * (one object fewer to touch); while the entry it points to is held (in the limiter's map, under
 * the same identity, of the same limiter) `charge` uses it directly. Invariant: `held` is true
 * exactly while the entry is in its limiter's map; eviction clears it, so a handle never revives a
 * dropped entry.
 * Why a chain of service entries, not a Map: an identity meets at most one entry per configured
 * style-B row (a handful), and a request touches one. Linked from the identity entry, most
 * recently used first, the usual case is one hop from an object already in cache, where a Map
 * costs its table and a hash probe (the misses of a first touch).
 * Why `older`/`newer`: the limiter keeps every entry it holds (identities and per-IP register
 * buckets alike) on one list by last use, so that making room is O(1): the least recently used
 * entry is at one end (rate-limiter.ts `admit`). Both links are null while the entry is not held.
 * Non-goals: policy and arithmetic (rate-limiter.ts, token-bucket.ts).
 */
import { BucketAndDay, dayIndexOf, type BucketShape, type DayCounter } from './token-bucket.ts';

/** A style-B per-service row: a minute bucket and an optional daily quota. */
export interface ServiceRow {
  readonly minute: BucketShape;
  readonly perDay: number | null;
  readonly dailyScope: string;
}

/** One identity's state for one service row. */
export class ServiceEntry extends BucketAndDay {
  readonly row: ServiceRow;
  /** The identity's next service entry (see the header); null at the end. */
  next: ServiceEntry | null;

  constructor(row: ServiceRow, nowMs: number, next: ServiceEntry | null) {
    super(row.minute.capacityUnits, nowMs);
    this.row = row;
    this.next = next;
  }
}

/** Everything held for one identity: its tier bucket and daily count inline, sub-maps on first use. */
export class IdentityEntry extends BucketAndDay {
  readonly identity: string;
  /** The limiter whose map holds (or may hold) this entry; null: none (a handle never adopted). */
  readonly owner: object | null;
  /** True while the entry is in `owner`'s map (see the header). */
  held = false;
  /** The tier shape last applied to the bucket (null until a limited tier is seen). */
  tierShape: BucketShape | null = null;
  /** Head of the chain of service entries, most recently used first (at most one per row). */
  services: ServiceEntry | null = null;
  endpoints: Map<string, DayCounter> | null = null;
  /** The neighbours on the limiter's list by last use (see the header); null at the ends or when not held. */
  older: IdentityEntry | null = null;
  newer: IdentityEntry | null = null;
  /** True for a per-IP register bucket (held in the limiter's IP map, its bucket under `tierShape`). */
  registerIp = false;

  constructor(identity: string, owner: object | null) {
    super(0, 0);
    this.identity = identity;
    this.owner = owner;
  }

  /** Makes this the identity's fresh entry as of `nowMs` (full tier bucket, no count), held by its owner. */
  start(tierShape: BucketShape | null, nowMs: number): void {
    this.units = tierShape === null ? 0 : tierShape.capacityUnits;
    this.lastMs = nowMs;
    this.dayIndex = dayIndexOf(nowMs);
    this.count = 0;
    this.tierShape = tierShape;
    this.services = null;
    this.endpoints = null;
    this.held = true;
  }
}

/**
 * A shortcut to one identity's entry, kept by the caller (one per authenticated key). Built for an
 * identity and a limiter, a handle is itself an entry the limiter may adopt as that identity's
 * (when none is held): the caller's record and the limiter's state are then one object, one
 * memory access on every request where two objects cost two.
 */
export class LimiterHandle extends IdentityEntry {
  /** The entry in use for the identity (possibly this one); written by the limiter only. */
  entry: IdentityEntry | null = null;

  /** Without arguments: a handle the limiter never adopts (it only remembers the entry). */
  constructor(identity = '', owner: object | null = null) {
    super(identity, owner);
  }
}

/** The identity's entry for `row`, moved to the head of its chain; undefined when never charged. */
export function findServiceEntry(entry: IdentityEntry, row: ServiceRow): ServiceEntry | undefined {
  let previous: ServiceEntry | null = null;
  for (let service = entry.services; service !== null; service = service.next) {
    if (service.row === row) {
      if (previous !== null) {
        previous.next = service.next;
        service.next = entry.services;
        entry.services = service;
      }
      return service;
    }
    previous = service;
  }
  return undefined;
}
