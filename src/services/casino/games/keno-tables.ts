/**
 * Keno paytables: total-return multipliers by spots (numbers picked, 1..10) and hits (picks
 * among the 20 numbers drawn); a hit count not listed pays 0.
 *
 * casino.md prints examples only (1 spot: 1 hit 3.5x; 2 spots: 2 hits 16x; 3 spots: 2 → 2x,
 * 3 → 50x; 5 spots: 3 → 3x, 4 → 25x, 5 → 1000x; 10 spots: 5 → 10x, 7 → 500x, 10 → 250000x) and
 * "about 8%". Two of them cannot stand with any house edge: 5 spots as printed return 119.9%
 * and 10 spots at least 134.8% before any other entry pays. afp's KENO_PAYTABLE keeps every
 * printed example except those two, lowering in each the printed entry that carries the most
 * return (5 spots 5 hits 1000x → 570x; 10 spots 7 hits 500x → 70x), and fills the rest for
 * edges near 8%. Printed entries that fix a different edge are kept as printed (1 spot: 12.5%;
 * 2 spots: 3.80%; 3 spots: 2.87%): the audit reports them.
 * KENO_PRINTED_PAYTABLE is the same table with the two printed entries restored — a paytable
 * the house loses on, offered only as a deliberate defect.
 */
import { ratioFromDecimal, type Ratio, ZERO } from '../../../core/ratio.ts';

/** paytable[spots][hits] = multiplier text; spots 1..10. */
export type KenoPaytable = Readonly<Record<number, Readonly<Record<number, string>>>>;

export const KENO_PAYTABLE: KenoPaytable = {
  1: { 1: '3.5' },
  2: { 2: '16' },
  3: { 2: '2', 3: '50' },
  4: { 2: '1', 3: '5', 4: '160' },
  5: { 3: '3', 4: '25', 5: '570' },
  6: { 3: '2', 4: '7', 5: '75', 6: '1800' },
  7: { 3: '1', 4: '4', 5: '25', 6: '250', 7: '5500' },
  8: { 4: '2', 5: '13', 6: '100', 7: '1200', 8: '20000' },
  9: { 4: '1', 5: '5', 6: '45', 7: '350', 8: '4500', 9: '50000' },
  10: { 5: '10', 6: '15', 7: '70', 8: '500', 9: '5000', 10: '250000' },
};

/** The payouts casino.md prints, as [spots, hits, multiplier text]. */
export const KENO_PRINTED_PAYOUTS: ReadonlyArray<readonly [spots: number, hits: number, multiplier: string]> = [
  [1, 1, '3.5'],
  [2, 2, '16'],
  [3, 2, '2'],
  [3, 3, '50'],
  [5, 3, '3'],
  [5, 4, '25'],
  [5, 5, '1000'],
  [10, 5, '10'],
  [10, 7, '500'],
  [10, 10, '250000'],
];

/** Defect only: KENO_PAYTABLE with every printed payout as printed (5 and 10 spots favour the player). */
export const KENO_PRINTED_PAYTABLE: KenoPaytable = {
  ...KENO_PAYTABLE,
  5: { ...KENO_PAYTABLE[5], 5: '1000' },
  10: { ...KENO_PAYTABLE[10], 7: '500' },
};

export function kenoPayout(paytable: KenoPaytable, spots: number, hits: number): Ratio {
  const text = paytable[spots]?.[hits];
  return text === undefined ? ZERO : ratioFromDecimal(text);
}
