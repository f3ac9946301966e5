/**
 * Ledger: every balance movement is one double-entry transfer between named accounts.
 *
 * Invariants: amounts are positive and no account but `external` goes negative (asserted on
 * every transfer); the sum of all balances, `external` included, is zero (checked after every
 * operation by `conservation`, src/sim/invariants, and by `afp serve` on its state endpoint). Money enters the
 * platform only from `external` (faucet-pool funding, deposits) and leaves only to it
 * (withdrawals). `sumMicro` is maintained on every mutation so the conservation check is O(1);
 * `auditSum()` recomputes it from scratch for periodic full checks.
 *
 * Account names: `agent:<id>`, `escrow:<id>`, `fee-income`, `faucet-pool`,
 * `referral:<agentId>` (referral payable), `external`.
 *
 * Storage: one mutable slot per account that ever moved money, so a transfer looks each side up
 * once (the casino makes two transfers per bet); listeners also receive both balances after the
 * transfer (one reused object, valid during the call), so they need not look them up again.
 * `accounts()` builds its map on demand (tests and audits read it, no hot path does).
 */
import { assert } from './assert.ts';
import type { Micro } from './money.ts';
import { ShardedMap } from './sharded-map.ts';

export type AccountName = string;
export const EXTERNAL: AccountName = 'external';
export const FAUCET_POOL: AccountName = 'faucet-pool';
export const FEE_INCOME: AccountName = 'fee-income';
export const agentAccount = (agentId: string): AccountName => `agent:${agentId}`;
export const escrowAccount = (escrowId: string): AccountName => `escrow:${escrowId}`;
export const referralAccount = (agentId: string): AccountName => `referral:${agentId}`;

export interface Transfer {
  readonly from: AccountName;
  readonly to: AccountName;
  readonly amountMicro: Micro;
  /** Why the money moved: `faucet.claim`, `escrow.release.fee`... */
  readonly reason: string;
  /** The object the movement belongs to (agent, escrow id). */
  readonly reference: string;
}

/** Both balances right after a transfer, as a listener sees them (one object, rewritten per transfer). */
export interface BalancesAfter {
  fromMicro: Micro;
  toMicro: Micro;
}

/**
 * Told of every transfer. An object with a method, not a function: a closure per platform would be
 * a constant in the ledger's optimized code, thrown away with each new platform (platform.ts says more).
 */
export interface TransferListener {
  onTransfer(transfer: Transfer, after: Readonly<BalancesAfter>): void;
}

interface AccountSlot {
  readonly name: AccountName;
  balanceMicro: Micro;
}

export class Ledger {
  /** By name; lookups only, sharded (sharded-map.ts): an agent's registration adds its accounts. `slotList` keeps the order. */
  private readonly slots = new ShardedMap<AccountSlot>();
  /** The same slots in creation order (never removed, like the map's): the hourly audit walks an array, not the map (its share of a quickstart seed's CPU 4.6% -> 2.7%). */
  private readonly slotList: AccountSlot[] = [];
  private sum: Micro = 0n;
  private transferCount = 0;
  private readonly listeners: TransferListener[] = [];
  private readonly after: BalancesAfter = { fromMicro: 0n, toMicro: 0n };
  /**
   * The two accounts found last, most recent first: a bet reads and moves the same two (the agent
   * and the house) five times, so most lookups end here. Slots are never removed: never stale.
   */
  private recentName: AccountName = '';
  private recentSlot: AccountSlot | undefined = undefined;
  private olderName: AccountName = '';
  private olderSlot: AccountSlot | undefined = undefined;

  balance(account: AccountName): Micro {
    return this.find(account)?.balanceMicro ?? 0n;
  }

  private find(account: AccountName): AccountSlot | undefined {
    if (account === this.recentName && this.recentSlot !== undefined) return this.recentSlot;
    if (account === this.olderName && this.olderSlot !== undefined) {
      const slot = this.olderSlot;
      this.olderName = this.recentName;
      this.olderSlot = this.recentSlot;
      this.recentName = account;
      this.recentSlot = slot;
      return slot;
    }
    const slot = this.slots.get(account);
    if (slot !== undefined) {
      this.olderName = this.recentName;
      this.olderSlot = this.recentSlot;
      this.recentName = account;
      this.recentSlot = slot;
    }
    return slot;
  }

  /** The account's slot, created at zero on its first movement. */
  private slot(account: AccountName): AccountSlot {
    let slot = this.find(account);
    if (slot === undefined) {
      slot = { name: account, balanceMicro: 0n };
      this.slots.set(account, slot);
      this.slotList.push(slot);
    }
    return slot;
  }

  get sumMicro(): Micro {
    return this.sum;
  }

  get transfers(): number {
    return this.transferCount;
  }

  onTransfer(listener: TransferListener): void {
    this.listeners.push(listener);
  }

  transfer(transfer: Transfer): void {
    const { from, to, amountMicro } = transfer;
    // The messages are built only when a check fails (a template per check and transfer was most
    // of what a transfer allocated).
    if (!(amountMicro > 0n)) assert(false, `transfer amount is positive (${transfer.reason})`);
    if (from === to) assert(false, `transfer between two accounts (${transfer.reason})`);
    const found = this.find(from);
    const fromAfter = (found?.balanceMicro ?? 0n) - amountMicro;
    if (!(from === EXTERNAL || fromAfter >= 0n)) assert(false, `${from} stays non-negative (${transfer.reason})`);
    // Slots are created only once the checks pass: a refused transfer leaves no trace.
    const fromSlot = found ?? this.slot(from);
    fromSlot.balanceMicro = fromAfter;
    this.move(transfer, fromSlot, this.slot(to));
    // A transfer cannot change `sum`; the global conservation check (sum === 0) belongs to the
    // invariant checker after each operation, so that a deliberate fault is reported as a failed
    // check (exit 3) naming the event, not as a crash on some later, innocent transfer.
  }

  /**
   * One net movement standing for `movements` transfers that went both ways (funding over a span
   * of instants, services/trading/funding-spans.ts): the balances end where those transfers leave
   * them and the count grows by `movements`, so a span and its instant-by-instant twin leave the
   * same ledger. `transfer` is null when the net is zero. Listeners see the net movement only.
   */
  transferNet(transfer: Transfer | null, movements: number): void {
    if (!(Number.isSafeInteger(movements) && movements >= (transfer === null ? 0 : 1)))
      assert(false, `a net movement stands for its transfers (${movements})`);
    if (transfer === null) {
      this.transferCount += movements;
      return;
    }
    this.transfer(transfer);
    this.transferCount += movements - 1;
  }

  /** Credits `to` (the debit of `from` is done), counts the transfer, tells the listeners. */
  private move(transfer: Transfer, fromSlot: AccountSlot, toSlot: AccountSlot): void {
    toSlot.balanceMicro += transfer.amountMicro;
    this.transferCount++;
    const after = this.after;
    for (const listener of this.listeners) {
      after.fromMicro = fromSlot.balanceMicro;
      after.toMicro = toSlot.balanceMicro;
      listener.onTransfer(transfer, after);
    }
  }

  /**
   * TEST-ONLY fault injection: credits an account without a matching debit, breaking
   * conservation on purpose so that tests can prove the invariant checker catches it.
   * Nothing but the `mint-on-claim` and `tournament-pool-minted` defects calls this.
   */
  faultMint(account: AccountName, amountMicro: Micro): void {
    this.slot(account).balanceMicro += amountMicro;
    this.sum += amountMicro;
  }

  /**
   * TEST-ONLY fault injection: takes money out of an account with no matching credit, breaking
   * conservation on purpose. Nothing but the `mcp-release-credits-nobody` defect calls this.
   */
  faultBurn(account: AccountName, amountMicro: Micro): void {
    const slot = this.slot(account);
    assert(slot.balanceMicro >= amountMicro, 'a burn takes no more than the account holds');
    slot.balanceMicro -= amountMicro;
    this.sum -= amountMicro;
  }

  /**
   * TEST-ONLY fault injection: a transfer that skips the non-negativity assertion, so a
   * deliberately skipped balance check (`casino-skip-balance-check`) shows up as a negative
   * balance for the invariant checker to report. Nothing else calls this.
   */
  faultOverdraft(transfer: Transfer): void {
    const fromSlot = this.slot(transfer.from);
    fromSlot.balanceMicro -= transfer.amountMicro;
    this.move(transfer, fromSlot, this.slot(transfer.to));
  }

  /** Recomputes the sum of all balances; equals `sumMicro` unless the ledger itself is broken. */
  auditSum(): Micro {
    return this.auditSumOf(0, this.slotList.length);
  }

  /** Accounts that ever moved money (auditSumOf's range). */
  get accountCount(): number {
    return this.slotList.length;
  }

  /**
   * The sum of the balances of `count` accounts from the `from`-th, in first-movement order: the
   * audit in pieces (afp serve's GET /_afp/state sums a large ledger in slices, nothing moving
   * between them; accounts are only ever appended, so the pieces cover each account once).
   */
  auditSumOf(from: number, count: number): Micro {
    let total = 0n;
    const end = Math.min(this.slotList.length, from + count);
    // Settled accounts (most escrows') hold zero; adding them would allocate a bigint each, hourly.
    for (let index = from; index < end; index++) {
      const balance = (this.slotList[index] as AccountSlot).balanceMicro;
      if (balance !== 0n) total += balance;
    }
    return total;
  }

  /** Accounts below zero, `external` excepted. */
  negativeAccounts(): AccountName[] {
    const found: AccountName[] = [];
    for (const slot of this.slotList) if (slot.name !== EXTERNAL && slot.balanceMicro < 0n) found.push(slot.name);
    return found.sort();
  }

  /** Every account that ever moved money and its balance, in first-movement order (a fresh map). */
  accounts(): ReadonlyMap<AccountName, Micro> {
    const balances = new Map<AccountName, Micro>();
    for (const slot of this.slotList) balances.set(slot.name, slot.balanceMicro);
    return balances;
  }
}
