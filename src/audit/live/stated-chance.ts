/**
 * A chance of winning a target's answers state about their own bet (the deployment's
 * `win_probability` on dice, multiplier, crash, roulette, blackjack and mines, DEPLOYED.md §2.5),
 * held against the chance the rule its bets were verified to follow pays anything (P(multiplier > 0)
 * of the rule's exact law): measured, never recited. The figure is compared at the precision the
 * target writes it (0.4975 speaks for [0.49745, 0.49755]), never with afp's copy of the figure.
 *
 * It is a statement, not a payout: no money moves on it, and the edge audit already measures the
 * edge of the rule itself, so a figure the rule does not give is info stating both. It is not read
 * as an advertised edge: one figure with no payout of its own (blackjack states 0.42 for every
 * action, whose payouts differ) fixes no edge.
 * Limits: at most MAX_FIGURES distinct figures are counted per variant; only a variant whose edge
 * rests on the published rule (its bets followed it) is judged.
 */
import { isZero, ratioToNumber } from '../../core/ratio.ts';
import type { Chance } from '../../services/casino/games/game.ts';
import type { FindingSink } from '../../live.ts';

const MAX_FIGURES = 16;

/** The figures a variant's answers stated, by their printed text. */
export class StatedChanceTally {
  private readonly figures = new Map<string, { readonly chance: number; count: number }>();

  note(chance: number): void {
    const text = String(chance);
    const slot = this.figures.get(text);
    if (slot !== undefined) slot.count += 1;
    else if (this.figures.size < MAX_FIGURES) this.figures.set(text, { chance, count: 1 });
  }

  /** The figure stated most often (ties: the first stated); null when none was. */
  mostStated(): StatedChance | null {
    let best: StatedChance | null = null;
    for (const [text, { chance, count }] of this.figures)
      if (best === null || count > best.count) best = { text, chance, count, figures: this.figures.size };
    return best;
  }
}

export interface StatedChance {
  readonly text: string;
  readonly chance: number;
  /** Answers that stated it. */
  readonly count: number;
  /** Distinct figures the variant's answers stated. */
  readonly figures: number;
}

/** Half a unit of the last place the figure is written to (0.42: 0.005). */
export function statedPrecision(text: string): number {
  const places = /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
  return 0.5 * 10 ** -places;
}

/** P(multiplier > 0) of an exact law. */
export function payingChance(law: readonly Chance[]): number {
  return law.reduce((total, [chance, multiplier]) => (isZero(multiplier) ? total : total + ratioToNumber(chance)), 0);
}

/** Room for the doubles a chance is summed in. */
const SUM_SLACK = 1e-9;

/** The info finding where the stated figure is not the rule's chance at the precision written; nothing where it is. */
export function recordStatedChance(
  findings: FindingSink,
  input: {
    readonly variant: string;
    readonly stated: StatedChance | null;
    readonly law: readonly Chance[] | null;
    readonly verified: number;
  },
): void {
  const { stated, law } = input;
  if (stated === null || law === null) return;
  const rule = payingChance(law);
  if (Math.abs(rule - stated.chance) <= statedPrecision(stated.text) + SUM_SLACK) return;
  const others = stated.figures > 1 ? `; ${stated.figures - 1} other figure(s) stated too` : '';
  findings.add({
    id: `rule:${input.variant}:stated-chance`,
    severity: 'info',
    kind: 'rule',
    title: `${input.variant}: the answers state win_probability ${stated.text}; the rule their bets followed pays with chance ${rule.toFixed(6)}`,
    field: 'win_probability',
    expected: stated.text,
    seen: rule.toFixed(6),
    evidence: `win_probability ${stated.text} in ${stated.count} of its answers${others}, compared at the places it is written; the chance is that of the exact law of the rule ${input.verified} verified bets followed (any return counts, a push too)`,
  });
}
