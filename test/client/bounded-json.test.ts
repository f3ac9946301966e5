// bounded-json.ts: a target's JSON read without recursion past the depth limit, numbers that do not
// fit a double kept as their text, `__proto__` a plain key.
import { expect, test } from 'vitest';
import { ANSWER_JSON_DEPTH_MAX, parseBoundedJson } from '../../src/client/bounded-json.ts';

test('JSON nested 5,000 deep is refused before it is parsed; at the limit it is read', () => {
  expect(parseBoundedJson('['.repeat(5_000) + ']'.repeat(5_000))).toEqual({
    kind: 'too-deep',
    depthMax: ANSWER_JSON_DEPTH_MAX,
  });
  const atLimit = parseBoundedJson('['.repeat(ANSWER_JSON_DEPTH_MAX) + ']'.repeat(ANSWER_JSON_DEPTH_MAX));
  expect(atLimit.kind).toBe('json');
  // Brackets inside strings (escaped quotes too) are text, not nesting.
  expect(parseBoundedJson(`{"a":"${'[\\"'.repeat(1_000)}"}`).kind).toBe('json');
});

test('a number that does not fit a double is its text, never Infinity; true, false and exponents that fit are as JSON.parse reads them', () => {
  expect(parseBoundedJson('{"a":1e309,"b":-1e999,"c":1.5e3,"d":true,"e":false}')).toEqual({
    kind: 'json',
    value: { a: '1e309', b: '-1e999', c: 1500, d: true, e: false },
  });
  expect(parseBoundedJson('1e309')).toEqual({ kind: 'json', value: '1e309' });
  expect(parseBoundedJson(`[1${'0'.repeat(400)}]`)).toEqual({ kind: 'json', value: [`1${'0'.repeat(400)}`] });
});

test('__proto__ stays an own key: no prototype changes, in the value or in a spread copy of it', () => {
  const parsed = parseBoundedJson('{"__proto__":{"polluted":true},"a":{"__proto__":{"polluted":true}}}');
  expect(parsed.kind).toBe('json');
  const value = (parsed as { value: Record<string, unknown> }).value;
  expect(Object.hasOwn(value, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(({ ...value } as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(parseBoundedJson('nope')).toEqual({ kind: 'not-json' });
});

test('an answer of more values than the limit is refused before it is parsed (an object of 900,000 keys fits in 16 MB)', () => {
  // The list counts as a value too: 99 elements and their list are 100.
  expect(parseBoundedJson(`[${'0,'.repeat(98)}0]`, 256, 100)).toEqual({ kind: 'json', value: new Array(99).fill(0) });
  expect(parseBoundedJson(`[${'0,'.repeat(99)}0]`, 256, 100)).toEqual({ kind: 'too-many', valuesMax: 100 });
  // Commas inside strings are text.
  expect(parseBoundedJson(`["${','.repeat(1_000)}"]`, 256, 100).kind).toBe('json');
  const bomb = `{${Array.from({ length: 300_000 }, (_, index) => `"k${index}":0`).join(',')}}`;
  expect(parseBoundedJson(bomb).kind).toBe('too-many');
});
