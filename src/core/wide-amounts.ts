/**
 * Micro-USDC amounts kept in the int64 cells of a ring of rows (a BigInt64Array view of the ring's
 * buffer), exactly, whatever their size: the rare value outside int64 is stored in a side map
 * keyed by (row sequence, column), and its cell holds a marker. Why: the casino's journal and bet
 * rings keep their rows in typed arrays (no object per row), and money must stay exact.
 * Shared by src/services/casino/account/journal-ring.ts and src/services/casino/agent-bets.ts.
 * Invariant: the caller passes the current amounts view (rings replace it when they grow) and
 * calls `forget` for every amount column of a row it drops, so the map holds live rows only.
 */
import type { Micro } from './money.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Stored in an amount cell when the exact value is in the side map. */
const WIDE = INT64_MIN;

export class WideAmounts {
  /** Cells per row: the column of a cell is `cell % columns`. */
  private readonly columns: number;
  private wide: Map<number, Micro> | null = null;

  constructor(columns: number) {
    this.columns = columns;
  }

  set(amounts: BigInt64Array, cell: number, sequence: number, value: Micro): void {
    if (value > INT64_MIN && value <= INT64_MAX) {
      amounts[cell] = value;
      return;
    }
    amounts[cell] = WIDE;
    this.wide ??= new Map();
    this.wide.set(sequence * this.columns + (cell % this.columns), value);
  }

  get(amounts: BigInt64Array, cell: number, sequence: number): Micro {
    const value = amounts[cell] as bigint;
    return value === WIDE ? (this.wide?.get(sequence * this.columns + (cell % this.columns)) as Micro) : value;
  }

  /** Drops the exact value of row `sequence`, column `column`, if it had one. */
  forget(sequence: number, column: number): void {
    this.wide?.delete(sequence * this.columns + column);
  }
}
