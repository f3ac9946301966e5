// productName(faker) skips Faker's template engine; it must draw exactly what
// `faker.commerce.productName()` draws — the same text and the same number of draws, so whatever
// the agent draws next is unchanged too — or escrow memos, dispute reasons and digests would move.
import { Faker, base, en } from '@faker-js/faker';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { englishFaker } from '../../src/agent/english-faker.ts';
import { productName } from '../../src/agent/product-name.ts';

describe('productName', () => {
  test('seeded, it draws the names Faker draws, and leaves the stream where Faker leaves it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fff_ffff }), fc.integer({ min: 1, max: 20 }), (seed, count) => {
        const ours = englishFaker();
        const theirs = englishFaker();
        ours.seed(seed);
        theirs.seed(seed);
        for (let index = 0; index < count; index++) expect(productName(ours)).toBe(theirs.commerce.productName());
        expect(ours.number.int()).toBe(theirs.number.int());
      }),
      { numRuns: 200 },
    );
  });

  test('a locale with other patterns goes through Faker', () => {
    const pattern = [
      '{{commerce.product}} by {{commerce.productMaterial}}',
      '{{commerce.productAdjective}} {{commerce.product}}',
    ];
    const english = en.commerce?.product_name;
    if (english === undefined || english === null) throw new Error('English has product names');
    const locale = { commerce: { product_name: { ...english, pattern } } };
    const ours = new Faker({ locale: [locale, en, base], seed: 3 });
    const theirs = new Faker({ locale: [locale, en, base], seed: 3 });
    const names = Array.from({ length: 30 }, () => productName(ours));
    expect(names).toEqual(Array.from({ length: 30 }, () => theirs.commerce.productName()));
    expect(names.some((name) => name.includes(' by '))).toBe(true);
  });
});
