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
 */
import { assert } from './assert.ts';
import type { Micro } from './money.ts';

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

export type TransferListener = (transfer: Transfer) => void;

export class Ledger {
  private readonly balances = new Map<AccountName, Micro>();
  private sum: Micro = 0n;
  private transferCount = 0;
  private readonly listeners: TransferListener[] = [];

  balance(account: AccountName): Micro {
    return this.balances.get(account) ?? 0n;
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
    assert(amountMicro > 0n, `transfer amount is positive (${transfer.reason})`);
    assert(from !== to, `transfer between two accounts (${transfer.reason})`);
    const fromAfter = this.balance(from) - amountMicro;
    assert(from === EXTERNAL || fromAfter >= 0n, `${from} stays non-negative (${transfer.reason})`);
    this.balances.set(from, fromAfter);
    this.balances.set(to, this.balance(to) + amountMicro);
    this.transferCount++;
    // A transfer cannot change `sum`; the global conservation check (sum === 0) belongs to the
    // invariant checker after each operation, so that a deliberate fault is reported as a failed
    // check (exit 3) naming the event, not as a crash on some later, innocent transfer.
    for (const listener of this.listeners) listener(transfer);
  }

  /**
   * TEST-ONLY fault injection: credits an account without a matching debit, breaking
   * conservation on purpose so that tests can prove the invariant checker catches it.
   * Nothing but the `mint-on-claim` defect calls this.
   */
  faultMint(account: AccountName, amountMicro: Micro): void {
    this.balances.set(account, this.balance(account) + amountMicro);
    this.sum += amountMicro;
  }

  /**
   * TEST-ONLY fault injection: a transfer that skips the non-negativity assertion, so a
   * deliberately skipped balance check (`casino-skip-balance-check`) shows up as a negative
   * balance for the invariant checker to report. Nothing else calls this.
   */
  faultOverdraft(transfer: Transfer): void {
    const { from, to, amountMicro } = transfer;
    this.balances.set(from, this.balance(from) - amountMicro);
    this.balances.set(to, this.balance(to) + amountMicro);
    this.transferCount++;
    for (const listener of this.listeners) listener(transfer);
  }

  /** Recomputes the sum of all balances; equals `sumMicro` unless the ledger itself is broken. */
  auditSum(): Micro {
    let total = 0n;
    for (const value of this.balances.values()) total += value;
    return total;
  }

  /** Accounts below zero, `external` excepted. */
  negativeAccounts(): AccountName[] {
    const found: AccountName[] = [];
    for (const [account, value] of this.balances) if (account !== EXTERNAL && value < 0n) found.push(account);
    return found.sort();
  }

  accounts(): ReadonlyMap<AccountName, Micro> {
    return this.balances;
  }
}
