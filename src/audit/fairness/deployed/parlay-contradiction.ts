/**
 * Where a deployed parlay's answer (spec/DEPLOYED.md §2.5) contradicts ITSELF: a leg whose own facts
 * state a win its `won` denies (coin flip: the outcome is the side chosen; dice: the value against
 * the threshold; simple dice: rolled is the pick; multiplier: the crash point reaches the target),
 * `all_won` that is not every leg's `won`, `legs_won` that is not their count, a payout on a parlay
 * with a lost leg, or a winning parlay paid other than its own `combined_multiplier`.
 * Facts only, as answer-contradiction.ts: the combined multiplier's value against the legs' payouts
 * is the rule's (deployed-scheme.ts replays it), not a contradiction. Null where the answer names
 * too little (no legs, a leg without a boolean `won`).
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { numericValue } from '../field-differences.ts';
import { deployedShownWin } from './shown-win.ts';
import { creditedMultiplier, type ShownPayout } from './shown-paid.ts';

/** What the answer says it paid (shown-paid.ts). */
type Shown = ShownPayout;

const numberOf = (value: JsonValue | undefined): number | null => {
  const read = numericValue(value);
  return typeof read === 'number' && Number.isFinite(read) ? read : null;
};

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The win a leg's own facts state, by its game's condition; null where they name too little. */
function legShownWin(leg: JsonObject): boolean | null {
  const game = leg['game'];
  if (game === 'simple_dice') {
    const [rolled, pick] = [numberOf(leg['rolled']), numberOf(leg['pick'])];
    return rolled === null || pick === null ? null : rolled === pick;
  }
  if (game === 'multiplier') {
    const [crash, target] = [numberOf(leg['crash_point']), numberOf(leg['target_multiplier'])];
    return crash === null || target === null ? null : crash >= target;
  }
  return typeof game === 'string' ? deployedShownWin(game, leg) : null;
}

/** Equal within the rounding a deployment's doubles carry. */
const same = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

export function parlayContradiction(result: JsonObject, shown: Shown): string | null {
  const legs = result['legs'];
  if (!Array.isArray(legs) || legs.length === 0) return null;
  const won: boolean[] = [];
  for (const [index, leg] of legs.entries()) {
    if (!isObject(leg) || typeof leg['won'] !== 'boolean') return null;
    const stated = legShownWin(leg);
    if (stated !== null && stated !== leg['won'])
      return `legs[${index}] (${String(leg['game'])}) states ${stated ? 'a win' : 'a loss'} by its own fields, yet its won is ${String(leg['won'])}`;
    won.push(leg['won']);
  }
  const every = won.every(Boolean);
  const count = won.filter(Boolean).length;
  if (typeof result['all_won'] === 'boolean' && result['all_won'] !== every)
    return `all_won is ${String(result['all_won'])} where its legs' won flags are ${JSON.stringify(won)}`;
  const legsWon = numberOf(result['legs_won']);
  if (legsWon !== null && legsWon !== count)
    return `legs_won is ${String(legsWon)} where ${String(count)} of its legs are won`;
  if (!every && (creditedMultiplier(shown) ?? 0) > 0)
    return `a leg is lost (won flags ${JSON.stringify(won)}), yet the parlay paid ×${String(creditedMultiplier(shown))}`;
  const combined = numberOf(result['combined_multiplier']);
  if (every && combined !== null && shown.multiplier !== null && !same(shown.multiplier, combined))
    return `every leg is won and combined_multiplier is ${String(combined)}, yet the parlay paid ×${String(shown.multiplier)}`;
  return null;
}
