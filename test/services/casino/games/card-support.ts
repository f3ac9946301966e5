/**
 * Shared checks for the card-game tests (card-*.test.ts): scripted card sources and an exact
 * enumeration of every card sequence a play can consume at the level of card VALUES.
 *
 * `enumerateByValue` answers each int(52) with one representative card per value class (A–9
 * weight 1, a ten weight 4, of 13) and walks the whole tree of answers (an odometer), weighting
 * each leaf by Π weights / 13^depth: for games that only look at point values (baccarat,
 * blackjack), that is the exact law of `play`, computed independently of the game's own odds code.
 */
import { expect } from 'vitest';
import { ratio, type Ratio } from '../../../../src/core/ratio.ts';
import { cardOf, parseCardCode, type Card } from '../../../../src/services/casino/games/cards.ts';
import type { Draws } from '../../../../src/services/casino/games/game.ts';
import { lawOf } from './table-support.ts';

export function cards(text: string): Card[] {
  return text
    .split(/\s+/)
    .filter((code) => code !== '')
    .map((code) => {
      const card = parseCardCode(code);
      if (card === null) throw new Error(`bad card code in a test: ${code}`);
      return card;
    });
}

/** A card source that deals the given cards in order and fails the test when it runs dry. */
export function cardSource(text: string): () => Card {
  const queue = cards(text);
  return () => {
    const card = queue.shift();
    if (card === undefined) throw new Error('the scripted card source ran dry');
    return card;
  };
}

/** Value classes A..9 and ten (spades), with their ranks-of-13 weights. */
const VALUE_CARDS: ReadonlyArray<readonly [Card, number]> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((rank) => [
  cardOf(rank, 0),
  rank === 10 ? 4 : 1,
]);

class ValueDraws implements Draws {
  readonly choices: number[];
  depth = 0;
  constructor(choices: readonly number[]) {
    this.choices = [...choices];
  }
  int(n: number): number {
    if (n !== 52) throw new Error(`value enumeration expects int(52), got int(${n})`);
    if (this.depth === this.choices.length) this.choices.push(0);
    const choice = this.choices[this.depth] ?? 0;
    this.depth += 1;
    return (VALUE_CARDS[choice] as readonly [Card, number])[0];
  }
  sample(): number[] {
    throw new Error('value enumeration covers int(52) games only');
  }
  uint32(): number {
    throw new Error('value enumeration covers int(52) games only');
  }
  fraction52(): bigint {
    throw new Error('value enumeration covers int(52) games only');
  }
}

/** The exact law of `play` over every value sequence (at most `leafLimit` sequences). */
export function enumerateByValue(play: (draws: Draws) => Ratio, leafLimit: number): Record<string, string> {
  /** key "multiplier@depth" → Σ over leaves of Π weights, to be divided by 13^depth. */
  const sums = new Map<string, { multiplier: Ratio; depth: number; weight: number }>();
  let prefix: number[] = [];
  let leaves = 0;
  for (;;) {
    leaves += 1;
    if (leaves > leafLimit) throw new Error(`more than ${leafLimit} card sequences`);
    const draws = new ValueDraws(prefix);
    const multiplier = play(draws);
    const weight = draws.choices.reduce(
      (product, choice) => product * (VALUE_CARDS[choice] as readonly [Card, number])[1],
      1,
    );
    const key = `${multiplier.num}/${multiplier.den}@${draws.depth}`;
    const entry = sums.get(key) ?? { multiplier, depth: draws.depth, weight: 0 };
    entry.weight += weight;
    sums.set(key, entry);
    const next = [...draws.choices];
    while (next.length > 0 && (next[next.length - 1] as number) + 1 === VALUE_CARDS.length) next.pop();
    if (next.length === 0) break;
    next[next.length - 1] = (next[next.length - 1] as number) + 1;
    prefix = next;
  }
  expect(leaves).toBeGreaterThan(1);
  for (const { weight } of sums.values()) expect(Number.isSafeInteger(weight)).toBe(true);
  return lawOf(
    [...sums.values()].map(
      ({ multiplier, depth, weight }) => [ratio(BigInt(weight), 13n ** BigInt(depth)), multiplier] as const,
    ),
  );
}
