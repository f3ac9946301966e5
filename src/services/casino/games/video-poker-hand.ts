/**
 * Jacks or Better: the hand classes, casino.md's pay table (9/6, total return per unit staked)
 * and the evaluator of one five-card hand.
 *
 * Straights include the wheel (A-2-3-4-5) and broadway (T-J-Q-K-A); a royal flush is the
 * broadway straight flush; "jacks or better" is exactly one pair of J, Q, K or A. The evaluator
 * is allocation-free (it runs 2.6 million times when the analysis tables are built).
 */
import { assert } from '../../../core/assert.ts';
import { ratio, type Ratio } from '../../../core/ratio.ts';
import type { Card } from './cards.ts';
import type { Chance } from './game.ts';

export const HAND_CLASSES = [
  'nothing',
  'jacks_or_better',
  'two_pair',
  'three_of_a_kind',
  'straight',
  'flush',
  'full_house',
  'four_of_a_kind',
  'straight_flush',
  'royal_flush',
] as const;
export type HandClass = (typeof HAND_CLASSES)[number];
export const HAND_CLASS_COUNT = HAND_CLASSES.length;

/** Total return per unit staked, by class index (casino.md: Royal Flush 800x … Jacks or Better 1x). */
export const PAY_TABLE: readonly number[] = [0, 1, 2, 3, 4, 6, 9, 25, 50, 800];

/** Rank indexes 0 (A), 9 (T), 10 (J), 11 (Q), 12 (K): broadway. */
const BROADWAY_MASK = (1 << 0) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12);
const rankCounts = new Int8Array(13);

/** The class index (into HAND_CLASSES / PAY_TABLE) of five distinct cards. */
export function classifyHand(a: Card, b: Card, c: Card, d: Card, e: Card): number {
  const suit = Math.floor(a / 13);
  const flush =
    Math.floor(b / 13) === suit &&
    Math.floor(c / 13) === suit &&
    Math.floor(d / 13) === suit &&
    Math.floor(e / 13) === suit;
  rankCounts.fill(0);
  const rankMask = countRank(a) | countRank(b) | countRank(c) | countRank(d) | countRank(e);
  const distinct = popcount(rankMask);
  if (distinct === 5) {
    const straight = rankMask === BROADWAY_MASK || 31 - Math.clz32(rankMask) - lowestBit(rankMask) === 4;
    if (straight && flush) return rankMask === BROADWAY_MASK ? 9 : 8;
    if (flush) return 5;
    return straight ? 4 : 0;
  }
  let maxCount = 0;
  for (const count of rankCounts) if (count > maxCount) maxCount = count;
  if (distinct === 2) return maxCount === 4 ? 7 : 6;
  if (distinct === 3) return maxCount === 3 ? 3 : 2;
  for (const rank of [0, 10, 11, 12]) if (rankCounts[rank] === 2) return 1;
  return 0;
}

export function classifyCards(cards: readonly Card[]): number {
  assert(cards.length === 5 && new Set(cards).size === 5, 'a poker hand is five distinct cards');
  const [a = 0, b = 0, c = 0, d = 0, e = 0] = cards;
  return classifyHand(a, b, c, d, e);
}

function countRank(card: Card): number {
  const rank = card % 13;
  rankCounts[rank] = (rankCounts[rank] ?? 0) + 1;
  return 1 << rank;
}

export function popcount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
  return count;
}

const lowestBit = (mask: number): number => 31 - Math.clz32(mask & -mask);

/** Class-by-class chances → the multiplier law (pay ascending, zero-chance classes left out). */
export function lawFromClassChances(chances: readonly Ratio[]): Chance[] {
  const law: Chance[] = [];
  chances.forEach((chance, handClass) => {
    if (chance.num !== 0n) law.push([chance, ratio(PAY_TABLE[handClass] ?? 0)]);
  });
  return law;
}
