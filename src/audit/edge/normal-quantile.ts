/**
 * Φ⁻¹(p), the standard normal quantile, for intervals whose level depends on how many are judged
 * at once (a live audit's family of variants, audit/live/edge-verdict.ts): 99.9% over one variant
 * is z = 3.29, over 40 it is 99.9975% each, z = 4.21. A table of a few levels would not do.
 * Method: Acklam's rational approximation, relative error below 1.15e-9 over (0, 1): far finer
 * than any interval's level needs. Pure math, no state.
 */
import { assert } from '../../core/assert.ts';

const A = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
];
const B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const C = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
const P_LOW = 0.02425;

const at = (coefficients: readonly number[], index: number): number => coefficients[index] ?? 0;

function acklam(p: number): number {
  if (p < P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((at(C, 0) * q + at(C, 1)) * q + at(C, 2)) * q + at(C, 3)) * q + at(C, 4)) * q + at(C, 5)) /
      ((((at(D, 0) * q + at(D, 1)) * q + at(D, 2)) * q + at(D, 3)) * q + 1)
    );
  }
  if (p > 1 - P_LOW) return -acklam(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((at(A, 0) * r + at(A, 1)) * r + at(A, 2)) * r + at(A, 3)) * r + at(A, 4)) * r + at(A, 5)) * q) /
    (((((at(B, 0) * r + at(B, 1)) * r + at(B, 2)) * r + at(B, 3)) * r + at(B, 4)) * r + 1)
  );
}

/** Φ⁻¹(p) for p in (0, 1). */
export function normalQuantile(p: number): number {
  assert(p > 0 && p < 1, 'a normal quantile takes a probability strictly between 0 and 1');
  return acklam(p);
}
