// Issue 17 (7): requests Node's HTTP parser refuses (oversized headers, bad header names,
// conflicting Content-Length, a garbled request line) were answered with an empty, non-JSON body.
// Each now gets a complete HTTP/1.1 response with a JSON error in the spec's shape, then the
// connection closes. Raw sockets against a real listener on 127.0.0.1.
import { connect } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

interface RawAnswer {
  readonly statusLine: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** Sends `text` on a fresh connection and reads until the server closes it (at most 10 s). */
function rawExchange(url: string, text: string): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // the server may close before every byte was written
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = Buffer.concat(chunks).toString('utf8');
      const split = answer.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = answer.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines)
        headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      let body: unknown;
      try {
        body = JSON.parse(answer.slice(split + 4));
      } catch {
        body = answer.slice(split + 4);
      }
      resolve({ statusLine, headers, body });
    });
    socket.write(text);
  });
}

test('parser errors answer a complete response with a JSON error body, then close', async () => {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  const api = handle.urls.api as string;
  const cases: [string, string, number][] = [
    ['100 KB header', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`, 431],
    ['bad header name', 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400],
    [
      'conflicting Content-Length',
      'POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      400,
    ],
    [
      'Content-Length and chunked',
      'POST /register HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['garbled request line', 'HELLO\r\n\r\n', 400],
  ];
  for (const [name, text, status] of cases) {
    const answer = await rawExchange(api, text);
    expect(answer.statusLine, name).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer.headers['content-type'], name).toBe('application/json');
    expect(answer.headers['connection'], name).toBe('close');
    expect(answer.body, name).toMatchObject({ code: 'BAD_REQUEST', error: expect.any(String) as string });
  }
  expect(handle.platform.agents.size).toBe(0);
  // The listener still serves.
  expect((await fetch(`${api}/health`)).status).toBe(200);
});
