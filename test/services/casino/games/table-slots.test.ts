/**
 * Slots: casino.md's payouts line by line (highest line only, partial lines from the left), the
 * reel weights and their draw mapping, the exact 4.027% edge, and a seeded sampling law.
 */
import { describe, expect, it } from 'vitest';
import { ratio, ratioText } from '../../../../src/core/ratio.ts';
import { weightedIndex } from '../../../../src/services/casino/games/chances.ts';
import {
  SLOTS_REEL_WEIGHTS,
  SLOTS_SYMBOLS,
  slots,
  slotsLine,
  type SlotsReels,
} from '../../../../src/services/casino/games/slots.ts';
import { ScriptedDraws, edgeOf, expectRefused, lawOf, parsed, sampleLaw, totalOf } from './table-support.ts';

const pays = (reels: SlotsReels): string => {
  const line = slotsLine(reels);
  return line === null ? 'none 0' : `${line.name} ${ratioText(line.multiplier)}`;
};

describe('slots payouts (casino.md)', () => {
  it('pays three of a kind as printed', () => {
    expect(pays(['7', '7', '7'])).toBe('three_7 250');
    expect(pays(['BAR', 'BAR', 'BAR'])).toBe('three_bar 50');
    expect(pays(['BELL', 'BELL', 'BELL'])).toBe('three_bell 25');
    expect(pays(['CHERRY', 'CHERRY', 'CHERRY'])).toBe('three_cherry 10');
    expect(pays(['LEMON', 'LEMON', 'LEMON'])).toBe('three_lemon 5');
    expect(pays(['ORANGE', 'ORANGE', 'ORANGE'])).toBe('three_orange 5');
    expect(pays(['GRAPE', 'GRAPE', 'GRAPE'])).toBe('three_grape 5');
  });

  it('reads partial lines from the left: BAR BAR and two CHERRY on reels 1 and 2, one CHERRY on reel 1', () => {
    expect(pays(['BAR', 'BAR', '7'])).toBe('bar_bar 5');
    expect(pays(['BAR', '7', 'BAR'])).toBe('none 0');
    expect(pays(['7', 'BAR', 'BAR'])).toBe('none 0');
    expect(pays(['CHERRY', 'CHERRY', 'BAR'])).toBe('two_cherry 2');
    expect(pays(['BAR', 'CHERRY', 'CHERRY'])).toBe('none 0');
    expect(pays(['CHERRY', 'BELL', 'CHERRY'])).toBe('one_cherry 1');
    expect(pays(['CHERRY', 'GRAPE', 'GRAPE'])).toBe('one_cherry 1');
    expect(pays(['7', '7', 'BELL'])).toBe('none 0');
  });

  it('pays only the highest matching line', () => {
    expect(pays(['BAR', 'BAR', 'BAR'])).toBe('three_bar 50');
    expect(pays(['CHERRY', 'CHERRY', 'CHERRY'])).toBe('three_cherry 10');
    expect(pays(['CHERRY', 'CHERRY', 'LEMON'])).toBe('two_cherry 2');
  });
});

describe('slots reels and law', () => {
  it('has 3 reels of 100 weighted stops over the 7 symbols', () => {
    expect(SLOTS_SYMBOLS).toEqual(['7', 'BAR', 'BELL', 'CHERRY', 'LEMON', 'ORANGE', 'GRAPE']);
    for (const weights of SLOTS_REEL_WEIGHTS) {
      expect(weights).toEqual([3, 6, 14, 35, 14, 14, 14]);
    }
    const firstStopOf = [0, 3, 9, 23, 58, 72, 86];
    for (const [symbol, stop] of firstStopOf.entries()) {
      expect(weightedIndex(SLOTS_REEL_WEIGHTS[0], stop)).toBe(symbol);
      if (stop > 0) expect(weightedIndex(SLOTS_REEL_WEIGHTS[0], stop - 1)).toBe(symbol - 1);
    }
    expect(weightedIndex(SLOTS_REEL_WEIGHTS[0], 99)).toBe(6);
  });

  it('maps stops to symbols, one int(100) per reel, left to right', () => {
    const jackpot = new ScriptedDraws([2, 0, 1]);
    const result = slots.play({}, jackpot);
    expect(result.multiplier).toEqual(ratio(250n));
    expect(result.detail).toEqual({ stops: [2, 0, 1], reels: ['7', '7', '7'], line: 'three_7' });
    expect(jackpot.bounds).toEqual([100, 100, 100]);
    expect(slots.play({}, new ScriptedDraws([3, 8, 57])).detail).toEqual({
      stops: [3, 8, 57],
      reels: ['BAR', 'BAR', 'CHERRY'],
      line: 'bar_bar',
    });
    expect(slots.play({}, new ScriptedDraws([99, 58, 72])).multiplier).toEqual(ratio(0n));
  });

  it('has an exact distribution summing to 1 with edge 4027/100000 (about 4%)', () => {
    const chances = slots.distribution({});
    expect(totalOf(chances)).toEqual(ratio(1n));
    expect(ratioText(edgeOf(chances))).toBe('4027/100000');
    const law = lawOf(chances);
    expect(law['250']).toBe(ratioText(ratio(27n, 1_000_000n)));
    expect(law['50']).toBe(ratioText(ratio(216n, 1_000_000n)));
    expect(law['25']).toBe(ratioText(ratio(14n ** 3n, 1_000_000n)));
    expect(law['10']).toBe(ratioText(ratio(35n ** 3n, 1_000_000n)));
    // 5x: three fruit (3 × 14³) or BAR BAR with a third reel other than BAR (6 · 6 · 94).
    expect(law['5']).toBe(ratioText(ratio(3n * 14n ** 3n + 6n * 6n * 94n, 1_000_000n)));
    expect(law['2']).toBe(ratioText(ratio(35n * 35n * 65n, 1_000_000n)));
    expect(law['1']).toBe(ratioText(ratio(35n * 65n * 100n, 1_000_000n)));
  });

  it('samples its law from provably fair streams', () => {
    sampleLaw((draws) => slots.play({}, draws).multiplier, slots.distribution({}), 20_000);
  });
});

describe('slots parameters', () => {
  it('takes no parameters and refuses any other field', () => {
    expect(parsed(slots, {})).toEqual({});
    expect(parsed(slots, { amount: 0.1, client_seed: 'abc' })).toEqual({});
    expectRefused(slots, { lines: 3 }, 'lines');
    expect(slots.paramFields).toEqual([]);
  });

  it('states its limits (style B: min 0.10, max 1000), edge text and one variant', () => {
    expect([slots.minBetMicro, slots.maxBetMicro]).toEqual([100_000n, 1_000_000_000n]);
    expect(slots.advertisedEdgeText).toBe('about 4%');
    expect(slots.advertisedEdge({})).toEqual(ratio(4n, 100n));
    expect(slots.variants()).toEqual([{ name: 'slots', params: {} }]);
    expect(slots.variantName({})).toBe('slots');
  });
});
