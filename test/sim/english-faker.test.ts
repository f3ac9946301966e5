// englishFaker loads Faker's English entry alone (start-up ~270 ms shorter); it must draw exactly
// what the index's `new Faker({ locale: [en, base] })` draws, or names and memos in reports, hence
// digests, would move. Checked over many seeds and the modules the agents use, and with a
// randomizer of our own as AgentFakers passes one.
import { Faker, base, en, generateMersenne53Randomizer } from '@faker-js/faker';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { englishFaker } from '../../src/agent/english-faker.ts';

const draws = (faker: Faker): string[] => [
  faker.person.fullName(),
  faker.commerce.productName(),
  faker.lorem.sentence(),
  faker.company.catchPhrase(),
  faker.internet.domainWord(),
  faker.hacker.phrase(),
  faker.word.words(3),
  faker.location.city(),
];

describe('englishFaker', () => {
  test('its definitions are English merged over base', () => {
    expect(englishFaker().rawDefinitions).toEqual(new Faker({ locale: [en, base] }).rawDefinitions);
  });

  test('seeded, it draws what the index Faker draws', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fff_ffff }), (seed) => {
        const ours = englishFaker();
        const theirs = new Faker({ locale: [en, base] });
        ours.seed(seed);
        theirs.seed(seed);
        expect(draws(ours)).toEqual(draws(theirs));
      }),
      { numRuns: 50 },
    );
  });

  test('with a given randomizer, it draws from that randomizer', () => {
    const ours = englishFaker(generateMersenne53Randomizer(7));
    const theirs = new Faker({ locale: [en, base], randomizer: generateMersenne53Randomizer(7) });
    expect(draws(ours)).toEqual(draws(theirs));
  });
});
