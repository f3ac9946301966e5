/**
 * The escrow record and the commands of the escrow service, plus the escrow's own limits.
 *
 * A record's lifecycle: locked → released | refunded | expired, or locked → disputed →
 * released | refunded. `released`, `refunded` and `expired` are final: each escrow settles
 * exactly once (one settlement event), and `settledAtMs` / `txHash` are set exactly then.
 * The fee and net are fixed at creation (fee rounded up to the micro, net = amount − fee).
 * Records are handed out as read-only views; only the service mutates them.
 */
import type { JsonObject } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';

export type EscrowStatus = 'locked' | 'released' | 'refunded' | 'expired' | 'disputed';
export const ESCROW_STATUSES: readonly EscrowStatus[] = ['locked', 'released', 'refunded', 'expired', 'disputed'];

export type EscrowRole = 'sender' | 'receiver' | 'all';
export const ESCROW_ROLES: readonly EscrowRole[] = ['sender', 'receiver', 'all'];

/** How a dispute ended; null while its window is open. */
export type DisputeOutcome = 'released' | 'refunded';

export interface EscrowDispute {
  readonly reason: string;
  readonly evidence: string | null;
  readonly openedById: string;
  readonly openedAtMs: number;
  readonly windowEndsAtMs: number;
  readonly outcome: DisputeOutcome | null;
}

export interface EscrowRecord {
  readonly id: string;
  readonly senderId: string;
  readonly receiverId: string;
  readonly amountMicro: Micro;
  readonly feeMicro: Micro;
  readonly netMicro: Micro;
  readonly description: string | null;
  readonly conditions: JsonObject | null;
  readonly referrerId: string | null;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  readonly status: EscrowStatus;
  /** When the escrow reached a final status; null while locked or disputed. */
  readonly settledAtMs: number | null;
  /** Hash of the settlement transaction (release, refund, expiry); null until settled. */
  readonly txHash: string | null;
  readonly dispute: EscrowDispute | null;
}

export interface CreateEscrowCommand {
  readonly senderId: string;
  /** Agent id, 0x address (any case) or referral code. */
  readonly receiver: string;
  readonly amountMicro: Micro;
  readonly description: string | null;
  /** Whole seconds; null = `config.escrow.defaultExpiresInSeconds`. */
  readonly expiresInSeconds: number | null;
  /** Explicit referrer reference; null = the sender's registration referrer. */
  readonly referrer: string | null;
  readonly conditions: JsonObject | null;
}

/** Release, refund and get: one escrow, seen by one agent. */
export interface EscrowActionCommand {
  readonly escrowId: string;
  readonly callerId: string;
}

export interface DisputeEscrowCommand extends EscrowActionCommand {
  readonly reason: string;
  readonly evidence: string | null;
}

export interface ListEscrowsCommand {
  readonly callerId: string;
  readonly role: EscrowRole;
  /** null = every status. */
  readonly status: EscrowStatus | null;
  readonly limit: number;
}

/** Limits of the escrow's free-form inputs (STYLE rule 7: a limit on everything). */
export const ESCROW_LIMITS = {
  descriptionLengthMax: 1_000,
  reasonLengthMax: 1_000,
  evidenceLengthMax: 1_000,
  referenceLengthMax: 256,
  conditionsKeysMax: 32,
  conditionsDepthMax: 4,
  conditionsNodesMax: 256,
  conditionsStringLengthMax: 1_000,
  /** Global bound on stored escrows; reaching it is a harness bug (runs are bounded far below). */
  escrowsMax: 10_000_000,
} as const;
