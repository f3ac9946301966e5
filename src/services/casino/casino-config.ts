/**
 * CasinoConfig: every number of the casino's rules in one place (STYLE rule 7). Values come from
 * spec/casino.md and NOTES.md; where both are silent the choice is in docs/decisions/casino.md
 * ("Casino"). Scenarios may override any of them through PlatformConfig.
 */
import { usdc, type Micro } from '../../core/money.ts';
import type { DeployedCasinoRules } from './deployed/deployed-casino-rules.ts';

export interface CasinoConfig {
  /** The house bankroll, moved from `external` into `casino-house` at genesis. */
  readonly houseFundingMicro: Micro;
  /** Nonces per server seed before it is retired and revealed. */
  readonly rotateAfterNonces: number;
  /** The Kelly risk factor of an agent that never set one, as a percentage (25 = 0.25). */
  readonly kellyRiskPercentDefault: number;
  readonly batchMax: number;
  readonly withdraw: {
    readonly minimumMicro: Micro;
    readonly feeMicro: Micro;
    /** Withdrawals above this wait in `pending_review`. */
    readonly reviewAboveMicro: Micro;
    /** How long a review takes on the clock before the withdrawal completes. */
    readonly reviewMs: number;
  };
  /** Referral commission per level of the referred agent's net losses, in basis points. */
  readonly referralLevelsBps: readonly bigint[];
  /** The house's cut of a challenge's two stakes, in basis points. */
  readonly challengeCutBps: bigint;
  /** Pending challenges expire (challenger refunded) after this long. */
  readonly challengeExpiryMs: number;
  /** Tournament prize shares of ranks 1, 2, 3, in basis points. */
  readonly tournamentPrizeBps: readonly bigint[];
  /** Lists and histories: bounds. */
  readonly historyLimitDefault: number;
  readonly historyLimitMax: number;
  readonly kellyHistoryMax: number;
  readonly leaderboardSize: number;
  /** Video-poker hands dealt but not drawn, per agent; the oldest is dropped beyond it. */
  readonly pendingHandsMax: number;
  /**
   * The deployed dialect's game rules (`afp serve --dialect deployed --rules FILE`); absent: the
   * published ones (deployed/deployed-casino-rules.ts). afp's own rules never read it.
   */
  readonly deployedRules?: DeployedCasinoRules;
}

export const DEFAULT_CASINO_CONFIG: CasinoConfig = {
  houseFundingMicro: usdc(1_000_000_000),
  rotateAfterNonces: 1_000,
  kellyRiskPercentDefault: 25,
  batchMax: 20,
  withdraw: {
    minimumMicro: usdc(1),
    feeMicro: 500_000n,
    reviewAboveMicro: usdc(1_000),
    reviewMs: 24 * 3_600_000,
  },
  referralLevelsBps: [1_000n, 500n, 250n],
  challengeCutBps: 200n,
  challengeExpiryMs: 24 * 3_600_000,
  tournamentPrizeBps: [6_000n, 3_000n, 1_000n],
  historyLimitDefault: 20,
  historyLimitMax: 100,
  kellyHistoryMax: 500,
  leaderboardSize: 10,
  pendingHandsMax: 16,
};
