// The lean load client against real loopback servers: node:http ones for what a real target does
// (keep-alive, chunked bodies, large bodies in many packets, Connection: close, slow answers) and
// raw node:net ones for what a broken target does (garbage, a bad length, a reset mid-answer).
// Every server listens on 127.0.0.1 and is closed after its test.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { HttpClient, type HttpClientOptions, type HttpResult } from '../../src/load/http-client.ts';
import { parseHeaderFields } from '../../src/load/http-client-parser.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Served {
  readonly origin: string;
  /** Sockets the server accepted so far. */
  connections: number;
  /** The most requests it held at once. */
  maxConcurrent: number;
}

async function httpServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Served> {
  let concurrent = 0;
  const server: Server = createServer((request, response) => {
    concurrent += 1;
    served.maxConcurrent = Math.max(served.maxConcurrent, concurrent);
    response.on('close', () => (concurrent -= 1));
    handler(request, response);
  });
  const served = { origin: '', connections: 0, maxConcurrent: 0 };
  server.on('connection', () => (served.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  served.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return served;
}

/** A raw TCP server: `onData` sees each request's bytes and answers on the socket as it likes. */
async function rawServer(onData: (socket: Socket, data: Buffer) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => onData(socket, data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(origin: string, overrides: Partial<HttpClientOptions> = {}): HttpClient {
  const made = new HttpClient({
    origin,
    connectionsMax: 4,
    timeoutMs: 5_000,
    bodyBytesMax: 4 * 1024 * 1024,
    nowMs: () => performance.now(),
    ...overrides,
  });
  closers.push(() => Promise.resolve(made.close()));
  return made;
}

const get = (http: HttpClient, path = '/'): Promise<HttpResult> =>
  http.request({ method: 'GET', path, headers: { accept: 'application/json' }, body: undefined });

function answer(result: HttpResult): { status: number; text: string; headers: Record<string, string> } {
  if (!result.ok) throw new Error(`expected an answer, got ${result.kind}: ${result.message}`);
  return {
    status: result.response.status,
    text: result.response.body.toString('utf8'),
    headers: parseHeaderFields(result.response.head),
  };
}

const failure = (result: HttpResult): string => (result.ok ? `answered ${result.response.status}` : result.kind);

describe('against node:http', () => {
  test('many sequential requests over one keep-alive socket, each answer whole and in order', async () => {
    const served = await httpServer((request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: request.url })),
    );
    const http = client(served.origin, { connectionsMax: 1 });
    for (let index = 0; index < 300; index++)
      expect(answer(await get(http, `/n/${index}`)).text).toBe(`{"path":"/n/${index}"}`);
    expect(served.connections).toBe(1);
    expect(http.size).toBe(1);
  });

  test('send hands the answer over with the connection back in the pool: a request sent from the callback reuses it', async () => {
    const served = await httpServer((request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: request.url })),
    );
    const http = client(served.origin, { connectionsMax: 4 });
    const texts: string[] = [];
    await new Promise<void>((resolve) => {
      const next = (index: number): void =>
        http.send({ method: 'GET', path: `/chain/${index}`, headers: {}, body: undefined }, (result) => {
          texts.push(answer(result).text);
          if (index < 20) next(index + 1);
          else resolve();
        });
      next(0);
    });
    expect(texts).toEqual(Array.from({ length: 21 }, (_, index) => `{"path":"/chain/${index}"}`));
    // Sent from inside the callback, each request found the answering connection idle: no second socket.
    expect(served.connections).toBe(1);
    expect(http.size).toBe(1);
  });

  test('a POST body and headers arrive as sent; a HEAD answer and a 204 carry no body', async () => {
    const served = await httpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/empty') return void response.writeHead(204).end();
        const text = JSON.stringify({
          method: request.method,
          body: Buffer.concat(chunks).toString('utf8'),
          auth: request.headers.authorization ?? null,
        });
        response
          .writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
            'x-twice': ['a', 'b'],
          })
          .end(request.method === 'HEAD' ? undefined : text);
      });
    });
    const http = client(served.origin, { connectionsMax: 1 });
    const posted = answer(
      await http.request({
        method: 'POST',
        path: '/p',
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: '{"é":1}',
      }),
    );
    expect(JSON.parse(posted.text)).toEqual({ method: 'POST', body: '{"é":1}', auth: 'Bearer x' });
    expect(posted.headers['x-twice']).toBe('a, b');
    const head = await http.request({ method: 'HEAD', path: '/h', headers: {}, body: undefined });
    expect(answer(head).text).toBe('');
    expect(answer(head).status).toBe(200);
    expect(answer(await get(http, '/empty')).status).toBe(204);
    expect(answer(await get(http, '/after')).status).toBe(200);
    expect(served.connections).toBe(1);
  });

  test('chunked answers, in many writes, on the same socket as the next request', async () => {
    const served = await httpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      let part = 0;
      const next = (): void => {
        if (part === 5) return void response.end('end');
        response.write(`part${part++}-`);
        setImmediate(next);
      };
      next();
    });
    const http = client(served.origin, { connectionsMax: 1 });
    for (let round = 0; round < 3; round++) {
      const result = answer(await get(http));
      expect(result.headers['transfer-encoding']).toBe('chunked');
      expect(result.text).toBe('part0-part1-part2-part3-part4-end');
    }
    expect(served.connections).toBe(1);
  });

  test('a large body split across many packets comes whole; one above the limit is an answer, cut at the limit', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x');
    big.write('start', 0);
    big.write('end', big.length - 3);
    const served = await httpServer((request, response) => {
      if (request.url === '/chunked') {
        response.writeHead(200);
        for (let at = 0; at < big.length; at += 100_000) response.write(big.subarray(at, at + 100_000));
        return void response.end();
      }
      response.writeHead(200, { 'content-length': big.length }).end(big);
    });
    const http = client(served.origin, { connectionsMax: 1 });
    for (const path of ['/length', '/chunked']) {
      const result = await get(http, path);
      expect(result.ok && result.response.body.equals(big)).toBe(true);
    }
    // Read to its end and counted, kept only up to the limit; the connection stays usable.
    const small = client(served.origin, { bodyBytesMax: 1024 * 1024, connectionsMax: 1 });
    for (const path of ['/length', '/chunked', '/length']) {
      const result = await get(small, path);
      if (!result.ok) throw new Error(result.message);
      expect(result.response.status).toBe(200);
      expect(result.response.bodyBytesReceived).toBe(big.length);
      expect(result.response.truncated).toBe(true);
      expect(result.response.body.equals(big.subarray(0, 1024 * 1024))).toBe(true);
    }
    expect(served.connections).toBe(2);
  });

  test('Connection: close after an answer: the answer counts, the next request opens a new connection', async () => {
    const served = await httpServer((_request, response) =>
      response.writeHead(200, { connection: 'close', 'content-length': 2 }).end('{}'),
    );
    const http = client(served.origin, { connectionsMax: 1 });
    for (let index = 0; index < 3; index++) expect(answer(await get(http)).text).toBe('{}');
    expect(served.connections).toBe(3);
  });

  test('at most connectionsMax sockets: more requests wait their turn, all answered', async () => {
    const served = await httpServer((_request, response) =>
      setTimeout(() => response.writeHead(200, { 'content-length': 2 }).end('{}'), 20),
    );
    const http = client(served.origin, { connectionsMax: 3 });
    const results = await Promise.all(Array.from({ length: 30 }, () => get(http)));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(served.maxConcurrent).toBe(3);
    expect(served.connections).toBe(3);
  });

  test('no answer in time: a timeout from the one sweep, the socket dropped; the next request gets a new one', async () => {
    const served = await httpServer((request, response) => {
      if (request.url === '/fast') response.writeHead(200, { 'content-length': 2 }).end('{}');
    });
    const http = client(served.origin, { connectionsMax: 1, timeoutMs: 200 });
    const startMs = performance.now();
    expect(failure(await get(http, '/slow'))).toBe('timeout');
    const tookMs = performance.now() - startMs;
    expect(tookMs).toBeGreaterThanOrEqual(195);
    expect(tookMs).toBeLessThan(10_000); // generous: it tells the sweep's timeout from a hang on a busy machine
    expect(answer(await get(http, '/fast')).text).toBe('{}');
    expect(served.connections).toBe(2);
    // A request waiting for a connection counts its time from its call too: both of these time out.
    expect((await Promise.all([get(http, '/slow'), get(http, '/slow')])).map(failure)).toEqual(['timeout', 'timeout']);
  });

  test('interrupt fails what is in flight and what waits, and refuses new requests', async () => {
    const served = await httpServer(() => undefined);
    const http = client(served.origin, { connectionsMax: 1 });
    const waiting = [get(http), get(http)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    http.interrupt('cut by the test');
    expect((await Promise.all(waiting)).map(failure)).toEqual(['interrupted', 'interrupted']);
    expect(failure(await get(http))).toBe('interrupted');
    expect(http.size).toBe(0);
  });
});

describe('against a broken target (node:net)', () => {
  test('garbage instead of a status line, and a bad Content-Length: malformed, and the connection dropped', async () => {
    let count = 0;
    const origin = await rawServer((socket) => {
      count += 1;
      socket.write(
        count === 1
          ? 'HELLO THERE\r\n\r\n'
          : count === 2
            ? 'HTTP/1.1 200 OK\r\ncontent-length: 1x\r\n\r\n'
            : 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}',
      );
    });
    const http = client(origin, { connectionsMax: 1 });
    expect(failure(await get(http))).toBe('malformed');
    expect(failure(await get(http))).toBe('malformed');
    expect(answer(await get(http)).text).toBe('{}');
  });

  test('a reset in the middle of an answer: closed; the next request reconnects and is answered', async () => {
    let count = 0;
    const origin = await rawServer((socket) => {
      count += 1;
      if (count === 1) {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"partial"');
        setTimeout(() => socket.resetAndDestroy(), 20);
      } else {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}');
      }
    });
    const http = client(origin, { connectionsMax: 1 });
    expect(failure(await get(http))).toBe('closed');
    expect(answer(await get(http)).text).toBe('{}');
  });

  test('an answer byte by byte, a 100 Continue before it, and one read until close (no length)', async () => {
    const origin = await rawServer((socket, data) => {
      const text = data.toString('latin1');
      if (text.startsWith('GET /close')) return void socket.end('HTTP/1.1 200 OK\r\nx-a: 1\r\n\r\nuntil the end');
      const bytes = Buffer.from(
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 7\r\nX-Lazy: yes\r\n\r\n{"a":1}',
      );
      let at = 0;
      const next = (): void => {
        if (at < bytes.length) socket.write(bytes.subarray(at, ++at), () => setImmediate(next));
      };
      next();
    });
    const http = client(origin, { connectionsMax: 1 });
    const slow = answer(await get(http, '/bytes'));
    expect(slow).toEqual({ status: 201, text: '{"a":1}', headers: { 'content-length': '7', 'x-lazy': 'yes' } });
    expect(answer(await get(http, '/close')).text).toBe('until the end');
    expect(http.size).toBe(0);
  });

  test('an extra answer nobody asked for is not taken for the next request', async () => {
    let count = 0;
    const origin = await rawServer((socket) => {
      count += 1;
      const answer = (body: string): string => `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
      socket.write(count === 1 ? answer('"one"') + answer('"forged"') : answer('"two"'));
    });
    const http = client(origin, { connectionsMax: 1 });
    const [first, second] = await Promise.all([get(http), get(http)]);
    expect(answer(first as HttpResult).text).toBe('"one"');
    expect(answer(second as HttpResult).text).toBe('"two"');
  });

  test('nobody listening: refused; a line break in a header: refused before sending', async () => {
    const origin = await rawServer(() => undefined);
    closers.splice(0).forEach((close) => void close());
    await new Promise((resolve) => setTimeout(resolve, 20));
    const http = client(origin);
    expect(failure(await get(http))).toBe('refused');
    expect(
      failure(
        await http.request({ method: 'GET', path: '/', headers: { 'x-evil': 'a\r\nx-forged: 1' }, body: undefined }),
      ),
    ).toBe('invalid-request');
  });
});
