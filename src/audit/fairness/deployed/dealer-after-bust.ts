/**
 * Blackjack's dealer after the player busts: DEPLOYED.md §2.5 says the dealer draws while below 17,
 * not whether it still draws once the player's hit or double went over 21. Real blackjack does not,
 * and an honest deployment may stop there; the outcome (a bust loses) and the payout are the same
 * either way. The deployed rule always draws (card-games.ts, an honest reading too), so a bust
 * hand's answer may show any prefix of the rule's dealer cards of at least the two dealt, with
 * `dealer_total` the total of the cards it shows.
 *
 * This is the rule's result read that way: its dealer cut to as many cards as the answer shows, for
 * the outcome comparison (deployed-scheme.ts). Whether the cards shown are the rule's, and the total
 * theirs, is left to that comparison: a wrong card or a total not of the shown cards still differs.
 * Null where no such reading applies (another game, the player not bust, the answer's dealer as
 * long as the rule's or longer, or shorter than the two dealt cards).
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { cardsTotal } from '../../../services/casino/deployed/card-games.ts';

/** The dealer's two dealt cards: a hand shows at least these, bust or not. */
const DEALT_CARDS = 2;

export function dealerStoppedReading(game: string, recorded: JsonValue, recomputed: JsonObject): JsonObject | null {
  if (game !== 'blackjack' || typeof recorded !== 'object' || recorded === null || Array.isArray(recorded)) return null;
  const [playerTotal, dealer, shown] = [
    recomputed['player_total'],
    recomputed['dealer_cards'],
    recorded['dealer_cards'],
  ];
  if (typeof playerTotal !== 'number' || playerTotal <= 21 || !Array.isArray(dealer) || !Array.isArray(shown))
    return null;
  if (shown.length < DEALT_CARDS || shown.length >= dealer.length) return null;
  const stopped = dealer.slice(0, shown.length);
  return { ...recomputed, dealer_cards: stopped, dealer_total: cardsTotal(stopped.map(String)) };
}
