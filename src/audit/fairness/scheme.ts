/**
 * FairnessScheme: how one casino target turns (server seed, client seed, nonce) into outcomes and
 * payouts, as the target publishes it. Verification is pluggable: afp's own scheme (docs/fairness.md:
 * HMAC blocks with a cursor, unbiased mapping, the documents' payout tables) and the deployed one
 * (spec/DEPLOYED.md §2.3–§2.5: `parseInt(hash[0..8], 16) % 10000 / 100` rolls, sub-draw suffixes,
 * extra nonces, the deployment's payout tables). Payout tables and draw mappings are data of the
 * scheme, so the audit's exact edge of a target comes from the same rules its bets are checked by.
 *
 * A scheme checks four things for every bet, separately, so that an audit can say which one failed:
 *   1. the commitment: SHA-256 of the revealed seed's hex text is the bet's `server_seed_hash`;
 *   2. the result hash: the recorded `result_hash` is the scheme's first HMAC of (client seed, nonce);
 *   3. the outcome follows the scheme's rule for the game and the parameters sent;
 *   4. the amount paid is the stake times the rule's multiplier (as the scheme rounds it).
 * A bet whose hashes verify but whose outcome or payout differs is a rule finding, never "unfair".
 * Non-goals: fetching anything; deciding severities (the audits do).
 */
import type { JsonObject, JsonValue } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';

export const FAIRNESS_SCHEME_NAMES = ['afp', 'deployed'] as const;
export type FairnessSchemeName = (typeof FAIRNESS_SCHEME_NAMES)[number];

/** One bet as read off the wire (through the target's dialect), with the parameters that were sent. */
export interface SchemeBet {
  readonly betId: string;
  /** The game as afp names it (GameId: coin_flip, dice, … video_poker). */
  readonly game: string;
  /** The game's parameters as sent (without amount and client_seed). */
  readonly params: JsonObject;
  readonly amountMicro: Micro;
  /** The gross return credited (stake included); null when the answer does not say. */
  readonly paidMicro: Micro | null;
  /** The decimals the answer rounds `paidMicro` to (a display field); absent or null: shown exactly. */
  readonly paidPlaces?: number | null;
  /** The recorded total-return multiplier as the wire shows it; null when absent. */
  readonly multiplier: number | null;
  /** The answer's win flag; absent or null when it shows none (a display credit rounded to 0 is a win's only by it). */
  readonly won?: boolean | null;
  /** The recorded `result` object. */
  readonly result: JsonValue;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly seedHash: string;
  readonly resultHash: string;
}

/** A verified bet and its revealed seed: what a candidate rule is replayed against. */
export interface KeptBet {
  readonly bet: SchemeBet;
  readonly seedHex: string;
}

export interface RestatedRule {
  /** The exact law of the variant under the restated rule. */
  readonly law: readonly Chance[];
  /** The rule as the answers state it: `dice edge factor 0.97`. */
  readonly text: string;
  /** The bets that followed it (all the caller kept). */
  readonly bets: number;
}

/** A game's draw as its answers show it: a summary, and whether it is the draw its answers and documents state. */
export interface DrawStatement {
  readonly summary: string;
  readonly asStated: boolean;
  readonly expected: string;
}

/** One leg of a bet made of several draws (FairnessScheme.legsOf). */
export interface SchemeLeg {
  readonly game: string;
  readonly result: JsonValue;
  readonly nonce: number;
  readonly clientSeed: string;
  /** The leg's path in the bet's `result` (`legs[1]`): its field differences are named under it. */
  readonly path: string;
  /** Its client seed is a guess the leg does not state (deployed parlay-legs.ts): a differing draw proves nothing. */
  readonly seedUnstated?: boolean;
}

export interface FieldDifference {
  /** A path into `result`, e.g. `roll`, `reels[1]`. */
  readonly field: string;
  readonly recorded: JsonValue;
  readonly recomputed: JsonValue;
}

export type Check =
  | { readonly status: 'ok' }
  | { readonly status: 'failed'; readonly detail: string }
  | { readonly status: 'not-checked'; readonly reason: string };

export interface SchemeVerdict {
  readonly commitment: Check;
  readonly resultHash: Check;
  readonly outcome: Check & { readonly differences?: readonly FieldDifference[] };
  readonly payout: Check & { readonly dueMicro?: Micro };
  /** The rule's total-return multiplier for this bet, or null where it could not be replayed. */
  readonly multiplier: Ratio | null;
}

/** A named parameter set of a game (the audit plays each). */
export interface SchemeVariant {
  readonly name: string;
  readonly params: JsonObject;
}

export interface SchemeGame {
  readonly game: string;
  readonly variants: readonly SchemeVariant[];
}

export interface FairnessScheme {
  readonly name: FairnessSchemeName;
  /** The games this scheme can replay, with the variants it has an exact law for. */
  games(): readonly SchemeGame[];
  /** Checks one bet against its revealed server seed (64 lowercase hex). */
  verify(bet: SchemeBet, serverSeedHex: string): SchemeVerdict;
  /** The exact distribution of the total-return multiplier; null where the scheme knows none. */
  law(game: string, params: JsonObject): readonly Chance[] | null;
  /**
   * The rule a variant's answers state where its bets left the published one (a payout knob read
   * from the shown multipliers, won or lost, or from a stated chance), checked against every kept
   * bet, with its exact law; null where no stated rule explains them all (deployed/restated-rule.ts).
   */
  restate?(
    game: string,
    params: JsonObject,
    kept: readonly KeptBet[],
    gameKept: readonly KeptBet[],
  ): RestatedRule | null;
  /**
   * What the answers of a game's kept bets show of its draw, where the scheme measures one (keno:
   * how many numbers a bet draws, and whether each number is drawn alike); null where it does not.
   */
  measureDraw?(game: string, gameKept: readonly KeptBet[]): DrawStatement | null;
  /**
   * The parameters a bet was placed with, read back from its recorded `result` (the parameter
   * echoes the scheme's rule writes there), for audit answers that do not carry the parameters
   * (the deployment's). Null when the result does not name them all: the bet's outcome and payout
   * are then not checked. The echoes cannot show what the player sent, only what was played.
   */
  paramsOf?(game: string, result: JsonValue): JsonObject | null;
  /**
   * The shared round a bet belongs to, for schemes where the bets of one round draw the round's
   * one (seed, nonce) by design (afp's short-style crash rounds); null for a bet with its own draw.
   * Bets of one round sharing a nonce are no reuse.
   */
  roundOf?(bet: SchemeBet): string | null;
  /**
   * The top-level `result` fields of a game that state a payout rather than a draw (keno's
   * `payout_multiplier`, the wheel's `multiplier`): a target that changes its payouts changes these,
   * not its draw mapping, and the live house-edge audit tells the two apart by them (edge-tier.ts).
   * `payout_multiplier` always counts as one; absent: no other.
   */
  payoutFields?(game: string): readonly string[];
  /**
   * The top-level `result` fields a game's payout rule derives from the draw (the deployed crash
   * point: the roll through an edge factor a deployment may change). A bet whose draw fields match
   * and whose differences are all here or in the payout fields follows a changed payout rule: the
   * fairness audit's rule finding on the payout, not a draw that breaks the rule. The house-edge
   * audit still counts them as mapping fields (the outcome classes move with them). Absent: none.
   */
  ruleFields?(game: string): readonly string[];
  /**
   * Whether the documents (casino.md) are this scheme's own advertisement (afp's platform): its
   * edges are then judged against the documents' figures. Absent: a target of this scheme
   * advertises only what its own answers state (statedEdgeOf), and the documents' figures are info.
   */
  readonly documentsAdvertise?: boolean;
  /**
   * The edge a bet answer states about its own game (the deployment's `house_edge_pct`), as a
   * fraction; null where it states none. What the target advertises, read through its dialect.
   */
  statedEdgeOf?(game: string, result: JsonValue): number | null;
  /**
   * The chance of winning a bet answer states about itself (the deployment's `win_probability`), as
   * the number written; null where it states none. Judged against the rule's law (stated-chance.ts).
   */
  statedChanceOf?(game: string, result: JsonValue): number | null;
  /**
   * The parameter sets a player chooses among in a game whose answers state ONE figure for the
   * whole game (deployed simple_dice: pick 1–6 under one `house_edge_pct`): that figure can mean
   * the game's edge, the mean over these choices, as well as the variant's own (edge-audit.ts
   * judges it by the more charitable reading). Absent or fewer than two: only the variant's reading.
   */
  gameChoices?(game: string): readonly JsonObject[];
  /**
   * The top-level `result` fields of a game that record the committed draw itself (the deployed
   * `roll`), not an outcome derived from it under a rule: a recorded draw other than the one the
   * revealed seeds give, where the game's other bets record it exactly, is no rule but a result that
   * is not the committed draw (draw-agreement.ts). Absent: not judged.
   */
  drawFields?(game: string): readonly string[];
  /**
   * The draws a bet is made of where it is several (a deployed parlay's legs, each its own game on
   * its own nonce): each leg's game, recorded result, nonce, client seed and path in `result`. The
   * audits judge each leg's draw fields as a bet of its game (draw-agreement.ts) and each leg's nonce
   * as drawn (a parlay's stored nonce draws nothing). Absent or null: the bet is one draw.
   */
  legsOf?(bet: SchemeBet): readonly SchemeLeg[] | null;
  /**
   * The win a bet's own result states by the game's win condition as the answer writes it (the
   * outcome is the side chosen), whatever the draw mapping; null where it names too little. A bet
   * whose `won` says otherwise contradicts itself: its draw breaks the rule whatever rule the target
   * may have changed to. Absent: not judged.
   */
  shownWin?(game: string, result: JsonValue): boolean | null;
  /**
   * Where a bet's answer contradicts itself: the facts its result states (cells, cards, counts, the
   * number drawn, its own payout table) against the outcome and payout the same answer gives, in
   * words naming the fields; null where it does not (or names too little). No changed rule explains
   * such an answer. Absent: not judged.
   */
  answerContradiction?(bet: SchemeBet): string | null;
  /**
   * The games whose answerContradiction reads facts no encoding changes (a roulette number's colour):
   * each contradiction is a lie on its own, without the game's other answers to show afp reads the
   * target's encoding (audit/live/answer-consistency.ts). Absent: none.
   */
  readonly encodingFreeGames?: ReadonlySet<string>;
  /**
   * The minimum bet a target of this scheme publishes for every game (the deployment's 0.01,
   * DEPLOYED.md §2.4), where the live house-edge audit plans its stakes; absent: each game's own
   * minimum in afp's game modules. Either way a target that refuses it states its own, which is
   * then measured (live/stated-minimum.ts).
   */
  readonly publishedMinimumMicro?: bigint;
}
