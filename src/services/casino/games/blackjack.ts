/**
 * Blackjack as a GameModule: one call plays one whole hand for the chosen action (stand, hit
 * by the published chart, or double), under the rules of blackjack-rules.ts.
 *
 * Money: the service debits only `amount` and credits amount × multiplier, so every multiplier
 * is relative to the amount sent. For double, the amount sent IS the doubled stake: a win
 * returns 2x it ("2x double-down win"), a push 1x, a loss 0 — the agent never owes more than it
 * sent. Total returns: win 2x (1:1), natural 2.5x (3:2), push 1x, loss 0.
 *
 * Draw mapping (infinite shoe): every card is `int(52)` of the bet's draw stream (cards.ts),
 * dealt player, dealer up, player, dealer hole; then the player's cards, then the dealer's. The
 * dealer draws only when the player stands on 21 or less and neither side has a natural.
 */
import { assert } from '../../../core/assert.ts';
import type { Outcome } from '../../../core/errors.ts';
import { ratio, type Ratio } from '../../../core/ratio.ts';
import { blackjackLaw } from './blackjack-odds.ts';
import {
  BLACKJACK_ACTIONS,
  BUST,
  dealerHits,
  finalTotal,
  handOf,
  handTotal,
  isNaturalPair,
  playerDraws,
  handMultiplier,
  settleNaturals,
  type BlackjackAction,
} from './blackjack-rules.ts';
import { cardCodes, pointValue, type Card } from './cards.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { enumParam, oneParam, type Params } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export interface BlackjackParams {
  readonly action: BlackjackAction;
}

/**
 * A bound on cards per hand, asserted, never binding: every card counts at least 1, so a hand
 * of 22 cards is bust. (The infinite shoe allows long hands: the dealer's longest is 12 cards,
 * six aces, a 6, four aces and one more; the chart's longest is 14.)
 */
const MAX_HAND_CARDS = 22;

export interface DealtBlackjackHand {
  readonly player: readonly Card[];
  readonly dealer: readonly Card[];
  readonly multiplier: Ratio;
  readonly outcome: string;
}

/** Deals and settles one hand from a card source. */
export function dealBlackjack(action: BlackjackAction, nextCard: () => Card): DealtBlackjackHand {
  const [p1, up, p2, hole] = [nextCard(), nextCard(), nextCard(), nextCard()];
  const player = [p1, p2];
  const dealer = [up, hole];
  const playerNatural = isNaturalPair(pointValue(p1), pointValue(p2));
  const dealerNatural = isNaturalPair(pointValue(up), pointValue(hole));
  if (playerNatural || dealerNatural) {
    const outcome = playerNatural && dealerNatural ? 'push' : playerNatural ? 'player_blackjack' : 'dealer_blackjack';
    return { player, dealer, multiplier: settleNaturals(playerNatural, dealerNatural), outcome };
  }
  while (playerDraws(action, handOf(player), player.length - 2, pointValue(up))) {
    assert(player.length < MAX_HAND_CARDS, 'a hand of 22 cards is bust');
    player.push(nextCard());
  }
  const playerFinal = finalTotal(handOf(player));
  if (playerFinal !== BUST)
    while (dealerHits(handOf(dealer))) {
      assert(dealer.length < MAX_HAND_CARDS, 'a hand of 22 cards is bust');
      dealer.push(nextCard());
    }
  const dealerFinal = finalTotal(handOf(dealer));
  const multiplier = handMultiplier(playerFinal, dealerFinal);
  return { player, dealer, multiplier, outcome: handOutcome(playerFinal, dealerFinal) };
}

function handOutcome(playerFinal: number, dealerFinal: number): string {
  if (playerFinal === BUST) return 'player_bust';
  if (dealerFinal === BUST) return 'dealer_bust';
  return playerFinal > dealerFinal ? 'player_higher' : playerFinal === dealerFinal ? 'push' : 'dealer_higher';
}

const parse = (params: Params): Outcome<BlackjackParams> =>
  oneParam('action', enumParam(params, 'action', BLACKJACK_ACTIONS));

function play(params: BlackjackParams, draws: Draws): GameResult {
  const hand = dealBlackjack(params.action, () => draws.int(52));
  const playerTotal = handTotal(handOf(hand.player));
  return {
    multiplier: hand.multiplier,
    detail: {
      action: params.action,
      player_cards: cardCodes(hand.player),
      dealer_cards: cardCodes(hand.dealer),
      player_total: playerTotal.total,
      player_soft: playerTotal.soft,
      dealer_total: handTotal(handOf(hand.dealer)).total,
      outcome: hand.outcome,
    },
  };
}

const lawCache = new Map<BlackjackAction, readonly Chance[]>();

function distribution(params: BlackjackParams): readonly Chance[] {
  let law = lawCache.get(params.action);
  if (law === undefined) {
    law = blackjackLaw(params.action);
    lawCache.set(params.action, law);
  }
  return law;
}

export const blackjack: GameModule<BlackjackParams> = {
  id: 'blackjack',
  name: 'Blackjack',
  path: 'blackjack',
  advertisedEdgeText: 'about 2%',
  advertisedEdge: () => ratio(2, 100),
  ...TABLE_BET_RANGE,
  paramFields: ['action'],
  parse,
  play,
  distribution,
  variants: () => BLACKJACK_ACTIONS.map((action) => ({ name: `blackjack:${action}`, params: { action } })),
  variantName: (params) => `blackjack:${params.action}`,
};
