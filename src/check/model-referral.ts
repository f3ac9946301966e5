/**
 * The reference model's referral programme for the fee services (platform.md item 6;
 * docs/decisions/platform.md "Referral programme"), written from the documents, not from src/services:
 * the three registration referrers above the payer earn the service's share at level 1 and half
 * and a quarter of it at levels 2 and 3, each floor(fee × bps / 10,000) of the same fee, out of
 * fee income into their payables; a level whose referrer is the payer or an excluded party (an
 * escrow's sender and receiver) earns nothing and the chain above it still does. An escrow's own
 * referrer replaces the level-1 referrer and the chain continues above it.
 * Limits: REFERRAL_LEVEL_DIVISORS.length levels.
 */
import { assert } from '../core/assert.ts';
import { basisPoints, type Micro } from '../core/money.ts';
import type { CheckModel } from './check-model.ts';

/** Level ℓ's share is the level-1 share divided by these (1, 1/2, 1/4). */
export const REFERRAL_LEVEL_DIVISORS: readonly bigint[] = [1n, 2n, 4n];

export interface FeeShares {
  readonly payerSlot: number;
  readonly feeMicro: Micro;
  /** The service's level-1 share in basis points. */
  readonly levelOneBps: bigint;
  /** Replaces the payer's own level-1 referrer when given (null: none). */
  readonly firstReferrerSlot?: number | null;
  readonly excludedSlots?: readonly number[];
}

/** Moves each level's share of the fee (already in fee income) to its referrer's payable. */
export function payFeeShares(model: CheckModel, fee: FeeShares): void {
  if (fee.feeMicro <= 0n) return;
  let referrerSlot =
    fee.firstReferrerSlot === undefined ? (model.agents[fee.payerSlot]?.referrerSlot ?? null) : fee.firstReferrerSlot;
  for (const [level, divisor] of REFERRAL_LEVEL_DIVISORS.entries()) {
    if (referrerSlot === null) return;
    const referrer = model.agents[referrerSlot];
    assert(referrer !== undefined, 'a referrer is a registered agent');
    if (referrerSlot !== fee.payerSlot && !(fee.excludedSlots ?? []).includes(referrerSlot)) {
      const shareMicro = basisPoints(fee.feeMicro, fee.levelOneBps / divisor, 'down');
      referrer.pendingReferralMicro += shareMicro;
      referrer.referralEarnedMicro[level] = (referrer.referralEarnedMicro[level] ?? 0n) + shareMicro;
      model.feeIncomeMicro -= shareMicro;
    }
    referrerSlot = referrer.referrerSlot;
  }
}
