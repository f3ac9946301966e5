// What afp's sender hands node:https and what it says of a request that failed before any answer.
// Header values go as UTF-8 bytes on both schemes (afp's own http:// client and k6 send UTF-8;
// node:https writes a string's characters as Latin-1 bytes, so `é` went as one byte over https
// and a character past U+00FF failed every request in the client, ERR_INVALID_CHAR). A client-side
// failure is named by its code and message (a run whose requests all failed on an untrusted
// certificate said only that the target "answered none").
import { describe, expect, test } from 'vitest';
import { clientErrorText, utf8Headers } from '../../src/load/load-run-transport.ts';

describe('utf8Headers', () => {
  test('a non-ASCII value goes as its UTF-8 bytes; ASCII as it is', () => {
    const sent = utf8Headers({ 'x-a': 'a\u00e9b', 'x-b': 'a\u4e2db', accept: 'application/json' });
    expect(Buffer.from(sent['x-a'] ?? '', 'latin1')).toStrictEqual(Buffer.from('a\u00e9b', 'utf8'));
    expect(Buffer.from(sent['x-b'] ?? '', 'latin1')).toStrictEqual(Buffer.from('a\u4e2db', 'utf8'));
    expect(sent['accept']).toBe('application/json');
    expect([...(sent['x-b'] ?? '')].every((char) => char.charCodeAt(0) <= 0xff)).toBe(true);
  });
});

describe('clientErrorText', () => {
  test("a node error's code and message on one line; a plain error's message; the code once", () => {
    const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(clientErrorText(tls)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(clientErrorText(refused)).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');
    expect(clientErrorText(new Error('no answer\nwithin 10 ms'))).toBe('no answer within 10 ms');
    expect(clientErrorText('gone')).toBe('gone');
  });
});
