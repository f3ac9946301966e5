/**
 * The retention bound of a casino book's finished records (settled challenges, completed
 * tournaments): their ids in finishing order, live from `head` on. Past `max` the oldest are
 * dropped from the book (`drop`); the array's dropped prefix is cut away once it is most of the
 * array, so a drop costs O(1) amortised and the array stays within twice the bound.
 * A function over the book's own fields rather than a class of its own: the books' fields are
 * what a checkpoint stores, and they stay as they were.
 */

/** Below this many dropped ids the prefix is kept (cutting it costs a copy of the array). */
const COMPACT_FROM = 1_024;

/** Drops the oldest ids beyond `max` (oldest first) and returns the new head. */
export function retainNewest(ids: string[], head: number, max: number, drop: (id: string) => void): number {
  let next = head;
  while (ids.length - next > max) {
    drop(ids[next] as string);
    next += 1;
  }
  if (next > COMPACT_FROM && next * 2 > ids.length) {
    ids.splice(0, next);
    next = 0;
  }
  return next;
}
