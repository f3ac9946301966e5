/**
 * DepositDesk: simulated chain deposits. A deposit "arrives" at the agent's deposit address as
 * `pending`, gains confirmations block by block, and is credited at exactly `confirmAtMs`
 * (arrival + the chain's delay) by the 'casino.deposit-confirm' timer: one transfer
 * `external` → `agent:<id>` (reason `casino.deposit`), status `confirmed`. Nothing moves before.
 * One that arrives `confirmed` (the admin door's funding) is credited so at its arrival, no timer.
 *
 * Invariants: each deposit is credited exactly once (asserted); a chain transaction hash is
 * credited at most once (a repeat is 409); pending deposits per agent are bounded
 * (ACCOUNT_LIMITS.pendingDepositsPerAgentMax, 409 beyond), and so is their total.
 * Precedence of failures: 400 bad input (chain, amount, hash format), 404 unknown agent,
 * 409 repeated hash or too many pending.
 * Non-goals: chain reorganisations, failed deposits, deposits of other tokens.
 */
import { assert } from '../../../core/assert.ts';
import { fail, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { EXTERNAL, agentAccount } from '../../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../../core/money.ts';
import type { PlatformTimer } from '../../shared/context.ts';
import type { CasinoState } from '../casino-state.ts';
import {
  ACCOUNT_LIMITS,
  checkListLimit,
  type DepositRecord,
  type DepositView,
  type SimulateDepositCommand,
} from './account-records.ts';
import { base58FromHex, isBase58 } from './base58.ts';
import { chainList, findChain, type ChainInfo } from './supported-chains.ts';
import { deriveDepositAddress } from './deposit-address.ts';

export type DepositTimer = Extract<PlatformTimer, { kind: 'casino.deposit-confirm' }>;

type MutableDeposit = { -readonly [K in keyof DepositRecord]: DepositRecord[K] };

export interface PendingDeposits {
  readonly count: number;
  readonly amountMicro: Micro;
}

const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const NONE_PENDING: PendingDeposits = { count: 0, amountMicro: 0n };

export class DepositDesk {
  private readonly state: CasinoState;
  /** The platform's address salt (data, not a closure: a snapshot copies the desk as data). */
  private readonly saltHex: string;
  private readonly byId = new Map<string, MutableDeposit>();
  private readonly byAgent = new Map<string, MutableDeposit[]>();
  /** `<chain>:<hash>` of every deposit, so a transaction is credited once. */
  private readonly txHashes = new Set<string>();
  private readonly pending = new Map<string, PendingDeposits>();

  constructor(state: CasinoState, saltHex: string) {
    this.state = state;
    this.saltHex = saltHex;
  }

  /**
   * Why `simulate` would refuse the deposit, checked without changing anything (no id drawn), or
   * null. afp serve's admin door asks first and logs only deposits that will be accepted; a
   * generated transaction hash that repeats an earlier one (a 2^-128 chance) is the one refusal
   * found only by `simulate`.
   */
  refusal(command: SimulateDepositCommand): Failure | null {
    const chain = findChain(command.chain);
    if (chain === undefined) return fail('BAD_REQUEST', `chain must be one of: ${chainList()}`);
    const invalid = checkAmount(command.amountMicro) ?? checkTxHash(chain, command.txHash ?? null);
    if (invalid !== null) return invalid;
    if (!this.state.ctx.agents.has(command.agentId)) return fail('NOT_FOUND', `agent ${command.agentId} not found`);
    const given = normaliseTxHash(chain, command.txHash ?? null);
    if (given !== null && this.txHashes.has(`${chain.id}:${given}`))
      return fail('CONFLICT', `transaction ${given} was already deposited on ${chain.id}`);
    // Before any hash is generated: a refused deposit draws nothing from the id stream.
    if (this.pendingOf(command.agentId).count >= ACCOUNT_LIMITS.pendingDepositsPerAgentMax) {
      return fail(
        'CONFLICT',
        `at most ${ACCOUNT_LIMITS.pendingDepositsPerAgentMax} deposits may await confirmation per agent`,
      );
    }
    return null;
  }

  simulate(command: SimulateDepositCommand, nowMs: number): Outcome<DepositView> {
    const refused = this.refusal(command);
    if (refused !== null) return refused;
    const chain = findChain(command.chain);
    assert(chain !== undefined, 'the refusal check found the chain');
    const txHash = normaliseTxHash(chain, command.txHash ?? null) ?? this.newTxHash(chain);
    if (this.txHashes.has(`${chain.id}:${txHash}`))
      return fail('CONFLICT', `transaction ${txHash} was already deposited on ${chain.id}`);
    const pending = this.pendingOf(command.agentId);
    assert(this.byId.size < ACCOUNT_LIMITS.recordsMax, `at most ${ACCOUNT_LIMITS.recordsMax} deposits`);
    const deposit: MutableDeposit = {
      id: this.state.ctx.ids.next('dep_', 16),
      agentId: command.agentId,
      chain: chain.id,
      address: deriveDepositAddress({ saltHex: this.saltHex, agentId: command.agentId, chain }),
      amountMicro: command.amountMicro,
      txHash,
      status: 'pending',
      confirmationsRequired: chain.confirmationsRequired,
      createdAtMs: nowMs,
      confirmAtMs: command.confirmed === true ? nowMs : nowMs + chain.confirmationMs,
      confirmedAtMs: null,
    };
    assert(!this.byId.has(deposit.id), 'deposit ids are unique');
    this.byId.set(deposit.id, deposit);
    appendTo(this.byAgent, deposit.agentId, deposit);
    this.txHashes.add(`${chain.id}:${txHash}`);
    this.pending.set(deposit.agentId, {
      count: pending.count + 1,
      amountMicro: pending.amountMicro + deposit.amountMicro,
    });
    this.state.ctx.emit({
      type: 'casino.deposit',
      atMs: nowMs,
      depositId: deposit.id,
      agentId: deposit.agentId,
      amountMicro: deposit.amountMicro,
      status: 'pending',
    });
    if (command.confirmed === true) this.credit(deposit, nowMs);
    else this.state.ctx.timers.schedule(deposit.confirmAtMs, { kind: 'casino.deposit-confirm', depositId: deposit.id });
    return succeed(viewAt(deposit, nowMs));
  }

  /** Credits the deposit at exactly its confirmation instant. */
  confirm(timer: DepositTimer, atMs: number): void {
    const deposit = this.byId.get(timer.depositId);
    assert(deposit !== undefined, `timer ${timer.kind} names a known deposit`);
    this.credit(deposit, atMs);
  }

  private credit(deposit: MutableDeposit, atMs: number): void {
    assert(deposit.status === 'pending' && deposit.confirmedAtMs === null, 'a deposit is credited once');
    assert(atMs === deposit.confirmAtMs, 'a deposit is credited at exactly its confirmation instant');
    this.state.ctx.ledger.transfer({
      from: EXTERNAL,
      to: agentAccount(deposit.agentId),
      amountMicro: deposit.amountMicro,
      reason: 'casino.deposit',
      reference: deposit.id,
    });
    deposit.status = 'confirmed';
    deposit.confirmedAtMs = atMs;
    const pending = this.pendingOf(deposit.agentId);
    assert(pending.count >= 1 && pending.amountMicro >= deposit.amountMicro, 'a confirmed deposit was pending');
    this.pending.set(deposit.agentId, {
      count: pending.count - 1,
      amountMicro: pending.amountMicro - deposit.amountMicro,
    });
    this.state.ctx.emit({
      type: 'casino.deposit',
      atMs,
      depositId: deposit.id,
      agentId: deposit.agentId,
      amountMicro: deposit.amountMicro,
      status: 'confirmed',
    });
  }

  /** The agent's deposits, newest first (arrival time, then arrival order), as seen at `nowMs`. */
  list(agentId: string, limit: number, nowMs: number): Outcome<DepositView[]> {
    const invalid = checkListLimit(limit, this.state.config.historyLimitMax);
    if (invalid !== null) return invalid;
    const deposits = this.byAgent.get(agentId) ?? [];
    const found: DepositView[] = [];
    for (let index = deposits.length - 1; index >= 0 && found.length < limit; index--)
      found.push(viewAt(deposits[index] as MutableDeposit, nowMs));
    return succeed(found);
  }

  pendingOf(agentId: string): PendingDeposits {
    return this.pending.get(agentId) ?? NONE_PENDING;
  }

  find(depositId: string): DepositRecord | undefined {
    return this.byId.get(depositId);
  }

  /** Every deposit in arrival order (checkers and reports). */
  all(): IterableIterator<DepositRecord> {
    return this.byId.values();
  }

  private newTxHash(chain: ChainInfo): string {
    switch (chain.addressFormat) {
      case 'evm':
        return this.state.ctx.ids.txHash();
      case 'solana':
        return base58FromHex(this.state.ctx.ids.next('', 128));
    }
  }
}

/** Confirmations so far: one per block since arrival, below the required count until credited. */
export function viewAt(deposit: DepositRecord, nowMs: number): DepositView {
  if (deposit.status === 'confirmed') return { ...deposit, confirmations: deposit.confirmationsRequired };
  const chain = findChain(deposit.chain);
  assert(chain !== undefined, 'a deposit names a supported chain');
  const blocks = Math.floor(Math.max(0, nowMs - deposit.createdAtMs) / chain.blockTimeMs);
  return { ...deposit, confirmations: Math.min(blocks, deposit.confirmationsRequired - 1) };
}

function checkAmount(amountMicro: Micro): Failure | null {
  const { depositMinMicro, depositMaxMicro } = ACCOUNT_LIMITS;
  if (amountMicro < depositMinMicro || amountMicro > depositMaxMicro) {
    return fail(
      'BAD_REQUEST',
      `amount must be between ${formatDecimal(depositMinMicro)} and ${formatDecimal(depositMaxMicro)}`,
    );
  }
  return null;
}

function checkTxHash(chain: ChainInfo, txHash: string | null): Failure | null {
  if (txHash === null) return null;
  switch (chain.addressFormat) {
    case 'evm':
      return EVM_TX_HASH.test(txHash) ? null : fail('BAD_REQUEST', 'tx_hash must be 0x followed by 64 hex characters');
    case 'solana':
      return isBase58(txHash, 32, 88)
        ? null
        : fail('BAD_REQUEST', 'tx_hash must be a base58 signature of 32 to 88 characters');
  }
}

/** EVM hashes compare without case; Solana signatures are case-sensitive. */
function normaliseTxHash(chain: ChainInfo, txHash: string | null): string | null {
  if (txHash === null) return null;
  return chain.addressFormat === 'evm' ? txHash.toLowerCase() : txHash;
}

function appendTo<T>(index: Map<string, T[]>, agentId: string, item: T): void {
  const list = index.get(agentId);
  if (list === undefined) index.set(agentId, [item]);
  else list.push(item);
}
