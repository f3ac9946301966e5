// MersenneStream stands in for Faker's generateMersenne53Randomizer in every simulated agent's
// faker: if one draw differed, names and memos, hence reports and digests, would move. So it is
// compared with Faker's own generator draw for draw, across seeds (0 and 2^32 - 1 included) and
// past several twists of the state, and a stream reseeded in place must equal a new one.
import { generateMersenne53Randomizer } from '@faker-js/faker';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MersenneStream } from '../../src/agent/mersenne-stream.ts';

const draws = (next: () => number, count: number): number[] => Array.from({ length: count }, next);

describe('MersenneStream', () => {
  test('draws what Faker draws from the same seed, past several twists', () => {
    for (const seed of [0, 1, 42, 5489, 0x7fff_ffff, 0xffff_ffff]) {
      const faker = generateMersenne53Randomizer(seed);
      const ours = new MersenneStream(seed);
      expect(draws(() => ours.next(), 1_500)).toEqual(draws(() => faker.next(), 1_500));
    }
  });

  test('any seed, any skip: the same draws as Faker', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), fc.nat({ max: 700 }), (seed, skipped) => {
        const faker = generateMersenne53Randomizer(seed);
        for (let draw = 0; draw < skipped; draw++) faker.next();
        const ours = new MersenneStream(seed);
        ours.skip(skipped);
        expect(draws(() => ours.next(), 8)).toEqual(draws(() => faker.next(), 8));
      }),
      { seed: 19, numRuns: 200 },
    );
  });

  test('a stream reseeded in place equals a new one', () => {
    const reused = new MersenneStream(7);
    reused.skip(1_000);
    reused.reseed(8);
    const fresh = new MersenneStream(8);
    expect(draws(() => reused.next(), 700)).toEqual(draws(() => fresh.next(), 700));
  });

  test('a seed outside [0, 2^32) is refused', () => {
    for (const seed of [-1, 2 ** 32, 1.5, Number.NaN]) expect(() => new MersenneStream(seed)).toThrow(/seed/);
  });
});
