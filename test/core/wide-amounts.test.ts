// WideAmounts: amounts inside int64 live in their cell; larger ones (either sign) come back exact
// from the side map, per (row sequence, column); forgetting a row's column drops only that value.
import { describe, expect, test } from 'vitest';
import { WideAmounts } from '../../src/core/wide-amounts.ts';

const COLUMNS = 4;

describe('WideAmounts', () => {
  test('every amount reads back exactly, int64 or not', () => {
    const amounts = new BigInt64Array(3 * COLUMNS);
    const wide = new WideAmounts(COLUMNS);
    const values = [
      0n,
      -(2n ** 63n) + 1n,
      2n ** 63n - 1n,
      2n ** 63n,
      -(2n ** 63n),
      10n ** 30n,
      -(10n ** 30n),
      1_000_000n,
    ];
    values.forEach((value, index) => {
      const cell = (index % 3) * COLUMNS + (index % COLUMNS);
      wide.set(amounts, cell, 100 + index, value);
      expect(wide.get(amounts, cell, 100 + index)).toBe(value);
    });
  });

  test('forget drops one row column; the others stay', () => {
    const amounts = new BigInt64Array(2 * COLUMNS);
    const wide = new WideAmounts(COLUMNS);
    wide.set(amounts, 1, 7, 10n ** 25n);
    wide.set(amounts, COLUMNS + 1, 8, 10n ** 26n);
    wide.forget(7, 1);
    expect(wide.get(amounts, 1, 7)).toBeUndefined();
    expect(wide.get(amounts, COLUMNS + 1, 8)).toBe(10n ** 26n);
  });
});
