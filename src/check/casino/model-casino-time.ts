/**
 * What the casino does by itself while time moves, in the reference model: a tournament starts at
 * starts_at and ends at ends_at (prizes paid), a pending challenge expires at expires_at (refund),
 * a withdrawal under review completes at review_ends_at, a deposit is credited at its
 * confirmation instant. A request at instant t sees every one due at or before t as done.
 * These timers commute (each moves money of its own record only, and none accrues referral
 * shares), so they run by kind rather than in one merged order.
 */
import type { CheckModel } from '../check-model.ts';
import { expireChallenge } from './model-casino-challenges.ts';
import { completeTournament } from './model-casino-tournaments.ts';

export function advanceCasino(model: CheckModel, toMs: number): void {
  const casino = model.casino;
  for (const tournament of casino.tournaments)
    if (tournament.completedAtMs === null && tournament.endsAtMs <= toMs) completeTournament(model, tournament);
  for (const challenge of casino.challenges)
    if (challenge.status === 'pending' && challenge.expiresAtMs <= toMs) expireChallenge(model, challenge);
  for (const withdrawal of casino.withdrawals)
    if (withdrawal.completedAtMs === null && withdrawal.reviewEndsAtMs !== null && withdrawal.reviewEndsAtMs <= toMs)
      withdrawal.completedAtMs = withdrawal.reviewEndsAtMs;
  for (const deposit of casino.deposits) {
    if (deposit.credited || deposit.creditAtMs > toMs) continue;
    const agent = model.agents[deposit.slot];
    if (agent !== undefined) agent.balanceMicro += deposit.amountMicro;
    deposit.credited = true;
  }
}

/** Future instants where the casino changes by itself. */
export function casinoBoundaries(model: Readonly<CheckModel>): number[] {
  const now = model.nowMs;
  const found: number[] = [];
  for (const tournament of model.casino.tournaments) {
    if (tournament.startsAtMs > now) found.push(tournament.startsAtMs);
    if (tournament.completedAtMs === null && tournament.endsAtMs > now) found.push(tournament.endsAtMs);
  }
  for (const challenge of model.casino.challenges)
    if (challenge.status === 'pending' && challenge.expiresAtMs > now) found.push(challenge.expiresAtMs);
  for (const withdrawal of model.casino.withdrawals)
    if (withdrawal.completedAtMs === null && withdrawal.reviewEndsAtMs !== null && withdrawal.reviewEndsAtMs > now)
      found.push(withdrawal.reviewEndsAtMs);
  for (const deposit of model.casino.deposits)
    if (!deposit.credited && deposit.creditAtMs > now) found.push(deposit.creditAtMs);
  return found;
}
