/**
 * The deployed casino's card games of one roll (spec/DEPLOYED.md §2.5): blackjack and baccarat
 * deal every card from the bet's single roll r with the deployment's own double arithmetic, so
 * each is a one-roll game and its law is exact over the 10000 residues.
 *
 * Blackjack: card at offset o = RANKS[floor(((r + o·7.3) % 100) / 100 × 52) % 13]; player 0, 1,
 * dealer 2, 3; hit and double add offset 4; the dealer draws 5, 6, … while below 17 (an ace counts
 * 11 unless that busts). Multipliers are per `amount_bet` (a double stakes 2 × amount); the payouts
 * are DeployedCasinoRules' (published: natural 1.5, win 1, double 2, push 1; baccarat 1.98, 1.9, 8).
 * Baccarat: idx = floor(frac(r × (off·1664525 + 1013904223)) × 13), value idx ≥ 9 ? 0 : idx + 1;
 * the standard tableau (naturals 8/9 stop; player draws on 0–5; the banker by the player's third).
 *
 * Labels and statements the answers carry (§2.5), never compared as outcomes (deployed-scheme.ts):
 * blackjack's `outcome` (`blackjack`, `dealer_blackjack` fixed by DEPLOYED.md; `push`, `bust`,
 * `dealer_bust`, `win`, `lose` chosen here) and its constant `win_probability` 0.42 (§2.8's declared
 * p); baccarat's `player_hand`, `banker_hand` (the card values dealt, a form DEPLOYED.md does not
 * fix) and `note`.
 */
import { assert } from '../../../core/assert.ts';
import { round2 } from './deployed-roll.ts';
import type { DeployedGameRules } from './deployed-casino-rules.ts';
import { choiceParam, oneRollRule, paidIf, type DeployedRule } from './deployed-rule.ts';

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const;
/** The dealer's longest hand: every card counts at least 1, so 21 cards are past 17. */
const DEALER_CARDS_MAX = 21;

function cardAt(roll: number, offset: number): string {
  return RANKS[Math.floor((((roll + offset * 7.3) % 100) / 100) * 52) % 13] as string;
}

export function cardsTotal(cards: readonly string[]): number {
  let total = 0;
  let aces = 0;
  for (const card of cards) {
    total += card === 'A' ? 11 : card === 'J' || card === 'Q' || card === 'K' ? 10 : Number(card);
    if (card === 'A') aces += 1;
  }
  while (total > 21 && aces > 0) {
    total -= 10;
    aces -= 1;
  }
  return total;
}

type Action = 'hit' | 'stand' | 'double';

type BlackjackPayouts = DeployedGameRules['blackjack'];

/** The declared chance the answer states (§2.5, §2.8), whatever the cards. */
const BLACKJACK_WIN_PROBABILITY = 0.42;

/** The hand's end as a label and its multiplier per `amount_bet`. */
function blackjackSettle(
  payouts: BlackjackPayouts,
  action: Action,
  player: readonly string[],
  dealer: readonly string[],
): { outcome: string; multiplier: number } {
  const playerNatural = player.length === 2 && cardsTotal(player) === 21;
  const dealerNatural = cardsTotal(dealer.slice(0, 2)) === 21;
  if (playerNatural && dealerNatural) return { outcome: 'push', multiplier: payouts.push };
  if (playerNatural) return { outcome: 'blackjack', multiplier: payouts.natural };
  if (dealerNatural) return { outcome: 'dealer_blackjack', multiplier: 0 };
  const playerTotal = cardsTotal(player);
  const dealerTotal = cardsTotal(dealer);
  const win = action === 'double' ? payouts.doubleWin : payouts.win;
  if (playerTotal > 21) return { outcome: 'bust', multiplier: 0 };
  if (dealerTotal > 21) return { outcome: 'dealer_bust', multiplier: win };
  if (playerTotal > dealerTotal) return { outcome: 'win', multiplier: win };
  return playerTotal === dealerTotal
    ? { outcome: 'push', multiplier: payouts.push }
    : { outcome: 'lose', multiplier: 0 };
}

export const blackjackRule = (payouts: BlackjackPayouts): DeployedRule =>
  oneRollRule(
    'blackjack',
    (params) => choiceParam(params, 'action', ['hit', 'stand', 'double'] as const, 'stand'),
    (action, roll) => {
      const player = [cardAt(roll, 0), cardAt(roll, 1)];
      const dealer = [cardAt(roll, 2), cardAt(roll, 3)];
      const naturals = cardsTotal(player) === 21 || cardsTotal(dealer) === 21;
      if (!naturals) {
        if (action !== 'stand') player.push(cardAt(roll, 4));
        for (let offset = 5; cardsTotal(dealer) < 17; offset += 1) {
          dealer.push(cardAt(roll, offset));
          assert(dealer.length <= DEALER_CARDS_MAX, 'the dealer stops within 21 cards');
        }
      }
      const { outcome, multiplier } = blackjackSettle(payouts, action, player, dealer);
      const result = {
        action,
        player_cards: player,
        player_total: cardsTotal(player),
        dealer_cards: dealer,
        dealer_total: cardsTotal(dealer),
        outcome,
        win_probability: BLACKJACK_WIN_PROBABILITY,
        roll: round2(roll),
      };
      // On a loss the answer shows the action's win multiplier (the bet as placed), never a payment.
      const placed = multiplier > 0 ? multiplier : action === 'double' ? payouts.doubleWin : payouts.win;
      return { ...paidIf(multiplier > 0, multiplier, result), placedNumber: placed };
    },
  );

const baccaratCard = (roll: number, offset: number): number => {
  const scaled = roll * (offset * 1664525 + 1013904223);
  const index = Math.floor((scaled - Math.floor(scaled)) * 13);
  return index >= 9 ? 0 : index + 1;
};

/** Whether the banker draws on `banker` after the player's third card `third` (null: the player stood). */
function bankerDraws(banker: number, third: number | null): boolean {
  if (third === null) return banker <= 5;
  if (banker <= 2) return true;
  if (banker === 3) return third !== 8;
  if (banker === 4) return third >= 2 && third <= 7;
  if (banker === 5) return third >= 4 && third <= 7;
  if (banker === 6) return third === 6 || third === 7;
  return false;
}

export const baccaratRule = (payouts: DeployedGameRules['baccarat']): DeployedRule =>
  oneRollRule(
    'baccarat',
    (params) => choiceParam(params, 'bet_on', ['player', 'banker', 'tie'] as const),
    (betOn, roll) => {
      const player = [baccaratCard(roll, 1.1), baccaratCard(roll, 2.3)];
      const banker = [baccaratCard(roll, 3.7), baccaratCard(roll, 4.9)];
      const value = (cards: readonly number[]): number => cards.reduce((sum, card) => sum + card, 0) % 10;
      const natural = value(player) >= 8 || value(banker) >= 8;
      if (!natural) {
        const third = value(player) <= 5 ? baccaratCard(roll, 5.3) : null;
        if (third !== null) player.push(third);
        if (bankerDraws(value(banker), third)) banker.push(baccaratCard(roll, 6.1));
      }
      const outcome = value(player) > value(banker) ? 'player' : value(banker) > value(player) ? 'banker' : 'tie';
      const won = outcome === betOn;
      return paidIf(won, payouts[betOn], {
        bet_on: betOn,
        outcome,
        player_hand: player,
        player_value: value(player),
        banker_hand: banker,
        banker_value: value(banker),
        natural,
        won,
        note: `Pays ${String(payouts.player)}x player, ${String(payouts.banker)}x banker, ${String(payouts.tie)}x tie`,
      });
    },
  );
