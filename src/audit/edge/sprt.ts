/**
 * Wald's sequential probability ratio test on per-bet returns, for the live house-edge audit:
 * bet a little at a time and stop as soon as the data decide.
 *
 * H0: edge = advertised (mean return μ0 = 1 − advertised) against H1: edge = advertised + δ (the
 * house takes δ more than it says; δ defaults to one percentage point). `sides: 'two'` also tests
 * edge = advertised − δ, as two one-sided tests at α/2 each (Sobel–Wald): H1 is accepted when
 * either side accepts its H1, H0 when both accept H0. Normal approximation with σ known from the
 * variant's exact distribution (edge-statistics.ts): each return x adds
 * (μ1 − μ0)·(x − (μ0 + μ1)/2) / σ² to the log-likelihood ratio; H1 is accepted at
 * log((1 − β)/α), H0 at log(β/(1 − α)). A limit on everything: after `maxBets` without a
 * crossing the decision is 'undecided' (heavy-tailed variants need ~2σ²·ln(1/α)/δ² bets).
 * Non-goals: placing bets or verifying proofs (the live auditor does that and feeds `observe`).
 */
import { assert } from '../../core/assert.ts';

export type SprtDecision = 'accept-h0' | 'accept-h1' | 'continue' | 'undecided';
/** Which alternative was accepted: the house takes more ('higher' edge) or less than advertised. */
export type SprtDirection = 'higher' | 'lower';

export interface SprtOptions {
  /** H0's edge, e.g. 0.005. */
  readonly advertisedEdge: number;
  /** σ of the per-bet return under the rules (> 0). */
  readonly sigma: number;
  /** The shift H1 assumes; default 0.01. */
  readonly delta?: number;
  readonly alpha?: number;
  readonly beta?: number;
  readonly sides?: 'one' | 'two';
  /** At most this many observations (≤ 1e10). */
  readonly maxBets: number;
}

interface Side {
  readonly direction: SprtDirection;
  /** μ1 − μ0 over σ². */
  readonly slope: number;
  readonly midpoint: number;
  readonly upper: number;
  readonly lower: number;
  state: 'continue' | 'h0' | 'h1';
}

export const SPRT_DEFAULT_DELTA = 0.01;
export const SPRT_DEFAULT_ERROR = 0.01;

export class Sprt {
  private readonly sides: Side[];
  private readonly maxBets: number;
  private count = 0;
  private sum = 0;

  constructor(options: SprtOptions) {
    const delta = options.delta ?? SPRT_DEFAULT_DELTA;
    const alpha = options.alpha ?? SPRT_DEFAULT_ERROR;
    const beta = options.beta ?? SPRT_DEFAULT_ERROR;
    assert(options.sigma > 0 && Number.isFinite(options.sigma), 'SPRT σ is positive');
    assert(delta > 0 && alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5, 'SPRT δ > 0, α and β in (0, 0.5)');
    assert(
      Number.isSafeInteger(options.maxBets) && options.maxBets >= 1 && options.maxBets <= 1e10,
      'SPRT maxBets in [1, 1e10]',
    );
    const twoSided = options.sides === 'two';
    const sideAlpha = twoSided ? alpha / 2 : alpha;
    const mean0 = 1 - options.advertisedEdge;
    const side = (direction: SprtDirection): Side => {
      const mean1 = direction === 'higher' ? mean0 - delta : mean0 + delta;
      return {
        direction,
        slope: (mean1 - mean0) / options.sigma ** 2,
        midpoint: (mean0 + mean1) / 2,
        upper: Math.log((1 - beta) / sideAlpha),
        lower: Math.log(beta / (1 - sideAlpha)),
        state: 'continue',
      };
    };
    this.sides = twoSided ? [side('higher'), side('lower')] : [side('higher')];
    this.maxBets = options.maxBets;
  }

  get bets(): number {
    return this.count;
  }

  /** The log-likelihood ratio of each side (H1 over H0), 'higher' first. */
  logLikelihoodRatios(): number[] {
    return this.sides.map((side) => side.slope * (this.sum - this.count * side.midpoint));
  }

  /** One bet's total return per unit staked. Only while the decision is 'continue'. */
  observe(returnPerUnit: number): void {
    assert(Number.isFinite(returnPerUnit) && returnPerUnit >= 0, 'a return per unit is a finite non-negative number');
    assert(this.decision() === 'continue', 'SPRT observes only until it decides');
    this.count += 1;
    this.sum += returnPerUnit;
    const ratios = this.logLikelihoodRatios();
    this.sides.forEach((side, index) => {
      const value = ratios[index] as number;
      if (side.state !== 'continue') return;
      if (value >= side.upper) side.state = 'h1';
      else if (value <= side.lower) side.state = 'h0';
    });
  }

  decision(): SprtDecision {
    if (this.sides.some((side) => side.state === 'h1')) return 'accept-h1';
    if (this.sides.every((side) => side.state === 'h0')) return 'accept-h0';
    return this.count >= this.maxBets ? 'undecided' : 'continue';
  }

  /** The accepted alternative's direction, or null unless the decision is 'accept-h1'. */
  direction(): SprtDirection | null {
    return this.sides.find((side) => side.state === 'h1')?.direction ?? null;
  }
}

/** Wald's approximate expected number of bets to a decision when H0 is true (one-sided). */
export function sprtExpectedBets(
  sigma: number,
  delta = SPRT_DEFAULT_DELTA,
  alpha = SPRT_DEFAULT_ERROR,
  beta = SPRT_DEFAULT_ERROR,
): number {
  assert(sigma > 0 && delta > 0, 'σ and δ are positive');
  const upper = Math.log((1 - beta) / alpha);
  const lower = Math.log(beta / (1 - alpha));
  const driftPerBet = (delta * delta) / (2 * sigma * sigma);
  return Math.ceil(-((1 - alpha) * lower + alpha * upper) / driftPerBet);
}
