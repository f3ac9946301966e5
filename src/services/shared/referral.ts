/**
 * Referral book: the ledger side of the referral programme (referral-programme.ts decides who is
 * owed what; this book moves it and keeps the totals). platform.md "Referral programme".
 *
 * A share moves from `fee-income` (or, for the casino's commissions on net losses, from the
 * house) to the referrer's payable account (`referral:<id>`) when the fee is charged ("pending
 * payouts"). The platform sweeps payables into referrers' balances on a fixed UTC-aligned period
 * (`config.referralSweepMs`), and a referrer may withdraw what is available at any time (the
 * wallet's /v1/referral/withdraw). Shares round down: the house never pays a fraction of a micro.
 *
 * Invariants: per referrer, earned = paid + available (the payable's balance); earned is the sum
 * of its per-service, per-level totals; level-1 transfers keep the reason `referral.accrue`
 * (runs without deeper trees keep their bytes), levels 2 and 3 use `referral.accrue.level<n>`.
 * Limits: one total per referrer, REFERRAL_LEVELS_MAX levels per service.
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import { FEE_INCOME, agentAccount, referralAccount } from '../../core/ledger.ts';
import { basisPoints, type Micro } from '../../core/money.ts';
import type { Ledger } from '../../core/ledger.ts';
import type { DomainEvent } from './events.ts';

/** Every service that pays referral shares (the programme's table, referral-programme.ts). */
export const REFERRAL_SERVICES = ['faucet', 'escrow', 'trading', 'domains', 'casino', 'wallet'] as const;
export type ReferralService = (typeof REFERRAL_SERVICES)[number];

/** Levels of the referral chain that earn (casino.md: 3). */
export const REFERRAL_LEVELS_MAX = 3;

export interface ReferralTotals {
  earnedMicro: Micro;
  paidMicro: Micro;
}

/** The transfer reason of a fee share at `level` (1-based). */
export function referralReason(level: number): string {
  return level === 1 ? 'referral.accrue' : `referral.accrue.level${level}`;
}

export class ReferralBook {
  private readonly ledger: Ledger;
  private readonly events: { emit(event: DomainEvent): void };
  private readonly totals = new Map<string, ReferralTotals>();
  /** Per referrer, per service: earned per level (index 0 = level 1). */
  private readonly byLevel = new Map<string, Map<ReferralService, Micro[]>>();
  private readonly referred = new Map<string, string[]>();

  constructor(options: { ledger: Ledger; events: { emit(event: DomainEvent): void } }) {
    this.ledger = options.ledger;
    this.events = options.events;
  }

  /** Records that `agentId` was referred by `referrerId` (called at registration). */
  link(referrerId: string, agentId: string): void {
    assert(referrerId !== agentId, 'an agent cannot refer itself');
    const list = this.referred.get(referrerId);
    if (list === undefined) this.referred.set(referrerId, [agentId]);
    else list.push(agentId);
  }

  referredBy(referrerId: string): readonly string[] {
    return this.referred.get(referrerId) ?? [];
  }

  totalsFor(referrerId: string): ReferralTotals {
    const totals = this.totals.get(referrerId);
    return totals === undefined ? { earnedMicro: 0n, paidMicro: 0n } : { ...totals };
  }

  pendingMicro(referrerId: string): Micro {
    return this.ledger.balance(referralAccount(referrerId));
  }

  /** What `referrerId` earned from `service` at each level (index 0 = level 1). */
  earnedByLevel(referrerId: string, service: ReferralService): readonly Micro[] {
    return this.byLevel.get(referrerId)?.get(service) ?? new Array<Micro>(REFERRAL_LEVELS_MAX).fill(0n);
  }

  /** Referrers that earned anything, sorted (reports and invariants walk them in this order). */
  referrers(): string[] {
    return [...this.totals.keys()].sort();
  }

  /**
   * Moves `shareBps` of `feeMicro` (already in fee-income) to the referrer's payable, as the
   * share of `level` (1-based) on `service`. Returns the share.
   */
  accrue(options: {
    referrerId: string;
    feeMicro: Micro;
    shareBps: bigint;
    reference: string;
    service: ReferralService;
    level: number;
  }): Micro {
    const share = basisPoints(options.feeMicro, options.shareBps, 'down');
    if (share === 0n) return 0n;
    this.ledger.transfer({
      from: FEE_INCOME,
      to: referralAccount(options.referrerId),
      amountMicro: share,
      reason: referralReason(options.level),
      reference: options.reference,
    });
    this.addEarned(options.referrerId, options.service, options.level, share);
    return share;
  }

  /**
   * Moves an already computed commission from `from` (e.g. the casino house) to the referrer's
   * payable: the casino's level commissions on net losses. Returns the amount moved.
   */
  accrueFrom(options: {
    from: string;
    referrerId: string;
    amountMicro: Micro;
    reason: string;
    reference: string;
    service: ReferralService;
    level: number;
  }): Micro {
    if (options.amountMicro <= 0n) return 0n;
    this.ledger.transfer({
      from: options.from,
      to: referralAccount(options.referrerId),
      amountMicro: options.amountMicro,
      reason: options.reason,
      reference: options.reference,
    });
    this.addEarned(options.referrerId, options.service, options.level, options.amountMicro);
    return options.amountMicro;
  }

  /** Pays the referrer's whole payable into its balance now; 422 when nothing is available. */
  withdraw(referrerId: string, nowMs: number): Outcome<Micro> {
    const available = this.pendingMicro(referrerId);
    if (available === 0n) return fail('INSUFFICIENT_BALANCE', 'no referral earnings are available to withdraw');
    this.payOut(referrerId, available, 'referral.withdraw');
    this.events.emit({ type: 'referral.paid', atMs: nowMs, referrerId, amountMicro: available });
    return succeed(available);
  }

  /** Pays every pending payable into its referrer's balance, in a stable order. */
  sweep(nowMs: number): void {
    for (const referrerId of this.referrers()) {
      const pending = this.pendingMicro(referrerId);
      if (pending === 0n) continue;
      this.payOut(referrerId, pending, 'referral.payout');
      this.events.emit({ type: 'referral.paid', atMs: nowMs, referrerId, amountMicro: pending });
    }
  }

  private payOut(referrerId: string, amountMicro: Micro, reason: string): void {
    this.ledger.transfer({
      from: referralAccount(referrerId),
      to: agentAccount(referrerId),
      amountMicro,
      reason,
      reference: referrerId,
    });
    const totals = this.totals.get(referrerId);
    assert(totals !== undefined, 'only a referrer that earned has a payable');
    totals.paidMicro += amountMicro;
  }

  private addEarned(referrerId: string, service: ReferralService, level: number, amountMicro: Micro): void {
    assert(Number.isInteger(level) && level >= 1 && level <= REFERRAL_LEVELS_MAX, 'a referral level is 1 to 3');
    const totals = this.totals.get(referrerId) ?? { earnedMicro: 0n, paidMicro: 0n };
    totals.earnedMicro += amountMicro;
    this.totals.set(referrerId, totals);
    let services = this.byLevel.get(referrerId);
    if (services === undefined) {
      services = new Map();
      this.byLevel.set(referrerId, services);
    }
    let levels = services.get(service);
    if (levels === undefined) {
      levels = new Array<Micro>(REFERRAL_LEVELS_MAX).fill(0n);
      services.set(service, levels);
    }
    levels[level - 1] = (levels[level - 1] as Micro) + amountMicro;
  }
}
