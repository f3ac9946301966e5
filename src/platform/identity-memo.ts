/**
 * A memo by identity over every object of a platform (about nine per registered agent: 600k at
 * 67k agents): the graph copy's source → copy (graph-copy.ts), the state text's object → id
 * (state-codec.ts, GET /_afp/digest and checkpoints).
 *
 * Why not one Map: a Map grows by rehashing its whole table at once, inside the one `set` that
 * crosses its capacity, and that cannot be split: a memo crossing 524,288 entries rehashed them in
 * ~35 ms of CPU and one crossing 1,048,576 in ~90 ms, inside a single step of a sliced copy — longer
 * than a slice itself (afp serve's /health waits behind it, src/server/platform-lock.ts). Here the
 * entries fill Maps of at most SHARD_ENTRIES each, a new one started when the last is full, so no
 * rehash ever moves more than SHARD_ENTRIES entries (a few ms). A lookup asks each shard, newest
 * first (the newest objects are met again soonest: a container's copy is looked up when it is
 * filled); with n entries that is n / SHARD_ENTRIES lookups at most, five at 600k.
 * Invariant: a key is set once (the copier looks it up before it copies), so shards never overlap.
 */

/** Entries per shard: its last rehash moves 65,536 entries (~4 ms of CPU here). */
const SHARD_ENTRIES = 131_072;

export class IdentityMemo<V> {
  /** Oldest first; every shard but the last is full. */
  private readonly shards: Map<unknown, V>[] = [new Map()];
  private entries = 0;

  /** The value remembered for `key` (undefined: none; a value is never undefined). */
  get(key: unknown): V | undefined {
    for (let index = this.shards.length - 1; index >= 0; index--) {
      const found = (this.shards[index] as Map<unknown, V>).get(key);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Remembers `key` → `value`; `key` must not be held yet. */
  set(key: unknown, value: V): void {
    let last = this.shards[this.shards.length - 1] as Map<unknown, V>;
    if (last.size >= SHARD_ENTRIES) {
      last = new Map();
      this.shards.push(last);
    }
    last.set(key, value);
    this.entries++;
  }

  get size(): number {
    return this.entries;
  }
}
