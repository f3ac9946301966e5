/**
 * The deployed casino's games of sub-draws under the bet's nonce (spec/DEPLOYED.md §2.3, §2.5):
 * plinko (row i, 0-based as the deployment numbers rows, rolls `"<cs>_row<i>:<nonce>"`, < 50 goes
 * right; the slot is the count of rights) and slots (reel j = 1..3 rolls `"<cs>_reel<j>:<nonce>"`).
 * The bet's own roll is only shown (`roll`). Sub-draws are independent words, so plinko's law is
 * binomial with p = P(r < 50) = 5000 · 429497 / 2^32 (slightly above 1/2) and slots' law is the
 * product of three reels' symbol weights.
 * Statements and labels (§2.5, never compared as outcomes: deployed-scheme.ts): plinko's
 * `payout_table` (the whole mirrored table of its rows and risk, slot 0 first), slots' `payline`
 * (the three symbols joined by " | ") and `payout_table` (line → multiplier); their forms are not
 * fixed by DEPLOYED.md (docs/decisions/deployed-dialect.md).
 */
import { ZERO, type Ratio } from '../../../core/ratio.ts';
import { binomial, chancesFromCounts, type CountedOutcome } from '../games/chances.ts';
import { round2, rollWeights, WORDS } from './deployed-roll.ts';
import type { DeployedGameRules } from './deployed-casino-rules.ts';
import {
  choiceParam,
  decimalOf,
  isUnreadable,
  type DeployedPlay,
  type DeployedRule,
  type Unreadable,
} from './deployed-rule.ts';
import type { JsonObject } from '../../../core/errors.ts';
import type { PlinkoRisk, PlinkoRows } from '../games/plinko-tables.ts';

interface PlinkoParams {
  readonly rows: number;
  readonly risk: string;
  readonly table: readonly number[];
}

function readPlinko(params: JsonObject, tables: DeployedGameRules['plinko']['tables']): PlinkoParams | Unreadable {
  const risk = choiceParam(params, 'risk', ['low', 'medium', 'high'] as const, 'low');
  const rows = params['rows'] ?? 8;
  if (isUnreadable(risk)) return risk;
  const half = rows === 8 || rows === 12 || rows === 16 ? tables[risk as PlinkoRisk][rows as PlinkoRows] : undefined;
  if (half === undefined) return { why: 'rows must be 8, 12 or 16' };
  return { rows: rows as number, risk, table: [...half, ...half.slice(0, -1).reverse()] };
}

export const plinkoRule = ({ tables }: DeployedGameRules['plinko']): DeployedRule => ({
  game: 'plinko',
  play(params, source): DeployedPlay | Unreadable {
    const plinko = readPlinko(params, tables);
    if (isUnreadable(plinko)) return plinko;
    const path = Array.from({ length: plinko.rows }, (_, row) =>
      source.roll(`${source.clientSeed}_row${row}`) < 50 ? 'R' : 'L',
    );
    const slot = path.filter((step) => step === 'R').length;
    const multiplier = plinko.table[slot] as number;
    return {
      multiplier: decimalOf(multiplier),
      multiplierNumber: multiplier,
      result: {
        rows: plinko.rows,
        risk: plinko.risk,
        path,
        slot,
        multiplier,
        payout_table: [...plinko.table],
        roll: round2(source.roll()),
      },
    };
  },
  law(params) {
    const plinko = readPlinko(params, tables);
    if (isUnreadable(plinko)) return null;
    const right = rollWeights((roll) => roll < 50).get(true) ?? 0n;
    const left = WORDS - right;
    const outcomes: CountedOutcome[] = plinko.table.map((multiplier, slot) => [
      binomial(plinko.rows, slot) * right ** BigInt(slot) * left ** BigInt(plinko.rows - slot),
      decimalOf(multiplier),
    ]);
    return chancesFromCounts(outcomes, WORDS ** BigInt(plinko.rows));
  },
});

const SYMBOLS: ReadonlyArray<readonly [below: number, symbol: string]> = [
  [2, '7'],
  [7, 'BAR'],
  [15, 'BELL'],
  [35, 'CHERRY'],
  [57, 'LEMON'],
  [78, 'ORANGE'],
];
const symbolOf = (roll: number): string => SYMBOLS.find(([below]) => roll < below)?.[1] ?? 'GRAPE';
type SlotsPayouts = DeployedGameRules['slots'];

/** The first matching line: three alike, BAR BAR on reels 1–2, exactly two CHERRY, CHERRY on reel 1. */
export function slotsMultiplier(reels: readonly string[], payouts: SlotsPayouts): number {
  const [first, second, third] = reels;
  if (first === second && second === third) return payouts.triples[first as string] ?? 0;
  if (first === 'BAR' && second === 'BAR') return payouts.barBar;
  const cherries = reels.filter((reel) => reel === 'CHERRY').length;
  if (cherries === 2) return payouts.twoCherries;
  return first === 'CHERRY' ? payouts.cherryFirst : 0;
}

const slotsRatio = (multiplier: number): Ratio => (multiplier === 0 ? ZERO : decimalOf(multiplier));

/** The lines in the order they are matched, as the answer's `payout_table` states them. */
function slotsTable(payouts: SlotsPayouts): JsonObject {
  const table: JsonObject = {};
  for (const [symbol, multiplier] of Object.entries(payouts.triples))
    table[`${symbol} ${symbol} ${symbol}`] = multiplier;
  table['BAR BAR any'] = payouts.barBar;
  table['CHERRY CHERRY'] = payouts.twoCherries;
  table['CHERRY any any'] = payouts.cherryFirst;
  return table;
}

export const slotsRule = (payouts: SlotsPayouts): DeployedRule => {
  const table = slotsTable(payouts);
  return {
    game: 'slots',
    play(_params, source) {
      const reels = [1, 2, 3].map((reel) => symbolOf(source.roll(`${source.clientSeed}_reel${reel}`)));
      const multiplier = slotsMultiplier(reels, payouts);
      return {
        multiplier: slotsRatio(multiplier),
        multiplierNumber: multiplier,
        result: { reels, payline: reels.join(' | '), multiplier, payout_table: table, roll: round2(source.roll()) },
      };
    },
    law() {
      const weights = [...rollWeights(symbolOf).entries()];
      const outcomes: CountedOutcome[] = [];
      for (const [first, a] of weights)
        for (const [second, b] of weights)
          for (const [third, c] of weights)
            outcomes.push([a * b * c, slotsRatio(slotsMultiplier([first, second, third], payouts))]);
      return chancesFromCounts(outcomes, WORDS ** 3n);
    },
  };
};
