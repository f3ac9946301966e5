/**
 * Wheel: the 8 printed sectors, the int(100) mapping checked roll by roll, the exact 9.5% edge,
 * the real casino's 0–100 vs 0–1 defect with its exact law, and a seeded sampling law.
 */
import { describe, expect, it } from 'vitest';
import { ratio, ratioFromDecimal, ratioText } from '../../../../src/core/ratio.ts';
import {
  WHEEL_SECTORS,
  wheel,
  wheelDefectiveDistribution,
  wheelResult,
  wheelSpin,
  wheelSpinDefective,
} from '../../../../src/services/casino/games/wheel.ts';
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

describe('wheel sectors', () => {
  it('are exactly the printed 8 sectors and percentages', () => {
    expect(WHEEL_SECTORS.map((sector) => [sector.label, ratioText(sector.multiplier), sector.percent])).toEqual([
      ['BUST', '0', 35],
      ['0.5x', '1/2', 25],
      ['1x', '1', 15],
      ['1.5x', '3/2', 10],
      ['2x', '2', 8],
      ['3x', '3', 4],
      ['5x', '5', 2],
      ['10x', '10', 1],
    ]);
  });

  it('maps roll r = int(100) to the first sector whose running percentage exceeds r', () => {
    const firstRollOf = [0, 35, 60, 75, 85, 93, 97, 99];
    for (const [sector, roll] of firstRollOf.entries()) {
      expect(wheelSpin(new ScriptedDraws([roll]))).toEqual({ roll, sector });
      if (roll > 0) expect(wheelSpin(new ScriptedDraws([roll - 1])).sector).toBe(sector - 1);
    }
    const draws = new ScriptedDraws([99]);
    expect(wheel.play({}, draws)).toEqual({ multiplier: ratio(10n), detail: { roll: 99, sector: 7, label: '10x' } });
    expect(draws.bounds).toEqual([100]);
  });
});

describe('wheel law', () => {
  it('sums to 1 with edge exactly 19/200 (9.5%)', () => {
    const chances = wheel.distribution({});
    expect(totalOf(chances)).toEqual(ratio(1n));
    expect(edgeOf(chances)).toEqual(ratio(19n, 200n));
    expect(lawOf(chances)).toEqual({
      '10': '1/100',
      '5': '1/50',
      '3': '1/25',
      '2': '2/25',
      '3/2': '1/10',
      '1': '3/20',
      '1/2': '1/4',
      '0': '7/20',
    });
  });

  it("play's exact law over all 100 rolls equals the distribution", () => {
    expect(enumeratePlay((draws) => wheel.play({}, draws).multiplier, 100)).toEqual(lawOf(wheel.distribution({})));
  });

  it('samples its law from provably fair streams', () => {
    sampleLaw((draws) => wheel.play({}, draws).multiplier, wheel.distribution({}), 20_000);
  });
});

describe('wheel defect (0–100 roll against 0–1 probabilities)', () => {
  it('reaches the intended sectors only for rolls below 1 and busts otherwise', () => {
    expect(wheelSpinDefective(new ScriptedDraws([34]))).toEqual({ roll: 0.34, sector: 0 });
    expect(wheelSpinDefective(new ScriptedDraws([35]))).toEqual({ roll: 0.35, sector: 1 });
    expect(wheelSpinDefective(new ScriptedDraws([99]))).toEqual({ roll: 0.99, sector: 7 });
    expect(wheelSpinDefective(new ScriptedDraws([100]))).toEqual({ roll: 1, sector: 0 });
    expect(wheelSpinDefective(new ScriptedDraws([9_999]))).toEqual({ roll: 99.99, sector: 0 });
  });

  it('has an exact law (edge 19819/20000) that enumeration confirms', () => {
    const law = enumeratePlay((draws) => wheelResult(wheelSpinDefective(draws)).multiplier, 10_000);
    expect(law).toEqual(lawOf(wheelDefectiveDistribution()));
    expect(ratioText(edgeOf(wheelDefectiveDistribution()))).toBe('19819/20000');
    expect(totalOf(wheelDefectiveDistribution())).toEqual(ratio(1n));
  });
});

describe('wheel parameters', () => {
  it('takes none and refuses any other field', () => {
    expect(parsed(wheel, {})).toEqual({});
    expect(parsed(wheel, { amount: 1, client_seed: 's' })).toEqual({});
    expectRefused(wheel, { sector: 3 }, 'sector');
  });

  it('states its limits, edge text and one variant', () => {
    expect(wheel.advertisedEdgeText).toBe('about 9.5%');
    expect(wheel.advertisedEdge({})).toEqual(ratioFromDecimal('0.095'));
    expect([wheel.minBetMicro, wheel.maxBetMicro]).toEqual([10_000n, 1_000_000_000n]);
    expect(wheel.variants()).toEqual([{ name: 'wheel', params: {} }]);
    expect([wheel.id, wheel.path, wheel.variantName({})]).toEqual(['wheel', 'wheel', 'wheel']);
  });
});
