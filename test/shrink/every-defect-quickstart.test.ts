/**
 * Issue 19's demonstration, part one: every deliberate defect of the faucet and escrow, found by
 * the quickstart's run, shrinks to a scenario at least ten times smaller that fails the same way;
 * and every defect has a row (here, in the casino file, or named as caught elsewhere).
 */
import { describe, expect, it } from 'vitest';
import { DEFECT_NAMES } from '../../src/services/shared/context.ts';
import { CASINO_CASES, CAUGHT_ELSEWHERE, QUICKSTART_CASES } from './defect-cases.ts';
import { expectShrinks } from './shrink-defect.ts';

describe('every defect shrinks (quickstart)', () => {
  it('has a row for every deliberate defect', () => {
    const covered = [...QUICKSTART_CASES, ...CASINO_CASES]
      .map((row) => row.defect as string)
      .concat(Object.keys(CAUGHT_ELSEWHERE));
    expect([...covered].sort()).toEqual([...DEFECT_NAMES].sort());
  });

  for (const row of QUICKSTART_CASES) {
    it(`${row.defect}: at least 10x smaller, same invariant (${row.invariant})`, () => expectShrinks(row), 300_000);
  }
});
