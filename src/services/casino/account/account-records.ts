/**
 * The records and commands of the casino account operations (deposits, withdrawals), their
 * limits, and the hold account of a withdrawal under review.
 *
 * Deposit lifecycle: pending → confirmed, at exactly `confirmAtMs` (arrival + the chain's
 * confirmation delay); the money moves from `external` to the agent only then, once.
 * Withdrawal lifecycle: completed at once, or pending_review → completed at exactly
 * `reviewEndsAtMs` when the amount is above the review threshold. The fee is taken at request
 * time in both cases; `debitMicro` = amount + fee is what left the balance.
 * Records are handed out as read-only views; only the desks mutate them.
 */
import { fail, type Failure } from '../../../core/errors.ts';
import type { AccountName } from '../../../core/ledger.ts';
import { usdc, type Micro } from '../../../core/money.ts';
import type { ChainId } from './supported-chains.ts';

export type DepositStatus = 'pending' | 'confirmed';

export interface DepositRecord {
  readonly id: string;
  readonly agentId: string;
  readonly chain: ChainId;
  /** The agent's deposit address on that chain: where the chain "sent" the funds. */
  readonly address: string;
  readonly amountMicro: Micro;
  readonly txHash: string;
  readonly status: DepositStatus;
  readonly confirmationsRequired: number;
  readonly createdAtMs: number;
  /** When the deposit is credited: createdAtMs + the chain's confirmationMs. */
  readonly confirmAtMs: number;
  readonly confirmedAtMs: number | null;
}

/** A deposit as seen at some instant: confirmations so far (the required count once confirmed). */
export interface DepositView extends DepositRecord {
  readonly confirmations: number;
}

export type WithdrawalStatus = 'pending_review' | 'completed';

export interface WithdrawalRecord {
  readonly id: string;
  readonly agentId: string;
  readonly chain: ChainId;
  /** Destination, as sent (case preserved). */
  readonly address: string;
  readonly amountMicro: Micro;
  readonly feeMicro: Micro;
  /** amount + fee: what left the agent's balance at request time. */
  readonly debitMicro: Micro;
  readonly status: WithdrawalStatus;
  readonly createdAtMs: number;
  /** When the review ends (the withdrawal completes); null when it needed no review. */
  readonly reviewEndsAtMs: number | null;
  readonly completedAtMs: number | null;
  /** The payout transaction; null until completed. */
  readonly txHash: string | null;
}

export interface SimulateDepositCommand {
  readonly agentId: string;
  /** A chain id of SUPPORTED_CHAINS (any case). */
  readonly chain: string;
  readonly amountMicro: Micro;
  /** The chain's transaction; generated when absent. A hash is credited once per chain. */
  readonly txHash?: string | null;
  /**
   * true: it arrives with its confirmations done and is credited at once (afp serve's admin door
   * for afp's own funding, which must not spend a manual clock's time); absent: credited at
   * arrival + the chain's delay.
   */
  readonly confirmed?: boolean;
}

export interface WithdrawCommand {
  readonly agentId: string;
  readonly amountMicro: Micro;
  /** `0x` + 40 hex (a Base address). */
  readonly address: string;
  /** Absent or null = base, the only withdrawal chain. */
  readonly chain?: string | null;
}

export const ACCOUNT_LIMITS = {
  depositMinMicro: 10_000n, // 0.01
  depositMaxMicro: usdc(1_000_000),
  /** Deposits awaiting confirmation per agent; more are refused (409) until some confirm. */
  pendingDepositsPerAgentMax: 100,
  /** Journal entries retained per agent (GET /auth/ledger pages through at most these). */
  journalEntriesPerAgentMax: 1_000,
  /** Global bound on stored deposit and withdrawal records; reaching it is a harness bug. */
  recordsMax: 10_000_000,
} as const;

const WITHDRAWAL_PREFIX = 'withdrawal:';

/** The hold of a withdrawal under review: amount only (the fee went to fee-income at once). */
export const withdrawalAccount = (withdrawalId: string): AccountName => `${WITHDRAWAL_PREFIX}${withdrawalId}`;

/** List sizes: an integer in [1, limitMax]. */
export function checkListLimit(limit: number, limitMax: number): Failure | null {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > limitMax)
    return fail('BAD_REQUEST', `limit must be an integer between 1 and ${limitMax}`);
  return null;
}
