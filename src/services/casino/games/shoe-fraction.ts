/**
 * ShoeFraction: an exact probability of the infinite shoe, `num / 13^exp`, left unreduced.
 *
 * Why: every card value of the infinite shoe has probability k/13, so every probability in the
 * blackjack laws (blackjack-odds.ts) is an integer over a power of 13. Ratio (core/ratio.ts)
 * reduces each sum and product by a bigint gcd: tens of thousands of them per law, about half a
 * second of CPU for every process that first reads the blackjack odds (each `afp serve` answering
 * a Kelly view, each audit). Here a product adds exponents and a sum scales one side by a power
 * of 13, with no gcd; `toRatio` reduces once, so the laws are the same Ratios as before.
 * Invariants: `num` ≥ 0 except for differences the caller knows are non-negative; `exp` ≥ 0.
 */
import { ratio, type Ratio } from '../../../core/ratio.ts';

export interface ShoeFraction {
  readonly num: bigint;
  readonly exp: number;
}

export const SHOE_ZERO: ShoeFraction = { num: 0n, exp: 0 };
export const SHOE_ONE: ShoeFraction = { num: 1n, exp: 0 };

const THIRTEEN = 13n;

/** `num` scaled from 13^from to 13^to (to ≥ from). */
function scaled(fraction: ShoeFraction, to: number): bigint {
  return to === fraction.exp ? fraction.num : fraction.num * THIRTEEN ** BigInt(to - fraction.exp);
}

export function shoeAdd(a: ShoeFraction, b: ShoeFraction): ShoeFraction {
  const exp = Math.max(a.exp, b.exp);
  return { num: scaled(a, exp) + scaled(b, exp), exp };
}

export function shoeSub(a: ShoeFraction, b: ShoeFraction): ShoeFraction {
  const exp = Math.max(a.exp, b.exp);
  return { num: scaled(a, exp) - scaled(b, exp), exp };
}

export const shoeMul = (a: ShoeFraction, b: ShoeFraction): ShoeFraction => ({ num: a.num * b.num, exp: a.exp + b.exp });

/** The fraction in lowest terms. */
export const shoeRatio = (a: ShoeFraction): Ratio => ratio(a.num, THIRTEEN ** BigInt(a.exp));
