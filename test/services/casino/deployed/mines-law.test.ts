// The deployed mines law (src/services/casino/deployed/mines-law.ts) counts exactly what the plain
// Markov chain counts: the chain below is the one the law replaced (bigint counts per (mask,
// carry) state, every byte of every step), kept here as the reference on the variants cheap enough
// for it; the documented variants' counts are pinned (computed by that chain).
import { describe, expect, test } from 'vitest';
import { afterStep, minesWinningCount, popCount } from '../../../../src/services/casino/deployed/mines-law.ts';
import { joinResidues, residuePrimes } from '../../../../src/services/casino/deployed/residue-number.ts';

function plainChainCount(mines: number, reveals: number): bigint {
  let states = new Map<number, bigint>();
  for (let byte = 0; byte < 256; byte += 1) {
    const key = ((1 << reveals) - 1) * 32 + ((256 * byte) % 25);
    states.set(key, (states.get(key) ?? 0n) + 1n);
  }
  for (let i = 24; i >= mines; i -= 1) {
    const next = new Map<number, bigint>();
    for (const [key, count] of states)
      for (let byte = 0; byte < 256; byte += 1) {
        const after = afterStep(Math.floor(key / 32), i, ((key % 32) + byte) % (i + 1));
        if (popCount(after) > i - mines) continue;
        const nextKey = after * 32 + (i > mines ? (256 * byte) % i : 0);
        next.set(nextKey, (next.get(nextKey) ?? 0n) + count);
      }
    states = next;
  }
  let won = 0n;
  for (const [key, count] of states) if (Math.floor(key / 32) === 0) won += count;
  return won;
}

const CHANCE_10_10 = '312742510476636443420325730039208009/340282366920938463463374607431768211456';
const CHANCE_5_10 =
  '21149847606987805513601971085725649847881885086985/374144419156711147060143317175368453031918731001856';
const CHANCE_1_24 =
  '125542906880920304872975159179982733017318242480499387461/3138550867693340381917894711603833208051177722232017256448';

describe('mines law', () => {
  test.each([
    [1, 1],
    [1, 3],
    [2, 2],
    [3, 3],
    [3, 5],
    [6, 4],
    [12, 6],
    [20, 5],
    [24, 1],
  ])('%i mines %i reveals: the plain chain count', (mines, reveals) => {
    expect(minesWinningCount({ mines, reveals })).toBe(plainChainCount(mines, reveals));
  });

  test('the documented variants: the counts the plain chain gave', () => {
    // As fractions of 256^(26 − mines), lowest terms, from the plain chain (seconds each).
    const chance = (mines: number, reveals: number): string => {
      const won = minesWinningCount({ mines, reveals });
      const total = 256n ** BigInt(26 - mines);
      const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
      return `${won / gcd(won, total)}/${total / gcd(won, total)}`;
    };
    expect(chance(10, 10)).toBe(CHANCE_10_10);
    expect(chance(5, 10)).toBe(CHANCE_5_10);
    expect(chance(1, 24)).toBe(CHANCE_1_24);
  });

  test('residue numbers join back to the number (primes past the bound)', () => {
    const value = 3n ** 150n + 12_345n;
    const primes = residuePrimes(value);
    expect(primes.length).toBeGreaterThan(7);
    expect(
      joinResidues(
        primes.map((prime) => Number(value % BigInt(prime))),
        primes,
      ),
    ).toBe(value);
  });
});
