// jsonCopy (the deep copy answers make of stored JSON: bet details, escrow conditions) must be
// structuredClone's copy: equal values, the same key order, nothing shared with the original;
// anything that is not plain JSON data goes to structuredClone itself (its answer, or its error).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonCopy } from '../../src/http/routes/json-copy.ts';

/** Every object reachable from `value`. */
function objectsOf(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !found.has(value)) {
    found.add(value);
    for (const item of Object.values(value)) objectsOf(item, found);
  }
  return found;
}

function expectSameCopy(value: unknown): void {
  const copy = jsonCopy(value);
  expect(copy).toStrictEqual(structuredClone(value));
  expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  const originals = objectsOf(value);
  for (const object of objectsOf(copy)) expect(originals.has(object)).toBe(false);
}

describe('jsonCopy', () => {
  test('equals structuredClone on JSON values, key order included, sharing nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => expectSameCopy(value)),
      { seed: 20_260_101, numRuns: 500 },
    );
  });

  test('copies what bet details and parameters hold', () => {
    for (const value of [
      { roll: 51, direction: 'over', threshold: 50, win: true },
      { picks: [1, 2, 80], drawn: [3, 4], hits: 0, '10': 'integer-like key first', a: null, b: undefined },
      [],
      { nested: [[{ deep: [1, -0, 1.5e-7] }]] },
      'text',
    ]) {
      expectSameCopy(value);
    }
    for (const primitive of [12n, undefined, null, -0]) expect(jsonCopy(primitive)).toBe(structuredClone(primitive));
  });

  test('hands anything else to structuredClone', () => {
    const date = new Date(Date.UTC(2026, 0, 1));
    expect(jsonCopy({ at: date })).toStrictEqual(structuredClone({ at: date }));
    const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
    expect(jsonCopy({ x: nullProto })).toStrictEqual(structuredClone({ x: nullProto }));
    const sparse: number[] = [1];
    sparse[2] = 3;
    expect(jsonCopy(sparse)).toStrictEqual(structuredClone(sparse));
    const keyed = Object.assign([1, 2], { extra: true });
    expect(jsonCopy(keyed)).toStrictEqual(structuredClone(keyed));
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "b": 2}') as object;
    const copied = jsonCopy(proto);
    expect(copied).toStrictEqual(structuredClone(proto));
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const copy = jsonCopy(cyclic);
    expect(copy['self']).toBe(copy);
    let deep: unknown = 1;
    for (let level = 0; level < 100; level++) deep = [deep];
    expect(jsonCopy(deep)).toStrictEqual(deep);
    expect(() => jsonCopy({ f: () => 1 })).toThrow();
    expect(() => jsonCopy({ s: Symbol('s') })).toThrow();
    expect(() => jsonCopy(new Map([[1, { a: 1 }]]))).not.toThrow();
  });
});
