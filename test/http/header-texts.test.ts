// The rate-limit headers' number texts are String(n), through every table and remembered part.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integerText, resetText } from '../../src/http/header-texts.ts';

describe('header texts', () => {
  it('integerText is String(n)', () => {
    for (const value of [0, 1, 9, 10, 4095, 4096, 2_147_483_647, -1, 1.5]) expect(integerText(value)).toBe(String(value));
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 10_000 }), (value) => {
        expect(integerText(value)).toBe(String(value));
      }),
    );
  });

  it('resetText is String(seconds), in runs that repeat, cross the five-digit boundary and change the high part', () => {
    const edges = [0, 1, 99_999, 100_000, 100_001, 1_767_225_600, 1_767_299_999, 1_767_300_000, 2 ** 53 - 1, 2 ** 53, 1.5, -3, Number.NaN];
    for (const seconds of edges) expect(resetText(seconds)).toBe(String(seconds));
    const seconds = fc.oneof(fc.integer({ min: 1_767_225_600, max: 1_767_225_600 + 400 * 86_400 }), fc.integer({ min: 0, max: 300_000 }), fc.constantFrom(...edges));
    fc.assert(
      fc.property(fc.array(seconds, { minLength: 1, maxLength: 30 }), (run) => {
        for (const value of [...run, ...run]) expect(resetText(value)).toBe(String(value));
      }),
      { numRuns: 2_000 },
    );
  });
});
