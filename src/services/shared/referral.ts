/**
 * Referral book: the referrer's share of a referred agent's fees (platform.md, "Referral
 * programme": 15% on escrow; the faucet referrer earns 15% of the referred agent's future fees).
 *
 * A share moves from `fee-income` to the referrer's payable account (`referral:<id>`) when the fee
 * is charged ("pending payouts"), and the platform sweeps payables into referrers' balances on a
 * fixed UTC-aligned period (`config.referralSweepMs`). Shares round down: the house never pays a
 * fraction of a micro.
 */
import { FEE_INCOME, agentAccount, referralAccount } from '../../core/ledger.ts';
import { basisPoints, type Micro } from '../../core/money.ts';
import type { Ledger } from '../../core/ledger.ts';
import type { DomainEvent } from './events.ts';

export interface ReferralTotals {
  earnedMicro: Micro;
  paidMicro: Micro;
}

export class ReferralBook {
  private readonly ledger: Ledger;
  private readonly events: { emit(event: DomainEvent): void };
  private readonly totals = new Map<string, ReferralTotals>();
  private readonly referred = new Map<string, string[]>();

  constructor(options: { ledger: Ledger; events: { emit(event: DomainEvent): void } }) {
    this.ledger = options.ledger;
    this.events = options.events;
  }

  /** Records that `agentId` was referred by `referrerId` (called at registration). */
  link(referrerId: string, agentId: string): void {
    const list = this.referred.get(referrerId);
    if (list === undefined) this.referred.set(referrerId, [agentId]);
    else list.push(agentId);
  }

  referredBy(referrerId: string): readonly string[] {
    return this.referred.get(referrerId) ?? [];
  }

  totalsFor(referrerId: string): ReferralTotals {
    return this.totals.get(referrerId) ?? { earnedMicro: 0n, paidMicro: 0n };
  }

  pendingMicro(referrerId: string): Micro {
    return this.ledger.balance(referralAccount(referrerId));
  }

  /** Moves `shareBps` of `feeMicro` (already in fee-income) to the referrer's payable. Returns the share. */
  accrue(options: { referrerId: string; feeMicro: Micro; shareBps: bigint; reference: string }): Micro {
    const share = basisPoints(options.feeMicro, options.shareBps, 'down');
    if (share === 0n) return 0n;
    this.ledger.transfer({
      from: FEE_INCOME,
      to: referralAccount(options.referrerId),
      amountMicro: share,
      reason: 'referral.accrue',
      reference: options.reference,
    });
    const totals = this.totals.get(options.referrerId) ?? { earnedMicro: 0n, paidMicro: 0n };
    totals.earnedMicro += share;
    this.totals.set(options.referrerId, totals);
    return share;
  }

  /**
   * Moves an already computed commission from `from` (e.g. the casino house) to the referrer's
   * payable: the casino's level commissions on net losses. Returns the amount moved.
   */
  accrueFrom(options: { from: string; referrerId: string; amountMicro: Micro; reason: string; reference: string }): Micro {
    if (options.amountMicro <= 0n) return 0n;
    this.ledger.transfer({ from: options.from, to: referralAccount(options.referrerId), amountMicro: options.amountMicro, reason: options.reason, reference: options.reference });
    const totals = this.totals.get(options.referrerId) ?? { earnedMicro: 0n, paidMicro: 0n };
    totals.earnedMicro += options.amountMicro;
    this.totals.set(options.referrerId, totals);
    return options.amountMicro;
  }

  /** Pays every pending payable into its referrer's balance, in a stable order. */
  sweep(nowMs: number): void {
    const referrerIds = [...this.totals.keys()].sort();
    for (const referrerId of referrerIds) {
      const pending = this.pendingMicro(referrerId);
      if (pending === 0n) continue;
      this.ledger.transfer({
        from: referralAccount(referrerId),
        to: agentAccount(referrerId),
        amountMicro: pending,
        reason: 'referral.payout',
        reference: referrerId,
      });
      const totals = this.totals.get(referrerId);
      if (totals !== undefined) totals.paidMicro += pending;
      this.events.emit({ type: 'referral.paid', atMs: nowMs, referrerId, amountMicro: pending });
    }
  }
}
