/**
 * WithdrawalDesk: USDC withdrawals to a Base address (casino.md Limits rule 3; NOTES.md Casino).
 *
 * Money, all at request time: the flat fee moves `agent:<id>` → `fee-income`
 * (`casino.withdraw.fee`); the amount moves to `external` (`casino.withdraw`, status completed)
 * or, above `reviewAboveMicro`, into the hold `withdrawal:<id>` (`casino.withdraw.hold`, status
 * pending_review), from which the 'casino.withdrawal-review' timer pays it to `external` at
 * exactly `reviewEndsAtMs`. A completed withdrawal's hold is empty (asserted).
 * Precedence of failures: 400 bad input (chain, address, amount), 404 unknown agent, 422 balance
 * below amount + fee.
 * DEFECT 'casino-skip-balance-check' (tests and demos only): the balance check is skipped, as on
 * the real platform, and the debit goes through `ledger.faultOverdraft`, so the agent's balance
 * goes negative for the no-negative-balance invariant to report (conservation still holds).
 * DEFECT 'withdraw-no-balance-check' does the same for withdrawals only (bets keep their check).
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { EXTERNAL, FEE_INCOME, agentAccount, type Transfer } from '../../../core/ledger.ts';
import { MAX_AMOUNT_MICRO, formatDecimal, type Micro } from '../../../core/money.ts';
import type { DefectName, PlatformTimer } from '../../shared/context.ts';
import type { CasinoState } from '../casino-state.ts';
import {
  ACCOUNT_LIMITS,
  checkListLimit,
  withdrawalAccount,
  type WithdrawalRecord,
  type WithdrawCommand,
} from './account-records.ts';
import { chainList, findChain, type ChainInfo } from './supported-chains.ts';

export type WithdrawalTimer = Extract<PlatformTimer, { kind: 'casino.withdrawal-review' }>;

type MutableWithdrawal = { -readonly [K in keyof WithdrawalRecord]: WithdrawalRecord[K] };

/** Whether a deliberate defect skips the withdrawal's balance check. */
function skipsBalanceCheck(defects: ReadonlySet<DefectName>): boolean {
  return defects.has('casino-skip-balance-check') || defects.has('withdraw-no-balance-check');
}

export const BASE_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

export class WithdrawalDesk {
  private readonly state: CasinoState;
  private readonly byId = new Map<string, MutableWithdrawal>();
  private readonly byAgent = new Map<string, MutableWithdrawal[]>();
  /** Amounts held under review, per agent. */
  private readonly inReview = new Map<string, Micro>();

  constructor(state: CasinoState) {
    const { minimumMicro, feeMicro, reviewAboveMicro, reviewMs } = state.config.withdraw;
    assert(minimumMicro > 0n && feeMicro >= 0n && reviewAboveMicro >= minimumMicro, 'withdrawal amounts are sane');
    assert(Number.isSafeInteger(reviewMs) && reviewMs >= 0, 'withdrawal review time is whole milliseconds');
    this.state = state;
  }

  withdraw(command: WithdrawCommand, nowMs: number): Outcome<WithdrawalRecord> {
    const { ctx, config } = this.state;
    const chain = checkChain(command.chain ?? null);
    if (isFailure(chain)) return chain;
    const invalid = checkAddress(command.address) ?? this.checkAmount(command.amountMicro);
    if (invalid !== null) return invalid;
    if (!ctx.agents.has(command.agentId)) return fail('NOT_FOUND', `agent ${command.agentId} not found`);
    const feeMicro = config.withdraw.feeMicro;
    const debitMicro = command.amountMicro + feeMicro;
    const balanceMicro = ctx.ledger.balance(agentAccount(command.agentId));
    if (balanceMicro < debitMicro && !skipsBalanceCheck(ctx.defects)) {
      return fail(
        'INSUFFICIENT_BALANCE',
        `balance ${formatDecimal(balanceMicro)} is below the amount plus the ${formatDecimal(feeMicro)} fee (${formatDecimal(debitMicro)})`,
      );
    }
    assert(this.byId.size < ACCOUNT_LIMITS.recordsMax, `at most ${ACCOUNT_LIMITS.recordsMax} withdrawals`);
    const id = ctx.ids.next('wd_', 16);
    const review = command.amountMicro > config.withdraw.reviewAboveMicro;
    const withdrawal: MutableWithdrawal = {
      id,
      agentId: command.agentId,
      chain: chain.id,
      address: command.address,
      amountMicro: command.amountMicro,
      feeMicro,
      debitMicro,
      status: review ? 'pending_review' : 'completed',
      createdAtMs: nowMs,
      reviewEndsAtMs: review ? nowMs + config.withdraw.reviewMs : null,
      completedAtMs: review ? null : nowMs,
      txHash: null,
    };
    const from = agentAccount(command.agentId);
    this.debit({
      from,
      to: review ? withdrawalAccount(id) : EXTERNAL,
      amountMicro: command.amountMicro,
      reason: review ? 'casino.withdraw.hold' : 'casino.withdraw',
      reference: id,
    });
    if (feeMicro > 0n)
      this.debit({ from, to: FEE_INCOME, amountMicro: feeMicro, reason: 'casino.withdraw.fee', reference: id });
    if (!review) withdrawal.txHash = ctx.ids.txHash();
    this.store(withdrawal);
    if (withdrawal.reviewEndsAtMs !== null) {
      this.inReview.set(withdrawal.agentId, this.reviewMicro(withdrawal.agentId) + withdrawal.amountMicro);
      ctx.timers.schedule(withdrawal.reviewEndsAtMs, { kind: 'casino.withdrawal-review', withdrawalId: id });
    }
    ctx.emit({
      type: 'casino.withdrawal',
      atMs: nowMs,
      withdrawalId: id,
      agentId: withdrawal.agentId,
      amountMicro: withdrawal.amountMicro,
      feeMicro,
      status: withdrawal.status,
    });
    return succeed(withdrawal);
  }

  /** Pays a reviewed withdrawal out at exactly the end of its review. */
  complete(timer: WithdrawalTimer, atMs: number): void {
    const { ctx } = this.state;
    const withdrawal = this.byId.get(timer.withdrawalId);
    assert(withdrawal !== undefined, `timer ${timer.kind} names a known withdrawal`);
    assert(withdrawal.status === 'pending_review' && withdrawal.completedAtMs === null, 'a withdrawal completes once');
    assert(atMs === withdrawal.reviewEndsAtMs, 'a reviewed withdrawal completes at exactly the end of its review');
    const hold = withdrawalAccount(withdrawal.id);
    ctx.ledger.transfer({
      from: hold,
      to: EXTERNAL,
      amountMicro: withdrawal.amountMicro,
      reason: 'casino.withdraw',
      reference: withdrawal.id,
    });
    assert(ctx.ledger.balance(hold) === 0n, 'a completed withdrawal holds nothing');
    withdrawal.status = 'completed';
    withdrawal.completedAtMs = atMs;
    withdrawal.txHash = ctx.ids.txHash();
    const reviewMicro = this.reviewMicro(withdrawal.agentId) - withdrawal.amountMicro;
    assert(reviewMicro >= 0n, 'a completed review was counted in review');
    this.inReview.set(withdrawal.agentId, reviewMicro);
    ctx.emit({
      type: 'casino.withdrawal',
      atMs,
      withdrawalId: withdrawal.id,
      agentId: withdrawal.agentId,
      amountMicro: withdrawal.amountMicro,
      feeMicro: withdrawal.feeMicro,
      status: 'completed',
    });
  }

  /** The agent's withdrawals, newest first (request time, then request order). */
  list(agentId: string, limit: number): Outcome<WithdrawalRecord[]> {
    const invalid = checkListLimit(limit, this.state.config.historyLimitMax);
    if (invalid !== null) return invalid;
    const withdrawals = this.byAgent.get(agentId) ?? [];
    return succeed(withdrawals.slice(-limit).reverse());
  }

  /** The amount of the agent's withdrawals waiting in review (fees excluded: already taken). */
  reviewMicro(agentId: string): Micro {
    return this.inReview.get(agentId) ?? 0n;
  }

  find(withdrawalId: string): WithdrawalRecord | undefined {
    return this.byId.get(withdrawalId);
  }

  /** Every withdrawal in request order (checkers and reports). */
  all(): IterableIterator<WithdrawalRecord> {
    return this.byId.values();
  }

  private checkAmount(amountMicro: Micro): Failure | null {
    const minimumMicro = this.state.config.withdraw.minimumMicro;
    if (amountMicro < minimumMicro)
      return fail('BAD_REQUEST', `amount must be at least ${formatDecimal(minimumMicro)}`);
    if (amountMicro > MAX_AMOUNT_MICRO) return fail('BAD_REQUEST', 'amount is too large');
    return null;
  }

  /** A debit of the agent; past its balance only under the skip-balance-check defect. */
  private debit(transfer: Transfer): void {
    const { ledger, defects } = this.state.ctx;
    if (ledger.balance(transfer.from) >= transfer.amountMicro) {
      ledger.transfer(transfer);
      return;
    }
    assert(skipsBalanceCheck(defects), 'a withdrawal debit is covered unless the balance check is skipped by a defect');
    ledger.faultOverdraft(transfer);
  }

  private store(withdrawal: MutableWithdrawal): void {
    assert(!this.byId.has(withdrawal.id), 'withdrawal ids are unique');
    this.byId.set(withdrawal.id, withdrawal);
    const list = this.byAgent.get(withdrawal.agentId);
    if (list === undefined) this.byAgent.set(withdrawal.agentId, [withdrawal]);
    else list.push(withdrawal);
  }
}

/** Absent = base; a supported chain that does not allow withdrawal, or an unknown one, is 400. */
function checkChain(text: string | null): ChainInfo | Failure {
  const withdrawable = chainList((chain) => chain.withdraw);
  if (text === null) {
    const base = findChain('base');
    assert(base !== undefined && base.withdraw, 'base is a withdrawal chain');
    return base;
  }
  const chain = findChain(text);
  if (chain === undefined || !chain.withdraw)
    return fail(
      'BAD_REQUEST',
      `withdrawals are supported on ${withdrawable} only (supported chains for deposits: ${chainList()})`,
    );
  return chain;
}

function checkAddress(address: string): Failure | null {
  return BASE_ADDRESS_PATTERN.test(address)
    ? null
    : fail('BAD_REQUEST', 'address must be a Base address: 0x followed by 40 hex characters');
}
