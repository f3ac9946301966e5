/**
 * lawTheory: `edgeTheory` (audit/edge/edge-statistics.ts) of an exact law, computed once per law object.
 *
 * Why: a live audit asks each variant's law for its theory four to six times (its track, the
 * verdict's stated edge and interval, the plan and the findings' edges), and the schemes hand out
 * one law object per variant (deployed-scheme.ts keeps them); the deployed keno law is over
 * (2^32)^200 words, so each exact E[M] and E[M²] cost about 60 ms of bigint gcds.
 * Laws are immutable and the memo is keyed weakly by the law array: it holds nothing a run dropped.
 */
import { edgeTheory, type EdgeTheory } from '../edge/edge-statistics.ts';
import type { Chance } from '../../services/casino/games/game.ts';

const theories = new WeakMap<readonly Chance[], EdgeTheory>();

export function lawTheory(law: readonly Chance[]): EdgeTheory {
  const known = theories.get(law);
  if (known !== undefined) return known;
  const theory = edgeTheory(law);
  theories.set(law, theory);
  return theory;
}
