/**
 * The deployed casino's video poker draw (spec/DEPLOYED.md §2.5): the deal of nonce n reads
 * n … n+4, card i = pool[floor(roll_{n+i} × 10000) % pool.length] from a shrinking 52-card pool
 * (index = rank + 13·suit, suits ♠♥♦♣); the draw replaces each un-held card i by the full deck's
 * card floor(roll_{n+10+i} × 10000) % 52 (a replacement may repeat a card already in the hand).
 * Jacks or Better from the rules' paytable (published: 800, 50, 25, 9, 6, 4, 3, 2, 1). Ranks are indexed 2 … 10, J, Q, K, A (the order of
 * the deployment's other card game; DEPLOYED.md names none) and cards are written "Q♠".
 *
 * No law: the return depends on which cards the player holds after seeing the deal, and the
 * deployment publishes no strategy, so there is no distribution of "the" multiplier to state; the
 * hold-all and hold-none laws would need the biased deal over 52·51·50·49·48 ordered hands.
 * A hand with repeated cards is ranked by counts first (four or more alike is four of a kind).
 */
import type { JsonObject } from '../../../core/errors.ts';
import { ZERO } from '../../../core/ratio.ts';
import type { DeployedGameRules } from './deployed-casino-rules.ts';
import { decimalOf, type DeployedRule, type RollSource, type Unreadable } from './deployed-rule.ts';

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const;
const SUITS = ['♠', '♥', '♦', '♣'] as const;
const DECK = 52;
const HAND = 5;
/** The draw's replacements start at this offset from the deal's nonce. */
const DRAW_OFFSET = 10;

export const cardText = (card: number): string =>
  `${RANKS[card % 13] as string}${SUITS[Math.floor(card / 13)] as string}`;
const cardIndex = (roll: number, size: number): number => Math.floor(roll * 10_000) % size;

/** The hand's payout: royal flush … jacks or better (paytable rows 0 … 8), else 0. */
export function videoPokerPayout(cards: readonly number[], paytable: readonly number[]): number {
  const row = handRow(cards);
  return row === null ? 0 : (paytable[row] ?? 0);
}

/** The hand's paytable row: 0 royal flush … 8 jacks or better, null for nothing. */
function handRow(cards: readonly number[]): number | null {
  const ranks = cards.map((card) => card % 13).sort((a, b) => a - b);
  const counts = [...new Set(ranks)]
    .map((rank) => ranks.filter((other) => other === rank).length)
    .sort((a, b) => b - a);
  const flush = new Set(cards.map((card) => Math.floor(card / 13))).size === 1;
  const distinct = counts.length === HAND;
  const wheel = ranks.join(',') === '0,1,2,3,12';
  const straight = distinct && (wheel || (ranks[4] as number) - (ranks[0] as number) === 4);
  if (straight && flush) return ranks[0] === 8 ? 0 : 1;
  if ((counts[0] as number) >= 4) return 2;
  if (counts[0] === 3 && counts[1] === 2) return 3;
  if (flush) return 4;
  if (straight) return 5;
  if (counts[0] === 3) return 6;
  if (counts[0] === 2 && counts[1] === 2) return 7;
  const highPair = [...new Set(ranks)].some(
    (rank) => rank >= 9 && ranks.filter((other) => other === rank).length === 2,
  );
  return counts[0] === 2 && highPair ? 8 : null;
}

/** The wire's five booleans, or the held positions (0–4) an auditor chose, as five booleans. */
function readHolds(params: JsonObject): boolean[] | Unreadable {
  const holds = params['holds'];
  if (Array.isArray(holds) && holds.length === HAND && holds.every((hold) => typeof hold === 'boolean'))
    return holds as boolean[];
  const positions =
    Array.isArray(holds) &&
    holds.length <= HAND &&
    holds.every((hold) => Number.isInteger(hold) && (hold as number) >= 0 && (hold as number) < HAND)
      ? (holds as number[])
      : null;
  if (positions !== null && new Set(positions).size === positions.length)
    return Array.from({ length: HAND }, (_, index) => positions.includes(index));
  return { why: 'holds must be 5 booleans or the held positions 0–4' };
}

export function videoPokerDeal(source: RollSource, nonce: number): number[] {
  const pool = Array.from({ length: DECK }, (_, card) => card);
  return Array.from(
    { length: HAND },
    (_, index) => pool.splice(cardIndex(source.roll(source.clientSeed, nonce + index), pool.length), 1)[0] as number,
  );
}

export const videoPokerRule = ({ paytable }: DeployedGameRules['video_poker']): DeployedRule => ({
  game: 'video_poker',
  play(params, source) {
    const holds = readHolds(params);
    if (!Array.isArray(holds)) return holds;
    const sent = params['nonce'];
    const nonce = typeof sent === 'number' && Number.isSafeInteger(sent) && sent >= 0 ? sent : source.nonce;
    const initial = videoPokerDeal(source, nonce);
    const final = initial.map((card, index) =>
      holds[index] === true ? card : cardIndex(source.roll(source.clientSeed, nonce + DRAW_OFFSET + index), DECK),
    );
    const payout = videoPokerPayout(final, paytable);
    return {
      multiplier: payout === 0 ? ZERO : decimalOf(payout),
      multiplierNumber: payout,
      result: { initial_cards: initial.map(cardText), final_cards: final.map(cardText), holds },
    };
  },
  law: () => null,
  hasLaw: () => false,
});
