/**
 * What the rate limiter holds per identity: the tier bucket and daily count (inline, one object),
 * the style-B service rows and endpoint caps it has met, and `LimiterHandle`, a caller-held
 * shortcut to an identity's entry.
 *
 * Why handles: the limiter runs on every request, and finding an identity's entry in a large Map
 * costs memory accesses on each one. Platform keeps one handle per authenticated key; while the
 * entry it points to is held (in the limiter's map, under the same identity, of the same limiter)
 * `charge` uses it directly. Invariant: `held` is true exactly while the entry is in its
 * limiter's map; eviction clears it, so a handle never revives a dropped entry.
 * Non-goals: policy and arithmetic (rate-limiter.ts, token-bucket.ts).
 */
import { BucketAndDay, type BucketShape, type DayCounter } from './token-bucket.ts';

/** A style-B per-service row: a minute bucket and an optional daily quota. */
export interface ServiceRow {
  readonly minute: BucketShape;
  readonly perDay: number | null;
  readonly dailyScope: string;
}

/** One identity's state for one service row. */
export class ServiceEntry extends BucketAndDay {
  readonly row: ServiceRow;

  constructor(row: ServiceRow, nowMs: number) {
    super(row.minute.capacityUnits, nowMs);
    this.row = row;
  }
}

/** Everything held for one identity: its tier bucket and daily count inline, sub-maps on first use. */
export class IdentityEntry extends BucketAndDay {
  readonly identity: string;
  /** The limiter whose map holds this entry. */
  readonly owner: object;
  /** True while the entry is in `owner`'s map (see the header). */
  held = true;
  /** The tier shape last applied to the bucket (null until a limited tier is seen). */
  tierShape: BucketShape | null;
  services: Map<string, ServiceEntry> | null = null;
  endpoints: Map<string, DayCounter> | null = null;

  constructor(options: { identity: string; owner: object; tierShape: BucketShape | null; nowMs: number }) {
    super(options.tierShape === null ? 0 : options.tierShape.capacityUnits, options.nowMs);
    this.identity = options.identity;
    this.owner = options.owner;
    this.tierShape = options.tierShape;
  }
}

/** A shortcut to one identity's entry, kept by the caller (one per authenticated key). */
export class LimiterHandle {
  /** Written by the limiter only. */
  entry: IdentityEntry | null = null;
}
