// The stated chance of winning (stated-chance.ts): compared at the places it is written, against
// P(multiplier > 0) of the rule's exact law; a difference is info stating both.
import { describe, expect, test } from 'vitest';
import { ratio, ZERO } from '../../../src/core/ratio.ts';
import type { FindingInput } from '../../../src/report/findings/finding.ts';
import {
  payingChance,
  recordStatedChance,
  StatedChanceTally,
  statedPrecision,
} from '../../../src/audit/live/stated-chance.ts';
import type { Chance } from '../../../src/services/casino/games/game.ts';

const LAW: readonly Chance[] = [
  [ratio(4987, 10_000), ratio(2)],
  [ratio(5013, 10_000), ZERO],
];

function recorded(text: string | null): FindingInput[] {
  const found: FindingInput[] = [];
  const tally = new StatedChanceTally();
  if (text !== null) for (let bet = 0; bet < 3; bet += 1) tally.note(Number(text));
  recordStatedChance(
    { add: (finding) => void found.push(finding) },
    { variant: 'multiplier:2', stated: tally.mostStated(), law: LAW, verified: 3 },
  );
  return found;
}

describe('stated chance', () => {
  test('precision is half a unit of the last place written', () => {
    expect(statedPrecision('0.4975')).toBeCloseTo(0.00005, 12);
    expect(statedPrecision('0.1')).toBeCloseTo(0.05, 12);
    expect(statedPrecision('1')).toBe(0.5);
    expect(payingChance(LAW)).toBeCloseTo(0.4987, 12);
  });

  test('0.4975 against 0.4987 is info stating both; 0.4987, 0.499 and 0.5 are what the rule gives at their places', () => {
    expect(recorded('0.4975')).toEqual([
      expect.objectContaining({
        id: 'rule:multiplier:2:stated-chance',
        severity: 'info',
        expected: '0.4975',
        seen: '0.498700',
      }),
    ]);
    for (const matching of ['0.4987', '0.499', '0.5']) expect(recorded(matching), matching).toEqual([]);
    expect(recorded(null)).toEqual([]);
  });

  test('the figure stated most often speaks, and the others are counted', () => {
    const tally = new StatedChanceTally();
    for (const chance of [0.42, 0.42, 0.3]) tally.note(chance);
    expect(tally.mostStated()).toEqual({ text: '0.42', chance: 0.42, count: 2, figures: 2 });
  });
});
