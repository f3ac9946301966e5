// The incremental response parser on its own: the same bytes give the same responses however
// they are split (every split point of a chunked answer with extensions and trailers), framing
// headers read eagerly and the rest lazily, and every broken answer or limit a returned reason.
import { describe, expect, test } from 'vitest';
import {
  CHUNK_LINE_BYTES_MAX,
  HEAD_BYTES_MAX,
  parseHeaderFields,
  ResponseParser,
  type ParsedResponse,
} from '../../src/load/http-client-parser.ts';

function parser(bodyBytesMax = 1024): { parser: ResponseParser; responses: ParsedResponse[] } {
  const responses: ParsedResponse[] = [];
  return {
    parser: new ResponseParser({ bodyBytesMax, onResponse: (response) => responses.push(response) }),
    responses,
  };
}

const summary = (response: ParsedResponse): { status: number; body: string; keepAlive: boolean } => ({
  status: response.status,
  body: response.body.toString('latin1'),
  keepAlive: response.keepAlive,
});

const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Other: 1\r\n\r\n5;ext=1\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n';
const LENGTH = 'HTTP/1.1 404 Not Found\r\ncontent-length: 3\r\nconnection: close\r\n\r\nnot';

describe('ResponseParser', () => {
  test('a chunked answer then a sized one, split at every point, give the same two responses', () => {
    const bytes = Buffer.from(CHUNKED + LENGTH, 'latin1');
    for (let split = 0; split <= bytes.length; split++) {
      const { parser: parse, responses } = parser();
      expect(parse.push(bytes.subarray(0, split))).toBeNull();
      expect(parse.push(bytes.subarray(split))).toBeNull();
      expect(responses.map(summary), `split at ${split}`).toEqual([
        { status: 200, body: 'hello 0123456789', keepAlive: true },
        { status: 404, body: 'not', keepAlive: false },
      ]);
      expect(parse.idle).toBe(true);
    }
  });

  test('byte by byte', () => {
    const { parser: parse, responses } = parser();
    for (const byte of Buffer.from(CHUNKED, 'latin1')) expect(parse.push(Buffer.from([byte]))).toBeNull();
    expect(responses.map(summary)).toEqual([{ status: 200, body: 'hello 0123456789', keepAlive: true }]);
  });

  test('headers stay raw until asked for; HTTP/1.0 closes unless it says keep-alive', () => {
    const { parser: parse, responses } = parser();
    parse.push(
      Buffer.from(
        'HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: Keep-Alive\r\nSet-Cookie: a\r\nSet-Cookie: b\r\n\r\nHTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n',
      ),
    );
    expect(responses.map((response) => response.keepAlive)).toEqual([true, false]);
    expect(parseHeaderFields((responses[0] as ParsedResponse).head)).toEqual({
      'content-length': '0',
      connection: 'Keep-Alive',
      'set-cookie': 'a, b',
    });
  });

  test('Connection is read as a token list: close among other tokens closes, a token that merely contains it does not', () => {
    const { parser: parse, responses } = parser();
    const answer = (connection: string): string =>
      `HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: ${connection}\r\nKeep-Alive: timeout=5\r\n\r\n`;
    parse.push(
      Buffer.from(
        ['keep-alive', 'Upgrade, Close', 'x-close', 'close-later, keep-alive', ' CLOSE '].map(answer).join(''),
      ),
    );
    expect(responses.map((response) => response.keepAlive)).toEqual([true, false, true, true, false]);
  });

  test('a body until close ends with the connection; a cut answer is a failure', () => {
    const untilClose = parser();
    untilClose.parser.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\npart one, '));
    untilClose.parser.push(Buffer.from('part two'));
    expect(untilClose.responses).toEqual([]);
    expect(untilClose.parser.end()).toBeNull();
    expect(untilClose.responses.map(summary)).toEqual([{ status: 200, body: 'part one, part two', keepAlive: false }]);
    const cut = parser();
    cut.parser.push(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort'));
    expect(cut.parser.end()).toMatch(/closed in the middle/);
    expect(parser().parser.end()).toBeNull();
  });

  test('broken answers and limits: a reason each, and the parser stays failed', () => {
    const reasons = [
      'SMTP ready\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabXY',
      `HTTP/1.1 200 OK\r\nx: ${'a'.repeat(HEAD_BYTES_MAX)}`,
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'e'.repeat(CHUNK_LINE_BYTES_MAX)}`,
    ].map((text) => {
      const { parser: parse, responses } = parser(1024);
      const reason = parse.push(Buffer.from(text, 'latin1'));
      expect(responses).toEqual([]);
      expect(parse.push(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'))).toBe(reason);
      return reason;
    });
    expect(reasons.every((reason) => typeof reason === 'string' && reason.length > 0)).toBe(true);
    expect(new Set(reasons).size).toBe(reasons.length);
  });

  test('a body past the limit is read to its end and counted, kept only up to the limit, by length, chunked and until close', () => {
    const body = 'x'.repeat(1500);
    const chunkedBody = `${(700).toString(16)}\r\n${body.slice(0, 700)}\r\n${(800).toString(16)}\r\n${body.slice(700)}\r\n0\r\n\r\n`;
    const answers = [
      `HTTP/1.1 200 OK\r\ncontent-length: 1500\r\n\r\n${body}`,
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunkedBody}`,
      'HTTP/1.1 204 No Content\r\n\r\n',
    ];
    const { parser: parse, responses } = parser(1024);
    // Split in small pieces: the cap falls inside a piece, and the next answer follows on the same connection.
    const bytes = Buffer.from(answers.join(''), 'latin1');
    for (let at = 0; at < bytes.length; at += 97) expect(parse.push(bytes.subarray(at, at + 97))).toBeNull();
    expect(
      responses.map((response) => [
        response.status,
        response.body.length,
        response.bodyBytesReceived,
        response.truncated,
      ]),
    ).toEqual([
      [200, 1024, 1500, true],
      [200, 1024, 1500, true],
      [204, 0, 0, false],
    ]);
    const untilClose = parser(10);
    untilClose.parser.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n0123456789abcdef'));
    expect(untilClose.parser.end()).toBeNull();
    expect(untilClose.responses.map(summary)).toEqual([{ status: 200, body: '0123456789', keepAlive: false }]);
    expect(untilClose.responses[0]?.bodyBytesReceived).toBe(16);
  });
});
