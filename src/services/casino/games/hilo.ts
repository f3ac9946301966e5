/**
 * Hi-lo as a GameModule: the agent guesses higher or lower, a first card is dealt, then the
 * next card decides; equal ranks push (multiplier 1). Aces are low (A = 1 … K = 13).
 *
 * The guess is placed before the first card shows (one call, one bet), so the payout is set by
 * the first card: with w winning ranks out of 13 (w = 13 − r for higher, r − 1 for lower), a
 * win pays floor-to-cents(0.96 × 12 / w), raised to 1.05 (casino.md's floor) — 12 / w is the
 * fair multiplier when ties push, so every first card keeps an edge of (12 − w·m) / 13 ≥ 3.4%;
 * over the first card the edge is 41/1100 ≈ 3.73% for either guess.
 *
 * The first card is never an ace or a king: on those one guess cannot lose (no payout ≥ 1 would
 * leave the house an edge) and the other cannot win. Draw mapping: first card v = int(44),
 * rank 2 + (v mod 11) (2..Q), suit SHDC[floor(v / 11)]; second card int(52) (cards.ts), so
 * every rank A..K is equally likely for it.
 */
import { assert } from '../../../core/assert.ts';
import type { Outcome } from '../../../core/errors.ts';
import { ONE, ZERO, compare, ratio, ratioFromDecimal, ratioToNumber, type Ratio } from '../../../core/ratio.ts';
import { cardCode, cardOf, rankOf, type Card, RANK_COUNT } from './cards.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { enumParam, oneParam, type Params } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export type HiloGuess = 'higher' | 'lower';

export interface HiloParams {
  readonly guess: HiloGuess;
}

export const HILO_GUESSES: readonly HiloGuess[] = ['higher', 'lower'];

/** The first card's ranks: 2..Q. */
export const HILO_FIRST_RANK_MIN = 2;
export const HILO_FIRST_RANK_MAX = 12;
const FIRST_RANK_COUNT = HILO_FIRST_RANK_MAX - HILO_FIRST_RANK_MIN + 1;

const MULTIPLIER_MIN = ratioFromDecimal('1.05');

/** Ranks of 13 that beat `firstRank` for `guess`. */
export function hiloWinningRanks(firstRank: number, guess: HiloGuess): number {
  return guess === 'higher' ? RANK_COUNT - firstRank : firstRank - 1;
}

/** Total return of a winning guess with `winningRanks` ranks out of 13 that win (1..11). */
export function hiloWinMultiplier(winningRanks: number): Ratio {
  assert(
    Number.isSafeInteger(winningRanks) && winningRanks >= 1 && winningRanks <= 11,
    'a hilo guess has 1 to 11 winning ranks',
  );
  const floored = ratio(Math.floor((96 * 12) / winningRanks), 100);
  return compare(floored, MULTIPLIER_MIN) < 0 ? MULTIPLIER_MIN : floored;
}

export function hiloFirstCard(draws: Draws): Card {
  const value = draws.int(FIRST_RANK_COUNT * 4);
  return cardOf(HILO_FIRST_RANK_MIN + (value % FIRST_RANK_COUNT), Math.floor(value / FIRST_RANK_COUNT));
}

const parse = (params: Params): Outcome<HiloParams> => oneParam('guess', enumParam(params, 'guess', HILO_GUESSES));

function play(params: HiloParams, draws: Draws): GameResult {
  const first = hiloFirstCard(draws);
  const next = draws.int(52);
  const firstRank = rankOf(first);
  const nextRank = rankOf(next);
  const winMultiplier = hiloWinMultiplier(hiloWinningRanks(firstRank, params.guess));
  const won = params.guess === 'higher' ? nextRank > firstRank : nextRank < firstRank;
  const outcome = nextRank === firstRank ? 'push' : won ? 'win' : 'lose';
  const multiplier = outcome === 'push' ? ONE : won ? winMultiplier : ZERO;
  return {
    multiplier,
    detail: {
      guess: params.guess,
      first_card: cardCode(first),
      next_card: cardCode(next),
      win_multiplier: ratioToNumber(winMultiplier),
      outcome,
    },
  };
}

/** First card uniform over 2..Q, next rank uniform over 13: sums per multiplier, exactly. */
function distribution(params: HiloParams): readonly Chance[] {
  const byMultiplier = new Map<string, { multiplier: Ratio; count: number }>();
  const addCount = (multiplier: Ratio, count: number): void => {
    const key = `${multiplier.num}/${multiplier.den}`;
    const entry = byMultiplier.get(key) ?? { multiplier, count: 0 };
    entry.count += count;
    byMultiplier.set(key, entry);
  };
  for (let firstRank = HILO_FIRST_RANK_MIN; firstRank <= HILO_FIRST_RANK_MAX; firstRank++) {
    const winning = hiloWinningRanks(firstRank, params.guess);
    addCount(hiloWinMultiplier(winning), winning);
    addCount(ONE, 1);
    addCount(ZERO, RANK_COUNT - 1 - winning);
  }
  const denominator = FIRST_RANK_COUNT * RANK_COUNT;
  const entries = [...byMultiplier.values()].sort((a, b) => compare(a.multiplier, b.multiplier));
  return entries.map(({ multiplier, count }) => [ratio(count, denominator), multiplier] as const);
}

export const hilo: GameModule<HiloParams> = {
  id: 'hilo',
  name: 'Hi-Lo',
  path: 'hilo',
  advertisedEdgeText: 'about 4%',
  advertisedEdge: () => ratio(4, 100),
  ...TABLE_BET_RANGE,
  paramFields: ['guess'],
  parse,
  play,
  distribution,
  variants: () => HILO_GUESSES.map((guess) => ({ name: `hilo:${guess}`, params: { guess } })),
  variantName: (params) => `hilo:${params.guess}`,
};
