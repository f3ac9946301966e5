/**
 * An interval for the edge of returns whose law is unknown, valid for ANY law of returns bounded
 * in [0, B]: the live audit's empirical tier (audit/live/edge-verdict.ts), where the target plays
 * some other rule than the one it published, so neither the published law's σ nor the sample's
 * can be trusted. A normal interval from the sample's spread under-covers a heavy tail whose big
 * payout is still unseen: 40 spins of a wheel paying 10× one time in a hundred miss it two times
 * in three, and a 99.9% interval then excludes the true 9.5% edge often enough to call a working
 * wheel broken (CI saw it). Here the only assumption is the bound B.
 *
 * Method: testing by betting (Waudby-Smith & Ramdas, "Estimating means of bounded random
 * variables by betting", JRSS B 2024). For a candidate mean m, a gambler who bets a fraction c
 * of their capital that returns fall below m multiplies it by 1 + c·(m − x)/(B − m) per bet x;
 * betting they rise above m, by 1 + c·(x − m)/m. Under mean m both capitals are nonnegative
 * martingales, and so is their average over a FIXED grid of fractions c; by Ville's inequality
 * either reaches 2/α with probability at most α/2, at any number of bets (so an audit may look
 * after every bet). The interval is every m neither capital rejects. With a fixed grid each
 * capital is a product over the bets, so the interval depends on the multiset of returns only:
 * exact tallies in any order give one answer. Each capital is monotone in m (its factors are), so
 * the ends are found by bisection.
 * Cost: bisection steps × grid × outcome classes; a tally has tens of classes.
 */
import { assert } from '../../core/assert.ts';
import type { TallyData } from './edge-statistics.ts';

/** The betting fractions the capital is spread over (equal weights); below 1 so a bet never loses everything. */
const FRACTIONS = [0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99] as const;
const BISECTION_STEPS = 60;

export interface BoundedEdgeInterval {
  readonly bets: number;
  /** 1 − mean return. */
  readonly edge: number;
  /** The edge interval [1 − upper mean, 1 − lower mean] at the confidence asked. */
  readonly low: number;
  readonly high: number;
  /** The bound B on a return per unit staked the interval assumes. */
  readonly bound: number;
  readonly confidence: number;
}

interface Sample {
  readonly values: readonly number[];
  readonly counts: readonly number[];
  readonly bets: number;
  readonly mean: number;
}

function sampleOf(data: TallyData): Sample {
  const values: number[] = [];
  const counts: number[] = [];
  let bets = 0;
  let sum = 0;
  for (const [num, den, count] of data) {
    const value = Number(num) / Number(den);
    values.push(value);
    counts.push(count);
    bets += count;
    sum += value * count;
  }
  return { values, counts, bets, mean: bets === 0 ? 0 : sum / bets };
}

/** log of the grid-averaged capital betting that the mean is below m (against: above m, `below` false). */
function logCapital(sample: Sample, bound: number, m: number, below: boolean): number {
  const logs: number[] = [];
  for (const c of FRACTIONS) {
    let total = 0;
    for (let index = 0; index < sample.values.length; index += 1) {
      const x = sample.values[index] ?? 0;
      const factor = below ? 1 + (c * (m - x)) / (bound - m) : 1 + (c * (x - m)) / m;
      total += (sample.counts[index] ?? 0) * Math.log(factor);
    }
    logs.push(total);
  }
  const top = Math.max(...logs);
  let sum = 0;
  for (const value of logs) sum += Math.exp(value - top);
  return top + Math.log(sum / FRACTIONS.length);
}

/**
 * The interval at `confidence` (0.99 → α 0.01) for the edge 1 − E[x] of bets whose returns per
 * unit staked lie in [0, bound]. `data` is a ReturnTally's; every return must be ≤ bound.
 */
export function boundedEdgeInterval(data: TallyData, bound: number, confidence: number): BoundedEdgeInterval {
  assert(confidence > 0 && confidence < 1, 'a confidence lies strictly between 0 and 1');
  assert(Number.isFinite(bound) && bound > 0, 'the bound on returns is a positive number');
  const sample = sampleOf(data);
  assert(sample.bets > 0, 'an interval needs at least one bet');
  for (const value of sample.values) assert(value >= 0 && value <= bound, 'every return lies within [0, bound]');
  const threshold = Math.log(2 / (1 - confidence));
  // Upper mean: the least m in [mean, B] the "below" capital rejects (B itself when every return is B).
  let upper = bound;
  if (sample.mean < bound) {
    let [lo, hi] = [sample.mean, bound];
    for (let step = 0; step < BISECTION_STEPS; step += 1) {
      const mid = (lo + hi) / 2;
      if (mid >= bound || logCapital(sample, bound, mid, true) >= threshold) hi = mid;
      else lo = mid;
    }
    upper = hi;
  }
  // Lower mean: the greatest m in [0, mean] the "above" capital rejects (0 when every return is 0).
  let lower = 0;
  if (sample.mean > 0) {
    let [lo, hi] = [0, sample.mean];
    for (let step = 0; step < BISECTION_STEPS; step += 1) {
      const mid = (lo + hi) / 2;
      if (mid <= 0 || logCapital(sample, bound, mid, false) >= threshold) lo = mid;
      else hi = mid;
    }
    lower = lo;
  }
  return {
    bets: sample.bets,
    edge: 1 - sample.mean,
    low: 1 - upper,
    high: 1 - lower,
    bound,
    confidence,
  };
}
