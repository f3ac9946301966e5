/**
 * One game variant's tallies over a live house-edge audit (edge-audit.ts): its returns, its tier
 * evidence (edge-tier.ts), the SPRT against its rule's exact edge, the edges and chances its answers
 * state, and the multipliers its won bets were paid. Why a file of its own: the audit places and
 * verifies bets; what one variant accumulates, and how its own word is read back, is one concept.
 * Limits: at most MAX_STATED stated edges and PAID_MAX paid multipliers per variant.
 */
import { ratioToNumber, ratioText, type Ratio } from '../../core/ratio.ts';
import { ReturnTally } from '../edge/edge-statistics.ts';
import { Sprt, SPRT_DEFAULT_ERROR } from '../edge/sprt.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import type { PlannedVariant } from './edge-plan.ts';
import type { AdvertisedEdge } from './edge-verdict.ts';
import { lawTheory } from './law-theory.ts';
import { StatedChanceTally } from './stated-chance.ts';
import { TierTrack } from './edge-tier.ts';
import type { RequestEvidence } from '../../live.ts';
import type { FairnessScheme, KeptBet } from '../fairness/scheme.ts';
import type { JsonValue } from '../../core/errors.ts';

const PAID_MAX = 16;
/** Verified bets kept per variant to replay a rule its answers state (FairnessScheme.restate). */
const REPLAYS_MAX = 400;

/** A bet and the request that placed it: a finding's endpoint and curl. */
export interface BetSample extends RequestEvidence {
  readonly betId: string;
}

/** The distinct multipliers won bets were paid, with their counts (at most PAID_MAX kept). */
export class PaidTally {
  readonly multipliers = new Map<string, { readonly multiplier: Ratio; count: number }>();

  note(multiplier: Ratio): void {
    if (ratioToNumber(multiplier) <= 0) return;
    const key = ratioText(multiplier);
    const slot = this.multipliers.get(key);
    if (slot !== undefined) slot.count += 1;
    else if (this.multipliers.size < PAID_MAX) this.multipliers.set(key, { multiplier, count: 1 });
  }
}

export class VariantTrack {
  readonly tally = new ReturnTally();
  readonly tier: TierTrack;
  /** Fine differences: Wald's test of the returns against the rule's exact edge (null without a law). */
  readonly sprt: Sprt | null;
  placed = 0;
  verified = 0;
  followedRule = 0;
  refused = 0;
  /** Verified bets whose own result states a win their `won` flag denies, or the reverse (selfContradiction), and the first of them. */
  contradicting = 0;
  contradictingExample: string | null = null;
  /** The first verified bet (in plan order) and its request: the representative evidence of the variant's aggregate findings. */
  sample: BetSample | null = null;
  /** The edges the target's answers stated (percent text → [fraction, bets]); at most MAX_STATED kept. */
  readonly stated = new Map<string, { readonly edge: number; count: number }>();
  /** The chances of winning the target's answers stated (`win_probability`, stated-chance.ts). */
  readonly chances = new StatedChanceTally();
  /** The multipliers its won bets were paid (credited / staked): what a published payout word is held against. */
  readonly paid = new PaidTally();
  /** Its first REPLAYS_MAX verified bets with their seeds. */
  readonly replays: KeptBet[] = [];

  constructor(law: readonly Chance[] | null, maxBets: number, payoutFields: readonly string[], family: number) {
    this.tier = new TierTrack(payoutFields);
    const theory = law === null ? null : lawTheory(law);
    this.sprt =
      theory === null || !(theory.sigma > 0)
        ? null
        : new Sprt({
            advertisedEdge: ratioToNumber(theory.edge),
            sigma: theory.sigma,
            sides: 'two',
            // α over the audit's whole family of variants (Bonferroni), so a long audit of a working
            // target is not called broken by one of its forty tests; β stays per variant.
            alpha: SPRT_DEFAULT_ERROR / family,
            maxBets: Math.max(1, maxBets),
          });
  }

  /** What one answer states of its own game: an edge (`house_edge_pct`) and a chance of winning (`win_probability`). */
  noteStatements(scheme: FairnessScheme, game: string, result: JsonValue): void {
    const stated = scheme.statedEdgeOf?.(game, result) ?? null;
    if (stated !== null) this.noteStated(stated);
    const chance = scheme.statedChanceOf?.(game, result) ?? null;
    if (chance !== null) this.chances.note(chance);
  }

  keep(replay: KeptBet): void {
    if (this.replays.length < REPLAYS_MAX) this.replays.push(replay);
  }

  /** A verified bet's return per unit staked; `followed`: its bet followed the published rule whole (the SPRT's sample). */
  addReturn(returned: Ratio, followed: boolean): void {
    this.tally.add(returned);
    this.paid.note(returned);
    if (followed) this.observe(ratioToNumber(returned));
  }

  observe(returnPerUnit: number): void {
    if (this.sprt !== null && this.sprt.decision() === 'continue') this.sprt.observe(returnPerUnit);
  }

  noteStated(edge: number): void {
    const key = `${Math.round(edge * 1e6) / 1e4}`;
    const slot = this.stated.get(key);
    if (slot !== undefined) slot.count += 1;
    else if (this.stated.size < MAX_STATED) this.stated.set(key, { edge, count: 1 });
  }

  /** The edge the target's answers state most often (ties: the first stated), as an advertisement. */
  ownAdvertised(): AdvertisedEdge | null {
    let best: [string, { readonly edge: number; count: number }] | null = null;
    for (const entry of this.stated) if (best === null || entry[1].count > best[1].count) best = entry;
    if (best === null) return null;
    const others = this.stated.size > 1 ? `; ${this.stated.size - 1} other figure(s) stated too` : '';
    return { edge: best[1].edge, text: `${best[0]}% (house_edge_pct in ${best[1].count} of its answers${others})` };
  }
}

const MAX_STATED = 16;

/** The games whose answers, over all their played variants, state one and the same edge. */
export function uniformStatements(plan: readonly PlannedVariant[], tracks: readonly VariantTrack[]): Set<string> {
  const figures = new Map<string, Set<string>>();
  for (const [index, variant] of plan.entries()) {
    const track = tracks[index] as VariantTrack;
    const seen = figures.get(variant.game) ?? new Set<string>();
    for (const key of track.stated.keys()) seen.add(key);
    figures.set(variant.game, seen);
  }
  return new Set([...figures].filter(([, seen]) => seen.size === 1).map(([game]) => game));
}
