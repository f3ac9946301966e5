/**
 * Roulette (id roulette, POST /games/roulette): European wheel, pockets 0..36.
 *
 * Draw mapping: pocket = int(37). Standard red numbers; 0 is green and loses every outside bet.
 * casino.md gives only the range "1.96x to 34.3x by bet type"; afp pays 0.98 × the classic
 * total return where it fits the range: even-money bets 1.96x, dozens and columns 2.94x, and a
 * straight number 34.3x (0.98 × 35, the top of the printed range). Edges: 43/925 (4.65%) for
 * even-money, dozen and column bets, 27/370 (7.30%) for a number, against the advertised 0.5%
 * (the audit reports it). bet_value (0..36) is required for a number bet and refused otherwise.
 */
import { fail, succeed } from '../../../core/errors.ts';
import { ZERO, ratio, ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';
import { hitOrMiss } from './chances.ts';
import type { Chance, GameModule, GameResult } from './game.ts';
import { enumParam, intParam } from './params.ts';
import { CORE_GAME_EDGE, WIDE_BET_RANGE } from './game-terms.ts';

export const ROULETTE_BET_TYPES = [
  'number',
  'red',
  'black',
  'odd',
  'even',
  'high',
  'low',
  'dozen_1',
  'dozen_2',
  'dozen_3',
  'column_1',
  'column_2',
  'column_3',
] as const;
export type RouletteBetType = (typeof ROULETTE_BET_TYPES)[number];

export interface RouletteParams {
  readonly betType: RouletteBetType;
  /** The pocket of a number bet; null for every other bet type. */
  readonly betValue: number | null;
}

const POCKETS = 37;
export const RED_NUMBERS: ReadonlySet<number> = new Set([
  1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36,
]);

const EVEN_MONEY = ratioFromDecimal('1.96');
const TWO_TO_ONE = ratioFromDecimal('2.94');
const STRAIGHT = ratioFromDecimal('34.3');

/** Total return of a winning bet of this type. */
export function roulettePayout(betType: RouletteBetType): Ratio {
  switch (betType) {
    case 'number':
      return STRAIGHT;
    case 'red':
    case 'black':
    case 'odd':
    case 'even':
    case 'high':
    case 'low':
      return EVEN_MONEY;
    case 'dozen_1':
    case 'dozen_2':
    case 'dozen_3':
    case 'column_1':
    case 'column_2':
    case 'column_3':
      return TWO_TO_ONE;
  }
}

export function rouletteColor(pocket: number): 'green' | 'red' | 'black' {
  if (pocket === 0) return 'green';
  return RED_NUMBERS.has(pocket) ? 'red' : 'black';
}

/** Whether the pocket wins the bet; 0 wins only a number bet on 0. */
export function rouletteWins(params: RouletteParams, pocket: number): boolean {
  if (params.betType === 'number') return pocket === params.betValue;
  if (pocket === 0) return false;
  switch (params.betType) {
    case 'red':
      return RED_NUMBERS.has(pocket);
    case 'black':
      return !RED_NUMBERS.has(pocket);
    case 'odd':
      return pocket % 2 === 1;
    case 'even':
      return pocket % 2 === 0;
    case 'low':
      return pocket <= 18;
    case 'high':
      return pocket >= 19;
    case 'dozen_1':
      return pocket <= 12;
    case 'dozen_2':
      return pocket >= 13 && pocket <= 24;
    case 'dozen_3':
      return pocket >= 25;
    case 'column_1':
      return pocket % 3 === 1;
    case 'column_2':
      return pocket % 3 === 2;
    case 'column_3':
      return pocket % 3 === 0;
  }
}

function winningPockets(params: RouletteParams): number {
  let count = 0;
  for (let pocket = 0; pocket < POCKETS; pocket++) if (rouletteWins(params, pocket)) count += 1;
  return count;
}

export const roulette: GameModule<RouletteParams> = {
  id: 'roulette',
  name: 'Roulette',
  path: 'roulette',
  ...CORE_GAME_EDGE,
  ...WIDE_BET_RANGE,
  paramFields: ['bet_type', 'bet_value'],
  parse(params) {
    const betType = enumParam(params, 'bet_type', ROULETTE_BET_TYPES);
    if (typeof betType !== 'string') return betType;
    if (betType !== 'number') {
      if (params['bet_value'] !== undefined)
        return fail('BAD_REQUEST', `bet_value is only accepted with bet_type number, not ${betType}`);
      return succeed({ betType, betValue: null });
    }
    const betValue = intParam(params, 'bet_value', 0, 36);
    if (typeof betValue !== 'number') return betValue;
    return succeed({ betType, betValue });
  },
  play(params, draws): GameResult {
    const pocket = draws.int(POCKETS);
    return {
      multiplier: rouletteWins(params, pocket) ? roulettePayout(params.betType) : ZERO,
      detail: { number: pocket, color: rouletteColor(pocket), bet_type: params.betType, bet_value: params.betValue },
    };
  },
  distribution(params): readonly Chance[] {
    const winChance = ratio(BigInt(winningPockets(params)), BigInt(POCKETS));
    return hitOrMiss(winChance, roulettePayout(params.betType));
  },
  variants: () => [
    { name: 'roulette:red', params: { betType: 'red', betValue: null } },
    { name: 'roulette:dozen_1', params: { betType: 'dozen_1', betValue: null } },
    { name: 'roulette:column_1', params: { betType: 'column_1', betValue: null } },
    { name: 'roulette:number:17', params: { betType: 'number', betValue: 17 } },
  ],
  variantName: (params) =>
    params.betType === 'number' ? `roulette:number:${params.betValue}` : `roulette:${params.betType}`,
};
