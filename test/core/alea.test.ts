// Alea (src/core/alea.ts) draws what seedrandom's alea draws, from a seed and from a saved state.
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Alea } from '../../src/core/alea.ts';
import { Rng } from '../../src/core/rng.ts';

const SEEDS = ['', '42', 'quickstart/agents/escrow-buyer-0001', 'ünïcødé ✓', 'x'.repeat(300)];

describe('Alea', () => {
  it('draws the same numbers as seedrandom 3.0.5 for every seed', () => {
    for (const seed of SEEDS) {
      const theirs = seedrandom.alea(seed);
      const ours = new Alea(seed);
      for (let draw = 0; draw < 1_000; draw++) expect(ours.int32()).toBe(theirs.int32());
    }
  });

  it('keeps the same state and resumes from it as seedrandom does', () => {
    const theirs = seedrandom.alea('resume', { state: true });
    const ours = new Alea('resume');
    for (let draw = 0; draw < 37; draw++) expect(ours.next()).toBe(theirs());
    expect(ours.state()).toEqual(theirs.state());
    expect(Object.keys(ours.state())).toEqual(Object.keys(theirs.state()));
    const resumed = new Alea('resume', ours.state());
    const theirsResumed = seedrandom.alea('resume', { state: theirs.state() });
    for (let draw = 0; draw < 100; draw++) expect(resumed.int32()).toBe(theirsResumed.int32());
  });

  it('gives Rng a state a copy resumes from', () => {
    const rng = new Rng('copy');
    rng.hex(12);
    const copy = new Rng(rng.seed, rng.state());
    expect(copy.hex(64)).toBe(rng.hex(64));
  });
});
