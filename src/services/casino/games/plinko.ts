/**
 * Plinko (id plinko, POST /games/plinko): a ball falls through `rows` rows of pegs (8, 12 or 16)
 * and lands in one of rows + 1 bins; the bin's multiplier depends on rows and risk (low, medium,
 * high) — tables in plinko-tables.ts.
 *
 * Draw mapping: one int(2) per row, top row first — 1 steps right, 0 steps left; the bin is the
 * number of right steps, so P(bin k) = C(rows, k) / 2^rows exactly. Edge ≈ 3% on every table
 * (from 2.998% to 3.008%).
 */
import { assert } from '../../../core/assert.ts';
import { fail, succeed } from '../../../core/errors.ts';
import { ratio } from '../../../core/ratio.ts';
import { binomial, chancesFromCounts } from './chances.ts';
import type { Chance, GameModule, GameResult, GameVariant } from './game.ts';
import { enumParam, strictParams } from './params.ts';
import { PLINKO_RISKS, PLINKO_ROWS, plinkoMultipliers, type PlinkoRisk, type PlinkoRows } from './plinko-tables.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export interface PlinkoParams {
  readonly rows: PlinkoRows;
  readonly risk: PlinkoRisk;
}

const FIELDS = ['rows', 'risk'] as const;

function isPlinkoRows(value: unknown): value is PlinkoRows {
  return typeof value === 'number' && (PLINKO_ROWS as readonly number[]).includes(value);
}

const VARIANTS: ReadonlyArray<GameVariant<PlinkoParams>> = PLINKO_ROWS.flatMap((rows) =>
  PLINKO_RISKS.map((risk) => ({ name: `plinko:${rows}:${risk}`, params: { rows, risk } })),
);

export const plinko: GameModule<PlinkoParams> = {
  id: 'plinko',
  name: 'Plinko',
  path: 'plinko',
  advertisedEdgeText: 'about 3%',
  advertisedEdge: () => ratio(3n, 100n),
  ...TABLE_BET_RANGE,
  ...strictParams(FIELDS, (params) => {
    const rows = params['rows'];
    if (!isPlinkoRows(rows)) return fail('BAD_REQUEST', `rows must be one of: ${PLINKO_ROWS.join(', ')}`);
    const risk = enumParam(params, 'risk', PLINKO_RISKS);
    if (typeof risk !== 'string') return risk;
    return succeed({ rows, risk });
  }),
  play(params, draws): GameResult {
    let path = '';
    let bin = 0;
    for (let row = 0; row < params.rows; row++) {
      const right = draws.int(2) === 1;
      path += right ? 'R' : 'L';
      if (right) bin += 1;
    }
    const multiplier = plinkoMultipliers(params.rows, params.risk)[bin];
    assert(multiplier !== undefined, 'a plinko bin is in its table');
    return { multiplier, detail: { rows: params.rows, risk: params.risk, path, bin } };
  },
  distribution(params): readonly Chance[] {
    const table = plinkoMultipliers(params.rows, params.risk);
    return chancesFromCounts(
      table.map((multiplier, bin) => [binomial(params.rows, bin), multiplier] as const),
      1n << BigInt(params.rows),
    );
  },
  variants: () => VARIANTS,
  variantName: (params) => `plinko:${params.rows}:${params.risk}`,
};
