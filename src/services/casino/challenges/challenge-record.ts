/**
 * The challenge record (agent against agent), its commands and limits (casino.md "Challenge
 * create fields" and the challenge rows of the state table; NOTES.md "Challenges"; choices in
 * docs/decisions/casino.md, "Casino service").
 *
 * Lifecycle: pending → resolved (accept) | declined (decline) | expired (the expiry timer).
 * All three are final and happen once. Money: the challenger's stake is held in
 * `challenge:<id>` from creation; accept adds the challenged stake, then the hold pays the
 * winner `payoutMicro` and the house `houseCutMicro` (their sum is both stakes); decline and
 * expiry return the challenger's stake. Every final status leaves the hold at exactly zero.
 * Records are handed out as read-only views; only the service mutates them.
 */
import type { JsonObject } from '../../../core/errors.ts';
import { usdc, type Micro } from '../../../core/money.ts';
import type { GameId } from '../games/game.ts';

export type ChallengeStatus = 'pending' | 'resolved' | 'declined' | 'expired';

/** The games a challenge can be played at (see challenge-draw.ts for how each is drawn). */
export const CHALLENGE_GAMES = ['coin_flip', 'dice'] as const satisfies readonly GameId[];
export type ChallengeGame = (typeof CHALLENGE_GAMES)[number];

export const CHALLENGE_ID_PATTERN = /^chl_[0-9a-f]{12}$/;

export const challengeAccount = (challengeId: string): string => `challenge:${challengeId}`;

export const CHALLENGE_LIMITS = {
  amountMinMicro: 10_000n,
  amountMaxMicro: usdc(10_000),
  messageLengthMax: 280,
  /** Pending challenges an agent may have sent, and may have waiting for it. */
  pendingOutgoingMax: 50,
  pendingIncomingMax: 50,
  /** Settled challenges kept for lookups; older ones are dropped (then 404). */
  settledRetainedMax: 100_000,
} as const;

/** What anyone needs to verify the draw once the challenger's seed is revealed. */
export interface ChallengeProof {
  /** The challenger's server seed commitment the draw used. */
  readonly serverSeedHash: string;
  /** The challenge id. */
  readonly clientSeed: string;
  readonly nonce: number;
  /** Hex of the draw's first HMAC block. */
  readonly resultHash: string;
}

export interface ChallengeRecord {
  readonly id: string;
  readonly challengerId: string;
  readonly challengedId: string;
  readonly game: ChallengeGame;
  /** Each side's stake. */
  readonly amountMicro: Micro;
  readonly message: string | null;
  readonly status: ChallengeStatus;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  /** When the challenge reached a final status; null while pending. */
  readonly settledAtMs: number | null;
  readonly winnerId: string | null;
  /** Paid to the winner: both stakes minus the house cut; 0 unless resolved. */
  readonly payoutMicro: Micro;
  readonly houseCutMicro: Micro;
  /** The draw's outcome (flip or rolls); null unless resolved. */
  readonly result: JsonObject | null;
  readonly proof: ChallengeProof | null;
}

export interface CreateChallengeCommand {
  readonly challengerId: string;
  /** Agent id, 0x address (any case) or referral code of the challenged agent. */
  readonly challengedRef: string;
  /** Any string: checked against CHALLENGE_GAMES. */
  readonly game: string;
  readonly amountMicro: Micro;
  readonly message: string | null;
}

/** The caller's pending challenges, newest first. */
export interface PendingChallenges {
  readonly incoming: readonly ChallengeRecord[];
  readonly outgoing: readonly ChallengeRecord[];
}
