/**
 * Deterministic downsampling of a series to at most `max` items, by index.
 *
 * Keeps item 0, the last item and `max - 2` items evenly spaced by index between them (index
 * floor(i·(n−1)/(max−1)) for i = 0..max−1, integer arithmetic, so the same input always keeps the
 * same items). A series at or under the cap is returned as is (a copy). Non-goal: shape-aware
 * algorithms (largest-triangle etc.) — the report shows convergence, which even spacing shows well.
 */
import { assert } from '../../core/assert.ts';

export function downsample<T>(items: readonly T[], max: number): T[] {
  assert(Number.isSafeInteger(max) && max >= 2, 'downsample needs a cap of at least 2');
  const length = items.length;
  if (length <= max) return items.slice();
  const kept: T[] = [];
  for (let i = 0; i < max; i += 1) {
    const item = items[Math.floor((i * (length - 1)) / (max - 1))];
    assert(item !== undefined, 'downsample index out of range');
    kept.push(item);
  }
  return kept;
}
