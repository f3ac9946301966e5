/**
 * Verifying a phase of a live house-edge audit's bets in plan order (edge-audit.ts): each bet's proof
 * against its revealed seed, nonce reuse, the bet's self-consistency (credit, win flag, display
 * places), and what its variant's track tallies for the verdict.
 */
import {
  formatAmount,
  fromMicro,
  roundAmount,
  roundedToFewerPlaces,
  shownPlaces,
  type LiveAmount,
} from '../../core/live-amount.ts';
import { formatDecimal } from '../../core/money.ts';
import { ratio, type Ratio } from '../../core/ratio.ts';
import type { SchemeBet } from '../fairness/scheme.ts';
import { type LiveBet, betCredit, withEvidence, type FindingSink } from '../../live.ts';
import type { PlannedVariant } from './edge-plan.ts';
import { proofHolds, recordNonceReused, recordProofChecks, selfContradiction } from './verification-findings.ts';
import { creditContradiction } from './edge-tier.ts';
import { creditSlackMicro } from './balance-tolerance.ts';
import type { VariantTrack } from './variant-track.ts';
import { requestEvidence, type AuditRun, type Slot } from './edge-run.ts';
import type { Revealed } from './edge-seeds.ts';

export function verifyPhase(run: AuditRun, slots: readonly Slot[], revealed: Revealed | null): void {
  const { scheme, plan, findings } = run.options;
  for (const slot of slots) {
    if (slot === undefined) continue;
    const variant = plan[slot.index % plan.length] as PlannedVariant;
    const track = run.tracks[slot.index % plan.length] as VariantTrack;
    const bet = slot.bet;
    const credit = betCredit(bet);
    run.paidMicro += credit.ok ? credit.micro : (bet.paidMicro ?? 0n);
    run.creditSlackMicro += creditSlackMicro(credit, bet);
    // The request that placed the bet (its curl: how a reader sees the same behaviour again) is the
    // evidence of every finding the bet shows; sent again it places a new bet at the next nonce.
    const where = requestEvidence(run, slot.op, slot.request);
    const betFindings = withEvidence(findings, { ...where, field: 'proof' });
    const draw = `${bet.seedHash}:${bet.nonce}`;
    if (run.draws.has(draw)) {
      recordNonceReused(
        betFindings,
        bet.nonce,
        `bet ${bet.betId} (${variant.variant}) reuses nonce ${bet.nonce} of seed ${bet.seedHash}`,
      );
    }
    run.draws.add(draw);
    const schemeBet: SchemeBet = { ...bet, game: variant.game, params: slot.params };
    const seed = revealed?.seeds.get(bet.seedHash) ?? null;
    const seedHex = seed?.seed ?? null;
    const verdict = seedHex === null ? null : scheme.verify(schemeBet, seedHex);
    // Seeds not asked of a target that stopped answering were not withheld: no proof check then.
    if (revealed !== null)
      recordProofChecks(betFindings, {
        bet: schemeBet,
        variant: variant.variant,
        seedHex,
        verdict,
        scheme: scheme.name,
        ...(revealed.reproduce === undefined ? {} : { revealReproduce: revealed.reproduce }),
        ...(seed === null
          ? {}
          : {
              seedReveal: {
                endpoint: seed.endpoint,
                ...(seed.reproduce === undefined ? {} : { reproduce: seed.reproduce }),
              },
            }),
      });
    checkSelfConsistent(withEvidence(findings, where), bet, variant.variant);
    const exact = verdict !== null && proofHolds(verdict) && verdict.outcome.status === 'ok';
    run.answerTally.add(withEvidence(findings, where), scheme, schemeBet, variant.variant, exact);
    track.noteStatements(scheme, variant.game, bet.result);
    // A bet whose proof fails is not verified: no rule or edge rests on a seed that is not the one committed to.
    if (verdict === null || !proofHolds(verdict)) continue;
    track.verified += 1;
    if (selfContradiction(scheme, schemeBet)) {
      track.contradicting += 1;
      track.contradictingExample ??= `bet ${bet.betId} (${variant.variant}): result ${JSON.stringify(bet.result)} with won ${String(bet.won)}`;
    }
    track.sample ??= { betId: bet.betId, ...where };
    if (seedHex !== null) run.drawTally.add(scheme, { bet: schemeBet, verdict, seedHex, request: where });
    track.tier.add(schemeBet, verdict, where);
    if (seedHex !== null) track.keep({ bet: schemeBet, seedHex });
    const followed = verdict.outcome.status === 'ok' && verdict.payout.status !== 'failed';
    if (followed) track.followedRule += 1;
    const returned = returnOf(bet);
    if (returned !== null) track.addReturn(returned, followed);
  }
}

/**
 * Money findings need the target to contradict itself: the amount credited is not the stake times
 * the multiplier it showed (beyond its display rounding), or its win flag says the opposite of its
 * credit. Never afp's expectation of the rule (the tiers state what the payouts give). The credit
 * is read the way the target writes money (live/bet-credit.ts): where `amount_won` is a display
 * field, stake × the shown multiplier, never the rounded figure (0.01 × 0.2 shows as 0.00).
 */
function checkSelfConsistent(findings: FindingSink, bet: LiveBet, variant: string): void {
  const credit = betCredit(bet);
  const evidence = `bet ${bet.betId} (${variant}): staked ${formatDecimal(bet.amountMicro)}, shown multiplier ${String(bet.multiplier)}, shown credit ${bet.paidMicro === null ? '?' : formatAmount(fromMicro(bet.paidMicro))}${(bet.paidPlaces ?? null) === null ? '' : ` (a display figure; the documents round it to ${String(bet.paidPlaces)} places)`}`;
  const displayed = (bet.paidPlaces ?? null) !== null;
  if (displayed && !credit.ok && credit.unstated && bet.paidMicro !== null) {
    // Nothing to contradict: the credit is known only to its rounding, which the balance check allows for.
    findings.add({
      id: `shape:${bet.game}:credit-unstated`,
      severity: 'minor',
      kind: 'shape',
      title: `${bet.game}: the answer rounds amount_won and names no multiplier, so its exact credit cannot be told`,
      field: 'payout_multiplier',
      expected: 'the multiplier (stake × multiplier is the credit)',
      seen: null,
      evidence,
    });
  }
  const contradiction = displayed
    ? credit.ok || credit.unstated
      ? null
      : credit.problem
    : creditContradiction(bet) === null
      ? null
      : 'the credit is not stake × the shown multiplier';
  if (contradiction !== null && bet.paidMicro !== null) {
    findings.add({
      id: `money:${bet.game}:credited`,
      severity: 'critical',
      kind: 'money',
      title: `${bet.game}: the amount credited is not the stake times the multiplier the target itself showed`,
      field: 'amount_won',
      expected: bet.multiplier === null ? null : `stake × ${String(bet.multiplier)}`,
      seen: formatDecimal(bet.paidMicro),
      evidence: `${evidence}: ${contradiction}`,
    });
  }
  if (credit.ok && displayed && bet.paidMicro !== null) checkDisplayPlaces(findings, bet, credit.amount, evidence);
  if (!credit.ok || bet.won === null) return;
  const paid = credit.micro;
  if ((bet.won && paid === 0n) || (!bet.won && paid > bet.amountMicro)) {
    findings.add({
      id: `money:${bet.game}:won-flag`,
      severity: 'major',
      kind: 'money',
      title: `${bet.game}: the win flag contradicts the amount the target credited`,
      field: 'won',
      expected: paid !== 0n,
      seen: bet.won,
      evidence,
    });
  }
}

/**
 * The places the target rounds `amount_won` to, measured against the documents' (`paidPlaces`):
 * more shown decimals than published, or a shown figure that is the credit rounded to fewer places
 * but not to the published ones, is an info finding (a dialect difference with its evidence; the
 * money checks allow the shown figure's own rounding, core/live-amount.ts withinRounding).
 */
function checkDisplayPlaces(findings: FindingSink, bet: LiveBet, credit: LiveAmount, evidence: string): void {
  const published = bet.paidPlaces ?? null;
  if (published === null || bet.paidMicro === null) return;
  const shown = fromMicro(bet.paidMicro);
  const places = shownPlaces(shown);
  const more = places > published;
  const fewer = roundedToFewerPlaces(shown, credit, published);
  if (!more && !fewer) return;
  findings.add({
    id: `shape:casino.bet:amount_won:places-${more ? 'more' : 'fewer'}`,
    severity: 'info',
    kind: 'shape',
    title: `casino.bet: amount_won is rounded to ${more ? 'more' : 'fewer'} decimals than the ${published} the documents publish`,
    field: 'amount_won',
    expected: `stake × payout_multiplier = ${formatAmount(credit)} rounded to ${published} decimals: ${formatAmount(roundAmount(credit, published), published)}`,
    seen: formatAmount(shown),
    evidence,
  });
}

/**
 * What the bet returned per unit staked: its credit (live/bet-credit.ts: stake × the shown
 * multiplier where the answer rounds `amount_won`) over the stake — never the rounded figure,
 * which biases small stakes.
 */
function returnOf(bet: LiveBet): Ratio | null {
  if (bet.amountMicro <= 0n) return null;
  const credit = betCredit(bet);
  return credit.ok ? ratio(credit.micro, bet.amountMicro) : null;
}
