/**
 * Where a live variant's edge comes from (docs/design.md "Measured rules"): the tier its verified bets
 * put it in, decided from what the bets showed, never from afp's own copy of the rule.
 *   - `published`: every bet followed the scheme's draw mapping and its payouts: the exact edge of
 *     the published rule applies;
 *   - `observed`: the draw mapping held on every bet (the outcome fields the scheme determines from
 *     the revealed seed match) but some payouts differ: the edge is that of the OBSERVED table
 *     (observed-table.ts: the published law's probabilities × the payouts the target made);
 *   - `empirical`: some bet's outcome does not follow the published mapping, or one published
 *     outcome was paid two ways (the payout is no function of the published outcome), or nothing
 *     could be replayed: only the returns over the stakes say anything.
 * Scheme-agnostic: a bet is reduced to its outcome check's differences, split into payout fields
 * (`payout_multiplier`, and the fields the scheme names in `payoutFields`) and mapping fields, its
 * payout check, and the rule's multiplier (the bet's outcome class under the published law).
 * Limits: at most MAX_EXAMPLES examples per cause, MAX_CLASSES outcome classes per variant.
 */
import { displayRoundingMicro } from '../../core/live-amount.ts';
import type { Micro } from '../../core/money.ts';
import { ratio, ratioFromDecimal, ratioText, type Ratio } from '../../core/ratio.ts';
import type { FairnessScheme, FieldDifference, SchemeBet, SchemeVerdict } from '../fairness/scheme.ts';
import { betCredit } from '../../live.ts';

export const EDGE_SOURCES = ['published', 'observed', 'empirical'] as const;
export type EdgeSource = (typeof EDGE_SOURCES)[number];

/** Why a variant is empirical (null for the other tiers). */
export type EmpiricalCause = 'mapping' | 'mixed-payouts' | 'not-replayed';

export const PAYOUT_FIELD = 'payout_multiplier';
export const MAX_EXAMPLES = 3;
export const MAX_CLASSES = 1_000;

/** One published outcome class (the rule's multiplier) and the payouts the target made for it. */
export interface OutcomeClass {
  readonly published: Ratio;
  /** Observed multiplier text → [multiplier, bets]. */
  readonly paid: Map<string, { readonly multiplier: Ratio; count: number }>;
}

export interface TierExample {
  readonly betId: string;
  readonly text: string;
  /** The call that placed the bet, with its method and path (`casino.bet (POST /api/v1/games/dice)`), where the audit has it. */
  readonly endpoint?: string;
  /** The curl line of the request that placed the bet, where the audit has one. */
  readonly reproduce?: string;
}

/** Where a bet was placed: its example's endpoint and curl. */
export type BetRequest = Pick<TierExample, 'endpoint' | 'reproduce'>;

/** The top-level field of a difference's path (`reels[1]` → `reels`, `a.b` → `a`). */
export function topField(path: string): string {
  return path.split(/[.[]/)[0] ?? path;
}

/**
 * The multiplier a target paid: 0 when nothing was credited, else the one it showed (exact where
 * the credit rounds to the cent), or credited / stake when it shows none or one its credit
 * contradicts (the money is what was credited). Where the credit is a display figure rounded to
 * fewer places (`paidPlaces`), it is read as live/bet-credit.ts reads it: a won bet whose figure
 * rounds to 0 (0.01 × 1.97 shown as 0.0) paid its shown multiplier, not nothing.
 */
export function paidMultiplier(
  bet: Pick<SchemeBet, 'amountMicro' | 'paidMicro' | 'multiplier' | 'paidPlaces' | 'won'>,
): Ratio | null {
  if (bet.paidMicro === null || bet.amountMicro <= 0n) return null;
  const shown = bet.multiplier;
  if ((bet.paidPlaces ?? null) !== null) {
    const credit = betCredit(bet);
    if (!credit.ok) return bet.paidMicro === 0n ? ratio(0) : ratio(bet.paidMicro, bet.amountMicro);
    if (credit.micro === 0n && credit.exact) return ratio(0);
    return shown !== null && isDecimal(shown) ? ratioFromDecimal(String(shown)) : ratio(credit.micro, bet.amountMicro);
  }
  if (bet.paidMicro === 0n) return ratio(0);
  if (shown !== null && isDecimal(shown) && creditContradiction(bet) === null) return ratioFromDecimal(String(shown));
  return ratio(bet.paidMicro, bet.amountMicro);
}

const isDecimal = (value: number): boolean => Number.isFinite(value) && /^\d+(\.\d+)?$/.test(String(value));

/** Accumulates one variant's verified bets and says which tier they put it in. */
export class TierTrack {
  /** Bets whose outcome was checked (mapping held or broke). */
  checked = 0;
  /** Bets whose mapping held (payout fields aside). */
  mapped = 0;
  /** Of the mapped bets, those paid as the published rule pays. */
  paidAsPublished = 0;
  readonly mappingExamples: TierExample[] = [];
  readonly payoutExamples: TierExample[] = [];
  readonly classes = new Map<string, OutcomeClass>();
  private readonly payoutFields: ReadonlySet<string>;

  constructor(payoutFields: readonly string[]) {
    this.payoutFields = new Set([PAYOUT_FIELD, ...payoutFields]);
  }

  get broke(): number {
    return this.checked - this.mapped;
  }

  /** One verified bet: its scheme verdict and what the target paid. */
  add(bet: SchemeBet, verdict: SchemeVerdict, request: BetRequest = {}): void {
    const outcome = verdict.outcome;
    if (outcome.status === 'not-checked' || verdict.multiplier === null) return;
    const differences: readonly FieldDifference[] =
      outcome.status === 'failed'
        ? (outcome.differences ?? [{ field: 'result', recorded: null, recomputed: null }])
        : [];
    const mapping = differences.filter((difference) => !this.payoutFields.has(topField(difference.field)));
    const paid = paidMultiplier(bet);
    if (mapping.length === 0 && paid === null) return;
    this.checked += 1;
    if (mapping.length > 0 || paid === null) {
      if (this.mappingExamples.length < MAX_EXAMPLES)
        this.mappingExamples.push({
          betId: bet.betId,
          ...request,
          text: mapping
            .slice(0, 3)
            .map(
              (d) => `${d.field}: ${JSON.stringify(d.recorded)} where the scheme gives ${JSON.stringify(d.recomputed)}`,
            )
            .join('; '),
        });
      return;
    }
    this.mapped += 1;
    const asPublished = differences.length === 0 && verdict.payout.status !== 'failed';
    if (asPublished) this.paidAsPublished += 1;
    else if (this.payoutExamples.length < MAX_EXAMPLES) {
      // Paid as published but a payout field states another payout: what the target says it would
      // pay (a losing mines bet's payout_on_win).
      const stated = differences
        .slice(0, 2)
        .map((d) => `${d.field}: ${JSON.stringify(d.recorded)} where the scheme gives ${JSON.stringify(d.recomputed)}`)
        .join('; ');
      this.payoutExamples.push({
        betId: bet.betId,
        ...request,
        text:
          ratioText(paid) === ratioText(verdict.multiplier) && stated !== ''
            ? stated
            : `paid ${ratioDecimal(paid)}× where the scheme pays ${ratioDecimal(verdict.multiplier)}×`,
      });
    }
    // A bet paid as published counts at the rule's exact multiplier (the wire rounds what it shows).
    this.record(verdict.multiplier, asPublished ? verdict.multiplier : paid);
  }

  private record(published: Ratio, paid: Ratio): void {
    const key = ratioText(published);
    let found = this.classes.get(key);
    if (found === undefined) {
      if (this.classes.size >= MAX_CLASSES) return;
      found = { published, paid: new Map() };
      this.classes.set(key, found);
    }
    const paidKey = ratioText(paid);
    const slot = found.paid.get(paidKey) ?? { multiplier: paid, count: 0 };
    slot.count += 1;
    found.paid.set(paidKey, slot);
  }

  /** The published outcome classes paid more than one way. */
  mixedClasses(): OutcomeClass[] {
    return [...this.classes.values()].filter((found) => found.paid.size > 1);
  }

  source(): { readonly source: EdgeSource; readonly cause: EmpiricalCause | null } {
    if (this.broke > 0) return { source: 'empirical', cause: 'mapping' };
    if (this.mapped === 0) return { source: 'empirical', cause: 'not-replayed' };
    if (this.mixedClasses().length > 0) return { source: 'empirical', cause: 'mixed-payouts' };
    return { source: this.paidAsPublished === this.mapped ? 'published' : 'observed', cause: null };
  }
}

/** A multiplier as a short decimal (up to 6 places, trailing zeros cut). */
export function ratioDecimal(value: Ratio): string {
  const scaled = (value.num * 1_000_000n + value.den / 2n) / value.den;
  const whole = scaled / 1_000_000n;
  const fraction = (scaled % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? `${whole}` : `${whole}.${fraction}`;
}

/** The payout fields of a game under a scheme: the outcome fields that state a payout, not a draw. */
export function payoutFieldsOf(scheme: FairnessScheme, game: string): readonly string[] {
  return scheme.payoutFields?.(game) ?? [];
}

/**
 * The credited amount contradicts the target's own multiplier beyond its rounding: half a cent, or
 * half a unit of the fewer places the shown amount has (a target that rounds to 1 or 0 places).
 */
export function creditContradiction(
  bet: Pick<SchemeBet, 'amountMicro' | 'paidMicro' | 'multiplier'>,
): { readonly dueMicro: Micro } | null {
  const shown = bet.multiplier;
  if (bet.paidMicro === null || bet.paidMicro === 0n || shown === null || !isDecimal(shown)) return null;
  const exact = ratioFromDecimal(String(shown));
  const scaled = bet.amountMicro * exact.num;
  const gap = bet.paidMicro * exact.den - scaled;
  const rounding = displayRoundingMicro(bet.paidMicro, 2) + 1n;
  const within = (gap < 0n ? -gap : gap) <= rounding * exact.den;
  return within ? null : { dueMicro: scaled / exact.den };
}
