/**
 * Plinko: the nine tables (shape, symmetry, 2 decimals, 1000x top), exact edges, the binomial
 * law of the bins checked by walking every draw sequence, parameter edge cases and refusals, and
 * a seeded sampling law.
 */
import { describe, expect, it } from 'vitest';
import { compare, ratio, ratioFromDecimal, ratioText } from '../../../../src/core/ratio.ts';
import { binomial } from '../../../../src/services/casino/games/chances.ts';
import {
  PLINKO_HALF_TABLES,
  PLINKO_RISKS,
  PLINKO_ROWS,
  plinkoMultipliers,
} from '../../../../src/services/casino/games/plinko-tables.ts';
import { plinko } from '../../../../src/services/casino/games/plinko.ts';
import {
  ScriptedDraws,
  edgeOf,
  enumeratePlay,
  expectRefused,
  lawOf,
  parsed,
  sampleLaw,
  totalOf,
} from './table-support.ts';

const EXACT_EDGES: Record<string, string> = {
  'plinko:8:low': '77/2560',
  'plinko:8:medium': '77/2560',
  'plinko:8:high': '77/2560',
  'plinko:12:low': '123/4096',
  'plinko:12:medium': '307/10240',
  'plinko:12:high': '1229/40960',
  'plinko:16:low': '19661/655360',
  'plinko:16:medium': '19661/655360',
  'plinko:16:high': '19663/655360',
};

describe('plinko tables', () => {
  it('has 9 tables of rows + 1 bins, symmetric, at most 2 decimals, never rising towards the centre', () => {
    for (const rows of PLINKO_ROWS) {
      for (const risk of PLINKO_RISKS) {
        const half = PLINKO_HALF_TABLES[rows][risk];
        expect(half).toHaveLength(rows / 2 + 1);
        for (const text of half) expect(text).toMatch(/^\d+(\.\d{1,2})?$/);
        const table = plinkoMultipliers(rows, risk);
        expect(table).toHaveLength(rows + 1);
        for (let bin = 0; bin <= rows; bin++) expect(table[bin]).toEqual(table[rows - bin]);
        for (let bin = 0; bin < rows / 2; bin++)
          expect(compare(table[bin] ?? ratio(0), table[bin + 1] ?? ratio(0))).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('tops out at 1000x on 16 rows, high risk (casino.md "up to 1000x")', () => {
    expect(plinkoMultipliers(16, 'high')[0]).toEqual(ratio(1000n));
    expect(plinkoMultipliers(16, 'high')[16]).toEqual(ratio(1000n));
    for (const rows of PLINKO_ROWS) {
      for (const risk of PLINKO_RISKS)
        for (const value of plinkoMultipliers(rows, risk)) expect(compare(value, ratio(1000n))).toBeLessThanOrEqual(0);
    }
  });

  it('prints the 8-row low table and the 16-row high table as chosen', () => {
    expect(plinkoMultipliers(8, 'low').map(ratioText)).toEqual([
      '28/5',
      '2',
      '11/10',
      '1',
      '9/20',
      '1',
      '11/10',
      '2',
      '28/5',
    ]);
    expect(PLINKO_HALF_TABLES[16].high).toEqual(['1000', '135', '26', '8.6', '3.9', '2', '0.2', '0.2', '0.15']);
  });
});

describe('plinko distribution', () => {
  for (const { name, params } of plinko.variants()) {
    it(`${name}: sums to 1, edge exactly ${EXACT_EDGES[name]}, within 0.01 point of 3%`, () => {
      const chances = plinko.distribution(params);
      expect(totalOf(chances)).toEqual(ratio(1n));
      const edge = edgeOf(chances);
      expect(ratioText(edge)).toBe(EXACT_EDGES[name]);
      expect(compare(edge, ratioFromDecimal('0.029'))).toBe(1);
      expect(compare(edge, ratioFromDecimal('0.031'))).toBe(-1);
    });
    it(`${name}: play's exact law over every path equals the distribution`, () => {
      const law = enumeratePlay((draws) => plinko.play(params, draws).multiplier, 1 << params.rows);
      expect(law).toEqual(lawOf(plinko.distribution(params)));
    });
  }

  it('bin k has probability C(rows, k) / 2^rows: the 1000x bins of 16 rows high have 2 / 65536', () => {
    const top = plinko.distribution({ rows: 16, risk: 'high' })[0];
    expect(top).toEqual([ratio(2n, 65536n), ratio(1000n)]);
    expect(binomial(16, 8)).toBe(12870n);
  });

  it('samples its law from provably fair streams (16 rows, medium; 8 rows, high)', () => {
    for (const params of [
      { rows: 16, risk: 'medium' },
      { rows: 8, risk: 'high' },
    ] as const) {
      sampleLaw((draws) => plinko.play(params, draws).multiplier, plinko.distribution(params), 20_000);
    }
  });
});

describe('plinko play', () => {
  it('counts right steps: all left lands in bin 0, all right in bin rows, one int(2) per row', () => {
    const left = new ScriptedDraws(Array<number>(16).fill(0));
    const result = plinko.play({ rows: 16, risk: 'high' }, left);
    expect(result.multiplier).toEqual(ratio(1000n));
    expect(result.detail).toEqual({ rows: 16, risk: 'high', path: 'L'.repeat(16), bin: 0 });
    expect(left.bounds).toEqual(Array<number>(16).fill(2));
    const mixed = plinko.play({ rows: 8, risk: 'low' }, new ScriptedDraws([1, 0, 1, 1, 0, 0, 1, 0]));
    expect(mixed.detail).toEqual({ rows: 8, risk: 'low', path: 'RLRRLLRL', bin: 4 });
    expect(mixed.multiplier).toEqual(ratioFromDecimal('0.45'));
    expect(plinko.play({ rows: 12, risk: 'medium' }, new ScriptedDraws(Array<number>(12).fill(1))).multiplier).toEqual(
      ratioFromDecimal('33.5'),
    );
  });
});

describe('plinko parameters', () => {
  it('accepts rows 8, 12, 16 and every risk; names variants plinko:<rows>:<risk>', () => {
    for (const rows of [8, 12, 16]) {
      for (const risk of ['low', 'medium', 'high']) {
        const params = parsed(plinko, { rows, risk, amount: 1, client_seed: 'x' });
        expect(params).toEqual({ rows, risk });
        expect(plinko.variantName(params)).toBe(`plinko:${rows}:${risk}`);
      }
    }
    expect(plinko.variants().map((variant) => variant.name)).toEqual(Object.keys(EXACT_EDGES));
    expect(plinko.paramFields).toEqual(['rows', 'risk']);
  });

  it('refuses other rows, other risks, wrong types, missing and unknown fields', () => {
    for (const rows of [0, 7, 10, 14, 17, 16.5, '16', null]) expectRefused(plinko, { rows, risk: 'low' }, 'rows');
    for (const risk of ['extreme', 'LOW', 1, null]) expectRefused(plinko, { rows: 8, risk }, 'risk');
    expectRefused(plinko, { risk: 'low' }, 'rows');
    expectRefused(plinko, { rows: 8 }, 'risk');
    expectRefused(plinko, { rows: 8, risk: 'low', balls: 2 }, 'balls');
  });

  it('states its limits and advertised edge', () => {
    expect(plinko.advertisedEdgeText).toBe('about 3%');
    expect(plinko.advertisedEdge({ rows: 8, risk: 'low' })).toEqual(ratio(3n, 100n));
    expect([plinko.minBetMicro, plinko.maxBetMicro]).toEqual([10_000n, 1_000_000_000n]);
    expect([plinko.id, plinko.path]).toEqual(['plinko', 'plinko']);
  });
});
