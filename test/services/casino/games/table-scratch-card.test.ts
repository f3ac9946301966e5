/**
 * Scratch card: the printed triples and pair, the prize table (class weights) and its exact 10%
 * edge, why independent symbol draws cannot carry an edge, the layouts of each class, and a
 * seeded sampling law that also checks every card shows what it pays.
 */
import { describe, expect, it } from 'vitest';
import { compare, ratio, ratioText } from '../../../../src/core/ratio.ts';
import { DrawStream } from '../../../../src/services/casino/fair/draw-stream.ts';
import { SCRATCH_CLASSES, SCRATCH_SYMBOLS, scratchCard } from '../../../../src/services/casino/games/scratch-card.ts';
import { SEED_HEX, ScriptedDraws, edgeOf, expectRefused, lawOf, parsed, sampleLaw, totalOf } from './table-support.ts';

const TRIPLES: Record<string, string> = {
  diamond: '50',
  seven: '20',
  star: '15',
  clover: '12',
  bell: '8',
  cherry: '5',
};

describe('scratch card prize table', () => {
  it('pays the printed triples, 2x for a pair, nothing otherwise', () => {
    expect(SCRATCH_SYMBOLS).toEqual(['diamond', 'seven', 'star', 'clover', 'bell', 'cherry']);
    for (const [symbol, multiplier] of Object.entries(TRIPLES)) {
      expect(
        ratioText(SCRATCH_CLASSES.find((entry) => entry.name === `triple_${symbol}`)?.multiplier ?? ratio(0n)),
      ).toBe(multiplier);
    }
    expect(SCRATCH_CLASSES.slice(-2).map((entry) => [entry.name, ratioText(entry.multiplier), entry.weight])).toEqual([
      ['pair', '2', 2115],
      ['none', '0', 7395],
    ]);
    expect(SCRATCH_CLASSES.reduce((sum, entry) => sum + entry.weight, 0)).toBe(10_000);
  });

  it('sums to 1 with edge exactly 1/10', () => {
    const chances = scratchCard.distribution({});
    expect(totalOf(chances)).toEqual(ratio(1n));
    expect(edgeOf(chances)).toEqual(ratio(1n, 10n));
    expect(lawOf(chances)).toEqual({
      '50': '1/1000',
      '20': '3/1000',
      '15': '1/200',
      '12': '1/125',
      '8': '3/250',
      '5': '1/50',
      '2': '423/2000',
      '0': '1479/2000',
    });
  });

  it('could not carry an edge with independent equal-weight symbols (why a prize table)', () => {
    // P(triple) = 1/36 each, P(exactly a pair) = 5/12: return = Σ m/216 + 2 · 5/12 > 1.
    const triples = Object.values(TRIPLES).reduce((sum, text) => sum + Number(text), 0);
    const independentReturn = ratio(BigInt(triples) * 1n + 2n * 90n, 216n);
    expect(compare(independentReturn, ratio(1n))).toBe(1);
  });
});

describe('scratch card play', () => {
  it('lays out a triple, a pair and a losing card from the class draw', () => {
    const triple = new ScriptedDraws([0]);
    expect(scratchCard.play({}, triple)).toEqual({
      multiplier: ratio(50n),
      detail: { class_draw: 0, symbols: ['diamond', 'diamond', 'diamond'], line: 'triple_diamond' },
    });
    expect(triple.bounds).toEqual([10_000]);
    expect(scratchCard.play({}, new ScriptedDraws([489])).detail['symbols']).toEqual(['cherry', 'cherry', 'cherry']);
    const pair = new ScriptedDraws([490, 2, 4, 1]);
    expect(scratchCard.play({}, pair)).toEqual({
      multiplier: ratio(2n),
      detail: { class_draw: 490, symbols: ['star', 'cherry', 'star'], line: 'pair' },
    });
    expect(pair.bounds).toEqual([10_000, 6, 5, 3]);
    const none = new ScriptedDraws([2605, 0, 0, 0]);
    expect(scratchCard.play({}, none)).toEqual({
      multiplier: ratio(0n),
      detail: { class_draw: 2605, symbols: ['diamond', 'seven', 'star'], line: null },
    });
    expect(none.bounds).toEqual([10_000, 6, 5, 4]);
  });

  it('samples its law, and every card shows what it pays', () => {
    sampleLaw((draws) => scratchCard.play({}, draws).multiplier, scratchCard.distribution({}), 20_000);
    for (let nonce = 0; nonce < 2_000; nonce++) {
      const { multiplier, detail } = scratchCard.play({}, new DrawStream(SEED_HEX, 'client', nonce));
      const symbols = detail['symbols'] as string[];
      const distinct = new Set(symbols).size;
      if (distinct === 1) expect(ratioText(multiplier)).toBe(TRIPLES[symbols[0] ?? '']);
      else if (distinct === 2) expect(multiplier).toEqual(ratio(2n));
      else expect(multiplier).toEqual(ratio(0n));
    }
  });
});

describe('scratch card parameters', () => {
  it('takes none and refuses any other field', () => {
    expect(parsed(scratchCard, {})).toEqual({});
    expectRefused(scratchCard, { cells: 9 }, 'cells');
  });

  it('states its limits, edge text and one variant', () => {
    expect(scratchCard.advertisedEdgeText).toBe('about 10%');
    expect(scratchCard.advertisedEdge({})).toEqual(ratio(1n, 10n));
    expect([scratchCard.minBetMicro, scratchCard.maxBetMicro]).toEqual([10_000n, 1_000_000_000n]);
    expect([scratchCard.id, scratchCard.path, scratchCard.variantName({})]).toEqual([
      'scratch_card',
      'scratch-card',
      'scratch_card',
    ]);
    expect(scratchCard.variants()).toEqual([{ name: 'scratch_card', params: {} }]);
  });
});
