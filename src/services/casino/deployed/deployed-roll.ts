/**
 * The deployed casino's draws (spec/DEPLOYED.md §2.3), exactly as its JavaScript computes them:
 * `result_hash = HMAC-SHA256(key = seed hex text, "<client_seed>:<nonce>")` and the roll
 * `r = (parseInt(hash[0..8], 16) % 10000) / 100`, a double in {0.00 … 99.99}. Every game maps r
 * with the deployment's own double arithmetic (games replay it here with the same expressions, so
 * `0.29 * 100 = 28.999…` floors to 28 here as there).
 *
 * Laws: r is a function of the residue k = word mod 10000 of a uniform 32-bit word, so a game of
 * one roll has the exact law Σ_k weight(k)/2^32 over its 10000 residues. 2^32 = 429496·10000 + 7296:
 * residues k < 7296 have 429497 preimages, the others 429496 (the modulo bias, kept in every law).
 * Sub-draws and extra nonces are further HMACs, modelled as independent uniform words.
 */
import { createHmac } from 'node:crypto';
import { assert } from '../../../core/assert.ts';
import type { Ratio } from '../../../core/ratio.ts';
import { chancesFromCounts, type CountedOutcome } from '../games/chances.ts';
import type { Chance } from '../games/game.ts';

export const RESIDUES = 10_000;
export const WORDS = 2n ** 32n;
const FEWER = WORDS / BigInt(RESIDUES);
const MORE_BELOW = Number(WORDS % BigInt(RESIDUES));
assert(FEWER === 429_496n && MORE_BELOW === 7_296, 'the modulo-bias arithmetic of 2^32 mod 10000');

/** How many 32-bit words map to residue k. */
export function residueWeight(k: number): bigint {
  return k < MORE_BELOW ? FEWER + 1n : FEWER;
}

export function hmacHex(seedHex: string, message: string): string {
  return createHmac('sha256', seedHex).update(message).digest('hex');
}

export function hmacBytes(seedHex: string, message: string): Buffer {
  return createHmac('sha256', seedHex).update(message).digest();
}

/** The roll of a result hash: `(parseInt(hash[0..8], 16) % 10000) / 100`. */
export function rollOfHash(hashHex: string): number {
  return (parseInt(hashHex.slice(0, 8), 16) % RESIDUES) / 100;
}

/** The roll of residue k, the same double as the deployment's. */
export const rollOfResidue = (k: number): number => k / 100;

/** The deployment's `round2` and `round4`: Math.round(x · 10^d) / 10^d on doubles. */
export const round2 = (value: number): number => Math.round(value * 100) / 100;
export const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/** The preimage weight of each class of one roll (class = `classify(r)`), over WORDS. */
export function rollWeights<T>(classify: (roll: number) => T): Map<T, bigint> {
  const weights = new Map<T, bigint>();
  for (let k = 0; k < RESIDUES; k += 1) {
    const key = classify(rollOfResidue(k));
    weights.set(key, (weights.get(key) ?? 0n) + residueWeight(k));
  }
  return weights;
}

/**
 * The exact law of a one-roll game whose multiplier is `multiplierOf(r)`. The weights are summed
 * per multiplier object first (a rule hands out one object per payout: decimalOf remembers them),
 * so chancesFromCounts merges a few classes rather than writing 10000 multipliers as text.
 */
export function lawOfRoll(multiplierOf: (roll: number) => Ratio): Chance[] {
  const weights = new Map<Ratio, bigint>();
  for (let k = 0; k < RESIDUES; k += 1) {
    const multiplier = multiplierOf(rollOfResidue(k));
    weights.set(multiplier, (weights.get(multiplier) ?? 0n) + residueWeight(k));
  }
  const outcomes: CountedOutcome[] = [...weights].map(([multiplier, weight]) => [weight, multiplier]);
  return chancesFromCounts(outcomes, WORDS);
}
