/**
 * A string-keyed lookup table split over SHARDS maps, for the tables that gain one entry per agent
 * (the registry's indexes, the ledger's accounts, the faucet's records, the limiter's entries).
 * Why: a JavaScript Map grows by rehashing every entry at once when it fills, and the tables a
 * registration writes all fill on the same request: at 2^19 agents afp serve stopped answering for
 * 167 and then 439 ms (issue 71 part 1). Split by the key's last characters, each shard holds
 * about 1/SHARDS of the entries and grows on its own request, so a growth costs about 1/SHARDS.
 * Lookups only: the table has no iteration (its users keep their own order, as they already did,
 * so what they list and what the state digest encodes does not depend on how keys hash).
 * Pure, deterministic: the shard of a key is a function of its characters.
 */
const SHARDS = 64;
const SHARD_MASK = SHARDS - 1;

/** The shard of `key`: its last three character codes mixed (keys end in their varying part: ids, hashes, addresses). */
function shardOf(key: string): number {
  const last = key.length - 1;
  const a = last >= 0 ? key.charCodeAt(last) : 0;
  const b = last >= 1 ? key.charCodeAt(last - 1) : 0;
  const c = last >= 2 ? key.charCodeAt(last - 2) : 0;
  return (a * 31 * 31 + b * 31 + c + key.length) & SHARD_MASK;
}

export class ShardedMap<V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return (this.shards[shardOf(key)] as Map<string, V>).get(key);
  }

  has(key: string): boolean {
    return (this.shards[shardOf(key)] as Map<string, V>).has(key);
  }

  set(key: string, value: V): this {
    const shard = this.shards[shardOf(key)] as Map<string, V>;
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
    return this;
  }

  delete(key: string): boolean {
    const deleted = (this.shards[shardOf(key)] as Map<string, V>).delete(key);
    if (deleted) this.count--;
    return deleted;
  }
}
