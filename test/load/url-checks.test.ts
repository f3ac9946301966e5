// The checks of a URL test (src/load/url-checks.ts, url-check-spec.ts): what each judges on an
// answer (an answer that never came fails them all, a JSON path that leads nowhere fails, `equals`
// compares scalars with ===), the names both engines count them under, and how a --check flag and
// a file's `checks:` map read into them, every problem named.
import { describe, expect, test } from 'vitest';
import { checkName, jsonSteps, passes, valueAtSteps, type UrlCheck } from '../../src/load/url-checks.ts';
import { checksOfFlags, checksOfMap } from '../../src/load/url-check-spec.ts';

const answer = (status: number, text: string) => ({ status, text: () => text });

describe('URL test checks', () => {
  test('each kind judged on an answer; no answer (status 0) fails every one', () => {
    const checks: UrlCheck[] = checksOfMap(
      { status: 201, status_in: [200, 201], body_contains: '"ok"', json: { path: '$.items[1].id', equals: 'b' } },
      'request 1',
      [],
    );
    const body = '{"ok": 1, "items": [{"id": "a"}, {"id": "b"}]}';
    expect(checks.map((check) => passes(check, answer(201, body)))).toEqual([true, true, true, true]);
    expect(checks.map((check) => passes(check, answer(200, '{"items": []}')))).toEqual([false, true, false, false]);
    expect(checks.map((check) => passes(check, answer(0, body)))).toEqual([false, false, false, false]);
    expect(passes(checks[3] as UrlCheck, answer(201, 'not json'))).toBe(false);
  });

  test('JSON paths: names and indices; a step that leads nowhere is undefined; own properties only', () => {
    expect(jsonSteps('$')).toEqual([]);
    expect(jsonSteps('$.a.b-c[0]._d')).toEqual(['a', 'b-c', 0, '_d']);
    expect(jsonSteps('a.b')).toBeNull();
    expect(jsonSteps('$.a[x]')).toBeNull();
    expect(valueAtSteps({ a: [{ b: null }] }, ['a', 0, 'b'])).toBeNull();
    expect(valueAtSteps({ a: [1] }, ['a', 'length'])).toBeUndefined();
    expect(valueAtSteps({ a: {} }, ['a', 'toString'])).toBeUndefined();
    expect(valueAtSteps([1, 2], [5])).toBeUndefined();
  });

  test("names: the request's name, then what is checked", () => {
    const named = checksOfFlags(['status=200', 'status=200, 204', 'body~a "b"', 'json:$.n=3', 'json:$.s=x'], []);
    expect(named.map((check) => checkName('home', check))).toEqual([
      'home: status is 200',
      'home: status in 200, 204',
      'home: body contains "a \\"b\\""',
      'home: $.n is 3',
      'home: $.s is "x"',
    ]);
  });

  test('every problem named, with the item and field', () => {
    const errors: string[] = [];
    checksOfMap(
      { status: '200', status_in: [], body_contains: '', json: { path: '$.a' }, other: 1 },
      'request 2 (x)',
      errors,
    );
    checksOfMap([1], 'request 3', errors);
    checksOfMap({ json: { path: '$.a', equals: { deep: true }, extra: 1 } }, 'request 4', errors);
    checksOfFlags(['status=99', 'json:nopath=1', 'body~'], errors);
    expect(errors).toEqual([
      'request 2 (x): checks.status: a status is a whole number 100..599',
      'request 2 (x): checks.status_in: a list of 1 to 100 statuses, each a whole number 100..599',
      'request 2 (x): checks.body_contains: a text of 1 to 1000 characters',
      'request 2 (x): checks.json.equals: a string, a number, a boolean or null',
      'request 2 (x): checks.other: not a check (known: status, status_in, body_contains, json)',
      'request 3: checks is a map, e.g. { status: 200, body_contains: "ok" }',
      'request 4: checks.json.extra: not a field (path, equals)',
      "--check 'status=99': a status is a whole number 100..599",
      "--check 'json:nopath=1': not a check: status=200, status=200,201, body~TEXT or json:$.path=VALUE",
      "--check 'body~': a text of 1 to 1000 characters",
    ]);
  });
});
