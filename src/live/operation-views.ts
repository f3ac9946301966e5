/**
 * Views of answers that several operations of src/live/operations.ts share or that their dialect
 * rows build: a market order's answer, a limit order, a position, an escrow and its release,
 * referral statistics, a tournament line, a token holding.
 * Why a file of their own: operations.ts is the table of operations, and these are the shapes
 * the dialects read answers into (src/live/dialects/*).
 */
import type { Micro } from '../core/money.ts';

/** A token holding as a wallet balance lists it. */
export interface WalletTokenAmount {
  readonly contract: string | null;
  readonly symbol: string | null;
  readonly amount: string | null;
}

/** A tournament as a list or a read shows it: its id, state and entrants. */
export interface TournamentLine {
  readonly tournamentId: string;
  readonly status: string | null;
  readonly entrants: number | null;
}

/** An agent's referral statistics as an answer shows them: referred agents and earnings, by level. */
export interface ReferralStatsView {
  readonly referralCode: string | null;
  readonly referredCount: number | null;
  readonly earnedMicro: Micro | null;
  readonly levels: readonly {
    readonly level: number | null;
    readonly referred: number | null;
    readonly earnedMicro: Micro | null;
  }[];
}

/** A market order's answer (perpetual or spot): the position it opened where the target answers one. */
export interface MarketOrderResult {
  readonly orderId: string;
  readonly status: string | null;
  readonly feeMicro: Micro | null;
  readonly positionId?: string | null;
  readonly marginMicro?: Micro | null;
  readonly entryPrice?: number | null;
  readonly leverage?: number | null;
  readonly openedAtMs?: number | null;
}

/** A limit order as an answer shows it; status in the target's words (the deployment's `pending`). */
export interface LimitOrderView {
  readonly orderId: string;
  readonly symbol: string | null;
  readonly side: string | null;
  readonly status: string | null;
  readonly sizeMicro: Micro | null;
  readonly limitPrice: number | null;
  readonly fillPrice: number | null;
  /** The fee a filled order paid (0 while pending); null when the answer does not say. */
  readonly feeMicro: Micro | null;
}

/** An open position as a list shows it: money in micro-USDC, prices in 8-decimal units; null where the answer does not say. */
export interface PositionView {
  readonly positionId: string;
  readonly symbol: string | null;
  readonly side: string | null;
  readonly sizeMicro: Micro | null;
  readonly marginMicro: Micro | null;
  readonly leverage: number | null;
  readonly entryPrice: bigint | null;
  readonly markPrice: bigint | null;
  readonly liquidationPrice: bigint | null;
}

/** A release's answer: its status, and the fee it kept and the net it paid where the answer states them (null: not stated). */
export interface EscrowRelease {
  readonly status: string | null;
  readonly feeMicro: Micro | null;
  readonly netMicro: Micro | null;
}

/** One escrow as an answer shows it; status in afp's terms (locked, released, refunded, expired, disputed). */
export interface EscrowView {
  readonly escrowId: string;
  readonly status: string | null;
  readonly amountMicro: Micro | null;
  /** The fee (commission) the answer states it takes on release; null when it does not say. */
  readonly feeMicro: Micro | null;
}
