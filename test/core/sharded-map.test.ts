// ShardedMap (src/core/sharded-map.ts): a string-keyed lookup table over 64 maps, so the tables a
// registration writes do not all rehash on one request. It answers as one Map would.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ShardedMap } from '../../src/core/sharded-map.ts';

test('get, has, set, delete and size answer as a Map does, over any sequence of operations', () => {
  const operation = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.string({ maxLength: 6 }), value: fc.integer() }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.string({ maxLength: 6 }) }),
  );
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
      const sharded = new ShardedMap<number>();
      const plain = new Map<string, number>();
      for (const step of operations) {
        if (step.kind === 'set') {
          sharded.set(step.key, step.value);
          plain.set(step.key, step.value);
        } else expect(sharded.delete(step.key)).toBe(plain.delete(step.key));
        expect(sharded.size).toBe(plain.size);
      }
      for (const step of operations) {
        expect(sharded.get(step.key)).toBe(plain.get(step.key));
        expect(sharded.has(step.key)).toBe(plain.has(step.key));
      }
    }),
    { seed: 71, numRuns: 200 },
  );
});

test('keys that differ only in their last characters spread over the shards (agent ids, hashes, addresses)', () => {
  const sharded = new ShardedMap<number>();
  for (let index = 0; index < 64_000; index++) sharded.set(`agent:wrk1-${index}`, index);
  const sizes = (sharded as unknown as { shards: Map<string, number>[] }).shards.map((shard) => shard.size);
  expect(sharded.size).toBe(64_000);
  // No shard holds more than a few times its share (1,000): a growth costs a small part of the whole.
  expect(Math.max(...sizes)).toBeLessThan(4_000);
  expect(sizes.filter((size) => size === 0)).toEqual([]);
});
