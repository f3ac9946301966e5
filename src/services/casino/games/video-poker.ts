/**
 * Video poker (Jacks or Better, 9/6) as a GameModule: a free deal, then a draw that is the bet.
 *
 * Draw mapping: one nonce's stream gives `sample(52, 10)` (cards.ts codes): the first five
 * cards are the deal, the next five replace the discarded positions in ascending position
 * order. `deal(draws)` shows the first five; `play(params, draws)` re-derives the same deal
 * from the same nonce, so it stays a pure function of (params, draws).
 *
 * holds: a JSON array of up to five distinct card codes of the dealt hand ("AS", "TH", "10h"),
 * or of up to five distinct positions 0–4 of the dealt order; [] discards everything. The
 * service checks card codes against the dealt hand with `holdPositions` (400 when a card was
 * not dealt). The internal variant "video_poker:optimal" holds what `optimalHolds` picks.
 *
 * distribution(params), the law of play over a fresh nonce: optimal → the checked-in exact law
 * (video-poker-optimal-law.ts, RTP 0.995439…); positions → a uniformly random final hand (the
 * dealt order is exchangeable); card codes → those cards plus uniform others, given a deal that
 * holds them. The law given a dealt hand is `holdLaw(hand, positions)` (video-poker-analysis.ts).
 * WARNING for the service: the bet is placed after the deal is seen, so an agent that may pick
 * the amount (or walk away) per deal can bet big only on strong deals; see docs/decisions/casino.md.
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { ratio, ratioFromDecimal, ratioToNumber } from '../../../core/ratio.ts';
import { cardCodes, parseCardCode, type Card } from './cards.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { intParam, type Params } from './params.ts';
import { optimalHolds } from './video-poker-analysis.ts';
import { HAND_CLASSES, PAY_TABLE, classifyCards } from './video-poker-hand.ts';
import { lawOfHeldCards, optimalLaw } from './video-poker-laws.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export type VideoPokerHolds =
  | { readonly kind: 'cards'; readonly cards: readonly Card[] }
  | { readonly kind: 'positions'; readonly positions: readonly number[] }
  | { readonly kind: 'strategy'; readonly strategy: 'optimal' };

export interface VideoPokerParams {
  readonly holds: VideoPokerHolds;
  /** The deal's nonce as sent (the service resolves it); null when absent. */
  readonly nonce: number | null;
}

export const OPTIMAL_PARAMS: VideoPokerParams = { holds: { kind: 'strategy', strategy: 'optimal' }, nonce: null };

const HOLDS_TEXT =
  'holds must be an array of up to 5 distinct card codes of the dealt hand (e.g. "AS", "TH") or of positions 0 to 4';

/** The ten cards of a nonce: five dealt, five replacements. */
const dealAndReplacements = (draws: Draws): number[] => draws.sample(52, 10);

/** The five dealt cards of a fresh nonce's stream. */
export function deal(draws: Draws): Card[] {
  return dealAndReplacements(draws).slice(0, 5);
}

function parseHolds(value: unknown): VideoPokerHolds | Failure {
  if (!Array.isArray(value) || value.length > 5) return fail('BAD_REQUEST', HOLDS_TEXT);
  const items = value as unknown[];
  if (items.every((item) => typeof item === 'number')) {
    const positions = items as number[];
    const valid = positions.every((position) => Number.isSafeInteger(position) && position >= 0 && position <= 4);
    return valid && new Set(positions).size === positions.length
      ? { kind: 'positions', positions: [...positions].sort((a, b) => a - b) }
      : fail('BAD_REQUEST', HOLDS_TEXT);
  }
  if (!items.every((item) => typeof item === 'string')) return fail('BAD_REQUEST', HOLDS_TEXT);
  const cards = (items as string[]).map(parseCardCode);
  if (cards.some((card) => card === null) || new Set(cards).size !== cards.length)
    return fail('BAD_REQUEST', HOLDS_TEXT);
  return { kind: 'cards', cards: cards as Card[] };
}

function parse(params: Params): Outcome<VideoPokerParams> {
  const holds = parseHolds(params['holds']);
  if (isFailure(holds)) return holds;
  const nonce = params['nonce'] === undefined ? null : intParam(params, 'nonce', 0, Number.MAX_SAFE_INTEGER);
  if (isFailure(nonce)) return nonce;
  return succeed({ holds, nonce });
}

/** The held positions (ascending) of `hand`, or 400 when a held card was not dealt. */
export function holdPositions(hand: readonly Card[], holds: VideoPokerHolds): number[] | Failure {
  switch (holds.kind) {
    case 'positions':
      return [...holds.positions];
    case 'strategy':
      return optimalHolds(hand);
    case 'cards': {
      const positions = holds.cards.map((card) => hand.indexOf(card));
      const missing = holds.cards.filter((_, index) => positions[index] === -1);
      if (missing.length > 0)
        return fail(
          'BAD_REQUEST',
          `holds: ${cardCodes(missing).join(', ')} not in the dealt hand ${cardCodes(hand).join(' ')}`,
        );
      return positions.sort((a, b) => a - b);
    }
  }
}

function play(params: VideoPokerParams, draws: Draws): GameResult {
  const cards = dealAndReplacements(draws);
  const hand = cards.slice(0, 5);
  const held = holdPositions(hand, params.holds);
  assert(!isFailure(held), 'the service validates holds against the deal before play');
  let next = 5;
  const final = hand.map((card, position) => (held.includes(position) ? card : (cards[next++] ?? card)));
  const handClass = classifyCards(final);
  const multiplier = ratio(PAY_TABLE[handClass] ?? 0);
  return {
    multiplier,
    detail: {
      dealt_cards: cardCodes(hand),
      held_positions: held,
      held_cards: cardCodes(held.map((position) => hand[position] ?? 0)),
      final_cards: cardCodes(final),
      hand: HAND_CLASSES[handClass] ?? 'nothing',
      pays: ratioToNumber(multiplier),
    },
  };
}

function distribution(params: VideoPokerParams): readonly Chance[] {
  switch (params.holds.kind) {
    case 'strategy':
      return optimalLaw();
    case 'positions':
      return lawOfHeldCards([]);
    case 'cards':
      return lawOfHeldCards(params.holds.cards);
  }
}

export const videoPoker: GameModule<VideoPokerParams> = {
  id: 'video_poker',
  name: 'Video Poker (Jacks or Better)',
  path: 'video-poker',
  advertisedEdgeText: 'about 1.5% with optimal play',
  advertisedEdge: () => ratioFromDecimal('0.015'),
  ...TABLE_BET_RANGE,
  paramFields: ['holds', 'nonce'],
  parse,
  play,
  distribution,
  variants: () => [{ name: 'video_poker:optimal', params: OPTIMAL_PARAMS }],
  variantName: (params) => (params.holds.kind === 'strategy' ? 'video_poker:optimal' : 'video_poker:holds'),
};
