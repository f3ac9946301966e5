/**
 * The verdict on one game variant of a live house-edge audit, as pure math over what was measured,
 * in the tier the bets put the variant in (edge-tier.ts):
 *   - `published`: the exact edge of the scheme's rule, which every verified bet followed; a gross
 *     difference (an edge of 99% where 9.5% is advertised, a negative edge) is decided by the bets
 *     that showed the rule is the one played: tens, not the tens of thousands a sampling test needs;
 *   - `observed`: the exact edge of the observed payout table (observed-table.ts), stated as the
 *     range [unobserved outcomes at their published payout, unobserved outcomes paying nothing].
 *     With every outcome seen paid, the range is one exact edge, decided as a published one. With
 *     outcomes unobserved, only its upper end is a bound (those outcomes paying nothing): a target
 *     whose answers state payouts above the published ones may pay its unseen outcomes more, so the
 *     lower end is what they would give at the published payouts, not a bound (a mines game paying
 *     0.99 instead of 0.975, stating a 1% edge, was called 2.479% "major" after 10 losing bets).
 *     Such a variant is decided below the advertised edge by its upper end, and above it only
 *     from its returns, as an empirical one;
 *   - `empirical`: nothing is derived from the published rule, not even its spread: 1 − returns /
 *     stakes with a 99% interval valid for ANY law of returns within [0, B] (audit/edge/bounded-mean.ts;
 *     B the larger of the published table's top payout and the largest paid), and a verdict only
 *     when its 99.9% interval after MIN_EMPIRICAL_BETS bets excludes the advertised edge; its
 *     severity is judged from the interval's end nearest the advertised. A normal interval from
 *     the sample's spread called a working wheel broken when 40 spins missed its 10× sector.
 *     Without a published law (deployed video poker) nothing bounds the returns: the sample's
 *     interval is stated for information and decides nothing.
 * The returns are also held against the stated exact edge (published, or a fully observed table):
 * "differs" beyond a 99.9% interval is a sign of selection, not of a bad hash.
 * Tolerance for "matches the advertised edge": the advertised text's own precision: half a unit
 * of its last printed digit ("0.5%" ± 0.05 points), one point for an edge given as "about".
 * Severity: an edge within the advertised one's tolerance matches it, a negative one too (a target
 * that states it pays more than it takes, and does, keeps its word); otherwise a negative edge
 * (players win on average) or one 10 points or more above the advertised is critical; a difference of a point or more major; a smaller one minor.
 */
import { ratioToNumber } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import { boundedEdgeInterval } from '../edge/bounded-mean.ts';
import { normalQuantile } from '../edge/normal-quantile.ts';
import { assert } from '../../core/assert.ts';
import {
  CONFIDENCE_LEVEL,
  edgeInterval,
  edgeTheory,
  Z_99,
  type EdgeInterval,
  type EdgeTheory,
  type ReturnTally,
  type TallyData,
} from '../edge/edge-statistics.ts';
import { lawTheory } from './law-theory.ts';
import type { Severity } from '../../report/findings/finding.ts';
import type { EdgeSource, EmpiricalCause, TierTrack } from './edge-tier.ts';
import { observedTable, type ObservedTable } from './observed-table.ts';
import { percentInText } from '../fairness/stated-percent.ts';
import type { RestatedRule } from '../fairness/scheme.ts';

export const MIN_EMPIRICAL_BETS = 30;

export interface AdvertisedEdge {
  readonly edge: number;
  readonly text: string;
  /** The tolerance the target's own prose implies ("~4%": a point), where its reader knew it; else read from `text`. */
  readonly tolerance?: number;
}

export interface VariantVerdict {
  readonly edgeSource: EdgeSource;
  /** Why the variant is empirical; null in the other tiers. */
  readonly cause: EmpiricalCause | 'outside-law' | null;
  /** The exact edge of the rule the bets were seen to follow (published, or a fully observed table); null otherwise. */
  readonly exactEdge: number | null;
  /** The edge the audit states for the variant, in its tier; null when nothing supports one. */
  readonly statedEdge: number | null;
  /** Its range: [e, e] for an exact edge, the unobserved bounds of an observed table, the 99% interval of an empirical one. */
  readonly statedRange: readonly [low: number, high: number] | null;
  readonly advertised: AdvertisedEdge | null;
  /** 'matches' / 'differs' against the advertised edge; 'unknown' when neither the rule nor enough bets decide. */
  readonly rule: 'matches' | 'differs' | 'unknown';
  readonly ruleSeverity: Severity | null;
  /** Bets the stated edge rests on (bets that followed the mapping; every paid bet when empirical). */
  readonly restsOnBets: number;
  readonly interval: EdgeInterval | null;
  /** The variants judged together (VerdictInput.family). */
  readonly family: number;
  /** The level each decision from returns was taken at: 0.999 over one variant, 1 − 0.001 / family over a family. */
  readonly decisiveConfidence: number;
  /** Empirical tier: the bound B on a return per unit staked its interval assumes; null in the other tiers. */
  readonly returnBound: number | null;
  /** Whether the returns agree with the stated exact edge (or, empirical, with the advertised edge). */
  readonly empirical: 'agrees' | 'differs' | 'too-few-bets';
  /** The observed payout table (observed tier only). */
  readonly observed: ObservedTable | null;
}

/** The tolerance the advertised text itself implies, in edge units (0.0005 for "0.5%"). */
export function advertisedTolerance(text: string): number {
  if (/about|~|≈/i.test(text)) return 0.01;
  const decimals = percentInText(text)?.places ?? 0;
  return (0.5 * 10 ** -decimals) / 100;
}

/** Below this an edge is 0, not negative: a sum of doubles (0.5 × 2 − 1) may land a hair under. */
const ZERO_EDGE = -1e-9;

export function ruleSeverity(exactEdge: number, advertisedEdge: number): Severity {
  if (exactEdge < ZERO_EDGE || exactEdge - advertisedEdge >= 0.1) return 'critical';
  if (Math.abs(exactEdge - advertisedEdge) >= 0.01) return 'major';
  return 'minor';
}

export interface VerdictInput {
  /** The published law of the variant under the target's scheme, or null. */
  readonly law: readonly Chance[] | null;
  readonly advertised: AdvertisedEdge | null;
  /** Returns per unit staked of every verified bet. */
  readonly tally: ReturnTally;
  readonly tier: TierTrack;
  /**
   * The rule the variant's answers state, where its bets left the published one and every kept bet
   * follows it (FairnessScheme.restate); `law` is then its law. The edge is that law's, exact, in the
   * observed tier: measured from what the answers state, never recited.
   */
  readonly restated?: RestatedRule | null;
  /**
   * How many variants the audit judges at once (≥ 1; default 1): a decision from returns is taken
   * at 99.9% over the whole family (Bonferroni: 1 − 0.001 / family each), so an audit of 40
   * variants of a working target is not called broken 4% of the time.
   */
  readonly family?: number;
}

interface Stated {
  readonly source: EdgeSource;
  readonly cause: VariantVerdict['cause'];
  readonly exact: number | null;
  readonly range: readonly [number, number] | null;
  readonly restsOn: number;
  readonly observed: ObservedTable | null;
}

/** The tier, and the edge it states from the law and the bets (empirical: none yet). */
function stateEdge(input: VerdictInput): Stated {
  const restated = input.restated ?? null;
  if (restated !== null) {
    const exact = ratioToNumber(lawTheory(restated.law).edge);
    return { source: 'observed', cause: null, exact, range: [exact, exact], restsOn: restated.bets, observed: null };
  }
  const tier = input.tier.source();
  const empirical = (cause: VariantVerdict['cause']): Stated => ({
    source: 'empirical',
    cause,
    exact: null,
    range: null,
    restsOn: input.tally.bets,
    observed: null,
  });
  if (tier.source === 'empirical') return empirical(tier.cause);
  if (input.law === null)
    return tier.source === 'published'
      ? { source: 'published', cause: null, exact: null, range: null, restsOn: input.tier.mapped, observed: null }
      : empirical('not-replayed');
  if (tier.source === 'published') {
    const exact = ratioToNumber(lawTheory(input.law).edge);
    return {
      source: 'published',
      cause: null,
      exact,
      range: [exact, exact],
      restsOn: input.tier.mapped,
      observed: null,
    };
  }
  const table = observedTable(input.law, input.tier.classes);
  if (table.outsideLaw > 0) return empirical('outside-law');
  const exact = table.unobservedProbability === 0 ? table.edge : null;
  return {
    source: 'observed',
    cause: null,
    exact,
    range: [table.edge, table.edgeMax],
    restsOn: input.tier.mapped,
    observed: table,
  };
}

/**
 * An observed table with paying outcomes not seen paid: its range bounds the edge from above only
 * (see the header). Unseen losing outcomes (published to pay nothing) leave both ends equal.
 */
function partlyObserved(stated: Stated): boolean {
  return (
    stated.source === 'observed' && stated.exact === null && stated.range !== null && stated.range[0] < stated.range[1]
  );
}

/**
 * The lowest edge a verdict's stated range allows: its lower end, or −∞ for an observed table with
 * paying outcomes unobserved (the target may pay them more than published).
 */
export function edgeLowBound(verdict: Pick<VariantVerdict, 'edgeSource' | 'exactEdge' | 'statedRange'>): number {
  const range = verdict.statedRange;
  if (range === null) return Number.NEGATIVE_INFINITY;
  return verdict.edgeSource === 'observed' && verdict.exactEdge === null && range[0] < range[1]
    ? Number.NEGATIVE_INFINITY
    : range[0];
}

/** Matches, differs (with severity) or unknown: a range against the advertised edge. */
export function judgeRange(
  range: readonly [number, number],
  advertised: AdvertisedEdge,
): { rule: VariantVerdict['rule']; severity: Severity | null } {
  const tolerance = advertised.tolerance ?? advertisedTolerance(advertised.text);
  const [low, high] = range;
  // The target's own word first: an edge it states (a negative one too) and keeps is no contradiction.
  if (low >= advertised.edge - tolerance && high <= advertised.edge + tolerance)
    return { rule: 'matches', severity: null };
  if (high < ZERO_EDGE || low - advertised.edge > tolerance)
    return { rule: 'differs', severity: ruleSeverity(high < ZERO_EDGE ? high : low, advertised.edge) };
  if (advertised.edge - high > tolerance) return { rule: 'differs', severity: ruleSeverity(high, advertised.edge) };
  return { rule: 'unknown', severity: null };
}

export function judgeVariant(input: VerdictInput): VariantVerdict {
  const stated = stateEdge(input);
  const theory = input.law === null ? null : lawTheory(input.law);
  const data = input.tally.bets >= 2 ? input.tally.data() : null;
  const family = input.family ?? 1;
  assert(Number.isSafeInteger(family) && family >= 1, 'a family of variants holds at least one');
  const decisiveConfidence = 1 - DECISIVE_MISS / family;
  const partly = partlyObserved(stated);
  const returnBound =
    (stated.source === 'empirical' || partly) && data !== null && input.law !== null
      ? boundOfReturns(input.law, data)
      : null;
  const interval =
    data === null
      ? null
      : returnBound !== null
        ? boundedInterval(data, returnBound)
        : edgeInterval(data, lawSigma(stated, theory));
  const advertised = input.advertised;
  let rule: VariantVerdict['rule'] = 'unknown';
  let severity: Severity | null = null;
  if (stated.range !== null && advertised !== null)
    ({ rule, severity } = judgeRange(partly ? [Number.NEGATIVE_INFINITY, stated.range[1]] : stated.range, advertised));
  const reference = stated.source === 'empirical' || partly ? (advertised?.edge ?? null) : stated.exact;
  let empirical: VariantVerdict['empirical'] = 'too-few-bets';
  let range = stated.range;
  if (data !== null && interval !== null && interval.bets >= MIN_EMPIRICAL_BETS && reference !== null) {
    if (returnBound !== null) {
      const decisive = boundedEdgeInterval(data, returnBound, decisiveConfidence);
      empirical = reference < decisive.low || reference > decisive.high ? 'differs' : 'agrees';
      if (advertised !== null && empirical === 'differs') {
        rule = 'differs';
        severity = ruleSeverity(decisive.low > advertised.edge ? decisive.low : decisive.high, advertised.edge);
      }
    } else if (stated.source !== 'empirical') {
      const decisiveHalfWidth = (interval.halfWidth * normalQuantile(1 - (1 - decisiveConfidence) / 2)) / Z_99;
      empirical = Math.abs(interval.edge - reference) > decisiveHalfWidth ? 'differs' : 'agrees';
    }
  }
  if (stated.source === 'empirical') range = statedInterval(interval, returnBound);
  const statedEdge =
    stated.source === 'empirical'
      ? (interval?.edge ?? null)
      : stated.source === 'observed'
        ? (stated.observed?.edge ?? stated.exact)
        : stated.exact;
  return {
    edgeSource: stated.source,
    cause: stated.cause,
    exactEdge: stated.exact,
    statedEdge,
    statedRange: range,
    advertised,
    rule,
    ruleSeverity: severity,
    restsOnBets: stated.restsOn,
    interval,
    family,
    decisiveConfidence,
    returnBound,
    empirical,
    observed: stated.observed,
  };
}

/**
 * The σ floor of a published or observed interval: the law the bets were seen to follow. A fully
 * observed table is a law of its own (the published probabilities × the payouts made), and its σ,
 * not the published one, is the spread of what is paid; with classes unobserved, the published.
 * Every class, exactly: a keno class of probability near 1e-330 reads 0 as a float.
 */
function lawSigma(stated: Stated, theory: EdgeTheory | null): number {
  const observed = stated.observed;
  if (stated.source === 'observed' && observed !== null && observed.rows.every((row) => row.paid !== null)) {
    const law: Chance[] = [];
    for (const row of observed.rows) if (row.paid !== null) law.push([row.probability, row.paid]);
    return edgeTheory(law).sigma;
  }
  return theory?.sigma ?? 0;
}

/** The chance a decision from returns may wrongly call a working target broken, over a whole audit (the 99% interval is the one stated). */
const DECISIVE_MISS = 0.001;

/**
 * B for an empirical variant: the larger of the published table's top payout and the largest
 * payout the target made (a target paying above its own table is seen doing so, and B grows).
 * Without a published law nothing bounds the returns: the interval is the sample's, stated for
 * information, and decides nothing (judgeVariant).
 */
function boundOfReturns(law: readonly Chance[], data: TallyData): number {
  let bound = ratioToNumber(lawTheory(law).topMultiplier);
  for (const [num, den] of data) bound = Math.max(bound, Number(num) / Number(den));
  return bound > 0 ? bound : 1;
}

/** The empirical tier's 99% interval in the shape the reports read (σ: the sample's, for information). */
function boundedInterval(data: TallyData, bound: number): EdgeInterval {
  const bounded = boundedEdgeInterval(data, bound, CONFIDENCE_LEVEL);
  const sampleSigma = edgeInterval(data, 0).sampleSigma;
  return {
    bets: bounded.bets,
    edge: bounded.edge,
    sampleSigma,
    sigma: sampleSigma,
    halfWidth: (bounded.high - bounded.low) / 2,
    low: bounded.low,
    high: bounded.high,
  };
}

/**
 * The 99% interval as the audit states it: none on fewer than MIN_EMPIRICAL_BETS bets (the normal
 * approximation does not hold: 11 wheel bets give ±113 points), and never above an edge of 100%
 * (returns are never negative, so 1 − returns / stakes ≤ 1).
 */
export function shownInterval(interval: EdgeInterval | null): readonly [low: number, high: number] | null {
  if (interval === null || interval.bets < MIN_EMPIRICAL_BETS) return null;
  return [Math.min(interval.low, 1), Math.min(interval.high, 1)];
}

/**
 * The interval an empirical edge is stated with: the bounded one (valid for any law of returns up
 * to B, whatever the number of bets: a handful of bets give a wide interval, never a bare point)
 * where a bound exists; without one, the sample's, from MIN_EMPIRICAL_BETS bets on (shownInterval).
 */
export function statedInterval(
  interval: EdgeInterval | null,
  returnBound: number | null,
): readonly [number, number] | null {
  if (interval === null) return null;
  if (returnBound === null) return shownInterval(interval);
  return [Math.min(interval.low, 1), Math.min(interval.high, 1)];
}

/** 1 − E[M] of a law, for the documents-versus-target comparison. */
export function lawEdge(law: readonly Chance[]): number {
  return ratioToNumber(lawTheory(law).edge);
}
