/**
 * Cards: the one card model shared by blackjack, hilo, baccarat and video poker.
 *
 * A card is an integer 0..51: suit = floor(card / 13) in S, H, D, C order, rank index =
 * card mod 13 in A, 2, 3, …, 9, T, J, Q, K order, so rank = rank index + 1 (A = 1, J = 11,
 * Q = 12, K = 13). That makes the published draw mappings one line: an infinite-shoe card is
 * `int(52)` (its rank is uniform over the 13 ranks), a single-deck hand is `sample(52, k)`.
 *
 * Codes are two characters, rank then suit, upper case: "AS", "TH" (ten of hearts), "QC".
 * `parseCardCode` also accepts lower case and "10" for the ten ("10h"), so agents may send
 * either; afp always answers with the two-character form.
 * Non-goals: jokers, ranking rules of any game (each game owns its own).
 */

export type Card = number;

export const DECK_SIZE = 52;
export const RANK_COUNT = 13;
export const RANK_CHARS = 'A23456789TJQK';
export const SUIT_CHARS = 'SHDC';

export const ACE = 1;
export const JACK = 11;
export const QUEEN = 12;
export const KING = 13;

export function isCard(value: number): value is Card {
  return Number.isSafeInteger(value) && value >= 0 && value < DECK_SIZE;
}

/** 1 (ace) … 13 (king). */
export const rankOf = (card: Card): number => (card % RANK_COUNT) + 1;

/** 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs. */
export const suitOf = (card: Card): number => Math.floor(card / RANK_COUNT);

export function cardOf(rank: number, suit: number): Card {
  return suit * RANK_COUNT + (rank - 1);
}

export function cardCode(card: Card): string {
  return `${RANK_CHARS.charAt(card % RANK_COUNT)}${SUIT_CHARS.charAt(suitOf(card))}`;
}

export const cardCodes = (cards: readonly Card[]): string[] => cards.map(cardCode);

/** "AS", "as", "TH", "10h" → the card; anything else → null. */
export function parseCardCode(text: string): Card | null {
  const match = /^(10|[2-9TJQKA])([SHDC])$/.exec(text.toUpperCase());
  if (match === null) return null;
  const [, rankText = '', suitText = ''] = match;
  const rankIndex = RANK_CHARS.indexOf(rankText === '10' ? 'T' : rankText);
  return cardOf(rankIndex + 1, SUIT_CHARS.indexOf(suitText));
}

/** Blackjack and baccarat count J, Q, K as ten. */
export const pointValue = (card: Card): number => Math.min(rankOf(card), 10);
