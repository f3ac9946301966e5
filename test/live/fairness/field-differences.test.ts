// compareResult reads a number and the string that spells it in plain decimal as one value (the
// wire's encoding is the target's dialect); any other difference stays one.
import { describe, expect, test } from 'vitest';
import { compareResult } from '../../../src/live/fairness/field-differences.ts';

describe('compareResult', () => {
  test('"1" and 1, "10" and 10 in a list, and an unordered list of number strings are the same values', () => {
    expect(
      compareResult(
        { card1: '1', cards: [10, 'K'], drawn: ['10', '2'] },
        { card1: 1, cards: ['10', 'K'], drawn: [2, 10] },
        ['drawn'],
      ).differences,
    ).toEqual([]);
  });

  test('a different number, a non-decimal spelling or a label stays a difference', () => {
    const { differences } = compareResult({ a: '2', b: '1e0', c: 'K', d: '' }, { a: 1, b: 1, c: 'Q', d: 0 });
    expect(differences.map((difference) => difference.field)).toEqual(['a', 'b', 'c', 'd']);
  });
});
