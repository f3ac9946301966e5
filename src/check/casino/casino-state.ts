/**
 * The casino part of `afp check`'s model state (check-model.ts): per agent its seeds and draws,
 * the run's bets, tournaments, challenges, withdrawals and deposits, as the wire showed them.
 * Only the state and its empty start: the rules that move it are in model-casino*.ts. Its own
 * file so that the whole model's state (check-model.ts) names it without importing the rules,
 * which take the whole model.
 */
import type { JsonValue } from '../../core/errors.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { ModelGameChoice } from './model-casino-games.ts';
import type { ChallengeStatus } from '../../services/casino/challenges/challenge-record.ts';

export interface ModelSeed {
  /** The commitment (SHA-256 of the text); null until an answer names it. */
  hash: string | null;
  /** The seed text, once revealed (null for a seed retired by the 1,000-nonce rule: never shown to the model). */
  hex: string | null;
  revealed: boolean;
  nonces: number;
}

export interface ModelCasinoAgent {
  /** Oldest first; the last one is active. Empty until the casino first needs one. */
  readonly seeds: ModelSeed[];
  riskPercent: number;
  netLossMicro: bigint;
  highWaterMicro: bigint;
  readonly paidMicro: bigint[];
  /** Client seeds this agent sent (they name the bets: ck<slot>-<n>). */
  clientSeedsSent: number;
}

export interface ModelBet {
  readonly id: string;
  readonly slot: number;
  readonly choice: ModelGameChoice;
  readonly amountMicro: bigint;
  readonly multiplier: Ratio;
  readonly payoutMicro: bigint;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly seed: ModelSeed;
  /** The answer's `result` (game detail), replayed once the seed is revealed. */
  readonly detail: JsonValue | undefined;
  /** Block 0's HMAC hex as answered (style A); null when the style does not show it. */
  readonly resultHash: string | null;
  readonly atMs: number;
  /** Where it was placed, for messages: "bet#3 (coin_flip heads, nonce 2)". */
  readonly label: string;
}

export interface ModelEntrant {
  readonly slot: number;
  readonly enteredAtMs: number;
  scoreMicro: bigint;
  plays: number;
  wageredMicro: bigint;
  returnedMicro: bigint;
}

export interface ModelTournament {
  readonly id: string;
  readonly creatorSlot: number;
  readonly name: string;
  readonly game: 'coin_flip' | 'dice';
  readonly entryFeeMicro: bigint;
  readonly fundedMicro: bigint;
  poolMicro: bigint;
  readonly maxAgents: number;
  readonly startsAtMs: number;
  readonly endsAtMs: number;
  readonly createdAtMs: number;
  readonly entrants: ModelEntrant[];
  completedAtMs: number | null;
  prizes: { readonly rank: number; readonly slot: number; readonly amountMicro: bigint }[];
}

export interface ModelChallenge {
  readonly id: string;
  readonly challengerSlot: number;
  readonly challengedSlot: number;
  readonly game: 'coin_flip' | 'dice';
  readonly amountMicro: bigint;
  readonly message: string | null;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  status: ChallengeStatus;
  settledAtMs: number | null;
  winnerSlot: number | null;
  /** Set at accept: the challenger's seed and nonce the draw used, and the answered outcome. */
  draw: {
    readonly seed: ModelSeed;
    readonly nonce: number;
    readonly result: JsonValue | undefined;
    readonly resultHash: string | null;
  } | null;
}

export interface ModelWithdrawal {
  readonly id: string;
  readonly slot: number;
  readonly address: string;
  readonly amountMicro: bigint;
  readonly createdAtMs: number;
  readonly reviewEndsAtMs: number | null;
  completedAtMs: number | null;
}

export interface ModelDeposit {
  readonly slot: number;
  readonly amountMicro: bigint;
  readonly creditAtMs: number;
  credited: boolean;
}

export interface CasinoModel {
  readonly agents: Map<number, ModelCasinoAgent>;
  readonly bets: ModelBet[];
  readonly tournaments: ModelTournament[];
  readonly challenges: ModelChallenge[];
  readonly withdrawals: ModelWithdrawal[];
  readonly deposits: ModelDeposit[];
}

export function createCasinoModel(): CasinoModel {
  return { agents: new Map(), bets: [], tournaments: [], challenges: [], withdrawals: [], deposits: [] };
}
