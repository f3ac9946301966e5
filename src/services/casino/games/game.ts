/**
 * GameModule: what one casino game is, as data plus pure functions, shared by the casino service,
 * the Kelly rule, the house-edge audit and the docs.
 *
 * A game never sees money, time, agents or HTTP: it parses its own parameters, turns a stream of
 * provably fair draws into a result and a total-return multiplier (stake included: 0 is a loss,
 * 1 a push, 1.96 a coin-flip win), and states the exact distribution of that multiplier for any
 * parameters. The distribution is the single source of the theoretical house edge
 * (1 − E[multiplier]) and of the Kelly inputs (p = P(multiplier > 1), payout = E[multiplier |
 * multiplier > 1]); a law test checks that `play` samples it.
 *
 * Invariants: `play` is a pure function of (params, draws); every multiplier is a Ratio ≥ 0; the
 * distribution's probabilities are exact and sum to 1; every variant's edge is positive (no agent
 * strategy beats the house).
 */
import type { Outcome, JsonObject } from '../../../core/errors.ts';
import type { Ratio } from '../../../core/ratio.ts';

export const GAME_IDS = [
  'coin_flip',
  'dice',
  'simple_dice',
  'multiplier',
  'roulette',
  'custom',
  'blackjack',
  'crash',
  'plinko',
  'slots',
  'hilo',
  'keno',
  'scratch_card',
  'video_poker',
  'wheel',
  'mines',
  'baccarat',
] as const;
export type GameId = (typeof GAME_IDS)[number];

/** The core games: house edge 0.5% per casino.md. */
export const CORE_GAME_IDS: readonly GameId[] = ['coin_flip', 'dice', 'multiplier', 'roulette', 'custom', 'crash'];

/** The subset of DrawStream a game may use (src/services/casino/fair/draw-stream.ts). */
export interface Draws {
  uint32(): number;
  /** Uniform integer in [0, n), no modulo bias. */
  int(n: number): number;
  /** Uniform integer in [0, 2^52). */
  fraction52(): bigint;
  /** k distinct values of [0, n) in draw order. */
  sample(n: number, k: number): number[];
}

export interface GameResult {
  /** Total return per unit staked (stake included). */
  readonly multiplier: Ratio;
  /** Game-specific detail for the bet response and the audit trail (roll, cards, reels…). */
  readonly detail: JsonObject;
}

/** One outcome class of the exact distribution. */
export type Chance = readonly [probability: Ratio, multiplier: Ratio];

export interface GameVariant<P> {
  /** Stable key, e.g. "dice:over:50", "plinko:16:high", "coin_flip". */
  readonly name: string;
  readonly params: P;
}

export interface GameModule<P = unknown> {
  readonly id: GameId;
  readonly name: string;
  /** Style A path below /api/v1/games/ (e.g. "coin-flip"); video poker's is "video-poker". */
  readonly path: string;
  /** The edge casino.md states, exactly as printed ("0.5%", "about 2%", "player 1.24%"). */
  readonly advertisedEdgeText: string;
  /** That edge as a number for the audit, or null where the documents state none for a variant. */
  advertisedEdge(params: P): Ratio | null;
  readonly minBetMicro: bigint;
  readonly maxBetMicro: bigint;
  /** Body fields besides amount and client_seed; any other field is refused. */
  readonly paramFields: readonly string[];
  /** Validates the parameters (400 BAD_REQUEST failures naming the field); nothing else. */
  parse(params: Readonly<Record<string, unknown>>): Outcome<P>;
  play(params: P, draws: Draws): GameResult;
  /** Exact distribution of the multiplier for these parameters; probabilities sum to 1. */
  distribution(params: P): readonly Chance[];
  /** The named parameter sets the audit and GET /kelly/limits cover; the first is the default. */
  variants(): ReadonlyArray<GameVariant<P>>;
  variantName(params: P): string;
}
