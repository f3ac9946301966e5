// --shard i/n: every n-th arrival from the i-th, by exact offsets; the shards together are the
// whole schedule; counts (VUs, agents) split so the shares add up and each index has one owner.
import { describe, expect, test } from 'vitest';
import { workerShard } from '../../src/load/load-workers.ts';
import {
  parseShard,
  shardArrivals,
  shardIndexes,
  shardLabel,
  shardShare,
  WHOLE,
  type Shard,
} from '../../src/load/shard.ts';

/** A constant arrival rate as offsets: `rate` per second for `seconds` (what an executor schedules). */
function* constantOffsets(rate: number, seconds: number): Generator<number> {
  for (let k = 0; k < rate * seconds; k++) yield (k * 1000) / rate;
}

const shards = (count: number): Shard[] => Array.from({ length: count }, (_, index) => ({ index: index + 1, count }));

describe('shardArrivals', () => {
  test('10/s for 1 s over 3 shards, by exact offsets', () => {
    expect([...shardArrivals(constantOffsets(10, 1), { index: 1, count: 3 })]).toEqual([0, 300, 600, 900]);
    expect([...shardArrivals(constantOffsets(10, 1), { index: 2, count: 3 })]).toEqual([100, 400, 700]);
    expect([...shardArrivals(constantOffsets(10, 1), { index: 3, count: 3 })]).toEqual([200, 500, 800]);
  });

  test('a ramp: the shards together are the whole schedule, each carries 1/n of it', () => {
    // Arrivals of a linear ramp 0 → 200/s over 10 s: the k-th at sqrt(k / 10) s (k/10 arrivals by t² · 10).
    const ramp = Array.from({ length: 1_000 }, (_, k) => Math.round(Math.sqrt(k / 10) * 1000));
    const parts = shards(7).map((shard) => [...shardArrivals(ramp, shard)]);
    expect(parts.flat().sort((a, b) => a - b)).toEqual(ramp);
    expect(parts.map((part) => part.length)).toEqual([143, 143, 143, 143, 143, 143, 142]);
    // Each shard keeps the schedule's own instants: shard 2's third arrival is the whole schedule's 16th.
    expect(parts[1]![2]).toBe(ramp[15]);
  });

  test('an endless schedule is taken lazily; one shard is the whole', () => {
    function* endless(): Generator<number> {
      for (let k = 0; ; k++) yield k;
    }
    const taken: number[] = [];
    for (const arrival of shardArrivals(endless(), { index: 4, count: 5 })) {
      taken.push(arrival);
      if (taken.length === 3) break;
    }
    expect(taken).toEqual([3, 8, 13]);
    expect([...shardArrivals([5, 6, 7], WHOLE)]).toEqual([5, 6, 7]);
  });
});

describe('shardShare and shardIndexes', () => {
  test('shares add up to the total; indexes have exactly one owner', () => {
    for (const [total, count] of [
      [0, 3],
      [1, 3],
      [10, 3],
      [100, 7],
      [5, 5],
      [3, 10],
    ] as const) {
      const all = shards(count);
      expect(all.reduce((sum, shard) => sum + shardShare(total, shard), 0)).toBe(total);
      const owned = all.flatMap((shard) => shardIndexes(total, shard));
      expect(owned.sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, k) => k));
    }
    expect(shards(3).map((shard) => shardShare(10, shard))).toEqual([4, 3, 3]);
    expect(shardIndexes(10, { index: 2, count: 3 })).toEqual([1, 4, 7]);
  });
});

describe('parseShard', () => {
  test('i/n, 1-based, bounded; errors say why', () => {
    expect(parseShard('1/3')).toEqual({ index: 1, count: 3 });
    expect(parseShard('3/3')).toEqual({ index: 3, count: 3 });
    expect(shardLabel({ index: 2, count: 5 })).toBe('2/5');
    expect(parseShard('0/3')).toBe('--shard 0/3: i must be 1..3');
    expect(parseShard('4/3')).toBe('--shard 4/3: i must be 1..3');
    expect(parseShard('1/0')).toBe('--shard 1/0: n must be 1..1000');
    expect(parseShard('1/1001')).toBe('--shard 1/1001: n must be 1..1000');
    expect(parseShard('1of3')).toBe("--shard must be i/n (e.g. 1/3), got '1of3'");
    expect(parseShard('-1/3')).toBe("--shard must be i/n (e.g. 1/3), got '-1/3'");
  });
});

describe('workers within shards', () => {
  test("worker k of N on machine i/n runs exactly its machine's arrivals, each once", () => {
    const arrivals = Array.from({ length: 60 }, (_, index) => index);
    for (const machine of [
      { index: 1, count: 1 },
      { index: 2, count: 3 },
    ]) {
      const mine = [...shardArrivals(arrivals, machine)];
      const byWorkers = [1, 2, 3, 4]
        .flatMap((k) => [...shardArrivals(arrivals, workerShard(machine, k, 4))])
        .sort((a, b) => a - b);
      expect(byWorkers).toEqual(mine);
    }
  });
});
