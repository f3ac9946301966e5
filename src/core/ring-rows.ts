/**
 * Growing a full ring of fixed-width rows: the rows are copied oldest first (from `start` to the
 * end, then from 0 to `start`) into a larger array, so the grown ring starts at slot 0. Why one
 * place: the casino's journal ring and bet ring keep their rows this way (numeric cells in one array,
 * typed or plain, and references in another) and grow them alike.
 */

/** The cells of a full ring of `width`-cell rows starting at row `start`, unrolled into `rows` rows. */
export function unrolledCells(cells: Float64Array, start: number, width: number, rows: number): Float64Array {
  const grown = new Float64Array(rows * width);
  grown.set(cells.subarray(start * width), 0);
  grown.set(cells.subarray(0, start * width), cells.length - start * width);
  return grown;
}

/** The same for a ring kept in a plain array (references, or numbers), new rows filled with `empty`. */
export function unrolledRows<T>(items: readonly T[], start: number, width: number, rows: number, empty: T): T[] {
  const split = start * width;
  return items.slice(split).concat(items.slice(0, split), new Array<T>(rows * width - items.length).fill(empty));
}
