/**
 * The games the casino check bets on, as the reference model knows them: coin flip, dice,
 * roulette, keno (a multi-draw game: 20 numbers) and plinko (one draw per row).
 *
 * For each drawn choice the model states, on its own: whether the parameters are valid (the
 * ranges of casino.md), the exact law of the total-return multiplier (coin 1.96x at 1/2; dice
 * 98 / winning rolls; roulette 1.96x / 2.94x / 34.3x on a European wheel; keno by the
 * hypergeometric law over the published paytable; plinko by the binomial law over the published
 * bin tables), the bet's minimum and maximum, and the Kelly limit of NOTES.md from that law.
 * It never calls the casino service, the game modules' `distribution`, nor the Kelly modules; the
 * paytables and roulette's bet types are data it reads (keno-tables.ts, plinko-tables.ts,
 * roulette.ts), and only `replay` runs a game module's pure `play` on provably fair draws — the
 * published rule a revealed seed is checked by.
 */
import { ONE, ZERO, add, compare, div, mul, ratio, ratioFromDecimal, sub, type Ratio } from '../../core/ratio.ts';
import type { DrawStream } from '../../services/casino/fair/draw-stream.ts';
import { coinFlip } from '../../services/casino/games/coin-flip.ts';
import { dice } from '../../services/casino/games/dice.ts';
import type { GameResult } from '../../services/casino/games/game.ts';
import { keno } from '../../services/casino/games/keno.ts';
import { KENO_PAYTABLE } from '../../services/casino/games/keno-tables.ts';
import { plinko } from '../../services/casino/games/plinko.ts';
import { PLINKO_HALF_TABLES, type PlinkoRisk, type PlinkoRows } from '../../services/casino/games/plinko-tables.ts';
import { roulette, ROULETTE_BET_TYPES, type RouletteBetType } from '../../services/casino/games/roulette.ts';

export type ModelGameChoice =
  | { readonly game: 'coin_flip'; readonly side: 'heads' | 'tails' }
  | { readonly game: 'dice'; readonly direction: 'over' | 'under'; readonly threshold: number }
  | { readonly game: 'roulette'; readonly betType: string; readonly betValue: number | null }
  | { readonly game: 'keno'; readonly picks: readonly number[] }
  | { readonly game: 'plinko'; readonly rows: number; readonly risk: string };

type GameId = ModelGameChoice['game'];

/** One outcome class: probability and total-return multiplier. */
type PayoutChance = readonly [probability: Ratio, multiplier: Ratio];

const MICRO = 1_000_000n;
/** casino.md: minimum bet 0.01 for every game. */
export const MIN_BET_MICRO = 10_000n;
/** casino.md style B: dice (and the core games) 10,000; keno and plinko 1,000 (afp's choice, docs/decisions/casino.md). */
export function gameMaxBetMicro(game: GameId): bigint {
  return game === 'keno' || game === 'plinko' ? 1_000n * MICRO : 10_000n * MICRO;
}

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);

export function choiceText(choice: ModelGameChoice): string {
  switch (choice.game) {
    case 'coin_flip':
      return `coin_flip ${choice.side}`;
    case 'dice':
      return `dice ${choice.direction} ${choice.threshold}`;
    case 'roulette':
      return `roulette ${choice.betType}${choice.betValue === null ? '' : ` ${choice.betValue}`}`;
    case 'keno':
      return `keno [${choice.picks.join(',')}]`;
    case 'plinko':
      return `plinko ${choice.rows} ${choice.risk}`;
  }
}

/** The game's parameters as a style-A body carries them. */
export function paramsA(choice: ModelGameChoice): Record<string, unknown> {
  switch (choice.game) {
    case 'coin_flip':
      return { side: choice.side };
    case 'dice':
      return { direction: choice.direction, threshold: choice.threshold };
    case 'roulette':
      return choice.betValue === null
        ? { bet_type: choice.betType }
        : { bet_type: choice.betType, bet_value: choice.betValue };
    case 'keno':
      return { picks: [...choice.picks] };
    case 'plinko':
      return { rows: choice.rows, risk: choice.risk };
  }
}

const diceWinningRolls = (direction: 'over' | 'under', threshold: number): number =>
  direction === 'over' ? 100 - threshold : threshold - 1;

/** True when casino.md's ranges accept the parameters (else the bet is a 400). */
export function validChoice(choice: ModelGameChoice): boolean {
  switch (choice.game) {
    case 'coin_flip':
      return true;
    case 'dice':
      return (
        Number.isInteger(choice.threshold) &&
        choice.threshold >= 1 &&
        choice.threshold <= 99 &&
        diceWinningRolls(choice.direction, choice.threshold) > 0
      );
    case 'roulette':
      if (!ROULETTE_BET_TYPES.some((type) => type === choice.betType)) return false;
      return choice.betType === 'number'
        ? choice.betValue !== null && choice.betValue >= 0 && choice.betValue <= 36
        : choice.betValue === null;
    case 'keno':
      return (
        choice.picks.length >= 1 &&
        choice.picks.length <= 10 &&
        new Set(choice.picks).size === choice.picks.length &&
        choice.picks.every((pick) => pick >= 1 && pick <= 80)
      );
    case 'plinko':
      return [8, 12, 16].includes(choice.rows) && ['low', 'medium', 'high'].includes(choice.risk);
  }
}

function rouletteWins(betType: string, betValue: number | null, pocket: number): boolean {
  if (betType === 'number') return pocket === betValue;
  if (pocket === 0) return false;
  const byType: Record<string, boolean> = {
    red: RED.has(pocket),
    black: !RED.has(pocket),
    odd: pocket % 2 === 1,
    even: pocket % 2 === 0,
    low: pocket <= 18,
    high: pocket >= 19,
    dozen_1: pocket <= 12,
    dozen_2: pocket >= 13 && pocket <= 24,
    dozen_3: pocket >= 25,
    column_1: pocket % 3 === 1,
    column_2: pocket % 3 === 2,
    column_3: pocket % 3 === 0,
  };
  return byType[betType] === true;
}

function roulettePayout(betType: string): Ratio {
  if (betType === 'number') return ratioFromDecimal('34.3');
  return betType.startsWith('dozen') || betType.startsWith('column')
    ? ratioFromDecimal('2.94')
    : ratioFromDecimal('1.96');
}

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let index = 0; index < k; index++) result = (result * BigInt(n - index)) / BigInt(index + 1);
  return result;
}

/** The exact law of the multiplier (a valid choice); outcomes with the same multiplier may repeat. */
export function law(choice: ModelGameChoice): PayoutChance[] {
  switch (choice.game) {
    case 'coin_flip':
      return [
        [ratio(1, 2), ratioFromDecimal('1.96')],
        [ratio(1, 2), ZERO],
      ];
    case 'dice': {
      const wins = diceWinningRolls(choice.direction, choice.threshold);
      return [
        [ratio(wins, 100), ratio(98, wins)],
        [ratio(100 - wins, 100), ZERO],
      ];
    }
    case 'roulette': {
      let wins = 0;
      for (let pocket = 0; pocket <= 36; pocket++) if (rouletteWins(choice.betType, choice.betValue, pocket)) wins += 1;
      return [
        [ratio(wins, 37), roulettePayout(choice.betType)],
        [ratio(37 - wins, 37), ZERO],
      ];
    }
    case 'keno': {
      const spots = choice.picks.length;
      const table = KENO_PAYTABLE[spots] ?? {};
      return Array.from({ length: spots + 1 }, (_, hits): PayoutChance => {
        const text = table[hits];
        return [
          ratio(choose(20, hits) * choose(60, spots - hits), choose(80, spots)),
          text === undefined ? ZERO : ratioFromDecimal(text),
        ];
      });
    }
    case 'plinko': {
      const half = PLINKO_HALF_TABLES[choice.rows as PlinkoRows][choice.risk as PlinkoRisk];
      return Array.from({ length: choice.rows + 1 }, (_, bin): PayoutChance => [
        ratio(choose(choice.rows, bin), 1n << BigInt(choice.rows)),
        ratioFromDecimal(half[Math.min(bin, choice.rows - bin)] ?? '0'),
      ]);
    }
  }
}

/** The distinct multipliers a valid choice can pay, ascending. */
export function support(choice: ModelGameChoice): Ratio[] {
  const found: Ratio[] = [];
  for (const [probability, multiplier] of law(choice)) {
    if (probability.num > 0n && !found.some((known) => compare(known, multiplier) === 0)) found.push(multiplier);
  }
  return found.sort(compare);
}

/**
 * NOTES.md "Kelly limit": p = P(multiplier > 1), payout = E[multiplier | multiplier > 1] (afp's
 * reduction of a many-outcome law, docs/decisions/casino.md "Casino Kelly rule"); b = payout − 1, f* = (b·p − (1 −
 * p)) / b; f* ≤ 0 → bankroll × risk × p, else bankroll × f* × risk; rounded down; p = 0 → 0.
 */
export function kellyLimitMicro(choice: ModelGameChoice, bankrollMicro: bigint, riskPercent: number): bigint {
  if (bankrollMicro <= 0n) return 0n;
  let p = ZERO;
  let winReturn = ZERO;
  for (const [probability, multiplier] of law(choice)) {
    if (compare(multiplier, ONE) <= 0) continue;
    p = add(p, probability);
    winReturn = add(winReturn, mul(probability, multiplier));
  }
  if (p.num === 0n) return 0n;
  const b = sub(div(winReturn, p), ONE);
  const fStar = div(sub(mul(b, p), sub(ONE, p)), b);
  const risk = ratio(riskPercent, 100);
  const allowed = compare(fStar, ZERO) <= 0 ? mul(risk, p) : mul(fStar, risk);
  return (bankrollMicro * allowed.num) / allowed.den;
}

/** The published rule: the game module's pure `play` on the bet's provably fair draws. */
export function replay(choice: ModelGameChoice, draws: DrawStream): GameResult {
  switch (choice.game) {
    case 'coin_flip':
      return coinFlip.play({ side: choice.side }, draws);
    case 'dice':
      return dice.play({ direction: choice.direction, threshold: choice.threshold }, draws);
    case 'roulette':
      return roulette.play({ betType: choice.betType as RouletteBetType, betValue: choice.betValue }, draws);
    case 'keno':
      return keno.play({ picks: choice.picks }, draws);
    case 'plinko':
      return plinko.play({ rows: choice.rows as PlinkoRows, risk: choice.risk as PlinkoRisk }, draws);
  }
}

/**
 * Whether a style-A answer's `result` agrees with its own multiplier under the game's rule, and
 * with casino.md where it states the draw (keno: 20 numbers from 1 to 80): a check any client can
 * make before the seed is revealed. The result fields are afp's (roll, number, drawn, path).
 */
export function detailProblems(choice: ModelGameChoice, multiplier: Ratio, detail: unknown): string[] {
  const record =
    typeof detail === 'object' && detail !== null && !Array.isArray(detail) ? (detail as Record<string, unknown>) : {};
  const expected = multiplierOfDetail(choice, record);
  if (typeof expected === 'string') return [`result: ${expected}, got ${JSON.stringify(detail)}`];
  return compare(expected, multiplier) === 0
    ? []
    : [
        `result ${JSON.stringify(detail)} pays ${Number(expected.num) / Number(expected.den)}x under the rules of ${choiceText(choice)}, the answer paid ${Number(multiplier.num) / Number(multiplier.den)}x`,
      ];
}

const isInt = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** The multiplier the result implies, or why the result is not one the game can draw. */
function multiplierOfDetail(choice: ModelGameChoice, detail: Readonly<Record<string, unknown>>): Ratio | string {
  switch (choice.game) {
    case 'coin_flip': {
      const outcome = detail['outcome'];
      if (outcome !== 'heads' && outcome !== 'tails') return 'expected an outcome heads or tails';
      return outcome === choice.side ? ratioFromDecimal('1.96') : ZERO;
    }
    case 'dice': {
      const roll = detail['roll'];
      if (!isInt(roll, 1, 100)) return 'expected a roll from 1 to 100';
      const win = choice.direction === 'over' ? roll > choice.threshold : roll < choice.threshold;
      return win ? ratio(98, diceWinningRolls(choice.direction, choice.threshold)) : ZERO;
    }
    case 'roulette': {
      const pocket = detail['number'];
      if (!isInt(pocket, 0, 36)) return 'expected a pocket number from 0 to 36';
      return rouletteWins(choice.betType, choice.betValue, pocket) ? roulettePayout(choice.betType) : ZERO;
    }
    case 'keno': {
      const drawn = detail['drawn'];
      if (
        !Array.isArray(drawn) ||
        drawn.length !== 20 ||
        new Set(drawn).size !== 20 ||
        !drawn.every((value) => isInt(value, 1, 80))
      )
        return 'expected 20 distinct numbers from 1 to 80 drawn (casino.md)';
      const hits = choice.picks.filter((pick) => (drawn as unknown[]).includes(pick)).length;
      const text = KENO_PAYTABLE[choice.picks.length]?.[hits];
      return text === undefined ? ZERO : ratioFromDecimal(text);
    }
    case 'plinko': {
      const path = detail['path'];
      if (typeof path !== 'string' || path.length !== choice.rows || !/^[LR]*$/.test(path))
        return `expected a path of ${choice.rows} L/R steps`;
      const bin = [...path].filter((step) => step === 'R').length;
      const half = PLINKO_HALF_TABLES[choice.rows as PlinkoRows][choice.risk as PlinkoRisk];
      return ratioFromDecimal(half[Math.min(bin, choice.rows - bin)] ?? '0');
    }
  }
}
