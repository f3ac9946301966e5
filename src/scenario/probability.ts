/**
 * Probabilities in scenario params: written as decimals in YAML (0.6), used as integer basis
 * points (6000 of 10,000) so every draw is an exact integer ratio (STYLE rule 3: no floats in
 * anything that changes state). The conversion reads the number's shortest decimal text, never
 * multiplies a float: 0.07 is exactly 700 bp.
 *
 * Limits: 0 <= p <= 1 with at most 4 decimals (a finer probability is refused, not rounded).
 */
import { z } from 'zod';

export const BASIS_POINTS = 10_000;

const DECIMAL = /^(0|1)(?:\.(\d{1,4}))?$/;

/** Basis points of a decimal probability, or null when it is not in [0, 1] with <= 4 decimals. */
export function toBasisPoints(probability: number): number | null {
  if (!Number.isFinite(probability)) return null;
  const match = DECIMAL.exec(String(probability));
  if (match === null) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(4, '0'));
  const points = whole * BASIS_POINTS + fraction;
  return points <= BASIS_POINTS ? points : null;
}

/** zod: a decimal probability in params, parsed to integer basis points. */
export function probability(): z.ZodType<number, number> {
  return (
    z
      .number()
      // Metadata only (the editor schema's bounds; scenario-schema.ts folds `x-range` into the description).
      .meta({ minimum: 0, maximum: 1, 'x-range': '0 to 1, at most 4 decimals' })
      .transform((value, context) => {
        const points = toBasisPoints(value);
        if (points === null) {
          context.addIssue({
            code: 'custom',
            message: 'must be a probability between 0 and 1 with at most 4 decimals',
          });
          return z.NEVER;
        }
        return points;
      })
  );
}

/** Draws one of the named outcomes with integer weights (basis points); keys in a fixed order. */
export function pickOutcome<K extends string>(
  rng: { weighted(weights: readonly number[]): number },
  mix: Readonly<Record<K, number>>,
  order: readonly K[],
): K {
  const index = rng.weighted(order.map((key) => mix[key]));
  return order[index] as K;
}
