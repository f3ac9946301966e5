/**
 * Punto banco drawing rules and their exact outcome odds on an infinite shoe.
 *
 * One coup: player, banker, player, banker (two cards each); a two-card 8 or 9 on either side
 * (a natural) ends the coup; otherwise the player draws a third card on 0–5 and stands on 6–7;
 * a banker facing a standing player draws on 0–5; facing a player's third card of value p the
 * banker draws on 0–2, on 3 unless p = 8, on 4 if p is 2–7, on 5 if p is 4–7, on 6 if p is 6–7,
 * and stands on 7. Totals are the point sum mod 10 (A = 1, 10/J/Q/K = 0).
 *
 * The odds are enumerated over card values with the shoe's weights (value 0 has 4 ranks of 13,
 * each other value 1), through the very rule functions `dealCoup` uses, so the exact odds and
 * the sampled coups cannot drift apart. Non-goals: finite shoes, side bets, commission rounding.
 */
import { assert } from '../../../core/assert.ts';
import { type Card, pointValue } from './cards.ts';
import { ratio, type Ratio } from '../../../core/ratio.ts';

export type BaccaratSide = 'player' | 'banker' | 'tie';

export interface Coup {
  readonly player: readonly Card[];
  readonly banker: readonly Card[];
}

export const baccaratValue = (card: Card): number => pointValue(card) % 10;

export function baccaratTotal(cards: readonly Card[]): number {
  return cards.reduce((sum, card) => sum + baccaratValue(card), 0) % 10;
}

export const isNatural = (twoCardTotal: number): boolean => twoCardTotal >= 8;

const playerDraws = (playerTotal: number): boolean => playerTotal <= 5;

/** `playerThirdValue` is null when the player stood on two cards. */
export function bankerDraws(bankerTotal: number, playerThirdValue: number | null): boolean {
  if (playerThirdValue === null) return bankerTotal <= 5;
  const p = playerThirdValue;
  if (bankerTotal <= 2) return true;
  if (bankerTotal === 3) return p !== 8;
  if (bankerTotal === 4) return p >= 2 && p <= 7;
  if (bankerTotal === 5) return p >= 4 && p <= 7;
  if (bankerTotal === 6) return p === 6 || p === 7;
  return false;
}

/** Deals one coup from a card source, drawing third cards only when the rules call for them. */
export function dealCoup(nextCard: () => Card): Coup {
  const first = [nextCard(), nextCard(), nextCard(), nextCard()] as const;
  const player = [first[0], first[2]];
  const banker = [first[1], first[3]];
  if (isNatural(baccaratTotal(player)) || isNatural(baccaratTotal(banker))) return { player, banker };
  let playerThirdValue: number | null = null;
  if (playerDraws(baccaratTotal(player))) {
    const third = nextCard();
    player.push(third);
    playerThirdValue = baccaratValue(third);
  }
  if (bankerDraws(baccaratTotal(banker), playerThirdValue)) banker.push(nextCard());
  return { player, banker };
}

export function coupWinner(coup: Coup): BaccaratSide {
  const playerTotal = baccaratTotal(coup.player);
  const bankerTotal = baccaratTotal(coup.banker);
  return playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie';
}

/** Ranks of 13 per card value: 10, J, Q, K count 0. */
const VALUE_WEIGHTS = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1] as const;
/** A coup uses at most six cards: every weight is counted out of 13^6. */
const SIX_CARDS = 13 ** 6;

export interface CoupOdds {
  readonly player: Ratio;
  readonly banker: Ratio;
  readonly tie: Ratio;
}

let cachedOdds: CoupOdds | undefined;

/** Exact P(player wins), P(banker wins), P(tie) on an infinite shoe. */
export function coupOdds(): CoupOdds {
  cachedOdds ??= enumerateCoups();
  return cachedOdds;
}

function enumerateCoups(): CoupOdds {
  const counts = { player: 0, banker: 0, tie: 0 };
  const record = (playerTotal: number, bankerTotal: number, weight: number): void => {
    const side: BaccaratSide = playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie';
    counts[side] += weight;
  };
  for (let p1 = 0; p1 < 10; p1++)
    for (let p2 = 0; p2 < 10; p2++)
      for (let b1 = 0; b1 < 10; b1++)
        for (let b2 = 0; b2 < 10; b2++) {
          const weight = weightOf(p1) * weightOf(p2) * weightOf(b1) * weightOf(b2) * 13 * 13;
          finishCoup((p1 + p2) % 10, (b1 + b2) % 10, weight, record);
        }
  const total = counts.player + counts.banker + counts.tie;
  assert(total === SIX_CARDS, 'baccarat enumeration covers every coup exactly once');
  return {
    player: ratio(counts.player, SIX_CARDS),
    banker: ratio(counts.banker, SIX_CARDS),
    tie: ratio(counts.tie, SIX_CARDS),
  };
}

const weightOf = (value: number): number => VALUE_WEIGHTS[value] ?? 0;

/** `weight` counts the two unused third-card slots as 13 each; a drawn card replaces one 13 by its weight. */
function finishCoup(
  player: number,
  banker: number,
  weight: number,
  record: (p: number, b: number, w: number) => void,
): void {
  if (isNatural(player) || isNatural(banker)) return record(player, banker, weight);
  if (!playerDraws(player)) {
    if (!bankerDraws(banker, null)) return record(player, banker, weight);
    for (let b3 = 0; b3 < 10; b3++) record(player, (banker + b3) % 10, (weight / 13) * weightOf(b3));
    return;
  }
  for (let p3 = 0; p3 < 10; p3++) {
    const playerTotal = (player + p3) % 10;
    const afterPlayer = (weight / 13) * weightOf(p3);
    if (!bankerDraws(banker, p3)) {
      record(playerTotal, banker, afterPlayer);
      continue;
    }
    for (let b3 = 0; b3 < 10; b3++) record(playerTotal, (banker + b3) % 10, (afterPlayer / 13) * weightOf(b3));
  }
}
