// The wire reader's items (src/live/wire-reader.ts): each element of an array read on its own nested
// reader, in order, the unreadable ones dropped, their deviations named `path[i].field`; an absent
// array reads as none.
import { describe, expect, test } from 'vitest';
import { WireReader } from '../../src/live/wire-reader.ts';

const idOf = (element: WireReader): string | null => element.string('id');

describe('WireReader items', () => {
  test('in order, nulls dropped, deviations under path[i]', () => {
    const reader = new WireReader({ orders: [{ id: 'a' }, { id: 7 }, { id: 'c' }] });
    expect(reader.items('orders', idOf)).toEqual(['a', 'c']);
    expect(reader.deviations().map((deviation) => [deviation.kind, deviation.field])).toEqual([
      ['type', 'orders[1].id'],
    ]);
  });

  test('an absent array is none, and a missing one is a deviation', () => {
    const reader = new WireReader({});
    expect(reader.items('orders', idOf)).toEqual([]);
    expect(reader.deviations().map((deviation) => deviation.field)).toEqual(['orders']);
  });
});
