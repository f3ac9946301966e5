// The deep copy behind time travel's snapshots (src/platform/graph-copy.ts): sharing, cycles,
// prototypes, frozenness, Map order, rng positions and typed-array views over one buffer are kept;
// a linked list as long as the rate limiter's list by last use (far past any call stack) is copied;
// what cannot be copied is refused with its path.
import { describe, expect, test } from 'vitest';
import { Rng } from '../../src/core/rng.ts';
import { copyGraph, copyGraphInto, GraphCopyError } from '../../src/platform/graph-copy.ts';

class Entry {
  newer: Entry | null = null;
  older: Entry | null = null;
  readonly n: number;

  constructor(n: number) {
    this.n = n;
  }
}

describe('copyGraph', () => {
  test('sharing, cycles, prototypes, frozenness, Map order, rng position and shared buffers are kept; nothing is aliased', () => {
    const record = { amountMicro: 5n, tags: ['a'] };
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    const bytes = new ArrayBuffer(16);
    const rng = new Rng('copy');
    rng.uint32();
    const source = {
      first: record,
      again: record,
      cycle,
      frozen: Object.freeze({ k: 1 }),
      byId: new Map([
        ['z', 1],
        ['a', 2],
      ]),
      set: new Set([record]),
      floats: new Float64Array(bytes),
      wide: new BigInt64Array(bytes),
      rng,
      entry: new Entry(1),
    };
    const copy = copyGraph(source);
    expect(copy.first).not.toBe(record);
    expect(copy.first).toEqual(record);
    expect(copy.again).toBe(copy.first);
    expect(copy.cycle['self']).toBe(copy.cycle);
    expect(Object.isFrozen(copy.frozen)).toBe(true);
    expect([...copy.byId.keys()]).toEqual(['z', 'a']);
    expect([...copy.set][0]).toBe(copy.first);
    expect(copy.floats.buffer).toBe(copy.wide.buffer);
    expect(copy.floats.buffer).not.toBe(bytes);
    expect(copy.entry).toBeInstanceOf(Entry);
    expect(copy.rng.uint32()).toBe(rng.uint32());
  });

  test('a list of 100,000 entries linked both ways is copied whole', () => {
    const entries: Entry[] = [];
    for (let n = 0; n < 100_000; n++) {
      const entry = new Entry(n);
      entry.older = entries.at(-1) ?? null;
      if (entry.older !== null) entry.older.newer = entry;
      entries.push(entry);
    }
    const copy = copyGraph({ byN: new Map(entries.map((entry) => [entry.n, entry])) });
    let walked = 0;
    for (let entry: Entry | null = copy.byN.get(0) ?? null; entry !== null; entry = entry.newer) walked++;
    expect(walked).toBe(100_000);
    expect(copy.byN.get(99_999)?.older).toBe(copy.byN.get(99_998));
  });

  test('copyGraphInto keeps the target object and points what pointed at the source at it', () => {
    const source = { name: 'source', self: null as unknown };
    source.self = source;
    const target = { name: 'target', self: null as unknown };
    copyGraphInto(source, target);
    expect(target.name).toBe('source');
    expect(target.self).toBe(target);
  });

  test('what cannot be copied is refused with its path', () => {
    expect(() => copyGraph({ list: [{ f: () => 1 }] })).toThrow(GraphCopyError);
    expect(() => copyGraph({ list: [{ f: () => 1 }] })).toThrow(/\$\.list\.0\.f: a function/);
    expect(() => copyGraph({ when: new Date(0) })).toThrow(/\$\.when: a Date/);
    const withGetter = Object.defineProperty({}, 'x', { get: () => 1, enumerable: true });
    expect(() => copyGraph({ inner: withGetter })).toThrow(/accessor property 'x'/);
  });
});
