/**
 * Hi-lo: the payout per winning-rank count (inside casino.md's 1.05x–12x), a positive edge for
 * every first card and guess, the first card's 2..Q range, pushes on equal ranks, strict
 * parameters, the exact law of `play` over every draw (all 44 × 52) and a seeded sampling law.
 */
import { describe, expect, it } from 'vitest';
import { ONE, ZERO, compare, ratio, ratioFromDecimal, ratioText, sub } from '../../../../src/core/ratio.ts';
import { RANK_COUNT } from '../../../../src/services/casino/games/cards.ts';
import {
  hilo,
  hiloWinMultiplier,
  hiloWinningRanks,
  HILO_FIRST_RANK_MAX,
  HILO_FIRST_RANK_MIN,
} from '../../../../src/services/casino/games/hilo.ts';
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

describe('hilo payouts', () => {
  it('pays floor-to-cents(0.96 × 12 / w), at least 1.05', () => {
    const table = Array.from({ length: 11 }, (_, index) => ratioText(hiloWinMultiplier(index + 1)));
    expect(table).toEqual([
      '288/25',
      '144/25',
      '96/25',
      '72/25',
      '23/10',
      '48/25',
      '41/25',
      '36/25',
      '32/25',
      '23/20',
      '21/20',
    ]);
  });

  it('keeps every payout in 1.05..12 and every (first card, guess) edge positive', () => {
    for (let rank = HILO_FIRST_RANK_MIN; rank <= HILO_FIRST_RANK_MAX; rank++) {
      for (const guess of ['higher', 'lower'] as const) {
        const winning = hiloWinningRanks(rank, guess);
        const multiplier = hiloWinMultiplier(winning);
        expect(compare(multiplier, ratioFromDecimal('1.05'))).toBeGreaterThanOrEqual(0);
        expect(compare(multiplier, ratio(12))).toBeLessThanOrEqual(0);
        const expected = ratio(BigInt(winning) * multiplier.num + multiplier.den, 13n * multiplier.den);
        const edge = sub(ONE, expected);
        expect(compare(edge, ratio(34, 1000)), `rank ${rank} ${guess}`).toBeGreaterThan(0);
      }
    }
  });
});

describe('hilo module', () => {
  it('deals the first card from 2..Q by int(44) and the next from int(52); equal ranks push', () => {
    // int(44) = 0 → 2S; int(52) = 14 → 2H: a push.
    expect(hilo.play({ guess: 'higher' }, new ScriptedDraws([0, 14])).detail).toEqual({
      guess: 'higher',
      first_card: '2S',
      next_card: '2H',
      win_multiplier: 1.05,
      outcome: 'push',
    });
    // int(44) = 43 → QC; int(52) = 12 → KS: higher wins 11.52x.
    const win = hilo.play({ guess: 'higher' }, new ScriptedDraws([43, 12]));
    expect(win.multiplier).toEqual(ratioFromDecimal('11.52'));
    expect(win.detail['first_card']).toBe('QC');
    expect(hilo.play({ guess: 'lower' }, new ScriptedDraws([43, 12])).multiplier).toEqual(ZERO);
  });

  it('parses guess strictly', () => {
    expect(parsed(hilo, { guess: 'lower' })).toEqual({ guess: 'lower' });
    for (const params of [{}, { guess: 'same' }, { guess: 'HIGHER' }, { guess: 2 }])
      expectRefused(hilo, params, 'guess');
  });

  it('states the exact law of play, summing to 1, with edge 41/1100 for both guesses', () => {
    for (const variant of hilo.variants()) {
      const law = hilo.distribution(variant.params);
      expect(totalOf(law)).toEqual(ONE);
      expect(enumeratePlay((draws) => hilo.play(variant.params, draws).multiplier, 44 * RANK_COUNT * 4)).toEqual(
        lawOf(law),
      );
      expect(ratioText(edgeOf(law))).toBe('41/1100');
    }
    expect(hilo.variants().map((variant) => hilo.variantName(variant.params))).toEqual(['hilo:higher', 'hilo:lower']);
    expect(hilo.advertisedEdge({ guess: 'higher' })).toEqual(ratio(4, 100));
  });

  it('samples its distribution from provably fair streams', () => {
    for (const variant of hilo.variants()) {
      sampleLaw((draws) => hilo.play(variant.params, draws).multiplier, hilo.distribution(variant.params), 20_000);
    }
  });
});
