/**
 * Reading the cards of a video-poker deal: the documents show two-character codes ("QS", "TH"),
 * the deployment `{rank, suit}` objects (DEPLOYED.md §2.5; suits ♠♥♦♣ in afp's S, H, D, C order).
 * Both become afp's card numbers (src/services/casino/games/cards.ts). A card that cannot be read
 * is recorded on the reader and the hand is null: the audit then skips that deal rather than
 * choosing holds for cards it did not see.
 */
import { cardOf, parseCardCode, RANK_CHARS, SUIT_CHARS, type Card } from '../../services/casino/games/cards.ts';
import type { WireReader } from '../wire-reader.ts';

const SUIT_NAMES: Readonly<Record<string, number>> = {
  '♠': 0,
  S: 0,
  SPADES: 0,
  '♥': 1,
  H: 1,
  HEARTS: 1,
  '♦': 2,
  D: 2,
  DIAMONDS: 2,
  '♣': 3,
  C: 3,
  CLUBS: 3,
};

function rankOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value))
    return value === 14 ? 1 : value >= 1 && value <= 13 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toUpperCase();
  if (/^\d{1,2}$/.test(text)) return rankOf(Number(text));
  const index = RANK_CHARS.indexOf(text.charAt(0));
  return text.length === 1 && index >= 0 ? index + 1 : null;
}

/** One card from a code string or a `{rank, suit}` object; null when neither reads. */
export function cardFrom(value: unknown): Card | null {
  if (typeof value === 'string') return parseCardCode(value.trim().toUpperCase());
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { rank, suit } = value as { rank?: unknown; suit?: unknown };
  const rankNumber = rankOf(rank);
  const suitNumber =
    typeof suit === 'string'
      ? SUIT_NAMES[suit.trim().toUpperCase()]
      : typeof suit === 'number' && suit >= 0 && suit < SUIT_CHARS.length
        ? suit
        : undefined;
  return rankNumber === null || suitNumber === undefined ? null : cardOf(rankNumber, suitNumber);
}

/** Five cards at `path`, or null (recorded on the reader as a type deviation). */
export function readHand(reader: WireReader, path: string): Card[] | null {
  const list = reader.array(path);
  if (list === null) return null;
  const cards = list.map(cardFrom);
  if (cards.length !== 5 || cards.some((card) => card === null)) {
    reader.record({
      kind: 'type',
      field: path,
      expected: 'five cards ("QS" codes or {rank, suit})',
      seen: JSON.stringify(list).slice(0, 200),
      documented: false,
      required: true,
    });
    return null;
  }
  return cards as Card[];
}
