// bufferedBody: a request whose message is whole in its stream's buffer is read at once (no
// listener, timer or promise), classified as readBodyBytes classifies it; a body still arriving is
// left to readBodyBytes (null). Real sockets: what the parser has buffered after a turn of the loop.
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bufferedBody, type BodyBytes } from '../../src/http/body.ts';

const LIMITS = { maxBytes: 16, drainBytes: 16 };
const seen: Array<BodyBytes | null> = [];
const server = createServer((request: IncomingMessage, response) => {
  setImmediate(() => {
    seen.push(bufferedBody(request, LIMITS));
    request.resume();
    response.writeHead(200, { 'content-length': '2', connection: 'close' }).end('{}');
  });
});
let port = 0;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

/** Sends `head` then, after `laterMs`, `rest` on one connection; resolves when the server closes it. */
async function send(head: string, rest = '', laterMs = 0): Promise<BodyBytes | null> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(head);
  if (rest !== '') setTimeout(() => socket.write(rest), laterMs);
  socket.resume();
  await once(socket, 'close');
  return seen.at(-1) ?? null;
}

const post = (body: string): string =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

describe('bufferedBody', () => {
  test('a GET reads as an empty body; a body sent with the headers reads whole', async () => {
    const empty = await send('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(empty?.kind === 'read' && empty.bytes.length).toBe(0);
    const body = await send(post('{"a":1}'));
    expect(body?.kind === 'read' && body.bytes.toString()).toBe('{"a":1}');
  });

  test('past maxBytes it is too large, past maxBytes + drainBytes abandoned', async () => {
    expect((await send(post('x'.repeat(17))))?.kind).toBe('too-large');
    expect((await send(post('x'.repeat(32))))?.kind).toBe('too-large');
    expect((await send(post('x'.repeat(33))))?.kind).toBe('abandoned');
  });

  test('a body still arriving is not read here: null, for readBodyBytes to wait for', async () => {
    const head = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n';
    expect(await send(head, '{"a":1}', 100)).toBeNull();
  });
});
