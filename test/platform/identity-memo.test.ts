// The memo by identity of the graph copy and the state text (src/platform/identity-memo.ts): over
// more entries than one shard holds, every key finds its own value, equal-looking objects stay
// apart, and the size counts every entry.
import { describe, expect, test } from 'vitest';
import { IdentityMemo } from '../../src/platform/identity-memo.ts';

describe('IdentityMemo', () => {
  test('300,000 objects (three shards) each find their own value; a key not set finds nothing', () => {
    const memo = new IdentityMemo<number>();
    const keys = Array.from({ length: 300_000 }, () => ({}));
    keys.forEach((key, index) => memo.set(key, index));
    expect(memo.size).toBe(300_000);
    for (const index of [0, 1, 131_071, 131_072, 262_143, 262_144, 299_999]) expect(memo.get(keys[index])).toBe(index);
    expect(keys.every((key, index) => memo.get(key) === index)).toBe(true);
    expect(memo.get({})).toBeUndefined();
    expect(memo.get('x')).toBeUndefined();
  });
});
