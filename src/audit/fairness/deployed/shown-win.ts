/**
 * The win a deployed bet's own result states, by the game's win condition as the answer itself
 * writes it (coin flip: the outcome is the side chosen; dice: the value is over or under the
 * threshold, as the direction says), not by the draw mapping. A target may change how it maps a
 * hash to an outcome; it cannot show `outcome: heads, side_chosen: heads` and `won: false` without
 * contradicting itself. Labels are read in any letter case (`HEADS`, `OVER`: DEPLOYED.md does not
 * fix their case, field-differences.ts). Null where the result does not name the fields (or the
 * game has no such plain condition here): nothing is judged then.
 */
import type { JsonValue } from '../../../core/errors.ts';

type Fields = Readonly<Record<string, JsonValue | undefined>>;

const CONDITIONS: Readonly<Record<string, (result: Fields) => boolean | null>> = {
  coin_flip: (result) => {
    const [outcome, side] = [result['outcome'], result['side_chosen']];
    return typeof outcome === 'string' && typeof side === 'string'
      ? outcome.toLowerCase() === side.toLowerCase()
      : null;
  },
  dice: (result) => {
    const [written, threshold, value] = [result['direction'], result['threshold'], result['dice_value']];
    if (typeof threshold !== 'number' || typeof value !== 'number') return null;
    const direction = typeof written === 'string' ? written.toLowerCase() : written;
    return direction === 'over' ? value > threshold : direction === 'under' ? value < threshold : null;
  },
};

export function deployedShownWin(game: string, result: JsonValue): boolean | null {
  const condition = CONDITIONS[game];
  if (condition === undefined || typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  return condition(result);
}
