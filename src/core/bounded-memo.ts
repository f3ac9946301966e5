/**
 * BoundedMemo: the answers of a pure, costly function remembered by key, at most `max` of them;
 * when full, the oldest is forgotten. Why one piece: afp remembers such answers in several places
 * (a deployed game's laws, payout decimals, a check's derived wallets, replay's endpoint names),
 * and each had written the same get / compute / evict / set with its own bound and eviction rule.
 * Invariants: at most `max` entries; the value for a key is what `compute` returned for it (a
 * remembered `undefined` or `null` is an answer too); nothing is forgotten but the oldest entry.
 */
import { assert } from './assert.ts';

export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly max: number;

  constructor(max: number) {
    assert(Number.isSafeInteger(max) && max >= 1, 'a memo holds at least one entry');
    this.max = max;
  }

  /** The remembered answer for `key`, computed (and remembered) the first time. */
  get(key: K, compute: (key: K) => V): V {
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const value = compute(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
