/**
 * An edge a target's answers state once for a whole game, read as what it can mean for the game.
 * The deployment's simple_dice states one `house_edge_pct` (8.33 = 1 − 5.5/6) on every pick, while
 * its mapping `(floor(r) % 6) + 1` gives picks 1–4 an edge of 6.5% and picks 5–6 12%: the figure is
 * exactly the mean over the six picks. Held against pick 1 alone it reads as a 1.8-point
 * contradiction, a false alarm the real deployment would get.
 *
 * So where the scheme names the choices one game-level figure speaks for (FairnessScheme.gameChoices)
 * and every answer of the game's variants states the same figure, the figure has two readings: the
 * variant's own edge, and the game's (the mean over its choices, each a player's equal pick). The
 * target is judged by the more charitable one: a figure the game's reading matches is info (the
 * spread of the variants around a correct game figure is the game's design, not a contradiction).
 * The choices not played are taken at the payouts the played variant was seen to make: each
 * choice's published return scaled by the played variant's exact return over its published one
 * (exact when the target changed the game's one payout, as a 5.7× simple dice does).
 * Non-goals: weights other than equal choices; a figure that varies between the game's answers
 * (each answer then speaks for its own variant).
 */
import type { JsonObject } from '../../core/errors.ts';
import type { Severity } from '../../report/findings/finding.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import { judgeRange, lawEdge, type AdvertisedEdge, type VariantVerdict } from './edge-verdict.ts';

export interface GameReading {
  /** The game's edge: the mean over its choices. */
  readonly mean: number;
  readonly choices: number;
  /** The game figure's verdict under this reading. */
  readonly rule: VariantVerdict['rule'];
  readonly severity: Severity | null;
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, minor: 1, major: 2, critical: 3 };

/** The mean edge over the game's choices, at the payouts the played variant (exact edge `exactEdge`) was seen to make; null where the scheme cannot say. */
export function gameMeanEdge(
  scheme: FairnessScheme,
  played: { readonly game: string; readonly params: JsonObject; readonly exactEdge: number },
): { readonly mean: number; readonly choices: number } | null {
  const choices = scheme.gameChoices?.(played.game) ?? [];
  const own = scheme.law(played.game, played.params);
  if (choices.length < 2 || own === null) return null;
  const publishedReturn = 1 - lawEdge(own);
  if (!(publishedReturn > 0)) return null;
  const scale = (1 - played.exactEdge) / publishedReturn;
  let total = 0;
  for (const choice of choices) {
    const law = scheme.law(played.game, choice);
    if (law === null) return null;
    total += 1 - (1 - lawEdge(law)) * scale;
  }
  return { mean: total / choices.length, choices: choices.length };
}

/**
 * The verdict with the game's reading of a game-level figure: info where that reading matches,
 * else the less grave of the two readings' severities. Unchanged where the variant's own reading
 * does not call it different, or without an exact edge (empirical: nothing to scale by).
 */
export function readAsGame(
  scheme: FairnessScheme,
  variant: { readonly game: string; readonly params: JsonObject },
  verdict: VariantVerdict,
): { readonly verdict: VariantVerdict; readonly reading: GameReading | null } {
  const advertised: AdvertisedEdge | null = verdict.advertised;
  if (verdict.rule !== 'differs' || advertised === null || verdict.exactEdge === null)
    return { verdict, reading: null };
  const mean = gameMeanEdge(scheme, { ...variant, exactEdge: verdict.exactEdge });
  if (mean === null) return { verdict, reading: null };
  const judged = judgeRange([mean.mean, mean.mean], advertised);
  const reading: GameReading = { ...mean, rule: judged.rule, severity: judged.severity };
  if (judged.rule === 'matches') return { verdict: { ...verdict, ruleSeverity: 'info' }, reading };
  const own = verdict.ruleSeverity;
  const game = judged.severity;
  const kinder = own === null || game === null ? (own ?? game) : SEVERITY_RANK[game] < SEVERITY_RANK[own] ? game : own;
  return { verdict: { ...verdict, ruleSeverity: kinder }, reading };
}
