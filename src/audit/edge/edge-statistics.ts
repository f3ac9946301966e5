/**
 * The statistics of the house-edge audit (`afp audit house-edge`), as pure math.
 *
 * Theory: from a variant's exact distribution (GameModule.distribution) the theoretical edge
 * 1 − E[M] and the variance E[M²] − E[M]² of the per-bet return M (total return per unit
 * staked) are exact Ratios; only σ is a float.
 * Observation: a `ReturnTally` counts bets per distinct multiplier (integers), so the sums Σm and
 * Σm² of N bets are exact Ratios, tallies merge exactly in any order (worker counts cannot
 * change a result), and only the final edge, σ and interval become floats (statistics, not money).
 *
 * The 99% interval is mean ± z·σ/√N with σ = max(sample σ, theoretical σ). Why the max: heavy
 * tails. Keno 10-spot pays 250000x at p ≈ 1.1e-7 (~3% of its return); at 1M bets the sample
 * almost never holds a jackpot, so the sample σ (and mean) miss it and a sample-σ interval would
 * exclude the true edge most of the time. With the theoretical σ ≥ J·√p the half-width is at
 * least z·J·√(p/N), which exceeds the missing p·J whenever N·p ≤ z² ≈ 6.6; once the jackpot
 * does land, the sample σ (≈ J·√k/N·√N) widens the interval past the jump it causes. The
 * interval is therefore honest (conservative) where it is wide, and `betsNeeded` says how many
 * bets would make it narrow. test/audit checks its miss rate over many seeds.
 * Verdicts (semantics in `judgeEdge`) and the multiple-comparison bound (`allowedMisses`) are here
 * too. Non-goals: drawing bets (edge-simulation.ts), the sequential test (sprt.ts), rendering.
 */
import { assert } from '../../core/assert.ts';
import { ONE, ZERO, add, compare, div, mul, ratio, ratioToNumber, sub, type Ratio } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';

/** Two-sided 99%: Φ⁻¹(0.995). */
export const Z_99 = 2.5758293035489004;
export const CONFIDENCE_LEVEL = 0.99;
/**
 * Advertised and theoretical edges closer than this count as equal: such a difference (crash's
 * 0.5% against its 2^52-grid law, ~1e-16) would need more than ~1e19·σ² bets to resolve.
 */
export const NEGLIGIBLE_EDGE_DIFFERENCE = 1e-9;
/** A tally holds at most this many distinct multipliers (games have tens; a bound on memory). */
export const MAX_TALLY_CLASSES = 10_000;

export interface EdgeTheory {
  readonly expectedReturn: Ratio;
  /** 1 − E[M], exact. */
  readonly edge: Ratio;
  /** Var[M] = E[M²] − E[M]², exact. */
  readonly variance: Ratio;
  readonly sigma: number;
  /** The largest multiplier and the probability of paying exactly it (the "jackpot" class). */
  readonly topMultiplier: Ratio;
  readonly topProbability: Ratio;
}

export function edgeTheory(distribution: readonly Chance[]): EdgeTheory {
  assert(distribution.length > 0, 'a distribution has at least one outcome class');
  let total = ZERO;
  let first = ZERO;
  let second = ZERO;
  let topMultiplier = ZERO;
  let topProbability = ZERO;
  for (const [probability, multiplier] of distribution) {
    assert(probability.num >= 0n && multiplier.num >= 0n, 'probabilities and multipliers are non-negative');
    total = add(total, probability);
    first = add(first, mul(probability, multiplier));
    second = add(second, mul(probability, mul(multiplier, multiplier)));
    const order = compare(multiplier, topMultiplier);
    if (order > 0) [topMultiplier, topProbability] = [multiplier, probability];
    else if (order === 0) topProbability = add(topProbability, probability);
  }
  assert(compare(total, ONE) === 0, 'distribution probabilities sum to 1');
  const variance = sub(second, mul(first, first));
  return {
    expectedReturn: first,
    edge: sub(ONE, first),
    variance,
    sigma: Math.sqrt(ratioToNumber(variance)),
    topMultiplier,
    topProbability,
  };
}

/** A tally as plain data (structured-clone safe, for worker messages): [num, den, count], sorted by value. */
export type TallyData = ReadonlyArray<readonly [num: bigint, den: bigint, count: number]>;

interface TallySlot {
  readonly multiplier: Ratio;
  count: number;
}

/** Identity shortcuts kept per tally: games return a few constant Ratio objects; new objects per bet fall back to value lookup. */
const MAX_IDENTITY_SHORTCUTS = 1024;

/** Bets counted per distinct multiplier: exact, order-independent accumulation. */
export class ReturnTally {
  private readonly byDenominator = new Map<bigint, Map<bigint, TallySlot>>();
  private readonly byIdentity = new Map<Ratio, TallySlot>();
  private classCount = 0;
  private betCount = 0;

  get bets(): number {
    return this.betCount;
  }

  add(multiplier: Ratio, count = 1): void {
    const slot = this.byIdentity.get(multiplier) ?? this.slotByValue(multiplier);
    slot.count += count;
    this.betCount += count;
  }

  private slotByValue(multiplier: Ratio): TallySlot {
    let byNumerator = this.byDenominator.get(multiplier.den);
    if (byNumerator === undefined) {
      byNumerator = new Map();
      this.byDenominator.set(multiplier.den, byNumerator);
    }
    let slot = byNumerator.get(multiplier.num);
    if (slot === undefined) {
      assert(multiplier.num >= 0n && multiplier.den > 0n, 'a multiplier is a non-negative ratio');
      this.classCount += 1;
      assert(this.classCount <= MAX_TALLY_CLASSES, 'a tally holds at most MAX_TALLY_CLASSES multipliers');
      slot = { multiplier: { num: multiplier.num, den: multiplier.den }, count: 0 };
      byNumerator.set(multiplier.num, slot);
    }
    if (this.byIdentity.size < MAX_IDENTITY_SHORTCUTS) this.byIdentity.set(multiplier, slot);
    return slot;
  }

  merge(data: TallyData): void {
    for (const [num, den, count] of data) this.add({ num, den }, count);
  }

  /** Bets paid at least `multiplier`. */
  countAtLeast(multiplier: Ratio): number {
    let count = 0;
    for (const [num, den, bets] of this.data()) if (compare({ num, den }, multiplier) >= 0) count += bets;
    return count;
  }

  data(): TallyData {
    const rows: Array<readonly [bigint, bigint, number]> = [];
    for (const byNumerator of this.byDenominator.values()) {
      for (const slot of byNumerator.values())
        if (slot.count > 0) rows.push([slot.multiplier.num, slot.multiplier.den, slot.count]);
    }
    return rows.sort(
      (a, b) => compare({ num: a[0], den: a[1] }, { num: b[0], den: b[1] }) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
    );
  }
}

export function tallyFromData(data: TallyData): ReturnTally {
  const tally = new ReturnTally();
  tally.merge(data);
  return tally;
}

export interface EdgeInterval {
  readonly bets: number;
  /** Empirical edge 1 − mean(M). */
  readonly edge: number;
  readonly sampleSigma: number;
  /** The σ the interval uses: max(sample σ, theoretical σ). */
  readonly sigma: number;
  readonly halfWidth: number;
  readonly low: number;
  readonly high: number;
}

/** The empirical edge of a tally and its honest 99% interval (see the header). */
export function edgeInterval(data: TallyData, theorySigma: number): EdgeInterval {
  let bets = 0;
  let sum = ZERO;
  let sumSquares = ZERO;
  for (const [num, den, count] of data) {
    const weighted = ratio(num * BigInt(count), den);
    bets += count;
    sum = add(sum, weighted);
    sumSquares = add(sumSquares, mul(weighted, ratio(num, den)));
  }
  assert(bets >= 2, 'an interval needs at least two bets');
  const n = ratio(BigInt(bets));
  const edge = ratioToNumber(sub(ONE, div(sum, n)));
  const sampleVariance = div(sub(sumSquares, div(mul(sum, sum), n)), ratio(BigInt(bets - 1)));
  const sampleSigma = Math.sqrt(Math.max(0, ratioToNumber(sampleVariance)));
  const sigma = Math.max(sampleSigma, theorySigma);
  const halfWidth = (Z_99 * sigma) / Math.sqrt(bets);
  return { bets, edge, sampleSigma, sigma, halfWidth, low: edge - halfWidth, high: edge + halfWidth };
}

export type EdgeVerdict = 'consistent' | 'inconsistent' | 'unresolved';
export type ModelCheck = 'pass' | 'fail';

export interface EdgeJudgement {
  /** What the verdict compared with: the advertised edge, or the theoretical one when none is advertised. */
  readonly reference: 'advertised' | 'theoretical';
  readonly verdict: EdgeVerdict;
  readonly model: ModelCheck;
  /** Total bets on this variant for the 99% half-width to fall below |advertised − theoretical| / 2 (theoretical σ); 0 when resolved; null when they are equal. */
  readonly betsNeeded: number | null;
}

const contains = (interval: EdgeInterval, edge: Ratio): boolean => {
  const value = ratioToNumber(edge);
  return interval.low <= value && value <= interval.high;
};

/**
 * Verdict against the reference edge A (advertised, else theoretical T):
 * inconsistent — the interval excludes A (the play contradicts the advertised edge);
 * consistent — it contains A, and A = T or the interval excludes T (the difference is resolved);
 * unresolved — it contains A and T ≠ A as well: too few bets to tell them apart.
 * "A = T" means |A − T| < NEGLIGIBLE_EDGE_DIFFERENCE.
 * model — pass when the interval contains T: the casino plays afp's own payout rules.
 */
export function judgeEdge(input: {
  advertised: Ratio | null;
  theory: EdgeTheory;
  interval: EdgeInterval;
}): EdgeJudgement {
  const { theory, interval } = input;
  const reference = input.advertised ?? theory.edge;
  const difference = Math.abs(ratioToNumber(sub(reference, theory.edge)));
  const same = difference < NEGLIGIBLE_EDGE_DIFFERENCE;
  const holdsReference = contains(interval, reference);
  const holdsTheory = contains(interval, theory.edge);
  const verdict: EdgeVerdict = !holdsReference ? 'inconsistent' : same || !holdsTheory ? 'consistent' : 'unresolved';
  return {
    reference: input.advertised === null ? 'theoretical' : 'advertised',
    verdict,
    model: holdsTheory ? 'pass' : 'fail',
    betsNeeded: same ? null : verdict === 'unresolved' ? betsToResolve(difference, theory.sigma) : 0,
  };
}

/** Bets at which z·σ/√N < difference / 2: an interval centred near one edge then excludes the other. */
export function betsToResolve(difference: number, sigma: number): number {
  assert(difference > 0, 'a positive difference to resolve');
  if (sigma === 0) return 2;
  return Math.max(2, Math.floor(((2 * Z_99 * sigma) / difference) ** 2) + 1);
}

/**
 * Multiple comparisons: K independent intervals each missing with probability ≤ missRate (1%
 * at 99%) give ~K/100 misses by chance. Returns the smallest m with P(Binomial(K, missRate) > m)
 * ≤ familyFalseAlarm: a test over K intervals asserts misses ≤ m, and fails wrongly at most once
 * in 1/familyFalseAlarm runs (K = 1000: m = 21).
 */
export function allowedMisses(intervals: number, familyFalseAlarm = 1e-3, missRate = 1 - CONFIDENCE_LEVEL): number {
  assert(Number.isSafeInteger(intervals) && intervals >= 0 && intervals <= 10_000_000, 'interval count in [0, 1e7]');
  assert(familyFalseAlarm > 0 && familyFalseAlarm < 1 && missRate > 0 && missRate < 1, 'probabilities in (0, 1)');
  let logPmf = intervals * Math.log1p(-missRate);
  let cumulative = 0;
  for (let misses = 0; misses <= intervals; misses++) {
    cumulative += Math.exp(logPmf);
    if (1 - cumulative <= familyFalseAlarm) return misses;
    logPmf += Math.log((intervals - misses) / (misses + 1)) + Math.log(missRate / (1 - missRate));
  }
  return intervals;
}
