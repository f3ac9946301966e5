// The body reader shared by the HTTP server and the in-process raw-body path: precedence
// (size, then empty, then content type, then JSON text) and the statuses 413 / 415 / 400.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isJsonContentType, readJsonBody, utf8Exceeds } from '../../src/http/body.ts';

const status = (result: ReturnType<typeof readJsonBody>): number | 'ok' =>
  'failure' in result ? result.failure.status : 'ok';

describe('readJsonBody', () => {
  test('a JSON body parses; an empty body is no body whatever the content type', () => {
    expect(readJsonBody('{"a":[1,"x",null]}', 'application/json', 100)).toEqual({ body: { a: [1, 'x', null] } });
    expect(readJsonBody('', undefined, 100)).toEqual({ body: undefined });
    expect(readJsonBody('', 'text/plain', 100)).toEqual({ body: undefined });
  });

  test('too large is 413 before anything else, counted in UTF-8 bytes', () => {
    expect(status(readJsonBody('{"a":1}', 'text/plain', 6))).toBe(413);
    expect(status(readJsonBody('"éé"', 'application/json', 5))).toBe(413); // 6 bytes, 4 characters
    expect(status(readJsonBody('"éé"', 'application/json', 6))).toBe('ok');
  });

  test('the size check answers as Buffer.byteLength, measuring only texts between the length bounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat({ max: 130 }), (text, maxBytes) => {
        expect(utf8Exceeds(text, maxBytes)).toBe(Buffer.byteLength(text, 'utf8') > maxBytes);
      }),
      { seed: 7, numRuns: 2000 },
    );
    expect(utf8Exceeds('x'.repeat(2_000_000), 1_048_576)).toBe(true);
  });

  test('a non-JSON content type is 415, malformed JSON is 400, all with code BAD_REQUEST', () => {
    const wrong = readJsonBody('{}', 'text/plain', 100);
    const missing = readJsonBody('{}', undefined, 100);
    const malformed = readJsonBody('{"a":', 'application/json', 100);
    expect([status(wrong), status(missing), status(malformed)]).toEqual([415, 415, 400]);
    for (const result of [wrong, missing, malformed])
      expect('failure' in result && result.failure.code).toBe('BAD_REQUEST');
  });

  test('content types: parameters and case are allowed, look-alikes are not', () => {
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/jsonp')).toBe(false);
    expect(isJsonContentType('text/json')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
});
