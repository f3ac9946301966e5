/**
 * The observed payout table of a live variant whose draw mapping holds but whose payouts differ
 * (edge-tier.ts `observed`): per published outcome class (the published rule's multiplier), the
 * published law's probability and the payout the target was seen to make, and the exact edge of
 * that table: 1 − Σ p × observed payout.
 * Outcome classes never seen are listed as unobserved (paid: null) and bound the edge honestly:
 * `edge` counts them at their published payout, `edgeMax` at nothing (the most the house can take
 * whatever they pay); the two are equal when every class of the law was seen. A class seen that
 * the law does not hold (`outsideLaw`) means the scheme's replay and its law disagree: the caller
 * falls back to the empirical edge.
 * Exact: probabilities and payouts are Ratios; only the final edges become numbers.
 */
import { add, compare, mul, ONE, ratioText, ratioToNumber, sub, ZERO, type Ratio } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import type { OutcomeClass } from './edge-tier.ts';

export interface ObservedRow {
  /** The published rule's multiplier for the outcome class. */
  readonly published: Ratio;
  /** The published law's probability of the class. */
  readonly probability: Ratio;
  /** The payout the target made for it; null when no bet landed in the class. */
  readonly paid: Ratio | null;
  readonly bets: number;
}

export interface ObservedTable {
  /** Rows by published multiplier, ascending. */
  readonly rows: readonly ObservedRow[];
  /** The exact edge of the observed table, unobserved classes at their published payout. */
  readonly edge: number;
  /** The edge if the unobserved classes paid nothing: an upper bound. */
  readonly edgeMax: number;
  readonly unobservedProbability: number;
  readonly bets: number;
  /** Bets in classes the law does not hold. */
  readonly outsideLaw: number;
}

/** The law's probability per published multiplier (outcomes with one multiplier merged). */
function classesOfLaw(law: readonly Chance[]): Map<string, { multiplier: Ratio; probability: Ratio }> {
  const merged = new Map<string, { multiplier: Ratio; probability: Ratio }>();
  for (const [probability, multiplier] of law) {
    const key = ratioText(multiplier);
    const known = merged.get(key);
    merged.set(key, {
      multiplier,
      probability: known === undefined ? probability : add(known.probability, probability),
    });
  }
  return merged;
}

/** The observed table; classes paid more than one way must have been ruled out (edge-tier.ts). */
export function observedTable(law: readonly Chance[], classes: ReadonlyMap<string, OutcomeClass>): ObservedTable {
  const rows: ObservedRow[] = [];
  let expected = ZERO;
  let unobserved = ZERO;
  let unobservedReturn = ZERO;
  let bets = 0;
  const lawClasses = classesOfLaw(law);
  for (const [key, { multiplier, probability }] of lawClasses) {
    if (probability.num === 0n) continue;
    const seen = classes.get(key);
    const slot = seen === undefined ? undefined : [...seen.paid.values()][0];
    const paid = slot?.multiplier ?? null;
    const count = seen === undefined ? 0 : [...seen.paid.values()].reduce((total, entry) => total + entry.count, 0);
    bets += count;
    rows.push({ published: multiplier, probability, paid, bets: count });
    if (paid === null) {
      unobserved = add(unobserved, probability);
      unobservedReturn = add(unobservedReturn, mul(probability, multiplier));
    } else expected = add(expected, mul(probability, paid));
  }
  let outsideLaw = 0;
  for (const [key, seen] of classes)
    if (!lawClasses.has(key)) for (const entry of seen.paid.values()) outsideLaw += entry.count;
  rows.sort((a, b) => compare(a.published, b.published));
  return {
    rows,
    edge: ratioToNumber(sub(ONE, add(expected, unobservedReturn))),
    edgeMax: ratioToNumber(sub(ONE, expected)),
    unobservedProbability: ratioToNumber(unobserved),
    bets,
    outsideLaw,
  };
}
