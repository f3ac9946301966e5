/**
 * EscrowService: funds locked between a sender and a receiver, then released, refunded, expired,
 * or frozen by a dispute (spec/platform.md "Escrow"; afp's choices in docs/decisions/escrow.md).
 *
 * Money (one double-entry transfer per movement): creation moves the full amount from the
 * sender's balance to the escrow's hold; release pays the net to the receiver and the fee to
 * fee-income, then the referrer's share of the fee accrues; refund, expiry and a dispute window
 * ending in a refund return the full amount to the sender.
 * Invariants: an escrow settles exactly once (one settlement event: released, refunded or
 * expired), its hold is empty after settlement and holds the full amount before; expiry happens
 * at exactly `expiresAtMs` through the 'escrow.expire' timer; a timer whose escrow has since
 * settled (or is disputed, for expiry) does nothing (lazy cancellation).
 * Precedence of failures: 400 bad input, 404 unknown, 403 not allowed, 409 wrong state, 422 funds.
 * Non-goals: HTTP (route rows in src/http/routes/escrow/escrow.ts), interpreting `conditions`.
 */
import { assert } from '../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../core/errors.ts';
import { FEE_INCOME, agentAccount, escrowAccount } from '../../core/ledger.ts';
import { MAX_AMOUNT_MICRO, formatDecimal } from '../../core/money.ts';
import type { Agent } from '../shared/agents.ts';
import type { PlatformTimer, ServiceContext } from '../shared/context.ts';
import { accrueFeeShares } from '../shared/referral-programme.ts';
import { checkConditions } from './conditions.ts';
import { EscrowBook, type MutableEscrow } from './escrow-book.ts';
import {
  ESCROW_LIMITS,
  type CreateEscrowCommand,
  type DisputeEscrowCommand,
  type EscrowActionCommand,
  type EscrowRecord,
  type EscrowStatus,
  type ListEscrowsCommand,
} from './escrow-record.ts';
import { escrowSplit } from './fee.ts';

export type EscrowTimer = Extract<PlatformTimer, { kind: 'escrow.expire' | 'escrow.dispute-window' }>;

type Access = 'sender' | 'party';

export class EscrowService {
  private readonly context: ServiceContext;
  private readonly book = new EscrowBook();
  /** Escrow id → the instant its receiver marked the work complete (at most one per escrow). */
  private readonly completions = new Map<string, number>();

  constructor(context: ServiceContext) {
    const config = context.config.escrow;
    assert(config.minimumMicro > 0n, 'escrow minimum is positive');
    assert(config.feeBps >= 0n && config.feeBps * 2n < 10_000n, 'escrow fee (doubled by a defect) stays below 100%');
    assert(
      config.defaultExpiresInSeconds >= 1 && config.defaultExpiresInSeconds <= config.maxExpiresInSeconds,
      'default expiry within bounds',
    );
    assert(
      config.disputeWindowMs > 0 && config.listLimitDefault >= 1 && config.listLimitDefault <= config.listLimitMax,
      'escrow config is sane',
    );
    this.context = context;
  }

  get size(): number {
    return this.book.size;
  }

  /** A record by id, for checkers and reports (no access rule: not reachable from HTTP). */
  find(escrowId: string): EscrowRecord | undefined {
    return this.book.get(escrowId);
  }

  all(): IterableIterator<EscrowRecord> {
    return this.book.all();
  }

  create(command: CreateEscrowCommand, nowMs: number): Outcome<EscrowRecord> {
    const { agents, config, ledger } = this.context;
    const invalid = this.checkCreate(command);
    if (invalid !== null) return invalid;
    const checked = command.conditions === null ? null : checkConditions(command.conditions);
    if (checked !== null && !checked.ok) return checked;
    const conditions = checked === null ? null : checked.value;
    const sender = agents.get(command.senderId);
    if (sender === undefined) return fail('NOT_FOUND', `sender ${command.senderId} is not a registered agent`);
    const receiver = agents.resolve(command.receiver);
    if (receiver === undefined) return fail('NOT_FOUND', `receiver ${command.receiver} is not a registered agent`);
    if (receiver.id === sender.id) return fail('BAD_REQUEST', 'receiver must be an agent other than the sender');
    const referrerId = this.resolveReferrer(command.referrer, sender, receiver.id);
    if (isFailure(referrerId)) return referrerId;
    const available = ledger.balance(agentAccount(sender.id));
    if (available < command.amountMicro) {
      return fail(
        'INSUFFICIENT_BALANCE',
        `balance ${formatDecimal(available)} is below the escrow amount ${formatDecimal(command.amountMicro)}`,
      );
    }

    const id = this.context.ids.next('esc_', 16);
    const feeBps = this.context.defects.has('escrow-fee-2pct') ? config.escrow.feeBps * 2n : config.escrow.feeBps;
    const { feeMicro, netMicro } = escrowSplit(command.amountMicro, feeBps);
    const expiresAtMs = nowMs + (command.expiresInSeconds ?? config.escrow.defaultExpiresInSeconds) * 1000;
    ledger.transfer({
      from: agentAccount(sender.id),
      to: escrowAccount(id),
      amountMicro: command.amountMicro,
      reason: 'escrow.lock',
      reference: id,
    });
    const escrow: MutableEscrow = {
      id,
      senderId: sender.id,
      receiverId: receiver.id,
      amountMicro: command.amountMicro,
      feeMicro,
      netMicro,
      description: command.description,
      conditions,
      referrerId,
      createdAtMs: nowMs,
      expiresAtMs,
      status: 'locked',
      settledAtMs: null,
      txHash: null,
      dispute: null,
    };
    this.book.add(escrow);
    this.context.timers.schedule(expiresAtMs, { kind: 'escrow.expire', escrowId: id });
    this.context.emit({
      type: 'escrow.created',
      atMs: nowMs,
      escrowId: id,
      senderId: sender.id,
      receiverId: receiver.id,
      amountMicro: command.amountMicro,
      feeMicro,
      expiresAtMs,
    });
    return succeed(escrow);
  }

  /** Sender only; from locked (before expiry) or disputed (the sender concedes). */
  release(command: EscrowActionCommand, nowMs: number): Outcome<EscrowRecord> {
    const escrow = this.access(command, 'sender', 'release');
    if (isFailure(escrow)) return escrow;
    if (escrow.status === 'released' && this.context.defects.has('escrow-release-twice'))
      return succeed(this.releaseAgain(escrow, nowMs));
    const conflict = this.openConflict(escrow, nowMs, ['locked', 'disputed']);
    if (conflict !== null) return conflict;
    this.payRelease(escrow, nowMs);
    return succeed(escrow);
  }

  /**
   * DEFECT 'mcp-release-credits-nobody' (the deployment's MCP `release_escrow`, DEPLOYED.md §4;
   * tests and demos only): the sender's release from locked marks the escrow released and pays
   * nobody: the hold is destroyed (the ledger's sum shows it), no fee, no referral share.
   */
  releaseCreditingNobody(command: EscrowActionCommand, nowMs: number): Outcome<EscrowRecord> {
    assert(this.context.defects.has('mcp-release-credits-nobody'), 'only the defect releases without paying');
    const escrow = this.access(command, 'sender', 'release');
    if (isFailure(escrow)) return escrow;
    const conflict = this.openConflict(escrow, nowMs, ['locked', 'disputed']);
    if (conflict !== null) return conflict;
    this.context.ledger.faultBurn(escrowAccount(escrow.id), this.context.ledger.balance(escrowAccount(escrow.id)));
    this.settle(escrow, 'released', nowMs);
    return succeed(escrow);
  }

  /** Sender only; while locked and before expiry. A disputed escrow refuses (its window decides). */
  refund(command: EscrowActionCommand, nowMs: number): Outcome<EscrowRecord> {
    const escrow = this.access(command, 'sender', 'refund');
    if (isFailure(escrow)) return escrow;
    if (escrow.status === 'disputed')
      return fail(
        'CONFLICT',
        "escrow is disputed: only the sender's release is accepted until the dispute window ends",
      );
    const conflict = this.openConflict(escrow, nowMs, ['locked']);
    if (conflict !== null) return conflict;
    this.payRefund(escrow, nowMs, 'sender');
    return succeed(escrow);
  }

  /** Either party; while locked and before expiry. Freezes the funds and suspends expiry. */
  dispute(command: DisputeEscrowCommand, nowMs: number): Outcome<EscrowRecord> {
    const invalid =
      checkText(command.reason, 'reason', ESCROW_LIMITS.reasonLengthMax) ??
      checkText(command.evidence, 'evidence', ESCROW_LIMITS.evidenceLengthMax);
    if (invalid !== null) return invalid;
    const escrow = this.access(command, 'party', 'dispute');
    if (isFailure(escrow)) return escrow;
    const conflict = this.openConflict(escrow, nowMs, ['locked']);
    if (conflict !== null) return conflict;
    const windowEndsAtMs = nowMs + this.context.config.escrow.disputeWindowMs;
    escrow.status = 'disputed';
    escrow.dispute = {
      reason: command.reason,
      evidence: command.evidence,
      openedById: command.callerId,
      openedAtMs: nowMs,
      windowEndsAtMs,
      outcome: null,
    };
    // DEFECT 'escrow-dispute-stuck' (tests only): the window's end is never scheduled, so the escrow stays disputed.
    if (!this.context.defects.has('escrow-dispute-stuck'))
      this.context.timers.schedule(windowEndsAtMs, { kind: 'escrow.dispute-window', escrowId: escrow.id });
    this.context.emit({
      type: 'escrow.disputed',
      atMs: nowMs,
      escrowId: escrow.id,
      byAgentId: command.callerId,
      windowEndsAtMs,
    });
    return succeed(escrow);
  }

  /**
   * Receiver only; while locked and before expiry; once. The deployed escrow's `complete` (afp serve
   * --dialect deployed): the receiver says the work is done. No money moves and the status stays
   * locked (the sender still releases); only the instant is kept, for the views.
   */
  markComplete(command: EscrowActionCommand, nowMs: number): Outcome<EscrowRecord> {
    const escrow = this.book.get(command.escrowId);
    if (escrow === undefined) return fail('NOT_FOUND', `escrow ${command.escrowId} not found`);
    if (escrow.receiverId !== command.callerId)
      return fail('FORBIDDEN', 'only the receiver may mark this escrow complete');
    const conflict = this.openConflict(escrow, nowMs, ['locked']);
    if (conflict !== null) return conflict;
    if (this.completions.has(escrow.id)) return fail('CONFLICT', 'escrow is already marked complete');
    this.completions.set(escrow.id, nowMs);
    return succeed(escrow);
  }

  /** When the receiver marked the escrow complete; null when it did not. */
  completedAtMs(escrowId: string): number | null {
    return this.completions.get(escrowId) ?? null;
  }

  /** Parties only. */
  get(command: EscrowActionCommand): Outcome<EscrowRecord> {
    const escrow = this.access(command, 'party', 'view');
    return isFailure(escrow) ? escrow : succeed(escrow);
  }

  /** The caller's escrows, newest first, filtered by role and status. */
  list(command: ListEscrowsCommand): Outcome<readonly EscrowRecord[]> {
    const limitMax = this.context.config.escrow.listLimitMax;
    if (!Number.isSafeInteger(command.limit) || command.limit < 1 || command.limit > limitMax) {
      return fail('BAD_REQUEST', `limit must be between 1 and ${limitMax}`);
    }
    return succeed(
      this.book.list({ agentId: command.callerId, role: command.role, status: command.status, limit: command.limit }),
    );
  }

  /** Runs an escrow timer at its exact instant; a timer whose escrow moved on does nothing. */
  onTimer(timer: EscrowTimer, atMs: number): void {
    const escrow = this.book.get(timer.escrowId);
    assert(escrow !== undefined, `timer ${timer.kind} names a known escrow`);
    switch (timer.kind) {
      case 'escrow.expire':
        if (escrow.status !== 'locked') return;
        assert(atMs === escrow.expiresAtMs, 'expiry runs at exactly expires_at');
        this.payExpiry(escrow, atMs);
        return;
      case 'escrow.dispute-window':
        if (escrow.status !== 'disputed') return;
        assert(
          escrow.dispute !== null && atMs === escrow.dispute.windowEndsAtMs,
          'dispute window closes at exactly its end',
        );
        if (this.context.config.escrow.disputeOutcome === 'release') this.payRelease(escrow, atMs);
        else this.payRefund(escrow, atMs, 'dispute-window');
        return;
    }
  }

  private checkCreate(command: CreateEscrowCommand): Failure | null {
    const config = this.context.config.escrow;
    if (command.amountMicro < config.minimumMicro)
      return fail('BAD_REQUEST', `amount must be at least ${formatDecimal(config.minimumMicro)}`);
    if (command.amountMicro > MAX_AMOUNT_MICRO) return fail('BAD_REQUEST', 'amount is too large');
    const seconds = command.expiresInSeconds;
    if (seconds !== null && (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > config.maxExpiresInSeconds)) {
      return fail(
        'BAD_REQUEST',
        `expires_in must be a whole number of seconds between 1 and ${config.maxExpiresInSeconds}`,
      );
    }
    return (
      checkText(command.description, 'description', ESCROW_LIMITS.descriptionLengthMax) ??
      checkText(command.referrer, 'referrer', ESCROW_LIMITS.referenceLengthMax)
    );
  }

  /** Explicit referrer first, else the sender's registration referrer; never a party to the escrow. */
  private resolveReferrer(reference: string | null, sender: Agent, receiverId: string): string | null | Failure {
    if (reference !== null) {
      const referrer = this.context.agents.resolve(reference);
      if (referrer === undefined) return fail('NOT_FOUND', `referrer ${reference} is not a registered agent`);
      if (referrer.id === sender.id || referrer.id === receiverId)
        return fail('BAD_REQUEST', 'referrer must not be the sender or the receiver');
      return referrer.id;
    }
    const registered = sender.referrerId;
    return registered === null || registered === receiverId || registered === sender.id ? null : registered;
  }

  /** 404 for an unknown escrow, 403 when the caller may not act on it. */
  private access(command: EscrowActionCommand, who: Access, action: string): MutableEscrow | Failure {
    const escrow = this.book.get(command.escrowId);
    if (escrow === undefined) return fail('NOT_FOUND', `escrow ${command.escrowId} not found`);
    const isSender = escrow.senderId === command.callerId;
    if (who === 'sender' && !isSender) return fail('FORBIDDEN', `only the sender may ${action} this escrow`);
    if (who === 'party' && !isSender && escrow.receiverId !== command.callerId)
      return fail('FORBIDDEN', `only the sender or the receiver may ${action} this escrow`);
    return escrow;
  }

  /** 409 unless the escrow is in one of `allowed`; a locked escrow at or past expires_at counts as expired. */
  private openConflict(escrow: MutableEscrow, nowMs: number, allowed: readonly EscrowStatus[]): Failure | null {
    if (!allowed.includes(escrow.status)) return fail('CONFLICT', `escrow is already ${escrow.status}`);
    if (escrow.status === 'locked' && nowMs >= escrow.expiresAtMs) return fail('CONFLICT', 'escrow has expired');
    return null;
  }

  private payRelease(escrow: MutableEscrow, atMs: number): void {
    const { ledger } = this.context;
    if (escrow.netMicro > 0n)
      ledger.transfer({
        from: escrowAccount(escrow.id),
        to: agentAccount(escrow.receiverId),
        amountMicro: escrow.netMicro,
        reason: 'escrow.release',
        reference: escrow.id,
      });
    if (escrow.feeMicro > 0n)
      ledger.transfer({
        from: escrowAccount(escrow.id),
        to: FEE_INCOME,
        amountMicro: escrow.feeMicro,
        reason: 'escrow.release.fee',
        reference: escrow.id,
      });
    let referralMicro = 0n;
    if (escrow.referrerId !== null && escrow.feeMicro > 0n) {
      const parties = [escrow.senderId, escrow.receiverId];
      referralMicro =
        accrueFeeShares(this.context, {
          service: 'escrow',
          payerId: escrow.senderId,
          feeMicro: escrow.feeMicro,
          reference: escrow.id,
          firstReferrerId: escrow.referrerId,
          excluded: parties,
        })[0] ?? 0n;
    }
    this.settle(escrow, 'released', atMs);
    this.emitReleased(escrow, referralMicro, atMs);
  }

  private emitReleased(escrow: MutableEscrow, referralMicro: bigint, atMs: number): void {
    this.context.emit({
      type: 'escrow.released',
      atMs,
      escrowId: escrow.id,
      netMicro: escrow.netMicro,
      feeMicro: escrow.feeMicro,
      referrerId: escrow.referrerId,
      referralMicro,
    });
  }

  private payRefund(escrow: MutableEscrow, atMs: number, cause: 'sender' | 'dispute-window'): void {
    this.returnHold(escrow, 'escrow.refund');
    this.settle(escrow, 'refunded', atMs);
    this.context.emit({ type: 'escrow.refunded', atMs, escrowId: escrow.id, amountMicro: escrow.amountMicro, cause });
  }

  private payExpiry(escrow: MutableEscrow, atMs: number): void {
    // DEFECT 'escrow-expiry-keeps-fee' (the deployment's rule, tests and demos only): the fee is kept at expiry.
    if (this.context.defects.has('escrow-expiry-keeps-fee') && escrow.feeMicro > 0n) {
      this.context.ledger.transfer({
        from: escrowAccount(escrow.id),
        to: FEE_INCOME,
        amountMicro: escrow.feeMicro,
        reason: 'escrow.expire.fee',
        reference: escrow.id,
      });
      this.context.ledger.transfer({
        from: escrowAccount(escrow.id),
        to: agentAccount(escrow.senderId),
        amountMicro: escrow.amountMicro - escrow.feeMicro,
        reason: 'escrow.expire',
        reference: escrow.id,
      });
    } else this.returnHold(escrow, 'escrow.expire');
    this.settle(escrow, 'expired', atMs);
    this.context.emit({
      type: 'escrow.expired',
      atMs,
      escrowId: escrow.id,
      amountMicro: escrow.amountMicro,
      expiresAtMs: escrow.expiresAtMs,
    });
  }

  private returnHold(escrow: MutableEscrow, reason: string): void {
    this.context.ledger.transfer({
      from: escrowAccount(escrow.id),
      to: agentAccount(escrow.senderId),
      amountMicro: escrow.amountMicro,
      reason,
      reference: escrow.id,
    });
  }

  /** Marks the final status; the hold must be empty and the escrow not settled before. */
  private settle(escrow: MutableEscrow, status: 'released' | 'refunded' | 'expired', atMs: number): void {
    assert(
      escrow.settledAtMs === null && (escrow.status === 'locked' || escrow.status === 'disputed'),
      'an escrow settles once',
    );
    assert(this.context.ledger.balance(escrowAccount(escrow.id)) === 0n, 'a settled escrow holds nothing');
    if (escrow.dispute !== null)
      escrow.dispute = { ...escrow.dispute, outcome: status === 'released' ? 'released' : 'refunded' };
    escrow.status = status;
    escrow.settledAtMs = atMs;
    escrow.txHash = this.context.ids.txHash();
  }

  /**
   * DEFECT 'escrow-release-twice' (tests only): a repeated release answers success and pays the
   * receiver the net again out of fee-income when it holds enough — a settle-twice bug that the
   * settles-once checker must catch through the second 'escrow.released' event.
   */
  private releaseAgain(escrow: MutableEscrow, atMs: number): EscrowRecord {
    const { ledger } = this.context;
    if (escrow.netMicro > 0n && ledger.balance(FEE_INCOME) >= escrow.netMicro) {
      ledger.transfer({
        from: FEE_INCOME,
        to: agentAccount(escrow.receiverId),
        amountMicro: escrow.netMicro,
        reason: 'escrow.release',
        reference: escrow.id,
      });
    }
    this.emitReleased(escrow, 0n, atMs);
    return escrow;
  }
}

/** Optional free text: null, or 1..max characters and not blank. */
function checkText(value: string | null, name: string, lengthMax: number): Failure | null {
  if (value === null) return null;
  if (value.trim() === '') return fail('BAD_REQUEST', `${name} must not be empty`);
  if (value.length > lengthMax) return fail('BAD_REQUEST', `${name} is longer than ${lengthMax} characters`);
  return null;
}
