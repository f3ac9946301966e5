/**
 * Blackjack rules shared by the dealt hands (blackjack.ts) and the exact odds
 * (blackjack-odds.ts): hand totals, the dealer's rule, the player's published drawing policy and
 * the settlement of one hand. Both sides call these same functions, so the sampled game and its
 * exact distribution cannot drift apart.
 *
 * Rules: infinite shoe; a natural (two-card 21) pays 3:2 (2.5x total return) and ends the hand,
 * two naturals push, a dealer natural beats every other hand; the dealer stands on all 17s (soft
 * 17 included); a player total over 21 loses even if the dealer busts too.
 * Actions (one call = one whole hand, chosen before any card shows): stand = stand on the two
 * cards; double = exactly one more card, then stand; hit = draw by the published chart
 * (`policyHits`, basic strategy's hit/stand chart for these rules: hard ≤ 11 hit; hard 12 hit
 * unless the dealer shows 4–6; hard 13–16 hit when the dealer shows 7–A; soft ≤ 17 hit; soft 18
 * hit when the dealer shows 9, 10 or A; stand otherwise), so "hit" on a hard 17+ stands at once.
 * A forced first hit would hit hard 20s (28.3% edge); the chart gives 2.42%, near the printed
 * "about 2%".
 * Non-goals: splits, surrender, insurance, multi-step play.
 */
import { ONE, ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { pointValue, type Card } from './cards.ts';

export type BlackjackAction = 'hit' | 'stand' | 'double';

export const BLACKJACK_ACTIONS: readonly BlackjackAction[] = ['hit', 'stand', 'double'];

/** A hand as its aces-count-one sum plus whether it holds an ace: all any rule needs. */
export interface HandState {
  readonly hardSum: number;
  readonly hasAce: boolean;
}

export interface HandTotal {
  readonly total: number;
  /** An ace counts 11. */
  readonly soft: boolean;
}

export const BUST = 22;
export const DEALER_STANDS_ON = 17;

export const EMPTY_HAND: HandState = { hardSum: 0, hasAce: false };

/** Adds a card by its value (A = 1, 2–9, 10/J/Q/K = 10). */
export function addValue(hand: HandState, value: number): HandState {
  return { hardSum: hand.hardSum + value, hasAce: hand.hasAce || value === 1 };
}

export function handOf(cards: readonly Card[]): HandState {
  return cards.reduce((hand, card) => addValue(hand, pointValue(card)), EMPTY_HAND);
}

export function handTotal(hand: HandState): HandTotal {
  if (hand.hasAce && hand.hardSum + 10 <= 21) return { total: hand.hardSum + 10, soft: true };
  return { total: hand.hardSum, soft: false };
}

/** The total, with every bust as BUST (22). */
export function finalTotal(hand: HandState): number {
  const { total } = handTotal(hand);
  return total > 21 ? BUST : total;
}

export const isNaturalPair = (first: number, second: number): boolean =>
  (first === 1 && second === 10) || (first === 10 && second === 1);

export const dealerHits = (hand: HandState): boolean => handTotal(hand).total < DEALER_STANDS_ON;

/** The player's published drawing chart for action hit; `dealerUpValue` is 1 (ace) … 10. */
export function policyHits(hand: HandState, dealerUpValue: number): boolean {
  const { total, soft } = handTotal(hand);
  const upIsStrong = dealerUpValue === 1 || dealerUpValue >= 7;
  if (soft) return total <= 17 || (total === 18 && (dealerUpValue === 1 || dealerUpValue >= 9));
  if (total <= 11) return true;
  if (total === 12) return !(dealerUpValue >= 4 && dealerUpValue <= 6);
  return total <= 16 && upIsStrong;
}

/** Whether the player takes card number `drawn` + 1 after the first two cards. */
export function playerDraws(action: BlackjackAction, hand: HandState, drawn: number, dealerUpValue: number): boolean {
  if (finalTotal(hand) >= 21) return false;
  if (action === 'stand') return false;
  if (action === 'double') return drawn === 0;
  return policyHits(hand, dealerUpValue);
}

export const BLACKJACK_PAYS = ratio(5, 2);
export const WIN_PAYS = ratio(2);

/** Total return of a hand without naturals: final totals with BUST for a bust. */
export function handMultiplier(playerFinal: number, dealerFinal: number): Ratio {
  if (playerFinal === BUST) return ZERO;
  if (dealerFinal === BUST || playerFinal > dealerFinal) return WIN_PAYS;
  return playerFinal === dealerFinal ? ONE : ZERO;
}

/** Total return when at least one side has a natural. */
export function settleNaturals(playerNatural: boolean, dealerNatural: boolean): Ratio {
  if (playerNatural && dealerNatural) return ONE;
  return playerNatural ? BLACKJACK_PAYS : ZERO;
}
