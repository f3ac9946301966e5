// Valuation heuristic (spec/NOTES.md "Domains"): worked examples computed by hand, and properties
// (score within 0..100, value = floor × score / 50 rounded down, category by the score's band).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isFailure } from '../../../src/core/errors.ts';
import { parseDomainName, type DomainName } from '../../../src/services/domains/domain-name.ts';
import { lengthScore, valuationCategory, valueDomain } from '../../../src/services/domains/valuation.ts';

function name(text: string): DomainName {
  const parsed = parseDomainName(text);
  if (isFailure(parsed)) throw new Error(parsed.message);
  return parsed;
}

describe('valuation', () => {
  test('worked examples', () => {
    // ai.agent: tld 95, length 100, keyword 30 (ai, agent), no penalty, vowels 2/2 = 100% → no pronounce bonus.
    // 0.35·95 + 0.35·100 + 0.2·30 = 33.25 + 35 + 6 = 74.25; value 5 × 74.25 / 50 = 7.425.
    expect(valueDomain(name('ai.agent'))).toMatchObject({
      tldScore: 95,
      lengthScore: 100,
      keywordBonus: 30,
      penalty: 0,
      pronounceability: 0,
      scoreCenti: 7425,
      valueMicro: 7_425_000n,
      category: 'standard',
    });
    // paybot.ai: 90, 60 (6 letters), keyword 30, vowels a,o = 2/6 → +10: 31.5 + 21 + 6 + 10 = 68.5; value 10 × 68.5/50 = 13.7.
    expect(valueDomain(name('paybot.ai'))).toMatchObject({
      scoreCenti: 6850,
      valueMicro: 13_700_000n,
      category: 'standard',
    });
    // my-shop99.com: 60, 40 (9), no keyword, penalty 10 + 5 = 15, vowels o = 1/9 < 20%: 21 + 14 − 1.5 = 33.5 → low-value, value 2 × 33.5/50 = 1.34.
    expect(valueDomain(name('my-shop99.com'))).toMatchObject({
      penalty: 15,
      scoreCenti: 3350,
      valueMicro: 1_340_000n,
      category: 'low-value',
    });
    // 12345.xyz: 50, 80, digits 5/5 > half → 15: 17.5 + 28 − 1.5 = 44 → budget; value 2 × 44/50 = 1.76.
    expect(valueDomain(name('12345.xyz'))).toMatchObject({
      penalty: 15,
      scoreCenti: 4400,
      valueMicro: 1_760_000n,
      category: 'budget',
    });
    // defi.eth: 85, 80, keyword, vowels e,i = 2/4 → +10: 29.75 + 28 + 6 + 10 = 73.75 → value 15 × 73.75/50 = 22.125.
    expect(valueDomain(name('defi.eth'))).toMatchObject({ scoreCenti: 7375, valueMicro: 22_125_000n });
    // x.zz (unknown tld 40): 14 + 35 = 49, vowels 0 → budget.
    expect(valueDomain(name('x.zz'))).toMatchObject({ tldScore: 40, scoreCenti: 4900, category: 'budget' });
  });

  test('length bands and category bands', () => {
    expect([1, 3, 4, 5, 6, 8, 9, 12, 13, 63].map(lengthScore)).toEqual([100, 100, 80, 80, 60, 60, 40, 40, 20, 20]);
    expect([10_000, 8000, 7999, 6000, 5999, 4000, 3999, 0].map(valuationCategory)).toEqual([
      'premium',
      'premium',
      'standard',
      'standard',
      'budget',
      'budget',
      'low-value',
      'low-value',
    ]);
  });

  test('property: score within 0..100, value from the score, category from its band', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/),
        fc.constantFrom('agent', 'ai', 'eth', 'com', 'xyz', 'zz', 'crypto'),
        (label, tld) => {
          const valuation = valueDomain(name(`${label}.${tld}`));
          expect(valuation.scoreCenti).toBeGreaterThanOrEqual(0);
          expect(valuation.scoreCenti).toBeLessThanOrEqual(10_000);
          expect(valuation.valueMicro).toBe((valuation.floorMicro * BigInt(valuation.scoreCenti)) / 5000n);
          expect(valuation.category).toBe(valuationCategory(valuation.scoreCenti));
        },
      ),
      { numRuns: 200 },
    );
  });
});
