/**
 * What one bet's verification says, as findings: each of a fairness scheme's four checks that
 * failed is its own finding (one per game and check; the collector counts the bets), with the
 * bet, its seed and the differences as evidence. The fairness audit records all four; the live
 * house-edge audit only the proof's (its tiers judge outcomes and payouts, edge-tier.ts). Severities: a seed that does not hash to its
 * commitment or a result hash that is not the HMAC is critical (the proof is broken); an outcome
 * that does not follow the target's published rule is a rule finding, never "unfair" (the
 * hashes verified): major where the published rule is the target's own advertisement (afp's scheme) or
 * the answer contradicts itself (selfContradiction), minor elsewhere (the target may have changed
 * the mapping afp copied); a seed never revealed after rotation is major; answers whose own facts
 * contradict their own outcome or payout are judged per game (answer-consistency.ts).
 * Payouts: money findings need the target to contradict itself. A credit that is not the stake
 * times the multiplier the bet itself shows (beyond its rounding) is `money:<game>:credit`
 * (critical). A bet paid, consistently, a multiplier other than the published rule's is
 * `rule:<game>:payout`, stating the observed payout beside the published one: major where the
 * published rule is the target's own advertisement (afp's scheme: the documents'), minor on any
 * other (the deployed scheme's rules are afp's copy of DEPLOYED.md, which a target may change).
 */
import type { JsonValue } from '../../core/errors.ts';
import { formatDecimal } from '../../core/money.ts';
import { compare } from '../../core/ratio.ts';
import type { FindingSink } from '../../live.ts';
import type { FindingsCollector } from '../../report/findings/finding.ts';
import type {
  FairnessScheme,
  FairnessSchemeName,
  FieldDifference,
  SchemeBet,
  SchemeVerdict,
} from '../fairness/scheme.ts';
import { creditContradiction, paidMultiplier, PAYOUT_FIELD, ratioDecimal, topField } from './edge-tier.ts';

export interface VerificationInput {
  readonly bet: SchemeBet;
  readonly variant: string;
  readonly seedHex: string | null;
  readonly verdict: SchemeVerdict | null;
  readonly scheme: FairnessSchemeName;
  /** Whether the scheme's published rule is the target's own advertisement (FairnessScheme.documentsAdvertise). */
  readonly publishedIsAdvertised?: boolean;
  /** The game's result fields that state a payout or that its payout rule derives (FairnessScheme.payoutFields, ruleFields): differing only there is a payout, not an outcome. */
  readonly payoutFields?: readonly string[];
  /** The curl of the call that should have revealed the bet's seed (the rotation), where there is one. */
  readonly revealReproduce?: string;
  /** Whether the bet's own result states a win its `won` flag denies, or the reverse (selfContradiction). */
  readonly contradictsItself?: boolean;
  /** The call that revealed the seed checked (the GET that shows it): a failed commitment's endpoint and curl. */
  readonly seedReveal?: { readonly endpoint: string; readonly reproduce?: string };
}

function evidenceOf(input: VerificationInput): string {
  const { bet } = input;
  return `bet ${bet.betId} (${input.variant}): server seed ${input.seedHex ?? 'not revealed'}, client seed ${bet.clientSeed}, nonce ${bet.nonce}`;
}

/** The fairness audit's record of one bet: the proof checks, then the outcome and payout against the published rule. */
export function recordVerification(findings: FindingsCollector, input: VerificationInput): void {
  recordProofChecks(findings, input);
  const { bet, verdict } = input;
  // No rule finding rests on a bet whose proof failed: its seed is not the one committed to.
  if (verdict === null || !proofHolds(verdict)) return;
  const game = bet.game;
  const evidence = evidenceOf(input);
  const payoutOnly =
    verdict.outcome.status === 'failed' && isPayoutOnly(verdict.outcome.differences ?? [], input.payoutFields ?? []);
  if (verdict.outcome.status === 'failed' && !payoutOnly) {
    const differences = (verdict.outcome.differences ?? []).slice(0, 5).map((difference) => ({
      field: difference.field,
      recorded: difference.recorded,
      recomputed: difference.recomputed,
    })) as unknown as JsonValue;
    const contradicts = input.contradictsItself === true;
    findings.add({
      id: `rule:${game}:outcome`,
      // Major where the published rule is the target's own advertisement, or where the answer
      // contradicts itself; elsewhere the target may have changed its mapping (afp's copy of it is
      // what differs), as rule:<game>:scheme in the house-edge audit.
      severity: input.publishedIsAdvertised === true || contradicts ? 'major' : 'minor',
      kind: 'rule',
      title: `${game}: the outcome does not follow the ${input.scheme} scheme's published rule (the hashes verify)${contradicts ? `; the answer contradicts itself: its result states ${bet.won === true ? 'a loss' : 'a win'} where it is flagged ${bet.won === true ? 'won' : 'lost'}` : ''}`,
      field: 'result',
      expected: differences,
      seen: bet.result,
      evidence: `${evidence}; ${verdict.outcome.detail}`,
    });
  }
  if (verdict.payout.status === 'failed' || payoutOnly) recordPayout(findings, input, evidence);
}

/**
 * A bet whose own result states a win (by the game's win condition as the answer writes it) that
 * its `won` flag denies, or the reverse: a contradiction no changed rule explains.
 */
export function selfContradiction(scheme: FairnessScheme, bet: SchemeBet): boolean {
  const shown = scheme.shownWin?.(bet.game, bet.result) ?? null;
  return shown !== null && typeof bet.won === 'boolean' && shown !== bet.won;
}

/** The bet's proof holds: its seed hashes to the commitment and its result hash is the scheme's HMAC. */
export function proofHolds(verdict: SchemeVerdict): boolean {
  return verdict.commitment.status !== 'failed' && verdict.resultHash.status !== 'failed';
}

/** The payout check's own words, or the payout fields that differ. */
function payoutDetail(verdict: SchemeVerdict): string {
  if (verdict.payout.status === 'failed') return verdict.payout.detail;
  const differences = verdict.outcome.status === 'failed' ? (verdict.outcome.differences ?? []) : [];
  return `result ${differences
    .slice(0, 3)
    .map(
      (difference) =>
        `${difference.field} ${JSON.stringify(difference.recorded)} where the rule gives ${JSON.stringify(difference.recomputed)}`,
    )
    .join(', ')}`;
}

/** Every difference is in a field that states a payout (and there is at least one). */
function isPayoutOnly(differences: readonly FieldDifference[], payoutFields: readonly string[]): boolean {
  const fields = new Set([PAYOUT_FIELD, ...payoutFields]);
  return differences.length > 0 && differences.every((difference) => fields.has(topField(difference.field)));
}

/** A payout other than the rule's: money when the credit contradicts the bet's own multiplier, else a rule finding stating what was paid. */
function recordPayout(findings: FindingsCollector, input: VerificationInput, evidence: string): void {
  const { bet, verdict } = input;
  if (verdict === null) return;
  const game = bet.game;
  const contradiction = creditContradiction(bet);
  if (contradiction !== null) {
    findings.add({
      id: `money:${game}:credit`,
      severity: 'critical',
      kind: 'money',
      title: `${game}: the amount credited is not the stake times the multiplier the bet shows`,
      field: 'amount_won',
      expected: formatDecimal(contradiction.dueMicro),
      seen: bet.paidMicro === null ? null : formatDecimal(bet.paidMicro),
      evidence: `${evidence}; shows ×${String(bet.multiplier)} on a stake of ${formatDecimal(bet.amountMicro)}`,
    });
    return;
  }
  const paid = paidMultiplier(bet);
  const published = verdict.multiplier;
  const paidText = paid === null ? 'an unknown multiplier' : `${ratioDecimal(paid)}×`;
  const publishedText = published === null ? '?' : `${ratioDecimal(published)}×`;
  // Paid as published, and only a figure the payout rule derives differs (a crash point of another edge factor).
  const paidAsPublished = paid !== null && published !== null && compare(paid, published) === 0;
  findings.add({
    id: `rule:${game}:payout`,
    severity: input.publishedIsAdvertised === true ? 'major' : 'minor',
    kind: 'rule',
    title: paidAsPublished
      ? `${game}: the result's payout figures differ from the ${input.scheme} scheme's published rule (${payoutDetail(verdict)}), though this bet was paid ${paidText} as it pays (the draw follows the rule)`
      : `${game}: paid ${paidText} where the ${input.scheme} scheme's published rule pays ${publishedText} (the credit agrees with the multiplier the bet shows)`,
    field: 'payout_multiplier',
    expected: published === null ? null : ratioDecimal(published),
    seen: paid === null ? null : ratioDecimal(paid),
    evidence: `${evidence}; ${payoutDetail(verdict)}`,
  });
}

/**
 * The checks of the proof alone (the seed revealed, its commitment, the result hash): what the live
 * house-edge audit records per bet; the outcome and payout go to its tiers (edge-tier.ts) instead.
 */
export function recordProofChecks(findings: FindingSink, input: VerificationInput): void {
  const { bet, verdict } = input;
  const game = bet.game;
  const evidence = evidenceOf(input);
  if (verdict === null) {
    findings.add({
      id: `fairness:${game}:not-revealed`,
      severity: 'major',
      kind: 'fairness',
      title: `${game}: the server seed was not revealed after rotation`,
      endpoint: 'casino.rotate',
      field: 'previous_seed',
      expected: 'the seed revealed by rotation or listed in the seeds',
      seen: bet.seedHash,
      evidence,
      ...(input.revealReproduce === undefined ? {} : { reproduce: input.revealReproduce }),
    });
    return;
  }
  if (verdict.commitment.status === 'failed') {
    findings.add({
      id: `fairness:${game}:commitment`,
      severity: 'critical',
      kind: 'fairness',
      title: `${game}: the revealed seed does not hash to the bet's commitment`,
      ...(input.seedReveal === undefined ? {} : { ...input.seedReveal, field: 'seed' }),
      expected: bet.seedHash,
      seen: verdict.commitment.detail,
      evidence,
    });
  }
  if (verdict.resultHash.status === 'failed') {
    findings.add({
      id: `fairness:${game}:result-hash`,
      severity: 'critical',
      kind: 'fairness',
      title: `${game}: the result hash is not the ${input.scheme} scheme's HMAC of (client seed, nonce)`,
      expected: verdict.resultHash.detail,
      seen: bet.resultHash,
      evidence,
    });
  }
}

/** Two bets drew the same (server seed, nonce) pair (`evidence` names them): the nonce did not advance. */
export function recordNonceReused(findings: FindingSink, nonce: SchemeBet['nonce'], evidence: string): void {
  findings.add({
    id: 'fairness:nonce-reused',
    severity: 'critical',
    kind: 'fairness',
    title: 'two bets share a (server seed, nonce) pair: the nonce did not advance',
    field: 'proof.nonce',
    expected: 'a fresh nonce for every bet under one seed',
    seen: nonce,
    evidence,
  });
}
