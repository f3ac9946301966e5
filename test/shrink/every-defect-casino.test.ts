/**
 * Issue 19's demonstration, part two: every deliberate casino defect, found by the house-edge
 * run, shrinks to a scenario at least ten times smaller that fails the same way.
 */
import { describe, it } from 'vitest';
import { CASINO_CASES } from './defect-cases.ts';
import { expectShrinks } from './shrink-defect.ts';

describe('every defect shrinks (house-edge)', () => {
  for (const row of CASINO_CASES) {
    it(`${row.defect}: at least 10x smaller, same invariant (${row.invariant})`, () => expectShrinks(row), 300_000);
  }
});
