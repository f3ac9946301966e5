/**
 * Residue numbers: a whole number too large for a double, counted as its residues modulo a few
 * primes below 2^30 (each count then stays an exact double) and joined back into a bigint by the
 * Chinese remainder theorem.
 *
 * Why: the exact laws of the deployed casino (mines-law.ts) count byte sequences out of 256^26,
 * about 2^208, by millions of additions; bigint sums in a hot loop cost seconds per law, doubles
 * modulo a prime cost milliseconds. The join is exact when the primes' product exceeds the
 * number: the caller states an upper bound and gets as many primes as it needs.
 * Invariants: residues are in [0, prime); the primes are distinct, so pairwise coprime.
 */
import { assert } from '../../../core/assert.ts';

/** Below 2^30, so a sum of 2^22 residues is still an exact double (< 2^53). */
export const PRIME_BELOW = 2 ** 30;
const PRIMES_MAX = 16;

const primes: number[] = [];

function isPrime(candidate: number): boolean {
  if (candidate % 2 === 0) return candidate === 2;
  for (let divisor = 3; divisor * divisor <= candidate; divisor += 2) if (candidate % divisor === 0) return false;
  return true;
}

/** The largest primes below 2^30, enough that their product exceeds `bound` (found once, then kept). */
export function residuePrimes(bound: bigint): readonly number[] {
  const chosen: number[] = [];
  let product = 1n;
  for (let index = 0; product <= bound; index += 1) {
    assert(index < PRIMES_MAX, 'residue numbers cover at most 16 primes (about 2^480)');
    if (index === primes.length) {
      let candidate = (primes.at(-1) ?? PRIME_BELOW) - 1;
      while (!isPrime(candidate)) candidate -= 1;
      primes.push(candidate);
    }
    const prime = primes[index] as number;
    chosen.push(prime);
    product *= BigInt(prime);
  }
  return chosen;
}

/** x with 0 ≤ x < b and a·x ≡ 1 (mod b), for coprime a and b (extended Euclid). */
function inverseModulo(a: bigint, b: bigint): bigint {
  let [oldR, r] = [a % b, b];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const quotient = oldR / r;
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  assert(oldR === 1n, 'residue primes are coprime');
  return ((oldS % b) + b) % b;
}

/** The one whole number below the primes' product with these residues (residues[k] modulo primes[k]). */
export function joinResidues(residues: readonly number[], primes: readonly number[]): bigint {
  assert(residues.length === primes.length, 'one residue per prime');
  let value = 0n;
  let modulus = 1n;
  residues.forEach((residue, index) => {
    const prime = BigInt(primes[index] as number);
    assert(Number.isInteger(residue) && residue >= 0 && residue < (primes[index] as number), 'a residue is reduced');
    // value + modulus · t ≡ residue (mod prime): t = (residue − value) · modulus⁻¹ mod prime.
    const step = ((((BigInt(residue) - value) % prime) + prime) % prime) * inverseModulo(modulus, prime);
    value += modulus * (step % prime);
    modulus *= prime;
  });
  return value;
}
