/**
 * `--shard i/n`: one of n machines runs its part of a load run; `afp load merge` of their result
 * files gives the one report (merge-files.ts).
 *
 * What a shard takes: every n-th ARRIVAL of the schedule, starting at the i-th (arrival k, counted
 * from 0 in schedule order, belongs to shard (k mod n) + 1). Each machine keeps the schedule's own
 * instants, so the n machines together send exactly the whole schedule, interleaved as one
 * generator would (with their clocks in step, as NTP keeps them to a few ms), and each carries
 * 1/n of the rate whatever the ramp. Splitting by time slices instead would leave each machine
 * idle most of the run; scaling the rate by 1/n would round a ramp's small rates differently on
 * every machine.
 * Counts split the same way (`shardShare`, `shardArrivals` over indexes): VUs, the in-flight cap
 * and the populations' agents, so agent k of a population is run by exactly one shard, under the
 * same identity and rng stream it has in an unsharded run; n machines register each agent once.
 * `i` is 1-based in the text (`--shard 1/3`, as Playwright and k6 users write it).
 * Non-goals: starting the machines or keeping their clocks in step.
 */
import { assert } from '../core/assert.ts';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export const SHARD_COUNT_MAX = 1_000;

/** The whole run as one shard. */
export const WHOLE: Shard = { index: 1, count: 1 };

/** `i/n` with 1 ≤ i ≤ n ≤ SHARD_COUNT_MAX, or why not. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text);
  if (match === null) return `--shard must be i/n (e.g. 1/3), got '${text}'`;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > SHARD_COUNT_MAX) return `--shard ${text}: n must be 1..${SHARD_COUNT_MAX}`;
  if (index < 1 || index > count) return `--shard ${text}: i must be 1..${count}`;
  return { index, count };
}

export function shardLabel(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

function checkShard(shard: Shard): void {
  const { index, count } = shard;
  assert(
    Number.isSafeInteger(count) && count >= 1 && count <= SHARD_COUNT_MAX,
    'a shard count is 1..SHARD_COUNT_MAX (parseShard)',
  );
  assert(Number.isSafeInteger(index) && index >= 1 && index <= count, 'a shard index is 1..count (parseShard)');
}

/**
 * This shard's arrivals, lazily, in schedule order: the (i-1)-th, then every n-th after it. The
 * schedule may be endless (a generator); the shard is as long as its share of it.
 */
export function* shardArrivals<T>(arrivals: Iterable<T>, shard: Shard): Generator<T, void, undefined> {
  checkShard(shard);
  let position = 0;
  const mine = shard.index - 1;
  for (const arrival of arrivals) {
    if (position === mine) yield arrival;
    position = position + 1 === shard.count ? 0 : position + 1;
  }
}

/** This shard's share of `total` (VUs, the in-flight cap, a population's agents): the shares of all n add up to `total`. */
export function shardShare(total: number, shard: Shard): number {
  checkShard(shard);
  assert(Number.isSafeInteger(total) && total >= 0, 'a count to share is a whole number');
  return Math.floor(total / shard.count) + (shard.index - 1 < total % shard.count ? 1 : 0);
}

/** The indexes (0-based, ascending) of the `total` items this shard runs: agent k of a population keeps its identity. */
export function shardIndexes(total: number, shard: Shard): number[] {
  return Array.from({ length: shardShare(total, shard) }, (_, k) => shard.index - 1 + k * shard.count);
}
