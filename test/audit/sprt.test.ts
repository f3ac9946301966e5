// Wald's SPRT on per-bet returns: accepts H0 on a coin that keeps its advertised edge, H1 on one
// that takes a point more (and, two-sided, on one that takes a point less), each over 20 seeds
// within the binomial bound for α = β = 1%; stops at maxBets undecided; never observes past a
// decision. Bets are drawn straight from the seeded Rng (the statistics, not the fair path).
import { describe, expect, it } from 'vitest';
import { allowedMisses } from '../../src/audit/edge/edge-statistics.ts';
import { Sprt, sprtExpectedBets, type SprtDecision, type SprtDirection } from '../../src/audit/edge/sprt.ts';
import { Rng } from '../../src/core/rng.ts';

const SIGMA = 0.98; // a 1.96x coin
const RUNS = 20;

/** Runs one SPRT (H0: edge 2%) on a coin paying `payout` at 1/2 until it decides. */
function run(
  payout: number,
  seed: string,
  sides: 'one' | 'two' = 'one',
): { decision: SprtDecision; direction: SprtDirection | null; bets: number } {
  const sprt = new Sprt({ advertisedEdge: 0.02, sigma: SIGMA, sides, maxBets: 5_000_000 });
  const rng = new Rng(seed);
  while (sprt.decision() === 'continue') sprt.observe(rng.int(2) === 0 ? payout : 0);
  return { decision: sprt.decision(), direction: sprt.direction(), bets: sprt.bets };
}

function decisions(payout: number, label: string, sides: 'one' | 'two' = 'one'): ReturnType<typeof run>[] {
  return Array.from({ length: RUNS }, (_, index) => run(payout, `${label}/${index}`, sides));
}

describe('Sprt', () => {
  it('accepts H0 on a coin that keeps its advertised 2% edge, in about the expected number of bets', () => {
    const results = decisions(1.96, 'faithful');
    expect(results.filter((result) => result.decision !== 'accept-h0').length).toBeLessThanOrEqual(allowedMisses(RUNS));
    const meanBets = results.reduce((sum, result) => sum + result.bets, 0) / RUNS;
    expect(meanBets).toBeGreaterThan(sprtExpectedBets(SIGMA) / 3);
    expect(meanBets).toBeLessThan(sprtExpectedBets(SIGMA) * 3);
  });

  it('accepts H1 (higher) on a coin that takes 3%', () => {
    const results = decisions(1.94, 'shifted');
    expect(
      results.filter((result) => result.decision !== 'accept-h1' || result.direction !== 'higher').length,
    ).toBeLessThanOrEqual(allowedMisses(RUNS));
  });

  it('two-sided: accepts H1 (lower) on a coin that takes only 1%, H0 on the faithful one', () => {
    const lower = decisions(1.98, 'generous', 'two');
    expect(lower.filter((result) => result.direction !== 'lower').length).toBeLessThanOrEqual(allowedMisses(RUNS));
    const faithful = decisions(1.96, 'faithful-two', 'two');
    expect(faithful.filter((result) => result.decision !== 'accept-h0').length).toBeLessThanOrEqual(
      allowedMisses(RUNS),
    );
  });

  it('is undecided at maxBets, and refuses observations after a decision', () => {
    const sprt = new Sprt({ advertisedEdge: 0.03, sigma: 31.6, maxBets: 1000 });
    for (let bet = 0; bet < 1000; bet++) sprt.observe(bet % 2 === 0 ? 1.9 : 0);
    expect(sprt.decision()).toBe('undecided');
    expect(() => sprt.observe(1)).toThrow(/only until it decides/);
  });

  it('moves its log-likelihood ratio by (μ1 − μ0)(x − midpoint)/σ² per bet', () => {
    const sprt = new Sprt({ advertisedEdge: 0.02, sigma: 1, delta: 0.01, maxBets: 10 });
    sprt.observe(0);
    expect(sprt.logLikelihoodRatios()[0]).toBeCloseTo(-0.01 * (0 - 0.975), 12);
  });
});
