/**
 * The verdict on one game variant of a live house-edge audit, as pure math over what was measured.
 *
 * Two questions, answered separately:
 *   1. Does the target's own rule give the advertised edge? Where the fairness scheme has the
 *      rule's exact law and the verified bets follow that rule, the exact edge is arithmetic, and
 *      a gross difference (an edge of 99% where 9.5% is advertised, a negative edge) is decided by
 *      the bets that showed the rule is the one played: tens, not the tens of thousands a
 *      sampling test needs. The verdict says how many bets it rests on.
 *   2. Do the returns paid agree with that law (and, without a law, with the advertised edge)?
 *      The empirical edge with its 99% interval (edge-statistics.ts); "differs" only when the
 *      other figure lies outside a 99.9% interval (z = 3.29) after MIN_EMPIRICAL_BETS bets.
 * Tolerance for "matches the advertised edge": the advertised text's own precision: half a unit
 * of its last printed digit ("0.5%" ± 0.05 points), one point for an edge given as "about".
 * Severity: a negative edge (players win on average) or one 10 points or more above the
 * advertised is critical; a difference of a point or more major; a smaller one minor.
 */
import { ratioToNumber } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import { edgeInterval, edgeTheory, Z_99, type EdgeInterval, type ReturnTally } from '../../audit/edge-statistics.ts';
import type { Severity } from '../finding.ts';

export const MIN_EMPIRICAL_BETS = 30;
const Z_999 = 3.2905267314919255;

export interface AdvertisedEdge {
  readonly edge: number;
  readonly text: string;
}

export interface VariantVerdict {
  readonly exactEdge: number | null;
  readonly advertised: AdvertisedEdge | null;
  /** 'matches' / 'differs' against the advertised edge; 'unknown' when neither the law nor enough bets decide. */
  readonly rule: 'matches' | 'differs' | 'unknown';
  readonly ruleSeverity: Severity | null;
  /** Bets the rule verdict rests on (verified bets that followed the rule). */
  readonly restsOnBets: number;
  readonly interval: EdgeInterval | null;
  /** Whether the empirical edge agrees with the law (or the advertised edge when there is no law). */
  readonly empirical: 'agrees' | 'differs' | 'too-few-bets';
}

/** The tolerance the advertised text itself implies, in edge units (0.0005 for "0.5%"). */
export function advertisedTolerance(text: string): number {
  if (/about|~|≈/i.test(text)) return 0.01;
  const match = /(\d+)(?:\.(\d+))?\s*%/.exec(text);
  const decimals = match?.[2]?.length ?? 0;
  return 0.5 * 10 ** -decimals / 100;
}

export function ruleSeverity(exactEdge: number, advertisedEdge: number): Severity {
  if (exactEdge < 0 || exactEdge - advertisedEdge >= 0.1) return 'critical';
  if (Math.abs(exactEdge - advertisedEdge) >= 0.01) return 'major';
  return 'minor';
}

export interface VerdictInput {
  readonly law: readonly Chance[] | null;
  readonly advertised: AdvertisedEdge | null;
  readonly tally: ReturnTally;
  /** Verified bets whose outcome followed the scheme's rule. */
  readonly followedRule: number;
  /** Verified bets (followed or not). */
  readonly verified: number;
}

export function judgeVariant(input: VerdictInput): VariantVerdict {
  const theory = input.law === null ? null : edgeTheory(input.law);
  const lawTrusted = theory !== null && input.verified > 0 && input.followedRule === input.verified;
  const exactEdge = lawTrusted ? ratioToNumber(theory.edge) : null;
  const interval = input.tally.bets >= 2 ? edgeInterval(input.tally.data(), theory?.sigma ?? 0) : null;
  let rule: VariantVerdict['rule'] = 'unknown';
  let severity: Severity | null = null;
  const advertised = input.advertised;
  if (exactEdge !== null && advertised !== null) {
    const differs = Math.abs(exactEdge - advertised.edge) > advertisedTolerance(advertised.text) || exactEdge < 0;
    rule = differs ? 'differs' : 'matches';
    severity = differs ? ruleSeverity(exactEdge, advertised.edge) : null;
  }
  const reference = exactEdge ?? advertised?.edge ?? null;
  let empirical: VariantVerdict['empirical'] = 'too-few-bets';
  if (interval !== null && reference !== null && interval.bets >= MIN_EMPIRICAL_BETS) {
    const halfWidth999 = (interval.halfWidth * Z_999) / Z_99;
    empirical = Math.abs(interval.edge - reference) > halfWidth999 ? 'differs' : 'agrees';
    if (exactEdge === null && advertised !== null && empirical === 'differs') {
      rule = 'differs';
      severity = ruleSeverity(interval.edge, advertised.edge);
    }
  }
  return { exactEdge, advertised, rule, ruleSeverity: severity, restsOnBets: lawTrusted ? input.followedRule : (interval?.bets ?? 0), interval, empirical };
}

/** 1 − E[M] of a law, for the documents-versus-target comparison. */
export function lawEdge(law: readonly Chance[]): number {
  return ratioToNumber(edgeTheory(law).edge);
}

