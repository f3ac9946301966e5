// compareResult reads a number and the string that spells it in plain decimal, two strings that
// differ only in letter case, and a list of one-character strings and their join as one value (the
// wire's encoding is the target's dialect); any other difference stays one.
import { describe, expect, test } from 'vitest';
import { compareResult } from '../../../src/audit/fairness/field-differences.ts';

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

  test('labels in another case and a path joined into one string are the same values', () => {
    expect(
      compareResult(
        { outcome: 'HEADS', direction: 'Over', path: 'LRRL', hash: 'AB12', cards: ['a', 'K'] },
        { outcome: 'heads', direction: 'over', path: ['L', 'R', 'R', 'L'], hash: 'ab12', cards: ['A', 'K'] },
      ).differences,
    ).toEqual([]);
  });

  test('a path with one letter changed, one step more, or steps of two letters, and another label stay differences', () => {
    const { differences } = compareResult(
      { a: 'LRRR', b: 'LRRLL', c: 'LRRL', d: 'TAILS', e: ['10', 'K'] },
      { a: ['L', 'R', 'R', 'L'], b: ['L', 'R', 'R', 'L'], c: ['LR', 'RL'], d: 'heads', e: ['K', '10'] },
    );
    expect(differences.map((difference) => difference.field)).toEqual(['a', 'b', 'c', 'd', 'e[0]', 'e[1]']);
  });
});

describe('lists written as one string, held positions written as indices', () => {
  test('a list joined by one separator, emoji run together and held indices for their booleans are the same values', () => {
    expect(
      compareResult(
        {
          reels: 'ORANGE|LEMON|LEMON',
          spaced: 'orange | lemon | lemon',
          commas: '3, 17, 22',
          words: 'BAR BELL 7',
          symbols: '🍒🍀🍀',
          holds: [4, 2],
          none: [],
        },
        {
          reels: ['ORANGE', 'LEMON', 'LEMON'],
          spaced: ['ORANGE', 'LEMON', 'LEMON'],
          commas: [3, 17, 22],
          words: ['BAR', 'BELL', '7'],
          symbols: ['🍒', '🍀', '🍀'],
          holds: [false, false, true, false, true],
          none: [false, false, false, false, false],
        },
      ).differences,
    ).toEqual([]);
  });

  test('a wrong or missing item, two separators, a split that cuts an item, or a wrong held position stay differences', () => {
    const { differences } = compareResult(
      {
        a: 'ORANGE|LEMON|CHERRY',
        b: 'ORANGE|LEMON',
        c: 'ORANGE|LEMON,LEMON',
        d: 'SEVEN-BAR-BELL',
        e: '🍒🍀🍋',
        f: [2, 3],
        g: [2, 4, 4],
        h: [3, 5],
      },
      {
        a: ['ORANGE', 'LEMON', 'LEMON'],
        b: ['ORANGE', 'LEMON', 'LEMON'],
        c: ['ORANGE', 'LEMON', 'LEMON'],
        d: ['SEVEN-BAR', 'BELL'],
        e: ['🍒', '🍀', '🍀'],
        f: [false, false, true, false, true],
        g: [false, false, true, false, true],
        h: [false, false, true, false, true],
      },
    );
    expect(differences.map((difference) => difference.field)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });
});
