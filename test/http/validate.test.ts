// Body and query key checks: the allocation-free form answers as the Object.keys definition does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fail, type Failure } from '../../src/core/errors.ts';
import { knownQuery, objectBody, queryLimit } from '../../src/http/validate.ts';

const KEYS = ['agent_id', 'amount', 'receiver', 'limit', 'role', '__proto__', 'constructor', '0', 'x'];
const ALLOWED = ['agent_id', 'amount', 'receiver', 'limit'];

/** The definitions before the fast path: list the unknown own keys, sorted. */
function unknownKeys(value: object): string[] {
  return Object.keys(value).filter((key) => !ALLOWED.includes(key));
}

function expectedBody(body: object): object | Failure {
  const unknown = unknownKeys(body);
  return unknown.length === 0
    ? body
    : fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.sort().join(', ')}`);
}

/** A plain object with own keys from KEYS (defined, so `__proto__` is an own key), over an optional inherited one. */
const objects = fc
  .record({ own: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 6 }), inherited: fc.boolean() })
  .map(({ own, inherited }) => {
    const value: Record<string, string> = Object.create(inherited ? { role: 'inherited' } : Object.prototype) as Record<
      string,
      string
    >;
    for (const key of own)
      Object.defineProperty(value, key, { value: 'v', enumerable: true, writable: true, configurable: true });
    return value;
  });

describe('validate key checks', () => {
  it('objectBody and knownQuery agree with the Object.keys definitions', () => {
    fc.assert(
      fc.property(objects, (value) => {
        expect(objectBody(value, ALLOWED)).toEqual(expectedBody(value));
        const unknown = unknownKeys(value);
        expect(knownQuery(value, ALLOWED)).toEqual(
          unknown.length === 0 ? null : fail('BAD_REQUEST', `unknown query parameter: ${unknown.sort().join(', ')}`),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('queryLimit answers as its regular-expression definition', () => {
    const definition = (text: string | undefined): number | Failure => {
      if (text === undefined) return 20;
      if (!/^\d{1,6}$/.test(text)) return fail('BAD_REQUEST', 'limit must be a whole number');
      const value = Number(text);
      return value < 1 || value > 100 ? fail('BAD_REQUEST', 'limit must be between 1 and 100') : value;
    };
    const texts = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.stringMatching(/^[0-9]{0,8}$/),
      fc.constantFrom('0', '1', '100', '101', '000100', '0000001', '-1', '1.5', '1e2', ' 5', '５'),
    );
    fc.assert(
      fc.property(fc.option(texts, { nil: undefined }), (text) => {
        const query: Record<string, string> = text === undefined ? {} : { limit: text };
        expect(queryLimit(query, 20, 100)).toEqual(definition(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads a missing body as an empty object', () => {
    expect(objectBody(undefined, ALLOWED)).toEqual({});
    expect(objectBody(null, ALLOWED)).toEqual({});
  });
});
