/**
 * The deployed casino's games of consecutive nonces (spec/DEPLOYED.md §2.5): the bet's nonce n is
 * its first draw (its `proof.nonce` and `result_hash`), the next draws roll n+1, n+2, … under the
 * same seed and client seed. Hilo: two cards, `(floor(roll × 100000) % 13) + 1`. Keno: attempt k
 * rolls n+k, `(floor(roll × 10000) % 80) + 1`, until 20 unique numbers or 200 attempts. Scratch
 * card: three symbols `floor(roll × 100) % 6`. The doubles are the deployment's (r × 10000 is a
 * multiple of 100 or one less, so keno draws only 8 numbers: DEPLOYED.md says so).
 *
 * Laws: each nonce is an independent word. Keno's is exact by inclusion–exclusion over the picks
 * that can be drawn: P(the seen picks are A) = Σ_{C ⊆ A} (−1)^|C| (1 − p(T∖A ∪ C))^200, T the
 * drawable picks, p(U) the chance one attempt draws a number of U (valid because fewer than 20
 * numbers can be drawn, so all 200 attempts always run; asserted by the law, else null).
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { compare, div, ratio, ratioFromDecimal, ZERO, type Ratio } from '../../../core/ratio.ts';
import { chancesFromCounts, type CountedOutcome } from '../../../services/casino/games/chances.ts';
import type { Chance } from '../../../services/casino/games/game.ts';
import { rollWeights, WORDS } from './deployed-roll.ts';
import { choiceParam, decimalOf, isUnreadable, type DeployedRule, type Unreadable } from './deployed-rule.ts';

const hiloCard = (roll: number): number => (Math.floor(roll * 100_000) % 13) + 1;

const clamp = (value: Ratio, low: Ratio, high: Ratio): Ratio => (compare(value, low) < 0 ? low : compare(value, high) > 0 ? high : value);

/** A winning guess's payout: exact, and as the deployment's double. */
function hiloPayout(card1: number, guess: 'higher' | 'lower'): { exact: Ratio; number: number } {
  const favourable = guess === 'higher' ? 13 - card1 : card1 - 1;
  const chance = clamp(ratio(favourable, 12), ratio(1, 100), ratio(99, 100));
  const exact = clamp(div(ratio(96, 100), chance), ratio(105, 100), ratio(12));
  const number = Math.min(12, Math.max(1.05, (1 / Math.max(0.01, Math.min(0.99, favourable / 12))) * 0.96));
  return { exact, number };
}

function hiloMultiplier(card1: number, card2: number, guess: 'higher' | 'lower'): { exact: Ratio; number: number } {
  if (card1 === card2) return { exact: ratio(1), number: 1 };
  const won = guess === 'higher' ? card2 > card1 : card2 < card1;
  return won ? hiloPayout(card1, guess) : { exact: ZERO, number: 0 };
}

const readGuess = (params: JsonObject): 'higher' | 'lower' | Unreadable => choiceParam(params, 'guess', ['higher', 'lower'] as const, 'higher');

export const HILO: DeployedRule = {
  game: 'hilo',
  play(params, source) {
    const guess = readGuess(params);
    if (isUnreadable(guess)) return guess;
    const card1 = hiloCard(source.roll(source.clientSeed, source.nonce));
    const card2 = hiloCard(source.roll(source.clientSeed, source.nonce + 1));
    const multiplier = hiloMultiplier(card1, card2, guess);
    return { multiplier: multiplier.exact, multiplierNumber: multiplier.number, result: { card1, card2, guess } };
  },
  law(params) {
    const guess = readGuess(params);
    if (isUnreadable(guess)) return null;
    const cards = [...rollWeights(hiloCard).entries()];
    const outcomes: CountedOutcome[] = cards.flatMap(([card1, first]) => cards.map(([card2, second]): CountedOutcome => [first * second, hiloMultiplier(card1, card2, guess).exact]));
    return chancesFromCounts(outcomes, WORDS * WORDS);
  },
};

export const KENO_ATTEMPTS = 200;
const KENO_UNIQUE = 20;
/** Spots picked → catches → total return (DEPLOYED.md §2.5). */
const KENO_PAYTABLE: Readonly<Record<number, Readonly<Record<number, number>>>> = {
  1: { 1: 3.5 }, 2: { 2: 16 }, 3: { 2: 2, 3: 50 }, 4: { 2: 1, 3: 5, 4: 200 }, 5: { 3: 3, 4: 25, 5: 1000 },
  6: { 3: 2, 4: 10, 5: 200, 6: 5000 }, 7: { 4: 5, 5: 60, 6: 700, 7: 10_000 }, 8: { 4: 2, 5: 25, 6: 300, 7: 3000, 8: 50_000 },
  9: { 4: 1, 5: 15, 6: 100, 7: 1000, 8: 5000, 9: 100_000 }, 10: { 5: 10, 6: 50, 7: 500, 8: 2000, 9: 10_000, 10: 250_000 },
};
const kenoNumber = (roll: number): number => (Math.floor(roll * 10_000) % 80) + 1;
const kenoPayout = (spots: number, catches: number): number => KENO_PAYTABLE[spots]?.[catches] ?? 0;

function readPicks(params: JsonObject): number[] | Unreadable {
  const picks = params['picks'] ?? [1, 2, 3];
  const valid = Array.isArray(picks) && picks.length >= 1 && picks.length <= 10 && picks.every((pick) => typeof pick === 'number' && Number.isInteger(pick) && pick >= 1 && pick <= 80) && new Set(picks).size === picks.length;
  return valid ? (picks as number[]) : { why: 'picks must be 1 to 10 distinct integers from 1 to 80' };
}

export const KENO: DeployedRule = {
  game: 'keno',
  play(params, source) {
    const picks = readPicks(params);
    if (isUnreadable(picks)) return picks;
    const drawn: number[] = [];
    for (let attempt = 0; attempt < KENO_ATTEMPTS && drawn.length < KENO_UNIQUE; attempt += 1) {
      const number = kenoNumber(source.roll(source.clientSeed, source.nonce + attempt));
      if (!drawn.includes(number)) drawn.push(number);
    }
    const payout = kenoPayout(picks.length, picks.filter((pick) => drawn.includes(pick)).length);
    return { multiplier: payout === 0 ? ZERO : decimalOf(payout), multiplierNumber: payout, result: { picks, drawn, payout_multiplier: payout }, unordered: ['drawn'] };
  },
  law(params) {
    const picks = readPicks(params);
    if (isUnreadable(picks)) return null;
    return kenoLaw(picks);
  },
};

function kenoLaw(picks: readonly number[]): Chance[] | null {
  const weights = rollWeights(kenoNumber);
  if (weights.size >= KENO_UNIQUE) return null;
  const drawable = picks.filter((pick) => weights.has(pick)).map((pick) => weights.get(pick) as bigint);
  const subsets = 1 << drawable.length;
  const missed = new Map<number, bigint>();
  const neverDrawn = (mask: number): bigint => {
    let cached = missed.get(mask);
    if (cached === undefined) {
      const weight = drawable.reduce((sum, pickWeight, index) => ((mask >> index) & 1 ? sum + pickWeight : sum), 0n);
      cached = (WORDS - weight) ** BigInt(KENO_ATTEMPTS);
      missed.set(mask, cached);
    }
    return cached;
  };
  const outcomes: CountedOutcome[] = [];
  for (let seen = 0; seen < subsets; seen += 1) {
    const unseen = (subsets - 1) & ~seen;
    let count = 0n;
    for (let part = seen; ; part = (part - 1) & seen) {
      count += (popCount(part) % 2 === 0 ? 1n : -1n) * neverDrawn(unseen | part);
      if (part === 0) break;
    }
    assert(count >= 0n, 'inclusion–exclusion gives a count');
    const payout = kenoPayout(picks.length, popCount(seen));
    outcomes.push([count, payout === 0 ? ZERO : ratioFromDecimal(String(payout))]);
  }
  return chancesFromCounts(outcomes, WORDS ** BigInt(KENO_ATTEMPTS));
}

function popCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}

const SCRATCH_SYMBOLS = ['💎', '7️⃣', '⭐', '🍀', '🔔', '🍒'] as const;
const SCRATCH_TRIPLES = [50, 20, 15, 12, 8, 5] as const;
const scratchSymbol = (roll: number): number => Math.floor(roll * 100) % 6;

function scratchPayout(symbols: readonly number[]): number {
  const [first, second, third] = symbols as [number, number, number];
  if (first === second && second === third) return SCRATCH_TRIPLES[first] as number;
  return first === second || second === third || first === third ? 2 : 0;
}

export const SCRATCH_CARD: DeployedRule = {
  game: 'scratch_card',
  play(_params, source) {
    const symbols = [0, 1, 2].map((offset) => scratchSymbol(source.roll(source.clientSeed, source.nonce + offset)));
    const payout = scratchPayout(symbols);
    return { multiplier: ratio(payout), multiplierNumber: payout, result: { symbols: symbols.map((symbol) => SCRATCH_SYMBOLS[symbol] as string), payout_multiplier: payout } };
  },
  law() {
    const weights = [...rollWeights(scratchSymbol).entries()];
    const outcomes: CountedOutcome[] = [];
    for (const [a, wa] of weights) for (const [b, wb] of weights) for (const [c, wc] of weights) outcomes.push([wa * wb * wc, ratio(scratchPayout([a, b, c]))]);
    return chancesFromCounts(outcomes, WORDS ** 3n);
  },
};
