// The retention bound of the casino books' finished records (src/services/casino/retention.ts): the
// oldest ids beyond the bound are dropped oldest first, the live ids are the newest `max`, and the
// dropped prefix is cut away once it is most of the array (the array stays within twice the bound).
import { describe, expect, test } from 'vitest';
import { retainNewest } from '../../../src/services/casino/retention.ts';

describe('retainNewest', () => {
  test('drops the oldest beyond the bound, oldest first; the newest stay', () => {
    const ids: string[] = [];
    const dropped: string[] = [];
    let head = 0;
    for (let index = 0; index < 5; index += 1) {
      ids.push(`r${index}`);
      head = retainNewest(ids, head, 3, (id) => dropped.push(id));
    }
    expect(dropped).toEqual(['r0', 'r1']);
    expect(ids.slice(head)).toEqual(['r2', 'r3', 'r4']);
  });

  test('the dropped prefix is cut away: the array stays within twice the bound and the live ids are kept', () => {
    const ids: string[] = [];
    let dropped = 0;
    let head = 0;
    let longest = 0;
    for (let index = 0; index < 20_000; index += 1) {
      ids.push(`r${index}`);
      head = retainNewest(ids, head, 2_000, () => (dropped += 1));
      longest = Math.max(longest, ids.length);
    }
    expect(dropped).toBe(18_000);
    expect(longest).toBeLessThanOrEqual(2 * 2_000 + 1);
    expect(ids.slice(head)).toEqual(Array.from({ length: 2_000 }, (_, offset) => `r${18_000 + offset}`));
  });
});
