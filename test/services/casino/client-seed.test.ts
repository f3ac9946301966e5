// isClientSeed (the bet path's client-seed check, a loop over character codes) answers exactly as
// CLIENT_SEED_PATTERN: 1 to 64 code units, each printable ASCII but ':'.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CLIENT_SEED_PATTERN, isClientSeed } from '../../../src/services/casino/place-bet.ts';

describe('isClientSeed', () => {
  test('agrees with the pattern on any text', () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 70 }),
      fc.string({ unit: 'binary', maxLength: 70 }),
      fc.stringMatching(/^[\x20-\x7f]{0,66}$/),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(isClientSeed(text)).toBe(CLIENT_SEED_PATTERN.test(text));
      }),
      { seed: 20_260_121, numRuns: 3_000 },
    );
    for (const text of ['', 'a', 'a:b', ' x', 'x\n', '!'.repeat(64), '!'.repeat(65), '~', '\x7f', 'é'])
      expect(isClientSeed(text)).toBe(CLIENT_SEED_PATTERN.test(text));
  });
});
