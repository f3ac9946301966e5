/**
 * Time in the reference model: what happens by itself while time moves, and the instants where
 * something happens (so the advance-time command can land exactly on them, or 1 ms either side).
 *
 * Timed rules, from the contract: a locked escrow expires (full refund, status "expired") at
 * exactly expires_at; a dispute window ends at exactly window_ends_at with the configured outcome;
 * referral payables are paid into the referrers' balances at every UTC-aligned sweep instant
 * (config.referralSweepMs after the epoch and its multiples). A request at instant t sees every
 * timer due at or before t as already run, so a share accrued at t waits for the next sweep after t.
 * Domain expiry and release (domains/model-domains.ts) move no money, so they commute with everything;
 * so do the wallet's blocks and swap steps (wallet/model-wallet-swaps.ts: chain money only).
 * Trading's ticks (trading/model-trading-time.ts: funding, liquidation, limit fills) run after the
 * escrow and casino timers of the same move. Simplification: they commute except where a limit
 * fill's funds check or capped fee meets an escrow refund or casino credit inside one move.
 * Casino timers (tournaments, challenge expiry, withdrawal review, deposits) run in
 * casino/model-casino-time.ts; they accrue no referral shares, so they commute with the sweep.
 * Simplification: a dispute window ending in a release at exactly a sweep instant is treated as
 * accruing after that sweep (the default outcome is a refund, which accrues nothing); other timers
 * commute (each moves money of one escrow only).
 */
import { assert } from '../core/assert.ts';
import { SLOT_COUNT, type CheckModel, type ModelEscrow } from './check-model.ts';
import { payFeeShares } from './model-referral.ts';
import { advanceCasino, casinoBoundaries } from './casino/model-casino-time.ts';
import { advanceDomains, domainsBoundaries } from './domains/model-domains.ts';
import { advanceTrading, tradingBoundaries } from './trading/model-trading-time.ts';
import { advanceWallet, walletBoundaries } from './wallet/model-wallet-swaps.ts';

export function advanceModel(model: CheckModel, toMs: number): void {
  assert(Number.isSafeInteger(toMs) && toMs >= model.nowMs, `model time runs forward (${toMs} < ${model.nowMs})`);
  const fromMs = model.nowMs;
  if (toMs === fromMs) return;
  // Payables that exist now accrued at or before fromMs: the first sweep after fromMs pays them.
  if (firstSweepAfter(model, fromMs) <= toMs) sweepReferrals(model);
  for (const escrow of model.escrows) settleDue(model, escrow, toMs);
  advanceCasino(model, toMs);
  advanceDomains(model, toMs);
  advanceWallet(model, toMs);
  // A limit fill's fee accrues referral shares at its tick: the first sweep after it pays them.
  advanceTrading(model, toMs, (atMs) => {
    if (firstSweepAfter(model, atMs) <= toMs) sweepReferrals(model);
  });
  model.budget.elapse(fromMs, toMs);
  model.nowMs = toMs;
}

function settleDue(model: CheckModel, escrow: ModelEscrow, toMs: number): void {
  if (escrow.status === 'locked' && escrow.expiresAtMs <= toMs) {
    credit(model, escrow.senderSlot, escrow.amountMicro);
    escrow.status = 'expired';
    escrow.settledAtMs = escrow.expiresAtMs;
    escrow.txHash = 'unknown';
    return;
  }
  const dispute = escrow.dispute;
  if (escrow.status === 'disputed' && dispute !== null && dispute.windowEndsAtMs <= toMs) {
    if (model.config.escrow.disputeOutcome === 'release') {
      payRelease(model, escrow);
      escrow.status = 'released';
      dispute.outcome = 'released';
      if (firstSweepAfter(model, dispute.windowEndsAtMs) <= toMs) sweepReferrals(model);
    } else {
      credit(model, escrow.senderSlot, escrow.amountMicro);
      escrow.status = 'refunded';
      dispute.outcome = 'refunded';
    }
    escrow.settledAtMs = dispute.windowEndsAtMs;
    escrow.txHash = 'unknown';
  }
}

/** Pays a release: net to the receiver, fee to fee income, the referrers' shares (3 levels) to their payables. */
export function payRelease(model: CheckModel, escrow: ModelEscrow): void {
  credit(model, escrow.receiverSlot, escrow.netMicro);
  model.feeIncomeMicro += escrow.feeMicro;
  if (escrow.referrerSlot === null || escrow.feeMicro === 0n) return;
  const parties = [escrow.senderSlot, escrow.receiverSlot];
  payFeeShares(model, {
    payerSlot: escrow.senderSlot,
    feeMicro: escrow.feeMicro,
    levelOneBps: model.config.escrow.referralShareBps,
    firstReferrerSlot: escrow.referrerSlot,
    excludedSlots: parties,
  });
}

export function credit(model: CheckModel, slot: number, amountMicro: bigint): void {
  const agent = model.agents[slot];
  assert(agent !== undefined, `money moves only to registered agents (a${slot})`);
  agent.balanceMicro += amountMicro;
}

function sweepReferrals(model: CheckModel): void {
  for (let slot = 0; slot < SLOT_COUNT; slot++) {
    const agent = model.agents[slot];
    if (agent === undefined || agent.pendingReferralMicro === 0n) continue;
    agent.balanceMicro += agent.pendingReferralMicro;
    agent.referralWithdrawnMicro += agent.pendingReferralMicro;
    agent.pendingReferralMicro = 0n;
  }
}

/** The first sweep instant strictly after `ms`. */
export function firstSweepAfter(model: Readonly<CheckModel>, ms: number): number {
  const periodMs = model.config.referralSweepMs;
  return (Math.floor(ms / periodMs) + 1) * periodMs;
}

/** Future instants where the model changes by itself or a cooldown ends, ascending, no duplicates. */
export function timeBoundaries(model: Readonly<CheckModel>): number[] {
  const found = new Set<number>();
  const now = model.nowMs;
  for (const escrow of model.escrows) {
    if (escrow.status === 'locked' && escrow.expiresAtMs > now) found.add(escrow.expiresAtMs);
    if (escrow.status === 'disputed' && escrow.dispute !== null && escrow.dispute.windowEndsAtMs > now)
      found.add(escrow.dispute.windowEndsAtMs);
  }
  for (const agent of model.agents) {
    if (agent?.nextClaimBAtMs != null && agent.nextClaimBAtMs > now) found.add(agent.nextClaimBAtMs);
  }
  for (const ms of casinoBoundaries(model)) found.add(ms);
  for (const ms of domainsBoundaries(model)) found.add(ms);
  for (const ms of tradingBoundaries(model)) found.add(ms);
  for (const ms of walletBoundaries(model)) found.add(ms);
  found.add(firstSweepAfter(model, now));
  return [...found].sort((a, b) => a - b);
}
