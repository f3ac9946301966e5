/**
 * Baccarat (punto banco) as a GameModule: one coup per bet on player, banker or tie.
 *
 * Payouts are total return: player 2x (1:1), banker 1.95x (0.95:1), tie 9x (8:1). A tie
 * returns the stake of a player or banker bet (multiplier 1). Cards come from an infinite
 * shoe: each card is `int(52)` of the bet's draw stream (see cards.ts), dealt player, banker,
 * player, banker, then the player's and the banker's third cards only when the rules
 * (baccarat-rules.ts) call for them. The edges therefore differ slightly from casino.md's
 * 8-deck figures (player 1.24%, banker 1.06%, tie 14.4%), which stay the advertised edges.
 */
import type { Outcome } from '../../../core/errors.ts';
import { ONE, ZERO, ratio, ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';
import { baccaratTotal, coupOdds, coupWinner, dealCoup, type BaccaratSide } from './baccarat-rules.ts';
import { cardCodes } from './cards.ts';
import { hitOrMiss } from './chances.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { enumParam, oneParam, type Params } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export interface BaccaratParams {
  readonly betOn: BaccaratSide;
}

export const BACCARAT_SIDES: readonly BaccaratSide[] = ['player', 'banker', 'tie'];

/** Total return of a winning bet on each side. */
export const BACCARAT_WIN_MULTIPLIER: Readonly<Record<BaccaratSide, Ratio>> = {
  player: ratio(2),
  banker: ratioFromDecimal('1.95'),
  tie: ratio(9),
};

const ADVERTISED_EDGE: Readonly<Record<BaccaratSide, Ratio>> = {
  player: ratioFromDecimal('0.0124'),
  banker: ratioFromDecimal('0.0106'),
  tie: ratioFromDecimal('0.144'),
};

/** What a bet on `betOn` returns when `winner` wins the coup. */
export function baccaratMultiplier(betOn: BaccaratSide, winner: BaccaratSide): Ratio {
  if (winner === betOn) return BACCARAT_WIN_MULTIPLIER[betOn];
  return winner === 'tie' ? ONE : ZERO;
}

const parse = (params: Params): Outcome<BaccaratParams> =>
  oneParam('betOn', enumParam(params, 'bet_on', BACCARAT_SIDES));

function play(params: BaccaratParams, draws: Draws): GameResult {
  const coup = dealCoup(() => draws.int(52));
  const winner = coupWinner(coup);
  const multiplier = baccaratMultiplier(params.betOn, winner);
  const outcome = winner === params.betOn ? 'win' : winner === 'tie' ? 'push' : 'lose';
  return {
    multiplier,
    detail: {
      bet_on: params.betOn,
      player_cards: cardCodes(coup.player),
      banker_cards: cardCodes(coup.banker),
      player_total: baccaratTotal(coup.player),
      banker_total: baccaratTotal(coup.banker),
      winner,
      outcome,
    },
  };
}

function distribution(params: BaccaratParams): readonly Chance[] {
  const odds = coupOdds();
  const win = odds[params.betOn];
  if (params.betOn === 'tie') return hitOrMiss(win, BACCARAT_WIN_MULTIPLIER.tie);
  const lose = params.betOn === 'player' ? odds.banker : odds.player;
  return [
    [win, BACCARAT_WIN_MULTIPLIER[params.betOn]],
    [odds.tie, ONE],
    [lose, ZERO],
  ];
}

export const baccarat: GameModule<BaccaratParams> = {
  id: 'baccarat',
  name: 'Baccarat',
  path: 'baccarat',
  advertisedEdgeText: 'player 1.24%, banker 1.06%, tie 14.4%',
  advertisedEdge: (params) => ADVERTISED_EDGE[params.betOn],
  ...TABLE_BET_RANGE,
  paramFields: ['bet_on'],
  parse,
  play,
  distribution,
  variants: () => BACCARAT_SIDES.map((betOn) => ({ name: `baccarat:${betOn}`, params: { betOn } })),
  variantName: (params) => `baccarat:${params.betOn}`,
};
