/**
 * Time travel both ways for `afp serve` (as Anvil's evm_snapshot/evm_revert and Stripe's test
 * clocks): a snapshot names the whole platform as it is now; a revert makes the platform (and the
 * served clock) what it was then; a reset starts over from the served settings.
 *
 * Rules (docs/serve.md "afp serve"):
 * - Ids are `snap_<n>`, n counting from 1 over the life of the served history (a reset does not
 *   restart it): an id names one snapshot only, ever, so a stale id is a 404, never another state.
 * - A revert keeps the snapshot reverted to (it can be reverted to again) and drops every snapshot
 *   taken after it: they belong to a future that no longer happened (Anvil drops them too).
 * - A reset drops every snapshot.
 * - At most SNAPSHOTS_MAX snapshots are kept; one more is refused (409) — nothing is dropped
 *   silently; a revert or a reset frees them.
 * - Before a snapshot the platform is advanced to the served instant (due timers run, as before
 *   any request), so the snapshot's instant is the clock's; a timer due later is in the snapshot's
 *   queue and fires again after a revert only if the history that follows reaches it again.
 * Durability (afp serve --data): each move is a command (recorded before it is applied, like the
 * other admin rows); recovery replays it with these same functions, and the ids must match.
 * Non-goals: snapshots across processes without --data (they are memory); partial reverts.
 */
import { assert } from '../core/assert.ts';
import { fail, type Failure } from '../core/errors.ts';
import { captureSliced, replaceSliced, restoreSliced, type PlatformImage } from '../platform/platform-snapshot.ts';
import { Platform, type PlatformOptions } from '../platform/platform.ts';
import { runWhole, type SlicedJob } from './platform-lock.ts';

/** Snapshots held at once (each is a copy of the whole platform). */
export const SNAPSHOTS_MAX = 32;

const ID_PATTERN = /^snap_[1-9]\d{0,15}$/;

export interface SnapshotEntry {
  readonly id: string;
  readonly atMs: number;
  readonly image: PlatformImage;
}

export class TimeTravel {
  private readonly platform: Platform;
  private readonly settings: PlatformOptions;
  /** Oldest first; ids increase along the list. */
  private readonly snapshots: SnapshotEntry[] = [];
  private lastNumber = 0;

  /** `settings`: what the served platform was built from (a reset builds it again). */
  constructor(platform: Platform, settings: PlatformOptions) {
    this.platform = platform;
    this.settings = settings;
  }

  /** The id the next snapshot gets, or 409 when SNAPSHOTS_MAX are held. */
  nextSnapshotId(): string | Failure {
    if (this.snapshots.length >= SNAPSHOTS_MAX)
      return fail('CONFLICT', `at most ${SNAPSHOTS_MAX} snapshots are kept; revert or reset to free some`, {
        snapshots_max: SNAPSHOTS_MAX,
      });
    return `snap_${this.lastNumber + 1}`;
  }

  /** Takes snapshot `id` (the one nextSnapshotId gave) at `atMs`, the served instant. */
  takeSnapshot(id: string, atMs: number): SnapshotEntry {
    return runWhole(this.snapshotJob(id, atMs));
  }

  /**
   * `takeSnapshot` as a sliced job (afp serve runs it under its platform lock, platform-lock.ts):
   * the platform is advanced to `atMs` now, copied step by step, and the snapshot is held (and
   * its id used) only at the finish. The platform must not change until then.
   */
  snapshotJob(id: string, atMs: number): SlicedJob<SnapshotEntry> {
    assert(id === this.nextSnapshotId(), `snapshot ids are handed out in order (${id})`);
    this.platform.advanceTo(atMs);
    const copy = captureSliced(this.platform);
    return {
      step: (units) => copy.step(units),
      finish: () => {
        assert(id === this.nextSnapshotId(), `no snapshot is taken during another (${id})`);
        const entry = { id, atMs, image: copy.result() };
        this.snapshots.push(entry);
        this.lastNumber++;
        return entry;
      },
    };
  }

  /** The snapshot named `id`: 400 for a value that is not an id, 404 for one not held. */
  find(id: unknown): SnapshotEntry | Failure {
    if (typeof id !== 'string' || !ID_PATTERN.test(id))
      return fail('BAD_REQUEST', 'id must be a snapshot id ("snap_<n>", as POST /_afp/snapshot answered)');
    const entry = this.snapshots.find((candidate) => candidate.id === id);
    return (
      entry ??
      fail('NOT_FOUND', `no snapshot '${id}' (never taken, or dropped by a revert to an earlier one or a reset)`, {
        id,
      })
    );
  }

  /** Makes the platform what snapshot `id` holds; drops the later ones. Returns the dropped ids. */
  revert(entry: SnapshotEntry): string[] {
    return runWhole(this.revertJob(entry));
  }

  /** `revert` as a sliced job: the platform is unchanged until the finish, which makes it the snapshot's at once. */
  revertJob(entry: SnapshotEntry): SlicedJob<string[]> {
    assert(this.snapshots.includes(entry), `revert to a held snapshot (${entry.id})`);
    const copy = restoreSliced(entry.image, this.platform);
    return {
      step: (units) => copy.step(units),
      finish: () => {
        copy.result();
        const index = this.snapshots.indexOf(entry);
        assert(index >= 0, `the snapshot reverted to is still held (${entry.id})`);
        return this.snapshots.splice(index + 1).map((dropped) => dropped.id);
      },
    };
  }

  /** The platform of the served settings, from the start; every snapshot dropped. Returns their ids. */
  reset(): string[] {
    return runWhole(this.resetJob());
  }

  /**
   * `reset` as a sliced job: a fresh platform of the served settings is copied into the live one
   * (its copy is small, whatever the state was), which is unchanged until the finish.
   */
  resetJob(): SlicedJob<string[]> {
    const copy = replaceSliced(new Platform(this.settings), this.platform);
    return {
      step: (units) => copy.step(units),
      finish: () => {
        copy.result();
        return this.snapshots.splice(0).map((dropped) => dropped.id);
      },
    };
  }

  /** The instant a reset returns to. */
  get startMs(): number {
    return this.settings.startMs;
  }

  /** Held snapshots, oldest first. */
  list(): readonly SnapshotEntry[] {
    return this.snapshots;
  }

  /** The number of the last id handed out (checkpoints store it). */
  get lastSnapshotNumber(): number {
    return this.lastNumber;
  }

  /** Recovery from a checkpoint: the bookkeeping and the held snapshots it stored. */
  restoreHeld(lastNumber: number, held: readonly SnapshotEntry[]): void {
    assert(
      this.snapshots.length === 0 && this.lastNumber === 0 && held.length <= SNAPSHOTS_MAX,
      'held snapshots are restored once, into a fresh TimeTravel',
    );
    this.lastNumber = lastNumber;
    this.snapshots.push(...held);
  }
}
