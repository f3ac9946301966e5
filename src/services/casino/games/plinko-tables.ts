/**
 * Plinko's nine payout tables (rows 8, 12, 16 × risk low, medium, high), afp's choice: casino.md
 * gives only "payout depends on rows and risk level", "up to 1000x (16 rows, high risk)" and an
 * edge of "about 3%".
 *
 * Each table is written from the edge bin (0 rights) to the centre bin and mirrors around the
 * centre (bin k and bin rows − k pay alike). Multipliers have at most 2 decimals, never rise
 * towards the centre, and give every table an edge within 0.01 point of 3% under the binomial
 * law of the bins (2.998% to 3.008%; exact edges in test/services/casino/games/table-plinko.test.ts).
 */
import { assert } from '../../../core/assert.ts';
import { ratioFromDecimal, type Ratio } from '../../../core/ratio.ts';

export const PLINKO_ROWS = [8, 12, 16] as const;
export type PlinkoRows = (typeof PLINKO_ROWS)[number];
export const PLINKO_RISKS = ['low', 'medium', 'high'] as const;
export type PlinkoRisk = (typeof PLINKO_RISKS)[number];

type HalfTable = readonly string[];

/** Edge bin to centre bin (rows / 2 + 1 entries). */
export const PLINKO_HALF_TABLES: Readonly<Record<PlinkoRows, Readonly<Record<PlinkoRisk, HalfTable>>>> = {
  8: {
    low: ['5.6', '2', '1.1', '1', '0.45'],
    medium: ['11.5', '3.1', '1.3', '0.7', '0.35'],
    high: ['29', '3.8', '1.4', '0.3', '0.25'],
  },
  12: {
    low: ['10', '3.1', '1.5', '1.3', '1.2', '0.95', '0.45'],
    medium: ['33.5', '10.5', '3.8', '1.9', '1.1', '0.6', '0.3'],
    high: ['170', '23', '8', '2', '0.65', '0.2', '0.2'],
  },
  16: {
    low: ['16.5', '8.6', '2.1', '1.4', '1.3', '1.2', '1', '1', '0.55'],
    medium: ['115', '41', '9.8', '4.9', '3.1', '1.4', '1', '0.5', '0.25'],
    high: ['1000', '135', '26', '8.6', '3.9', '2', '0.2', '0.2', '0.15'],
  },
};

function mirrored(rows: PlinkoRows, half: HalfTable): Ratio[] {
  return Array.from({ length: rows + 1 }, (_, bin) => ratioFromDecimal(half[Math.min(bin, rows - bin)] as string));
}

const FULL_TABLES = new Map<string, readonly Ratio[]>(
  PLINKO_ROWS.flatMap((rows) =>
    PLINKO_RISKS.map((risk): [string, readonly Ratio[]] => [
      `${rows}:${risk}`,
      mirrored(rows, PLINKO_HALF_TABLES[rows][risk]),
    ]),
  ),
);

/** The rows + 1 bin multipliers, bin 0 (no right step) first. */
export function plinkoMultipliers(rows: PlinkoRows, risk: PlinkoRisk): readonly Ratio[] {
  const table = FULL_TABLES.get(`${rows}:${risk}`);
  assert(table !== undefined, `a plinko table for ${rows}:${risk}`);
  return table;
}
