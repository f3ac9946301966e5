/**
 * The money check of a live house-edge audit (edge-audit.ts): the balance read before and after the
 * bets must move by the returns minus the stakes the answers reported, to the target's own rounding.
 */
import type { LiveAmount } from '../../core/live-amount.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { type SentRequest, withEvidence } from '../../live.ts';
import { balanceReadsRoundingMicro } from './balance-tolerance.ts';
import { requestEvidence, type AuditRun } from './edge-run.ts';

/** A balance read: in micro, as the target wrote it (where the dialect keeps it), and the request that read it (the balance finding's curl). */
interface BalanceRead {
  readonly micro: Micro;
  readonly shown: LiveAmount | null;
  readonly request: SentRequest;
}

/** The balance and the request that read it; null when it could not be read. */
export async function readAuditBalance(run: AuditRun): Promise<BalanceRead | null> {
  const outcome = await run.options.session.call('casino.balance', {}, run.options.apiKey);
  return outcome.kind === 'ok'
    ? { micro: outcome.value.balanceMicro, shown: outcome.value.balance ?? null, request: outcome.request }
    : null;
}

/**
 * Balance after − before must be returns − stakes, within the target's own rounding only
 * (balance-tolerance.ts): the credits are booked as the answers state them, so any more is money
 * that went somewhere no answer names.
 */
export function checkMoney(run: AuditRun, beforeRead: BalanceRead | null, afterRead: BalanceRead | null): void {
  if (beforeRead === null || afterRead === null) return;
  const [before, after] = [beforeRead.micro, afterRead.micro];
  // The balance read after the bets: its curl shows the balance the finding compares.
  const findings = withEvidence(run.options.findings, {
    ...requestEvidence(run, 'casino.balance', afterRead.request),
    field: 'balance',
    note: 'the balance read after the bets (an aggregate: the bets moved it)',
  });
  const bets = run.tracks.reduce((total, track) => total + track.placed, 0);
  if (run.unsettled > 0) {
    // A bet the target may have settled unseen moves the balance by an amount no answer states: not judged.
    findings.add({
      id: 'money:edge-audit:balance-delta-not-judged',
      severity: 'info',
      kind: 'money',
      title: `the balance's movement over the audit is not judged: ${run.unsettled} bets' outcomes were not read (an answer unread or never received, a server error, or a video-poker hand dealt and not drawn)`,
      expected: null,
      seen: formatDecimal(after - before),
      evidence: `balance before ${formatDecimal(before)}, after ${formatDecimal(after)}; ${bets} bets read, staked ${formatDecimal(run.answeredStakeMicro)}, paid ${formatDecimal(run.paidMicro)}`,
    });
    return;
  }
  const expected = run.paidMicro - run.answeredStakeMicro;
  const seen = after - before;
  const allowance = run.creditSlackMicro + balanceReadsRoundingMicro(beforeRead.shown, afterRead.shown);
  const difference = seen > expected ? seen - expected : expected - seen;
  if (difference <= allowance) return;
  findings.add({
    id: 'money:edge-audit:balance-delta',
    severity: 'critical',
    kind: 'money',
    title: `the balance moved by ${formatDecimal(seen)} USDC over the audit, but the answers report ${formatDecimal(expected)} (returns − stakes)`,
    expected: formatDecimal(expected),
    seen: formatDecimal(seen),
    evidence: `balance before ${formatDecimal(before)}, after ${formatDecimal(after)}; ${bets} bets, staked ${formatDecimal(run.answeredStakeMicro)}, paid ${formatDecimal(run.paidMicro)}; the target's own rounding allows ${formatDecimal(allowance)}, the difference is ${formatDecimal(difference)}${bets > 0 ? ` (${formatDecimal(difference / BigInt(bets))} a bet)` : ''}`,
  });
}
