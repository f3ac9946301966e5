// Growing a full ring: rows come out oldest first from slot 0, new rows empty.
import { describe, expect, test } from 'vitest';
import { unrolledCells, unrolledRows } from '../../src/core/ring-rows.ts';

describe('ring rows', () => {
  test('a full ring of 3 two-cell rows starting at row 1 unrolls into 5 rows, oldest first', () => {
    // Rows in slot order: [r2], [r0 (oldest)], [r1]; start = 1.
    const cells = Float64Array.from([20, 21, 0, 1, 10, 11]);
    expect([...unrolledCells(cells, 1, 2, 5)]).toEqual([0, 1, 10, 11, 20, 21, 0, 0, 0, 0]);
    expect(unrolledRows(['c', 'a', 'b'], 1, 1, 5, null)).toEqual(['a', 'b', 'c', null, null]);
  });

  test('a ring starting at slot 0 keeps its order', () => {
    expect([...unrolledCells(Float64Array.from([1, 2]), 0, 1, 4)]).toEqual([1, 2, 0, 0]);
    expect(unrolledRows(['x', 'y'], 0, 1, 3, '')).toEqual(['x', 'y', '']);
  });
});
