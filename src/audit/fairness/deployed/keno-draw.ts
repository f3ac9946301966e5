/**
 * Keno's draw as its answers show it (issue 68 part 3): each deployed keno answer lists the numbers
 * it `drawn`, its `range` ("1-80"), the `matches` it counted and the `payout_table` of the spots
 * picked. Why: a keno whose draw changed (20 distinct numbers as a fair keno draws, where
 * DEPLOYED.md's rule draws 5–8) follows no published mapping, and an audit that only had returns
 * printed "−4,586% from 22 bets". The answers state enough to measure the draw itself (how many
 * numbers a bet draws, and whether each of 1…N is drawn alike) and, under the measured draw, the
 * exact edge of the paytable they state.
 *
 * Measured: the sizes of the drawn sets; the numbers' counts over all bets of the game, with
 * Pearson's χ² against "each of 1…N alike" (Wilson–Hilferty's normal reading, rejected beyond the
 * 99.9% quantile; not decided below EXPECTED_MIN draws per number).
 * Restated law: where every kept bet of the variant drew the same number k of distinct numbers
 * within 1…N, counted its matches as picks ∩ drawn, showed the multiplier its stated table gives
 * for them, and stated one table, and the game's draws do not reject uniformity: P(c catches of s
 * spots) = C(s,c)·C(N−s,k−c)/C(N,k), times the stated table. Otherwise null (never a guess).
 * Limits: numbers above NUMBERS_MAX are not counted; at most the bets the caller kept.
 */
import type { JsonObject, JsonValue } from '../../../core/errors.ts';
import { ratio, ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';
import type { Chance } from '../../../services/casino/games/game.ts';
import { normalQuantile } from '../../edge/normal-quantile.ts';
import type { DrawStatement, KeptBet, RestatedRule } from '../scheme.ts';

const NUMBERS_MAX = 100;
/** Draws per number below which uniformity is not decided (Pearson's χ² wants about 5 per cell). */
const EXPECTED_MIN = 5;
const REJECT_AT = normalQuantile(0.999);

export interface KenoDrawMeasure {
  readonly bets: number;
  /** Drawn-set size → bets. */
  readonly sizes: ReadonlyMap<number, number>;
  /** The board's size the answers state (`range` "1-N"); null where unstated. */
  readonly numbers: number | null;
  /** Distinct numbers ever drawn. */
  readonly seen: number;
  readonly uniform: 'fits' | 'rejected' | 'too-few';
  readonly draws: number;
}

const objectOf = (value: JsonValue | undefined): JsonObject | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;

function drawnOf(result: JsonValue): number[] | null {
  const drawn = objectOf(result)?.['drawn'];
  return Array.isArray(drawn) && drawn.every((n) => typeof n === 'number' && Number.isInteger(n))
    ? (drawn as number[])
    : null;
}

function rangeOf(result: JsonValue): number | null {
  const match = /^1-(\d+)$/.exec(String(objectOf(result)?.['range'] ?? ''));
  const numbers = match === null ? null : Number(match[1]);
  return numbers !== null && numbers >= 1 && numbers <= NUMBERS_MAX ? numbers : null;
}

/** The game's draws over every kept bet of its variants. */
export function measureKenoDraw(kept: readonly KeptBet[]): KenoDrawMeasure {
  const sizes = new Map<number, number>();
  const counts = new Map<number, number>();
  let numbers: number | null = null;
  let draws = 0;
  for (const { bet } of kept) {
    const drawn = drawnOf(bet.result);
    if (drawn === null) continue;
    numbers ??= rangeOf(bet.result);
    sizes.set(drawn.length, (sizes.get(drawn.length) ?? 0) + 1);
    for (const number of drawn)
      if (number >= 1 && number <= NUMBERS_MAX) {
        counts.set(number, (counts.get(number) ?? 0) + 1);
        draws += 1;
      }
  }
  const bets = [...sizes.values()].reduce((total, count) => total + count, 0);
  return { bets, sizes, numbers, seen: counts.size, uniform: uniformity(counts, numbers, draws), draws };
}

/** Pearson's χ² of the counts against N equal cells, read through Wilson–Hilferty at 99.9%. */
function uniformity(
  counts: ReadonlyMap<number, number>,
  numbers: number | null,
  draws: number,
): KenoDrawMeasure['uniform'] {
  if (numbers === null || numbers < 2) return 'too-few';
  const outside = [...counts.keys()].some((number) => number > numbers);
  if (outside) return 'rejected';
  const expected = draws / numbers;
  if (expected < EXPECTED_MIN) return 'too-few';
  let chi = 0;
  for (let number = 1; number <= numbers; number += 1) chi += ((counts.get(number) ?? 0) - expected) ** 2 / expected;
  const dof = numbers - 1;
  const z = ((chi / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / Math.sqrt(2 / (9 * dof));
  return z > REJECT_AT ? 'rejected' : 'fits';
}

/** The stated payout table of a result, catches → multiplier; null where it states none readable. */
function tableOf(result: JsonValue): Map<number, string> | null {
  const table = objectOf(objectOf(result)?.['payout_table']);
  if (table === null) return null;
  const rows = new Map<number, string>();
  for (const [catches, pays] of Object.entries(table)) {
    if (!/^\d+$/.test(catches) || typeof pays !== 'number' || !/^\d+(\.\d+)?$/.test(String(pays))) return null;
    rows.set(Number(catches), String(pays));
  }
  return rows;
}

const tableText = (table: ReadonlyMap<number, string>): string =>
  [...table].map(([catches, pays]) => `${catches}:${pays}`).join(',');

/** Whether one kept bet agrees with itself: matches = picks ∩ drawn, shown multiplier = its table's. */
function selfConsistent(bet: KeptBet['bet'], picks: readonly number[], size: number, numbers: number): boolean {
  const drawn = drawnOf(bet.result);
  const table = tableOf(bet.result);
  if (drawn === null || table === null || drawn.length !== size || new Set(drawn).size !== size) return false;
  if (drawn.some((number) => number < 1 || number > numbers)) return false;
  const matches = picks.filter((pick) => drawn.includes(pick)).length;
  if (objectOf(bet.result)?.['matches'] !== matches) return false;
  return bet.multiplier === null || bet.multiplier === Number(table.get(matches) ?? 0);
}

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 1; i <= k; i += 1) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

/** The law of a stated table under k distinct numbers of N drawn alike, for the picks that lie in 1…N (`drawable`; a pick above N is never caught). */
function hypergeometricLaw(
  drawable: number,
  drawn: number,
  numbers: number,
  table: ReadonlyMap<number, string>,
): Chance[] {
  const total = choose(numbers, drawn);
  const law: Chance[] = [];
  for (let catches = 0; catches <= drawable; catches += 1) {
    const ways = choose(drawable, catches) * choose(numbers - drawable, drawn - catches);
    if (ways === 0n) continue;
    const pays: Ratio = table.has(catches) ? ratioFromDecimal(table.get(catches) as string) : ratio(0);
    law.push([ratio(ways, total), pays]);
  }
  return law;
}

/** The variant's law under the measured draw and its stated table; null where the answers do not state enough. */
export function restateKeno(params: JsonObject, kept: readonly KeptBet[], game: KenoDrawMeasure): RestatedRule | null {
  const picks = params['picks'];
  const first = kept[0];
  if (!Array.isArray(picks) || first === undefined || game.uniform !== 'fits' || game.numbers === null) return null;
  const size = drawnOf(first.bet.result)?.length ?? 0;
  const table = tableOf(first.bet.result);
  if (size < 1 || size > game.numbers || table === null) return null;
  const spots = picks as number[];
  const stated = tableText(table);
  const consistent = kept.every(
    ({ bet }) =>
      selfConsistent(bet, spots, size, game.numbers as number) &&
      tableText(tableOf(bet.result) ?? new Map()) === stated,
  );
  if (!consistent) return null;
  return {
    law: hypergeometricLaw(
      spots.filter((pick) => pick >= 1 && pick <= (game.numbers as number)).length,
      size,
      game.numbers,
      table,
    ),
    text: `keno draw of ${size} distinct numbers of 1-${game.numbers}, each alike (χ² over ${game.draws} draws), stated table ${stated}`,
    bets: kept.length,
  };
}

/** The documents' keno: 20 distinct numbers of 1-80, each alike (the deployment's answers say spots_drawn 20). */
const STATED_SIZE = 20;
const STATED_NUMBERS = 80;

/** The measured draw as a statement; null where no keno answer showed its drawn numbers. */
export function kenoDrawStatement(measure: KenoDrawMeasure): DrawStatement | null {
  if (measure.bets === 0) return null;
  const sizes = [...measure.sizes].sort(([a], [b]) => a - b);
  const sizeText = sizes.map(([size, bets]) => `${size} (${bets} bets)`).join(', ');
  const uniform =
    measure.uniform === 'fits'
      ? 'each number alike (χ² not rejected at 99.9%)'
      : measure.uniform === 'rejected'
        ? 'NOT each number alike (χ² rejected at 99.9%)'
        : `too few draws to test each number alike (${measure.draws})`;
  const asStated =
    sizes.length === 1 &&
    sizes[0]?.[0] === STATED_SIZE &&
    measure.numbers === STATED_NUMBERS &&
    measure.uniform !== 'rejected';
  return {
    summary: `${measure.bets} bets drew ${sizeText} distinct numbers; ${measure.seen} numbers of 1-${measure.numbers ?? '?'} ever drawn over ${measure.draws} draws, ${uniform}`,
    asStated,
    expected: `${STATED_SIZE} distinct numbers of 1-${STATED_NUMBERS} a bet, each alike`,
  };
}
