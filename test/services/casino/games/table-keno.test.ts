/**
 * Keno: the paytable against casino.md's printed examples (and the two it must lower), exact
 * hypergeometric distributions and edges for 1..10 spots, the draw mapping, the pick refusals,
 * the real casino's 8-number defect, and a seeded sampling law.
 */
import { describe, expect, it } from 'vitest';
import { compare, ratio, ratioFromDecimal, ratioText, ZERO, type Ratio } from '../../../../src/core/ratio.ts';
import type { Draws } from '../../../../src/services/casino/games/game.ts';
import { binomial } from '../../../../src/services/casino/games/chances.ts';
import {
  KENO_PAYTABLE,
  KENO_PRINTED_PAYOUTS,
  KENO_PRINTED_PAYTABLE,
  kenoPayout,
} from '../../../../src/services/casino/games/keno-tables.ts';
import {
  KENO_DRAWN,
  keno,
  kenoDefectiveDistribution,
  kenoDistribution,
  kenoDraw,
  kenoDrawDefective,
  kenoPlayDefective,
  kenoWithPaytable,
} from '../../../../src/services/casino/games/keno.ts';
import { DrawStream } from '../../../../src/services/casino/fair/draw-stream.ts';
import { SEED_HEX, ScriptedDraws, edgeOf, expectRefused, lawOf, parsed, sampleLaw, totalOf } from './table-support.ts';

const EXACT_EDGES = [
  '1/8',
  '3/79',
  '59/2054',
  '6404/79079',
  '2251/28756',
  '24119/316316',
  '138851/1671956',
  '1150184/13869635',
  '23049661/305131970',
  '161153214/2166436987',
];

describe('keno paytable', () => {
  it('keeps every printed payout but 5 spots 5 hits (1000x → 570x) and 10 spots 7 hits (500x → 70x)', () => {
    const lowered = new Set(['5:5', '10:7']);
    for (const [spots, hits, text] of KENO_PRINTED_PAYOUTS) {
      const ours = kenoPayout(KENO_PAYTABLE, spots, hits);
      if (lowered.has(`${spots}:${hits}`)) expect(compare(ours, ratioFromDecimal(text))).toBe(-1);
      else expect(ours).toEqual(ratioFromDecimal(text));
      expect(kenoPayout(KENO_PRINTED_PAYTABLE, spots, hits)).toEqual(ratioFromDecimal(text));
    }
    expect(KENO_PAYTABLE[5]?.[5]).toBe('570');
    expect(KENO_PAYTABLE[10]?.[7]).toBe('70');
  });

  it('covers 1..10 spots, pays nothing on unlisted hit counts, and never pays less for more hits', () => {
    for (let spots = 1; spots <= 10; spots++) {
      expect(kenoPayout(KENO_PAYTABLE, spots, 0)).toEqual(ZERO);
      for (let hits = 1; hits <= spots; hits++) {
        expect(
          compare(kenoPayout(KENO_PAYTABLE, spots, hits), kenoPayout(KENO_PAYTABLE, spots, hits - 1)),
        ).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('shows why the two printed payouts cannot stand: the printed table returns more than the stake on 5 and 10 spots', () => {
    const printed = kenoWithPaytable(KENO_PRINTED_PAYTABLE);
    expect(ratioText(edgeOf(printed.distribution({ picks: [1, 2, 3, 4, 5] })))).toBe('-4843/24332');
    expect(compare(edgeOf(printed.distribution({ picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] })), ZERO)).toBe(-1);
  });
});

describe('keno distribution', () => {
  for (const [index, { name, params }] of keno.variants().entries()) {
    it(`${name}: hypergeometric, sums to 1, edge exactly ${EXACT_EDGES[index]}`, () => {
      const chances = keno.distribution(params);
      expect(totalOf(chances)).toEqual(ratio(1n));
      expect(ratioText(edgeOf(chances))).toBe(EXACT_EDGES[index]);
      expect(compare(edgeOf(chances), ZERO)).toBe(1);
    });
  }

  it('gives 1 spot a 1/4 hit (3.5x: edge 12.5%) and 10 spots C(20,10)/C(80,10) for 250000x', () => {
    expect(lawOf(keno.distribution({ picks: [1] }))).toEqual({ '7/2': '1/4', '0': '3/4' });
    const top = keno.distribution({ picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] })[0];
    expect(top).toEqual([ratio(binomial(20, 10), binomial(80, 10)), ratio(250_000n)]);
  });

  it('does not depend on which numbers are picked', () => {
    expect(keno.distribution({ picks: [80, 5, 33] })).toEqual(keno.distribution({ picks: [1, 2, 3] }));
  });

  it('samples its law from provably fair streams (10 spots, 2 spots)', () => {
    for (const picks of [
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [40, 41],
    ]) {
      sampleLaw((draws) => keno.play({ picks }, draws).multiplier, keno.distribution({ picks }), 12_000);
    }
  });
});

describe('keno play', () => {
  it('draws 20 distinct numbers 1..80 with sample(80, 20) and counts the picks among them', () => {
    const draws = new ScriptedDraws();
    const result = keno.play({ picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }, draws);
    expect(draws.bounds).toEqual(Array.from({ length: 20 }, (_, index) => 80 - index));
    expect(result.detail).toEqual({
      picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      drawn: Array.from({ length: 20 }, (_, index) => index + 1),
      hits: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      hit_count: 10,
    });
    expect(result.multiplier).toEqual(ratio(250_000n));
    const miss = keno.play({ picks: [21, 80] }, new ScriptedDraws());
    expect([miss.detail['hit_count'], miss.multiplier]).toEqual([0, ZERO]);
    const three = keno.play({ picks: [20, 1, 79] }, new ScriptedDraws());
    expect([three.detail['hits'], three.multiplier]).toEqual([[20, 1], ratio(2n)]);
  });

  it('draws distinct numbers from a real stream', () => {
    for (let nonce = 0; nonce < 50; nonce++) {
      const drawn = kenoDraw(new DrawStream(SEED_HEX, 'client', nonce));
      expect(new Set(drawn).size).toBe(KENO_DRAWN);
      for (const value of drawn) expect(value >= 1 && value <= 80).toBe(true);
    }
  });
});

describe('keno parameters', () => {
  it('accepts 1 and 10 distinct picks from 1..80, in the order sent', () => {
    expect(parsed(keno, { picks: [80] })).toEqual({ picks: [80] });
    const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(parsed(keno, { picks: ten, amount: 1 })).toEqual({ picks: ten });
    expect(keno.variantName({ picks: ten })).toBe('keno:10');
    expect(keno.variants().map((variant) => variant.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => `keno:${index + 1}`),
    );
    expect(keno.variants()[2]?.params).toEqual({ picks: [1, 2, 3] });
  });

  it('refuses duplicates, out-of-range numbers, too few or too many picks, wrong types, unknown fields', () => {
    for (const picks of [
      [5, 5],
      [0],
      [81],
      [],
      Array.from({ length: 11 }, (_, index) => index + 1),
      [1.5],
      ['5'],
      5,
      '1,2',
      null,
    ]) {
      expectRefused(keno, { picks }, 'picks');
    }
    expectRefused(keno, {}, 'picks');
    expectRefused(keno, { picks: [1], spots: 1 }, 'spots');
  });

  it('states its limits and advertised edge', () => {
    expect(keno.advertisedEdgeText).toBe('about 8%');
    expect(keno.advertisedEdge({ picks: [1] })).toEqual(ratio(8n, 100n));
    expect([keno.minBetMicro, keno.maxBetMicro]).toEqual([10_000n, 1_000_000_000n]);
    expect([keno.id, keno.path, keno.paramFields]).toEqual(['keno', 'keno', ['picks']]);
  });
});

describe('keno defect (the real casino draws 8 numbers)', () => {
  it('draws only 8 numbers and has its own exact law', () => {
    const drawn = kenoDrawDefective(new DrawStream(SEED_HEX, 'client', 0));
    expect(drawn).toHaveLength(8);
    expect(new Set(drawn).size).toBe(8);
    expect(ratioText(edgeOf(kenoDefectiveDistribution({ picks: [1, 2, 3, 4, 5] })))).toBe('11021/11297');
    expect(kenoDefectiveDistribution({ picks: [1] })).toEqual(kenoDistribution(KENO_PAYTABLE, 1, 8));
    sampleLaw(
      (draws) => kenoPlayDefective({ picks: [1, 2] }, draws).multiplier,
      kenoDefectiveDistribution({ picks: [1, 2] }),
      5_000,
    );
  });

  it('is caught by the sampling law held against the fair distribution', () => {
    const play = (draws: Draws): Ratio => kenoPlayDefective({ picks: [1, 2] }, draws).multiplier;
    expect(() => sampleLaw(play, keno.distribution({ picks: [1, 2] }), 5_000)).toThrow();
  });
});
