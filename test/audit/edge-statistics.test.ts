// The house-edge audit's statistics: exact theory on known distributions, the interval's
// arithmetic, verdict semantics, the multiple-comparison bound, and — over many seeds, sampled
// straight from the Rng — that the honest interval rarely misses a heavy-tailed game's true edge
// (where a sample-σ interval misses most of the time) and catches a 1% payout cut.
import { describe, expect, it } from 'vitest';
import {
  ReturnTally,
  Z_99,
  allowedMisses,
  betsToResolve,
  edgeInterval,
  edgeTheory,
  judgeEdge,
  tallyFromData,
  type EdgeInterval,
} from '../../src/audit/edge/edge-statistics.ts';
import { ratio, ratioFromDecimal, ratioText, ratioToNumber } from '../../src/core/ratio.ts';
import { Rng } from '../../src/core/rng.ts';
import { coinFixture, heavyFixture, sampleInto } from './edge-fixtures.ts';

const coinDistribution = coinFixture({ advertised: null }).distribution({});
const heavyDistribution = heavyFixture().distribution({});
describe('edgeTheory', () => {
  it('gives the exact edge, variance and top class of a coin paying 1.96x', () => {
    const theory = edgeTheory(coinDistribution);
    expect(ratioText(theory.edge)).toBe('1/50');
    expect(ratioText(theory.variance)).toBe(ratioText(ratioFromDecimal('0.9604')));
    expect(theory.sigma).toBeCloseTo(0.98, 12);
    expect(ratioText(theory.topMultiplier)).toBe('49/25');
    expect(ratioText(theory.topProbability)).toBe('1/2');
  });

  it('gives the heavy-tailed fixture its jackpot-dominated σ', () => {
    const theory = edgeTheory(heavyDistribution);
    expect(ratioText(theory.edge)).toBe('2999/100000');
    // E[M²] = 1e8·1e-5 + 3.61·0.4579 ; Var = that − 0.97001²
    expect(ratioToNumber(theory.variance)).toBeCloseTo(1000 + 3.61 * 0.4579 - 0.97001 ** 2, 9);
    expect(ratioText(theory.topMultiplier)).toBe('10000');
    expect(ratioText(theory.topProbability)).toBe('1/100000');
  });

  it('refuses a distribution whose probabilities do not sum to 1', () => {
    expect(() => edgeTheory([[ratio(1n, 2n), ratio(2n)]])).toThrow(/sum to 1/);
  });
});

describe('ReturnTally and edgeInterval', () => {
  it('counts exactly and merges in any order to the same data', () => {
    const a = new ReturnTally();
    a.add(ratio(49n, 25n), 3);
    a.add(ratio(0n), 2);
    const b = new ReturnTally();
    b.add(ratio(0n), 2);
    b.add(ratio(49n, 25n), 3);
    expect(a.data()).toEqual(b.data());
    expect(a.data()).toEqual([
      [0n, 1n, 2],
      [49n, 25n, 3],
    ]);
    expect(tallyFromData(a.data()).bets).toBe(5);
    expect(a.countAtLeast(ratio(1n))).toBe(3);
  });

  it('computes mean, sample σ and the half-width with σ = max(sample, theory)', () => {
    const tally = new ReturnTally();
    tally.add(ratio(49n, 25n), 50);
    tally.add(ratio(0n), 50);
    const sampleSigma = Math.sqrt((50 * 1.96 ** 2 - 98 ** 2 / 100) / 99);
    const loose = edgeInterval(tally.data(), 0.5);
    expect(loose.edge).toBeCloseTo(0.02, 15);
    expect(loose.sampleSigma).toBeCloseTo(sampleSigma, 12);
    expect(loose.halfWidth).toBeCloseTo((Z_99 * sampleSigma) / 10, 12);
    const floored = edgeInterval(tally.data(), 5);
    expect(floored.sigma).toBe(5);
    expect(floored.low).toBeCloseTo(0.02 - (Z_99 * 5) / 10, 12);
  });
});

const interval = (low: number, high: number): EdgeInterval => ({
  bets: 1000,
  edge: (low + high) / 2,
  sampleSigma: 1,
  sigma: 1,
  halfWidth: (high - low) / 2,
  low,
  high,
});

describe('judgeEdge', () => {
  const theory = edgeTheory(coinDistribution); // T = 2%, σ = 0.98
  const advertised = ratio(5n, 1000n); // A = 0.5%

  it('is inconsistent when the interval excludes the advertised edge (and passes the model when it holds T)', () => {
    expect(judgeEdge({ advertised, theory, interval: interval(0.015, 0.025) })).toEqual({
      reference: 'advertised',
      verdict: 'inconsistent',
      model: 'pass',
      betsNeeded: 0,
    });
  });

  it('is unresolved while the interval holds both edges, and says how many bets would tell them apart', () => {
    const judgement = judgeEdge({ advertised, theory, interval: interval(-0.01, 0.03) });
    expect(judgement.verdict).toBe('unresolved');
    expect(judgement.betsNeeded).toBe(Math.floor(((2 * Z_99 * 0.98) / 0.015) ** 2) + 1);
  });

  it('is consistent when it holds the advertised edge and excludes the theoretical one (model fails)', () => {
    expect(judgeEdge({ advertised, theory, interval: interval(0.001, 0.01) })).toMatchObject({
      verdict: 'consistent',
      model: 'fail',
      betsNeeded: 0,
    });
  });

  it('compares with the theoretical edge where none is advertised; no difference to resolve', () => {
    expect(judgeEdge({ advertised: null, theory, interval: interval(0.01, 0.03) })).toEqual({
      reference: 'theoretical',
      verdict: 'consistent',
      model: 'pass',
      betsNeeded: null,
    });
    expect(judgeEdge({ advertised: null, theory, interval: interval(0.021, 0.03) })).toMatchObject({
      verdict: 'inconsistent',
      model: 'fail',
      betsNeeded: null,
    });
  });

  it('betsToResolve shrinks with the square of the difference', () => {
    expect(betsToResolve(0.015, 0.98)).toBe(113_283); // (2 · 2.5758 · 0.98 / 0.015)² = 113282.4
    expect(betsToResolve(0.03, 0.98)).toBe(28_321);
    expect(betsToResolve(0.01, 0)).toBe(2);
  });
});

describe('allowedMisses', () => {
  it('is the binomial 99.9% quantile of 1% misses (values checked with exact fractions)', () => {
    expect([1, 10, 100, 340, 1000].map((count) => allowedMisses(count))).toEqual([1, 2, 5, 10, 21]);
    expect(allowedMisses(0)).toBe(0);
  });
});

/** Misses of the theoretical edge by the audit's interval and by a naive sample-σ interval. */
function countMisses(runs: number, bets: number, seed: string): { honest: number; naive: number } {
  const theory = edgeTheory(heavyDistribution);
  const edge = ratioToNumber(theory.edge);
  let honest = 0;
  let naive = 0;
  for (let run = 0; run < runs; run++) {
    const tally = new ReturnTally();
    sampleInto(tally, heavyDistribution, bets, new Rng(`${seed}/${run}`));
    const audit = edgeInterval(tally.data(), theory.sigma);
    const sampleOnly = edgeInterval(tally.data(), 0);
    if (edge < audit.low || edge > audit.high) honest += 1;
    if (edge < sampleOnly.low || edge > sampleOnly.high) naive += 1;
  }
  return { honest, naive };
}

describe('heavy tails (the fixture: 10000x at p = 1e-5, 10% of the return)', () => {
  it('the audit interval stays within the family bound for N·p from 0.03 to 30, where a sample-σ interval fails', () => {
    const runs = 400;
    const sizes = [3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000];
    const results = sizes.map((bets) => countMisses(runs, bets, `heavy-${bets}`));
    const honest = results.reduce((sum, result) => sum + result.honest, 0);
    expect(honest).toBeLessThanOrEqual(allowedMisses(sizes.length * runs));
    expect(results[2]?.naive).toBeGreaterThan(runs / 2); // N·p = 0.3: most runs see no jackpot
  });
});

describe('a 1% payout cut on the coin', () => {
  it('is caught by the model check at 1M bets in every one of 200 seeds (10σ away)', () => {
    const theory = edgeTheory(coinDistribution);
    for (let run = 0; run < 200; run++) {
      const tally = new ReturnTally();
      sampleInto(tally, coinDistribution, 1_000_000, new Rng(`cut/${run}`), ratioFromDecimal('0.99'));
      const judgement = judgeEdge({ advertised: null, theory, interval: edgeInterval(tally.data(), theory.sigma) });
      expect(judgement.model, `seed cut/${run}`).toBe('fail');
    }
  });
});
