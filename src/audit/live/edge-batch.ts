/**
 * Placing a live house-edge audit's bets as one batch call (edge-audit.ts): elements refused below
 * the target's stated minimum go out again together at it; other refused elements are tried alone
 * once (edge-bets.ts), and a game accepted alone is played alone from then on.
 */
import { isRefusal, type BetInput, statedMinimumMicro } from '../../live.ts';
import { requestEvidence, type Answer, type AuditRun } from './edge-run.ts';
import { giveBack, learnMinimum, metGateway, placeAlone, stopIfUnanswered } from './edge-bets.ts';

/**
 * A batch, its stakes reserved. Elements refused below the minimum the target states go out once
 * more as one batch at it (`again`: the first time only); other refused elements are retried alone
 * once, and a game accepted alone is played alone from then on.
 */
export async function placeBetBatch(run: AuditRun, bets: readonly BetInput[], again = true): Promise<Answer[]> {
  const outcome = await run.options.session.call('casino.batch', { bets }, run.options.apiKey);
  metGateway(run, outcome);
  if (outcome.kind === 'deadline') run.stoppedBy ??= 'deadline';
  if (outcome.kind === 'unsupported') run.stoppedBy ??= 'unreachable';
  stopIfUnanswered(run, outcome);
  if (outcome.kind !== 'ok' || outcome.value.results.length !== bets.length) {
    // A batch the target may have run (an answer unread, lost or a server error) leaves its bets' outcomes unknown.
    const unknown =
      outcome.kind === 'ok' ||
      outcome.kind === 'unreadable' ||
      outcome.kind === 'unreachable' ||
      (outcome.kind === 'refused' && outcome.refusal.status >= 500);
    if (unknown) run.unsettled += bets.length;
    return Promise.all(bets.map((bet) => placeAlone(run, bet)));
  }
  const answers: Answer[] = outcome.value.results.map((answer, position) => {
    const bet = bets[position] as BetInput;
    if (!isRefusal(answer)) return { bet: answer, params: bet.params, op: 'casino.batch', request: outcome.request };
    return { op: 'casino.batch', refusal: answer, request: outcome.request, amountMicro: bet.amountMicro };
  });
  // Below the target's stated minimum: nothing staked; the elements go out again, together, at it.
  const raised: Array<{ readonly position: number; readonly bet: BetInput }> = [];
  answers.forEach((answer, position) => {
    const bet = bets[position] as BetInput;
    if (answer === null || !('refusal' in answer) || statedMinimumMicro(answer.refusal, bet.amountMicro) === null)
      return;
    giveBack(run, answer);
    const at = again ? learnMinimum(run, bet, answer) : null;
    if (at !== null) raised.push({ position, bet: at });
  });
  if (raised.length > 0) {
    // Their answers are final: the batch at the minimum retried its own refusals.
    const placed = await placeBetBatch(
      run,
      raised.map((entry) => entry.bet),
      false,
    );
    raised.forEach((entry, at) => (answers[entry.position] = placed[at] ?? null));
  }
  const final = new Set(raised.map((entry) => entry.position));
  return Promise.all(
    answers.map(async (answer, position) => {
      const bet = bets[position] as BetInput;
      if (final.has(position) || answer === null || !('refusal' in answer)) return answer;
      // Refused below a minimum: its stake given back above, not sent alone at the same amount.
      if (statedMinimumMicro(answer.refusal, bet.amountMicro) !== null) return answer;
      const alone = await placeAlone(run, bet);
      if (alone !== null && !('refusal' in alone) && !run.aloneGames.has(bet.game)) {
        run.aloneGames.add(bet.game);
        run.options.findings.add({
          id: `rule:${bet.game}:not-in-batch`,
          severity: 'info',
          kind: 'rule',
          title: `${bet.game} is refused in a batch (${answer.refusal.name}) but accepted alone: played alone`,
          ...requestEvidence(run, 'casino.batch', answer.request),
          field: `bets[${position}]`,
          expected: 'every game accepted in a batch (documents: each element processed like a single bet)',
          seen: answer.refusal.body,
          evidence: answer.refusal.message,
        });
      }
      return alone;
    }),
  );
}
