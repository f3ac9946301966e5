/**
 * The exact multiplier laws behind videoPoker.distribution: optimal play (the checked-in table
 * that scripts/gen-video-poker.ts computes with video-poker-analysis.ts) and "these cards held,
 * the rest uniform" (enumerated here, C(52 − h, 5 − h) final hands, at most 2,598,960).
 *
 * Why the held-cards law is uniform over completions: given a deal that contains the held cards
 * H, the dealt others are a uniform subset of the 52 − |H| other cards and the replacements a
 * uniform subset of the cards not dealt, so the final non-held cards are uniform over the
 * (5 − |H|)-subsets of the 52 − |H| cards. With nothing held this is a random five-card hand,
 * which is also the law of holding fixed positions chosen before the deal.
 */
import { assert } from '../../../core/assert.ts';
import { ratio } from '../../../core/ratio.ts';
import type { Card } from './cards.ts';
import { binomial } from './chances.ts';
import type { Chance } from './game.ts';
import { HAND_CLASS_COUNT, classifyHand, lawFromClassChances } from './video-poker-hand.ts';
import { OPTIMAL_LAW_DENOMINATOR, OPTIMAL_LAW_NUMERATORS } from './video-poker-optimal-law.ts';

let optimal: Chance[] | undefined;

/** The exact law of optimal play (`optimalHolds`) over a fresh deal. */
export function optimalLaw(): Chance[] {
  optimal ??= lawFromClassChances(OPTIMAL_LAW_NUMERATORS.map((num) => ratio(num, OPTIMAL_LAW_DENOMINATOR)));
  return optimal;
}

let nothingHeld: Chance[] | undefined;

/**
 * The class counts of the C(52, 5) five-card hands, counted (jacks or better: a pair of jacks,
 * queens, kings or aces; a lower pair is nothing): the law of holding nothing without classifying
 * 2,598,960 hands, which cost every process that first asked for it (a Kelly view of a bet on
 * positions) about half a second. card-video-poker.test.ts checks them against the classification.
 */
function fiveCardClassCounts(): bigint[] {
  const straights = 10n; // A-5 … T-A, per suit pattern
  const royalFlush = 4n;
  const straightFlush = 4n * straights - royalFlush;
  const fourOfAKind = 13n * 48n;
  const fullHouse = 13n * binomial(4, 3) * 12n * binomial(4, 2);
  const flush = 4n * binomial(13, 5) - 4n * straights;
  const straight = straights * 4n ** 5n - 4n * straights;
  const threeOfAKind = 13n * binomial(4, 3) * binomial(12, 2) * 4n ** 2n;
  const twoPair = binomial(13, 2) * binomial(4, 2) ** 2n * 11n * 4n;
  const jacksOrBetter = 4n * binomial(4, 2) * binomial(12, 3) * 4n ** 3n;
  const paying = [
    jacksOrBetter,
    twoPair,
    threeOfAKind,
    straight,
    flush,
    fullHouse,
    fourOfAKind,
    straightFlush,
    royalFlush,
  ];
  return [binomial(52, 5) - paying.reduce((sum, count) => sum + count, 0n), ...paying];
}

/** Law of the final hand when `held` (distinct cards, at most 5) are kept and the rest is uniform. */
export function lawOfHeldCards(held: readonly Card[]): Chance[] {
  assert(held.length <= 5 && new Set(held).size === held.length, 'at most five distinct held cards');
  if (held.length === 0) {
    const total = binomial(52, 5);
    nothingHeld ??= lawFromClassChances(fiveCardClassCounts().map((count) => ratio(count, total)));
    return nothingHeld;
  }
  const counts = new Array<number>(HAND_CLASS_COUNT).fill(0);
  const pool = Array.from({ length: 52 }, (_, card) => card).filter((card) => !held.includes(card));
  const hand = [...held];
  let total = 0;
  const extend = (from: number): void => {
    if (hand.length === 5) {
      const handClass = classifyHand(hand[0] ?? 0, hand[1] ?? 0, hand[2] ?? 0, hand[3] ?? 0, hand[4] ?? 0);
      counts[handClass] = (counts[handClass] ?? 0) + 1;
      total++;
      return;
    }
    for (let index = from; index <= pool.length - (5 - hand.length); index++) {
      hand.push(pool[index] ?? 0);
      extend(index + 1);
      hand.pop();
    }
  };
  extend(0);
  return lawFromClassChances(counts.map((count) => ratio(count, total)));
}
