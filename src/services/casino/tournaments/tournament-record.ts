/**
 * The tournament record, its entrants, the commands of the tournament operations and their
 * limits (casino.md "Tournament create fields"; NOTES.md "Tournaments"; choices in
 * docs/decisions/casino.md, "Casino service").
 *
 * Lifecycle: upcoming → active (at `startsAtMs`) → completed (at `endsAtMs`, prizes paid). A
 * tournament created with `startsAtMs` = now starts active. Money: the creator's prize pool and
 * every entry fee sit in the hold `tournament:<id>`; `prizePoolMicro` always equals that hold
 * until completion, when the hold is paid out to exactly zero (`prizes` + `creatorReturnMicro`
 * = the pool). Records are handed out as read-only views; only the service mutates them.
 */
import type { DeployedCasinoRules } from '../deployed/deployed-casino-rules.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { usdc, type Micro } from '../../../core/money.ts';
import type { GameId, GameModule } from '../games/game.ts';

export type TournamentStatus = 'upcoming' | 'active' | 'completed';

export const TOURNAMENT_ID_PATTERN = /^tnm_[0-9a-f]{12}$/;

export const tournamentAccount = (tournamentId: string): string => `tournament:${tournamentId}`;

const DAY_MS = 24 * 3_600_000;

export const TOURNAMENT_LIMITS = {
  nameLengthMax: 64,
  entryFeeMaxMicro: usdc(10_000),
  prizePoolMinMicro: 10_000n,
  prizePoolMaxMicro: usdc(1_000_000),
  maxAgentsMin: 2,
  maxAgentsMax: 1_000,
  durationMaxMs: 30 * DAY_MS,
  /** How far ahead a tournament may be scheduled to start. */
  startsWithinMs: 30 * DAY_MS,
  /** Upcoming and active tournaments, platform-wide and per creator. */
  openMax: 1_000,
  openPerCreatorMax: 20,
  /** Completed tournaments kept for details; older ones are dropped (then 404). */
  completedRetainedMax: 10_000,
  listLimitDefault: 50,
  listLimitMax: 1_000,
} as const;

export interface TournamentEntrant {
  readonly agentId: string;
  readonly enteredAtMs: number;
  readonly entryFeeMicro: Micro;
  /** Net winnings of tournament plays: Σ payout − Σ stake (may be negative). */
  readonly scoreMicro: Micro;
  readonly plays: number;
  readonly wageredMicro: Micro;
  /** Σ payout (total return, stakes included). */
  readonly returnedMicro: Micro;
}

export interface RankedEntrant extends TournamentEntrant {
  /** 1-based: score desc, then earlier entry, then agent id. */
  readonly rank: number;
}

export interface TournamentPrize {
  readonly rank: number;
  readonly agentId: string;
  readonly amountMicro: Micro;
}

export interface TournamentRecord {
  readonly id: string;
  readonly creatorId: string;
  readonly name: string;
  readonly game: GameId;
  readonly entryFeeMicro: Micro;
  /** What the creator funded at creation. */
  readonly fundedMicro: Micro;
  /** The pool: funded + entry fees so far (= the hold until completion). */
  readonly prizePoolMicro: Micro;
  readonly maxAgents: number;
  readonly entrantCount: number;
  readonly startsAtMs: number;
  readonly endsAtMs: number;
  readonly createdAtMs: number;
  readonly status: TournamentStatus;
  readonly completedAtMs: number | null;
  /** Paid at completion, rank order; empty before. */
  readonly prizes: readonly TournamentPrize[];
  /** Shares of missing ranks returned to the creator at completion (0 before). */
  readonly creatorReturnMicro: Micro;
}

export interface TournamentDetails {
  readonly tournament: TournamentRecord;
  readonly leaderboard: readonly RankedEntrant[];
}

export interface CreateTournamentCommand {
  readonly creatorId: string;
  readonly name: string;
  /** Any string: checked against GAME_IDS. */
  readonly game: string;
  readonly entryFeeMicro: Micro;
  readonly prizePoolMicro: Micro;
  readonly maxAgents: number;
  readonly startsAtMs: number;
  readonly endsAtMs: number;
}

export interface TournamentPlayCommand<P = unknown> {
  readonly agentId: string;
  readonly tournamentId: string;
  /** The game module the request named, with its parameters already parsed by it. */
  readonly game: GameModule<P>;
  readonly params: P;
  readonly paramsJson: JsonObject;
  readonly amountMicro: Micro;
  readonly clientSeed: string | null;
  /** The deployed dialect's engine and rules (place-bet.ts), when the play is one of its bets. */
  readonly deployedRules?: DeployedCasinoRules;
}
