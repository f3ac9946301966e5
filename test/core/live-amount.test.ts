// LiveAmount (src/core/live-amount.ts): a live target's money read without loss — the shortest
// text of a double (float noise, exponent forms), decimal strings — with exact arithmetic and the
// comparison of a display field within its rounding.
import { describe, expect, test } from 'vitest';
import {
  addAmounts,
  compareAmounts,
  formatAmount,
  fromMicro,
  liveAmount,
  multiplyAmounts,
  multiplyByRatio,
  parseLiveAmount,
  roundAmount,
  subtractAmounts,
  toMicro,
  withinRounding,
  shownPlaces,
  roundedToFewerPlaces,
  displayRoundingMicro,
  type LiveAmount,
} from '../../src/core/live-amount.ts';
import { ratio } from '../../src/core/ratio.ts';

function read(value: unknown): LiveAmount {
  const parsed = parseLiveAmount(value);
  if (typeof parsed !== 'object') throw new Error(`not an amount: ${String(value)} (${parsed})`);
  return parsed;
}

describe('parseLiveAmount', () => {
  test('a double with float noise is read digit for digit', () => {
    expect(read(101.49949999999998)).toEqual({ units: 10149949999999998n, places: 14 });
    expect(formatAmount(read(101.49949999999998))).toBe('101.49949999999998');
  });

  test('0.1 + 0.2 is the double 0.30000000000000004, not 0.3', () => {
    const sum = read(0.1 + 0.2);
    expect(formatAmount(sum)).toBe('0.30000000000000004');
    expect(compareAmounts(sum, read('0.3'))).toBe(1);
  });

  test('exponent forms: 1e-7, 5e-324, 1e21, "2.5E+3"', () => {
    expect(formatAmount(read(1e-7))).toBe('0.0000001');
    expect(read(5e-324)).toEqual({ units: 5n, places: 324 });
    expect(formatAmount(read(1e21))).toBe('1000000000000000000000');
    expect(formatAmount(read('2.5E+3'))).toBe('2500');
    expect(formatAmount(read(-1.5e-10))).toBe('-0.00000000015');
    expect(formatAmount(read(50), 2)).toBe('50.00');
    expect(formatAmount(read(1.1287999999999996), 2)).toBe('1.1287999999999996');
  });

  test('decimal strings and integers; trailing zeros folded', () => {
    expect(read('12.500')).toEqual({ units: 125n, places: 1 });
    expect(read(0)).toEqual({ units: 0n, places: 0 });
    expect(read(-0)).toEqual({ units: 0n, places: 0 });
    expect(read('-3')).toEqual({ units: -3n, places: 0 });
  });

  test('not amounts: NaN, Infinity, text, booleans, null, overlong text', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 'abc', '1.', '.5', '+1', true, null, undefined, {}])
      expect(parseLiveAmount(value)).toBe('not-a-number');
    expect(parseLiveAmount('1'.repeat(65))).toBe('too-long');
    expect(parseLiveAmount('1e-9999')).toBe('too-long');
  });
});

describe('exact arithmetic', () => {
  test('add, subtract, multiply are exact where doubles are not', () => {
    expect(formatAmount(addAmounts(read('0.1'), read('0.2')))).toBe('0.3');
    expect(formatAmount(subtractAmounts(read(101.49949999999998), read('100')))).toBe('1.49949999999998');
    expect(formatAmount(multiplyAmounts(read(0.37), read(1.9899)))).toBe('0.736263');
  });

  test('multiply by a ratio names its rounding', () => {
    const third = ratio(1n, 3n);
    expect(formatAmount(multiplyByRatio(read('1'), third, 6, 'down'))).toBe('0.333333');
    expect(formatAmount(multiplyByRatio(read('1'), third, 6, 'up'))).toBe('0.333334');
    expect(formatAmount(multiplyByRatio(read('-1'), third, 2, 'down'))).toBe('-0.34');
    expect(formatAmount(multiplyByRatio(read('2'), third, 2, 'nearest'))).toBe('0.67');
  });

  test('round to places as Math.round on cents: 0.125 → 0.13, 1.1287999999999996 → 1.13', () => {
    expect(formatAmount(roundAmount(read('0.125'), 2))).toBe('0.13');
    expect(formatAmount(roundAmount(read(1.1287999999999996), 2))).toBe('1.13');
  });

  test('to and from micro', () => {
    expect(toMicro(read(101.49949999999998))).toEqual({ micro: 101_499_500n, exact: false });
    expect(toMicro(read('0.736263'))).toEqual({ micro: 736_263n, exact: true });
    expect(toMicro(read('0.0000005'), 'down')).toEqual({ micro: 0n, exact: false });
    expect(fromMicro(1_500_000n)).toEqual(liveAmount(15n, 1));
  });
});

describe('withinRounding', () => {
  test('a display field to 2 dp agrees with the exact value within half a cent', () => {
    expect(withinRounding(read(0.14), read('0.1372'), 2)).toBe(true);
    expect(withinRounding(read(1.13), read(1.1287999999999996), 2)).toBe(true);
    expect(withinRounding(read(0.13), read('0.1372'), 2)).toBe(false);
    expect(withinRounding(read(0.5), read('0.495'), 2)).toBe(true);
    expect(withinRounding(read(0.49), read('0.4849'), 2)).toBe(false);
  });

  test('a target that rounds to fewer places than published is measured by what it shows, never called wrong', () => {
    // amount_won 0 for a won 0.0199 (0 places), 49.9 for 49.9397 (1 place): each within its own rounding.
    expect(withinRounding(read(0), read('0.0199'), 2)).toBe(true);
    expect(withinRounding(read(49.9), read('49.9397'), 2)).toBe(true);
    // Still wrong beyond the rounding the figure shows: 1.5 for 1.99 is not 1.99 to 1 place.
    expect(withinRounding(read(1.5), read('1.99'), 2)).toBe(false);
    // More places shown than published: judged at the published 2.
    expect(withinRounding(read('0.137'), read('0.1372'), 2)).toBe(true);
    expect(roundedToFewerPlaces(read(0), read('0.0199'), 2)).toBe(true);
    expect(roundedToFewerPlaces(read(0.02), read('0.0199'), 2)).toBe(false);
    expect(roundedToFewerPlaces(read(0.5), read('0.5'), 2)).toBe(false);
    expect(shownPlaces(read('50.10'))).toBe(1);
    expect(shownPlaces(read(50))).toBe(0);
    expect(displayRoundingMicro(49_900_000n, 2)).toBe(50_000n);
    expect(displayRoundingMicro(49_940_000n, 2)).toBe(5_000n);
    expect(displayRoundingMicro(1_234_567n, 2)).toBe(5_000n);
    expect(displayRoundingMicro(5_000_000n, null)).toBe(0n);
    // A shown 0 says nothing of the places: the caller's measure of the answer's other figures, else the loosest.
    expect(displayRoundingMicro(0n, 2)).toBe(500_000n);
    expect(displayRoundingMicro(0n, 2, 2)).toBe(5_000n);
  });

  test('an unrounded field agrees within float noise only', () => {
    expect(withinRounding(read(0.1 + 0.2), read('0.3'), null)).toBe(true);
    expect(withinRounding(read(101.49949999999998), read('101.4995'), null)).toBe(true);
    expect(withinRounding(read('101.4996'), read('101.4995'), null)).toBe(false);
    expect(withinRounding(read('0.000001'), read('0'), null)).toBe(false);
  });
});
