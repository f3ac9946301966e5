// The answer limit (answer-limits.ts) as http-connections.ts applies it, over a real loopback
// server: counted after decompression (a gzip bomb stops at the limit, not at its 1 MB on the
// wire), a Content-Length above it refused before a byte of the body is read, headers past 16 KiB
// refused, and the process's limit (`--max-body-mb`) used by every transport that names none.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ANSWER_BYTES_MAX_DEFAULT, MIB, setAnswerBytesMax } from '../../src/client/answer-limits.ts';
import { httpTransport } from '../../src/client/http-transport.ts';

const bomb = gzipSync(Buffer.alloc(64 * MIB, 0x20), { level: 9 });
let server: Server;
let base = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/gzip-bomb') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(bomb);
    } else if (request.url === '/five-gb') {
      // Announces 5 GB, sends a few bytes and holds the socket: only the header can end this fast.
      request.socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5368709120\r\n\r\n{"a":',
      );
    } else if (request.url === '/big-headers') {
      response.writeHead(200, { 'content-type': 'application/json', 'x-big': 'b'.repeat(20_000) });
      response.end('{}');
    } else if (request.url === '/two-mib') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify('x'.repeat(2 * MIB)));
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => setAnswerBytesMax(ANSWER_BYTES_MAX_DEFAULT));

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const kept = () => httpTransport({ urls: { api: base }, nonJson: 'keep', timeoutMs: 10_000 });

test('a gzip bomb stops at the limit counted after decompression (1 MiB here: its 64 MiB are never held)', async () => {
  setAnswerBytesMax(MIB);
  const answer = await kept()({ mount: 'api', method: 'GET', path: '/gzip-bomb' });
  expect(answer).toMatchObject({ status: 200, body: undefined, bodyOverBytes: MIB });
  expect(bomb.byteLength).toBeLessThan(MIB);
});

test('a Content-Length of 5 GB is refused from its header, at once', async () => {
  const started = performance.now();
  const answer = await kept()({ mount: 'api', method: 'GET', path: '/five-gb' });
  expect(answer).toMatchObject({ status: 200, bodyOverBytes: ANSWER_BYTES_MAX_DEFAULT });
  expect(performance.now() - started).toBeLessThan(5_000);
});

test('headers past 16 KiB fail the exchange; the process limit is what a transport without its own uses', async () => {
  await expect(kept()({ mount: 'api', method: 'GET', path: '/big-headers' })).rejects.toThrow(
    /Header overflow|HPE_HEADER_OVERFLOW/i,
  );
  expect((await kept()({ mount: 'api', method: 'GET', path: '/two-mib' })).body).toHaveLength(2 * MIB);
  setAnswerBytesMax(MIB);
  const refused = httpTransport({ urls: { api: base } })({ mount: 'api', method: 'GET', path: '/two-mib' });
  await expect(refused).rejects.toThrow("its answer's body is over 1 MiB, afp's limit (--max-body-mb): not read");
});
