/**
 * Mines: the exact multiplier 0.975 · C(25, r) / C(25 − m, r) against casino.md's samples, an
 * exact 2.5% edge for all 300 parameter pairs, the draw mapping (mine cells by sample(25, m)),
 * edge cases (1 and 24 mines, the most reveals), refusals, and exact and seeded laws.
 */
import { describe, expect, it } from 'vitest';
import { ratio, ratioFromDecimal, ratioText, ratioToNumber } from '../../../../src/core/ratio.ts';
import { mines, minesMultiplier, minesWinChance } from '../../../../src/services/casino/games/mines.ts';
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

describe('mines payouts', () => {
  it('pays exactly 0.975 / P(win), unrounded', () => {
    expect(minesMultiplier({ mines: 1, reveals: 1 })).toEqual(ratio(65n, 64n));
    expect(minesMultiplier({ mines: 3, reveals: 5 })).toEqual(ratio(39n * 53_130n, 40n * 26_334n));
    expect(minesMultiplier({ mines: 10, reveals: 10 })).toEqual(ratio(39n * 3_268_760n, 40n * 3_003n));
    expect(minesMultiplier({ mines: 24, reveals: 1 })).toEqual(ratio(195n, 8n));
    expect(minesMultiplier({ mines: 1, reveals: 24 })).toEqual(ratio(195n, 8n));
    expect(minesMultiplier({ mines: 12, reveals: 13 })).toEqual(ratio(39n * 5_200_300n, 40n));
  });

  it("agrees with casino.md's 1 mine 1 reveal (about 1.02x) and not with its other two samples (about 6x, about 130x)", () => {
    expect(ratioToNumber(minesMultiplier({ mines: 1, reveals: 1 })).toFixed(2)).toBe('1.02');
    expect(ratioToNumber(minesMultiplier({ mines: 3, reveals: 5 })).toFixed(2)).toBe('1.97');
    expect(ratioToNumber(minesMultiplier({ mines: 10, reveals: 10 })).toFixed(1)).toBe('1061.3');
  });

  it('has an exact 2.5% edge and a distribution summing to 1 for every (mines, reveals)', () => {
    let pairs = 0;
    for (let mineCount = 1; mineCount <= 24; mineCount++) {
      for (let reveals = 1; reveals <= 25 - mineCount; reveals++) {
        const chances = mines.distribution({ mines: mineCount, reveals });
        expect(totalOf(chances)).toEqual(ratio(1n));
        expect(edgeOf(chances)).toEqual(ratio(1n, 40n));
        expect(chances[0]?.[0]).toEqual(minesWinChance({ mines: mineCount, reveals }));
        pairs += 1;
      }
    }
    expect(pairs).toBe(300);
  });
});

describe('mines play', () => {
  it('places mines with sample(25, mines) and loses at the first revealed mine', () => {
    const first = new ScriptedDraws([0, 0, 0]);
    expect(mines.play({ mines: 3, reveals: 5 }, first)).toEqual({
      multiplier: ratio(0n),
      detail: { mines: 3, reveals: 5, mine_positions: [0, 1, 2], hit_cell: 0, won: false },
    });
    expect(first.bounds).toEqual([25, 24, 23]);
    const late = mines.play({ mines: 3, reveals: 5 }, new ScriptedDraws([24, 3, 8]));
    expect(late.detail).toEqual({ mines: 3, reveals: 5, mine_positions: [4, 10, 24], hit_cell: 4, won: false });
    const safe = mines.play({ mines: 3, reveals: 5 }, new ScriptedDraws([24, 4, 8]));
    expect(safe).toEqual({
      multiplier: minesMultiplier({ mines: 3, reveals: 5 }),
      detail: { mines: 3, reveals: 5, mine_positions: [5, 10, 24], hit_cell: null, won: true },
    });
  });

  it('wins the most reveals only when the single mine is the last cell; 24 mines leave one safe cell', () => {
    expect(mines.play({ mines: 1, reveals: 24 }, new ScriptedDraws([24])).multiplier).toEqual(ratio(195n, 8n));
    expect(mines.play({ mines: 1, reveals: 24 }, new ScriptedDraws([23])).multiplier).toEqual(ratio(0n));
    // Fisher–Yates answers of 1 take cells 1, 2, …, 24 in turn (cell 0 keeps moving up the pool).
    const spared = mines.play({ mines: 24, reveals: 1 }, new ScriptedDraws(Array<number>(24).fill(1)));
    expect(spared).toEqual({
      multiplier: ratio(195n, 8n),
      detail: {
        mines: 24,
        reveals: 1,
        mine_positions: Array.from({ length: 24 }, (_, index) => index + 1),
        hit_cell: null,
        won: true,
      },
    });
    expect(mines.play({ mines: 24, reveals: 1 }, new ScriptedDraws(Array<number>(24).fill(0))).detail['hit_cell']).toBe(
      0,
    );
  });

  for (const params of [
    { mines: 1, reveals: 1 },
    { mines: 1, reveals: 24 },
    { mines: 3, reveals: 5 },
    { mines: 2, reveals: 23 },
  ]) {
    it(`mines:${params.mines}:${params.reveals}: play's exact law over every mine placement equals the distribution`, () => {
      const law = enumeratePlay((draws) => mines.play(params, draws).multiplier, 25 * 24 * 23);
      expect(law).toEqual(lawOf(mines.distribution(params)));
    });
  }

  it('samples its law from provably fair streams (3 mines 5 reveals; 10 mines 10 reveals)', () => {
    for (const params of [
      { mines: 3, reveals: 5 },
      { mines: 10, reveals: 10 },
    ]) {
      sampleLaw((draws) => mines.play(params, draws).multiplier, mines.distribution(params), 20_000);
    }
  });
});

describe('mines parameters', () => {
  it('accepts 1 to 24 mines and 1 to 25 − mines reveals', () => {
    expect(parsed(mines, { mines: 1, reveals: 24 })).toEqual({ mines: 1, reveals: 24 });
    expect(parsed(mines, { mines: 24, reveals: 1, amount: 1 })).toEqual({ mines: 24, reveals: 1 });
    expect(mines.variantName({ mines: 3, reveals: 5 })).toBe('mines:3:5');
    const names = mines.variants().map((variant) => variant.name);
    for (const printed of ['mines:1:1', 'mines:3:5', 'mines:10:10']) expect(names).toContain(printed);
    for (const variant of mines.variants()) expect(mines.variantName(variant.params)).toBe(variant.name);
  });

  it('refuses out-of-range counts, too many reveals, wrong types, missing and unknown fields', () => {
    for (const count of [0, 25, -1, 2.5, '3', null]) expectRefused(mines, { mines: count, reveals: 1 }, 'mines');
    expectRefused(mines, { mines: 1, reveals: 25 }, 'reveals');
    expectRefused(mines, { mines: 24, reveals: 2 }, 'reveals');
    expectRefused(mines, { mines: 3, reveals: 0 }, 'reveals');
    expectRefused(mines, { mines: 3, reveals: '5' }, 'reveals');
    expectRefused(mines, { mines: 3 }, 'reveals');
    expectRefused(mines, { reveals: 3 }, 'mines');
    expectRefused(mines, { mines: 3, reveals: 5, grid: 5 }, 'grid');
  });

  it('states its limits and advertised edge', () => {
    expect(mines.advertisedEdgeText).toBe('2.5%');
    expect(mines.advertisedEdge({ mines: 1, reveals: 1 })).toEqual(ratioFromDecimal('0.025'));
    expect([mines.minBetMicro, mines.maxBetMicro]).toEqual([10_000n, 1_000_000_000n]);
    expect([mines.id, mines.path, mines.paramFields]).toEqual(['mines', 'mines', ['mines', 'reveals']]);
    expect(ratioText(minesMultiplier({ mines: 5, reveals: 10 }))).toBe('69/4');
  });
});
