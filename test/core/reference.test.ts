// isReference answers exactly as the regular expression it replaces, on near-miss texts too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isReference } from '../../src/core/reference.ts';

const PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Characters around the edges of the allowed set (neighbours of each range), plus non-ASCII. */
const EDGE_CHARACTERS = [
  'A',
  'Z',
  'a',
  'z',
  '0',
  '9',
  '_',
  '.',
  '-',
  '@',
  '[',
  '`',
  '{',
  '/',
  ':',
  ',',
  ' ',
  '\n',
  '\u0000',
  '\u007f',
  '\u0080',
  'é',
  '\u0130',
  '\u212a',
  '😀',
];

const texts = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.array(fc.constantFrom(...EDGE_CHARACTERS), { maxLength: 70 }).map((characters) => characters.join('')),
  fc.integer({ min: 0, max: 70 }).map((length) => 'a'.repeat(length)),
);

describe('isReference', () => {
  it('agrees with /^[A-Za-z0-9_.-]{1,64}$/', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(isReference(text)).toBe(PATTERN.test(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('bounds the length at 1 and 64', () => {
    expect(isReference('')).toBe(false);
    expect(isReference('x'.repeat(64))).toBe(true);
    expect(isReference('x'.repeat(65))).toBe(false);
  });
});
