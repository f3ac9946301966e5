/**
 * CasinoAccount: the casino's account operations (casino.md "auth" group, without register and
 * without HTTP): balance with recent activity, deposit addresses, simulated chain deposits,
 * deposit history, the transaction history (ledger), withdrawals, supported chains.
 *
 * One balance per agent, shared with the faucet, escrow and the games: the balance is the
 * ledger account `agent:<id>`; this file adds no balance of its own. It composes the journal
 * (history of every transfer touching an agent), the deposit desk and the withdrawal desk, and
 * runs their timers. Construct it once per platform, before the first agent transfer, so the
 * journal sees every movement; `nowMs` is the platform's clock (journal timestamps).
 * Failures: 400 bad input (limit, chain, cursor...), 404 unknown agent; each desk documents its own.
 */
import type { Clock } from '../../../core/clock.ts';
import { fail, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { agentAccount } from '../../../core/ledger.ts';
import type { Micro } from '../../../core/money.ts';
import type { CasinoState } from '../casino-state.ts';
import { AccountJournal, type JournalEntry } from './account-journal.ts';
import {
  ACCOUNT_LIMITS,
  checkListLimit,
  type DepositView,
  type SimulateDepositCommand,
  type WithdrawalRecord,
  type WithdrawCommand,
} from './account-records.ts';
import { DepositDesk, type DepositTimer } from './deposit-desk.ts';
import { deriveDepositAddress } from './deposit-address.ts';
import { chainList, findChain, supportedChains, type ChainId, type ChainInfo } from './supported-chains.ts';
import { WithdrawalDesk, type WithdrawalTimer } from './withdrawal-desk.ts';

export type CasinoAccountTimer = DepositTimer | WithdrawalTimer;

export interface DepositAddress {
  readonly agentId: string;
  readonly chain: ChainId;
  readonly address: string;
  readonly token: 'USDC';
  readonly confirmationsRequired: number;
  readonly confirmationMs: number;
}

export interface BalanceWithActivity {
  readonly agentId: string;
  readonly balanceMicro: Micro;
  /** Deposits on their way (not yet in the balance). */
  readonly pendingDepositsMicro: Micro;
  /** Withdrawals under review (already out of the balance, not yet paid out). */
  readonly pendingWithdrawalsMicro: Micro;
  /** The newest journal entries, newest first. */
  readonly recent: readonly JournalEntry[];
}

export interface CasinoAccountOptions {
  /** The platform's current instant, read when a transfer is journaled. */
  readonly clock: Clock;
  readonly journalEntriesPerAgentMax?: number;
}

export class CasinoAccount {
  readonly journal: AccountJournal;
  readonly deposits: DepositDesk;
  readonly withdrawals: WithdrawalDesk;
  private readonly state: CasinoState;
  private readonly saltHex: string;

  constructor(state: CasinoState, options: CasinoAccountOptions) {
    this.state = state;
    // A fork: drawing the salt never shifts the casino's other streams.
    this.saltHex = state.rng.fork('deposit-addresses').hex(16);
    this.journal = new AccountJournal({
      ledger: state.ctx.ledger,
      clock: options.clock,
      entriesPerAgentMax: options.journalEntriesPerAgentMax ?? ACCOUNT_LIMITS.journalEntriesPerAgentMax,
    });
    this.deposits = new DepositDesk(state, this.saltHex);
    this.withdrawals = new WithdrawalDesk(state);
  }

  supportedChains(): readonly ChainInfo[] {
    return supportedChains();
  }

  depositAddress(agentId: string, chainText: string): Outcome<DepositAddress> {
    const chain = findChain(chainText);
    if (chain === undefined) return fail('BAD_REQUEST', `chain must be one of: ${chainList()}`);
    return (
      this.unknown(agentId) ??
      succeed({
        agentId,
        chain: chain.id,
        address: this.addressOf(agentId, chain),
        token: chain.token,
        confirmationsRequired: chain.confirmationsRequired,
        confirmationMs: chain.confirmationMs,
      })
    );
  }

  /** The chain "sends" USDC to the agent's deposit address; credited after the chain's delay. */
  /** Why `simulateDeposit` would refuse the command, without changing anything; null when it would not. */
  depositRefusal(command: SimulateDepositCommand): Failure | null {
    return this.deposits.refusal(command);
  }

  simulateDeposit(command: SimulateDepositCommand, nowMs: number): Outcome<DepositView> {
    return this.deposits.simulate(command, nowMs);
  }

  /** Newest first, with confirmations as of `nowMs`. */
  depositsOf(agentId: string, limit: number, nowMs: number): Outcome<DepositView[]> {
    return this.unknown(agentId) ?? this.deposits.list(agentId, limit, nowMs);
  }

  withdraw(command: WithdrawCommand, nowMs: number): Outcome<WithdrawalRecord> {
    return this.withdrawals.withdraw(command, nowMs);
  }

  /** Newest first. */
  withdrawalsOf(agentId: string, limit: number): Outcome<WithdrawalRecord[]> {
    return this.unknown(agentId) ?? this.withdrawals.list(agentId, limit);
  }

  /** The agent's transaction history, newest first; `beforeSequence` pages to older entries. */
  ledgerOf(agentId: string, limit: number, beforeSequence: number | null = null): Outcome<JournalEntry[]> {
    const invalid = checkListLimit(limit, this.state.config.historyLimitMax);
    if (invalid !== null) return invalid;
    if (beforeSequence !== null && (!Number.isSafeInteger(beforeSequence) || beforeSequence < 0)) {
      return fail('BAD_REQUEST', 'before must be a non-negative integer (the sequence of an entry)');
    }
    return this.unknown(agentId) ?? succeed(this.journal.list(agentId, limit, beforeSequence));
  }

  balanceWithActivity(agentId: string, limit: number): Outcome<BalanceWithActivity> {
    const invalid = checkListLimit(limit, this.state.config.historyLimitMax);
    if (invalid !== null) return invalid;
    return (
      this.unknown(agentId) ??
      succeed({
        agentId,
        balanceMicro: this.state.ctx.ledger.balance(agentAccount(agentId)),
        pendingDepositsMicro: this.deposits.pendingOf(agentId).amountMicro,
        pendingWithdrawalsMicro: this.withdrawals.reviewMicro(agentId),
        recent: this.journal.list(agentId, limit),
      })
    );
  }

  /** Runs a deposit confirmation or a withdrawal review at its exact instant. */
  onTimer(timer: CasinoAccountTimer, atMs: number): void {
    switch (timer.kind) {
      case 'casino.deposit-confirm':
        this.deposits.confirm(timer, atMs);
        return;
      case 'casino.withdrawal-review':
        this.withdrawals.complete(timer, atMs);
        return;
    }
  }

  /** 404 for an agent the registry does not know (routes authenticate first, so rarely seen). */
  private unknown(agentId: string): Failure | null {
    return this.state.ctx.agents.has(agentId) ? null : fail('NOT_FOUND', `agent ${agentId} not found`);
  }

  private addressOf(agentId: string, chain: ChainInfo): string {
    return deriveDepositAddress({ saltHex: this.saltHex, agentId, chain });
  }
}
