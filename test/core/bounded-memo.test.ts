// BoundedMemo (src/core/bounded-memo.ts): computes once per key, keeps at most max entries, and
// forgets the oldest first.
import { describe, expect, test } from 'vitest';
import { BoundedMemo } from '../../src/core/bounded-memo.ts';

describe('BoundedMemo', () => {
  test('computes a key once, null answers included', () => {
    const memo = new BoundedMemo<string, number | null>(4);
    let calls = 0;
    const compute = (key: string): number | null => {
      calls++;
      return key === 'none' ? null : key.length;
    };
    expect(memo.get('abc', compute)).toBe(3);
    expect(memo.get('abc', compute)).toBe(3);
    expect(memo.get('none', compute)).toBeNull();
    expect(memo.get('none', compute)).toBeNull();
    expect(calls).toBe(2);
  });

  test('keeps at most max entries and forgets the oldest', () => {
    const memo = new BoundedMemo<number, number>(2);
    const seen: number[] = [];
    const square = (key: number): number => {
      seen.push(key);
      return key * key;
    };
    memo.get(1, square);
    memo.get(2, square);
    memo.get(3, square);
    expect(memo.size).toBe(2);
    expect(memo.get(3, square)).toBe(9);
    expect(memo.get(2, square)).toBe(4);
    expect(memo.get(1, square)).toBe(1);
    expect(seen).toEqual([1, 2, 3, 1]);
  });

  test('refuses a bound below one', () => {
    expect(() => new BoundedMemo(0)).toThrow('a memo holds at least one entry');
  });
});
