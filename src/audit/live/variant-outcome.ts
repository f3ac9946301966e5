/**
 * Each variant's outcome of a live house-edge audit: its tallies (variant-track.ts) judged in their
 * tier (edge-verdict.ts) against the word that applies to it. Why a file of its own: which word a
 * variant is held to is a decision of its own, read from the target, never recited:
 *   - afp's own platform (a scheme whose documents advertise): the documents' figure;
 *   - any other target: the edge its answers state (`house_edge_pct`), else the edge its game list
 *     publishes for the variant (listed-words.ts: a keyed statement naming it, else the game's).
 * A figure stated once for the whole game (the same on every answer of the game, or the list's
 * unkeyed one) is also read as the game's (game-statement.ts). Both of the target's words, and the
 * payout its list states, are kept for listed-findings.ts, which holds them against each other and
 * against what was paid.
 */
import type { SprtDecision, SprtDirection } from '../edge/sprt.ts';
import type { DrawStatement, FairnessScheme, KeptBet, RestatedRule } from '../fairness/scheme.ts';
import type { PayoutStatement } from '../fairness/published-prose.ts';
import type { PlannedVariant } from './edge-plan.ts';
import { judgeVariant, type AdvertisedEdge, type VariantVerdict } from './edge-verdict.ts';
import type { TierTrack } from './edge-tier.ts';
import type { StatedChance } from './stated-chance.ts';
import { readAsGame, type GameReading } from './game-statement.ts';
import { uniformStatements, type BetSample, type PaidTally, type VariantTrack } from './variant-track.ts';
import { listedEdge, listedPayout, type ListedWords } from './listed-words.ts';

/** The target's own words about one variant. */
export interface TargetWords {
  /** The edge its answers state most often (`house_edge_pct`). */
  readonly answers: AdvertisedEdge | null;
  /** The edge its game list publishes for the variant. */
  readonly list: AdvertisedEdge | null;
  /** The payout its game list publishes for the variant (one multiplier, or an example naming it). */
  readonly listPayout: PayoutStatement | null;
  /** The multipliers its won bets were paid. */
  readonly paid: PaidTally;
}

export interface VariantOutcome {
  readonly variant: PlannedVariant;
  /** The variant's first verified bet: the representative request of its aggregate findings (an edge); null when none verified. */
  readonly sample: BetSample | null;
  readonly placed: number;
  readonly verified: number;
  /** Verified bets that followed the published rule whole: its draw mapping and its payouts. */
  readonly followedRule: number;
  /** Verified bets whose outcome followed the published draw mapping (payouts aside), and those whose did not. */
  readonly followedMapping: number;
  readonly brokeMapping: number;
  /** Verified bets whose answer contradicts itself (its result states a win its `won` flag denies, or the reverse), with the first as an example. */
  readonly contradicting: number;
  readonly contradictingExample: string | null;
  /** The tier's evidence: examples of mapping and payout differences, and the outcome classes seen. */
  readonly tier: TierTrack;
  readonly refused: number;
  /** Whose advertisement the verdict judged: the documents' (afp's scheme), the target's own (its answers' or its game list's), or none. */
  readonly advertisedBy: 'documents' | 'target' | null;
  /** The target's own words for the variant, each where it was read (listed-words.ts); absent where none was read. */
  readonly words?: TargetWords;
  /** The rule its answers state, where its bets left the published one (FairnessScheme.restate); null or absent where none. */
  readonly restated?: RestatedRule | null;
  /** Its game's draw as the answers of all its variants show it (FairnessScheme.measureDraw); null or absent where none. */
  readonly draw?: DrawStatement | null;
  readonly verdict: VariantVerdict;
  /** The game's reading of a figure its answers state once for the whole game (game-statement.ts); null where only the variant's applies. */
  readonly gameReading?: GameReading | null;
  /** The chance of winning its answers stated most often (stated-chance.ts); null or absent where none. */
  readonly statedChance?: StatedChance | null;
  /** The returns against the rule's exact edge, one point either way (α = 1% over the audit's variants, β = 1%); null without a law or outside the published tier. */
  readonly sprt: {
    readonly decision: SprtDecision;
    readonly direction: SprtDirection | null;
    readonly bets: number;
  } | null;
}

const NEGLIGIBLE_EDGE = 1e-9;

/** The target plays the documents' own payout table here: an edge that misses the advertised one is the documents' contradiction, not the target's defect. */
export function isDocumentsOwn(outcome: VariantOutcome): boolean {
  const exact = outcome.verdict.exactEdge;
  const documents = outcome.variant.documentsEdge;
  return exact !== null && documents !== null && Math.abs(exact - documents) <= NEGLIGIBLE_EDGE;
}

export interface OutcomeInput {
  readonly scheme: FairnessScheme;
  readonly plan: readonly PlannedVariant[];
  readonly tracks: readonly VariantTrack[];
  /** The target's game list words; null where it publishes none afp reads. */
  readonly listed: ListedWords | null;
}

/** The word a variant is held to, who said it, and whether it speaks for the whole game. */
function heldTo(
  input: OutcomeInput,
  variant: PlannedVariant,
  words: TargetWords,
  uniform: ReadonlySet<string>,
): { readonly own: AdvertisedEdge | null; readonly by: VariantOutcome['advertisedBy']; readonly gameWide: boolean } {
  if (input.scheme.documentsAdvertise === true)
    return { own: variant.advertised, by: variant.advertised === null ? null : 'documents', gameWide: false };
  if (words.answers !== null) return { own: words.answers, by: 'target', gameWide: uniform.has(variant.game) };
  const listed = listedEdge(input.listed, variant.game, variant.params);
  return listed === null
    ? { own: null, by: null, gameWide: false }
    : { own: listed.advertised, by: 'target', gameWide: listed.gameWide };
}

/**
 * The rule a variant's answers state, tried where its bets left the published rule (payouts or
 * mapping): a payout knob their shown multipliers or stated chance give, that every kept bet follows.
 */
function restatedRule(
  scheme: FairnessScheme,
  variant: PlannedVariant,
  track: VariantTrack,
  gameKept: readonly KeptBet[],
): RestatedRule | null {
  if (scheme.restate === undefined || track.tier.source().source === 'published') return null;
  return scheme.restate(variant.game, variant.params, track.replays, gameKept);
}

/** Every kept bet of each game, over its variants: what a game-level draw is measured on. */
function keptByGame(plan: readonly PlannedVariant[], tracks: readonly VariantTrack[]): Map<string, KeptBet[]> {
  const byGame = new Map<string, KeptBet[]>();
  for (const [index, variant] of plan.entries())
    byGame.set(variant.game, [...(byGame.get(variant.game) ?? []), ...(tracks[index]?.replays ?? [])]);
  return byGame;
}

/** Every planned variant's outcome, in plan order. */
export function judgeOutcomes(input: OutcomeInput): VariantOutcome[] {
  const family = Math.max(1, input.plan.length);
  const uniform = uniformStatements(input.plan, input.tracks);
  const kept = keptByGame(input.plan, input.tracks);
  return input.plan.map((variant, index) => {
    const track = input.tracks[index] as VariantTrack;
    const words: TargetWords = {
      answers: track.ownAdvertised(),
      list: listedEdge(input.listed, variant.game, variant.params)?.advertised ?? null,
      listPayout: listedPayout(input.listed, variant.game, variant.params),
      paid: track.paid,
    };
    const held = heldTo(input, variant, words, uniform);
    const restated = restatedRule(input.scheme, variant, track, kept.get(variant.game) ?? []);
    const judged = judgeVariant({
      law: restated?.law ?? input.scheme.law(variant.game, variant.params),
      restated,
      advertised: held.own,
      tally: track.tally,
      tier: track.tier,
      family,
    });
    // A figure the target states once for the whole game is also read as the game's (game-statement.ts).
    const { verdict, reading } =
      held.by === 'target' && held.gameWide
        ? readAsGame(input.scheme, variant, judged)
        : { verdict: judged, reading: null };
    const draw = input.scheme.measureDraw?.(variant.game, kept.get(variant.game) ?? []) ?? null;
    return { ...outcomeOf(variant, track, { advertisedBy: held.by, verdict, reading, words, restated }), draw };
  });
}

function outcomeOf(
  variant: PlannedVariant,
  track: VariantTrack,
  judged: {
    readonly advertisedBy: VariantOutcome['advertisedBy'];
    readonly verdict: VariantVerdict;
    readonly reading: GameReading | null;
    readonly words: TargetWords;
    readonly restated: RestatedRule | null;
  },
): VariantOutcome {
  const { verdict } = judged;
  const sprt =
    track.sprt === null || verdict.edgeSource !== 'published'
      ? null
      : { decision: track.sprt.decision(), direction: track.sprt.direction(), bets: track.sprt.bets };
  return {
    variant,
    sample: track.sample,
    placed: track.placed,
    verified: track.verified,
    followedRule: track.followedRule,
    followedMapping: track.tier.mapped,
    brokeMapping: track.tier.broke,
    contradicting: track.contradicting,
    contradictingExample: track.contradictingExample,
    tier: track.tier,
    refused: track.refused,
    advertisedBy: judged.advertisedBy,
    words: judged.words,
    restated: judged.restated,
    verdict,
    gameReading: judged.reading,
    statedChance: track.chances.mostStated(),
    sprt,
  };
}
