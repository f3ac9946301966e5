// The node:http exchange under afp's HTTP transport, against real loopback servers: what it keeps of
// fetch (so a target sees and answers the same as before: content-length, user-agent, redirects as
// fetch follows them, gzip, BOM, repeated headers) and what it is for: one keep-alive socket per
// origin reused by every transport of the process, and a request sent once more when the reused
// socket turns out closed before any answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpTransport } from '../../src/client/http-transport.ts';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly socket: number;
}

interface Loopback {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

type Handler = (seen: Seen, answer: ServerResponse, socket: Socket) => void;

async function loopback(handler: Handler): Promise<Loopback> {
  const seen: Seen[] = [];
  const sockets = new Map<Socket, number>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const socket = request.socket;
      if (!sockets.has(socket)) sockets.set(socket, sockets.size);
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push({ ...entry, socket: sockets.get(socket) ?? -1 });
      handler(seen.at(-1) as Seen, response, socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (answer: ServerResponse, status: number, body: unknown): void => {
  answer.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

describe('the exchange keeps what fetch sent and read', () => {
  let server: Loopback;
  let other: Loopback;
  beforeAll(async () => {
    other = await loopback((seen, answer) => json(answer, 200, { at: 'other', headers: seen.headers }));
    server = await loopback((seen, answer) => {
      const path = seen.url.split('?')[0];
      if (path === '/see-other') answer.writeHead(303, { location: '/echo' }).end();
      else if (path === '/temporary') answer.writeHead(307, { location: '/echo' }).end();
      else if (path === '/elsewhere') answer.writeHead(302, { location: `${other.url}/x` }).end();
      else if (path === '/loop') answer.writeHead(302, { location: '/loop' }).end();
      else if (path === '/gone') answer.writeHead(308, { location: 'http://127.0.0.1:1/away' }).end();
      else if (path === '/gzip')
        answer
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync('{"packed":true}'));
      else if (path === '/no-content') answer.writeHead(204, { 'content-encoding': 'gzip' }).end();
      else if (path === '/bom') answer.writeHead(200, { 'content-type': 'application/json' }).end('\uFEFF{"a":1}');
      else if (path === '/repeated')
        answer
          .writeHead(200, [
            ['Content-Type', 'application/json'],
            ['X-B', '1'],
            ['X-A', 'one'],
            ['X-A', 'two'],
          ])
          .end('{}');
      else json(answer, 200, { method: seen.method, body: seen.body, socket: seen.socket });
    });
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  test('a JSON body goes with its exact content-length, never chunked, and user-agent node', async () => {
    const transport = httpTransport({ urls: { api: server.url } });
    await transport({ mount: 'api', method: 'POST', path: '/echo', body: { note: 'é' } });
    const headers = server.seen.at(-1)?.headers;
    expect(headers?.['content-length']).toBe(String(Buffer.byteLength('{"note":"é"}')));
    expect(headers?.['transfer-encoding']).toBeUndefined();
    expect(headers?.['user-agent']).toBe('node');
    expect(headers?.['accept']).toBe('application/json');
  });

  test('redirects as fetch follows them: 303 becomes a body-less GET, 307 keeps method and body', async () => {
    const transport = httpTransport({ urls: { api: server.url } });
    const seeOther = await transport({ mount: 'api', method: 'POST', path: '/see-other', body: { a: 1 } });
    expect(seeOther).toMatchObject({ status: 200, body: { method: 'GET', body: '' } });
    expect(server.seen.at(-1)?.headers['content-type']).toBeUndefined();
    const temporary = await transport({ mount: 'api', method: 'POST', path: '/temporary', body: { a: 1 } });
    expect(temporary).toMatchObject({ status: 200, body: { method: 'POST', body: '{"a":1}' } });
  });

  test('a redirect to another origin is not followed: the call fails naming the Location, and the other origin hears nothing', async () => {
    const transport = httpTransport({ urls: { api: server.url } });
    const before = other.seen.length;
    await expect(
      transport({
        mount: 'api',
        method: 'POST',
        path: '/elsewhere',
        body: { secret: 1 },
        headers: { authorization: 'k' },
      }),
    ).rejects.toThrow(
      `a redirect to "${other.url}/x": another origin than the target's ${server.url}; afp does not follow it`,
    );
    expect(other.seen.length).toBe(before);
    await expect(transport({ mount: 'api', method: 'GET', path: '/loop' })).rejects.toThrow(
      'more than 5 redirects; not followed',
    );
  });

  test('a redirect to another port of the same host is another origin too (a target moved to a host that does not answer)', async () => {
    const transport = httpTransport({ urls: { api: server.url } });
    await expect(transport({ mount: 'api', method: 'GET', path: '/gone' })).rejects.toThrow(
      `a redirect to "http://127.0.0.1:1/away": another origin`,
    );
  });

  test('a gzip answer is decoded (a 204 has nothing to decode), a leading BOM dropped, repeated headers joined and names sorted', async () => {
    const transport = httpTransport({ urls: { api: server.url } });
    expect((await transport({ mount: 'api', method: 'GET', path: '/gzip' })).body).toEqual({ packed: true });
    const kept = httpTransport({ urls: { api: server.url }, nonJson: 'keep' });
    expect(await kept({ mount: 'api', method: 'GET', path: '/no-content' })).toMatchObject({ status: 204, text: '' });
    expect((await transport({ mount: 'api', method: 'GET', path: '/bom' })).body).toEqual({ a: 1 });
    const repeated = await transport({ mount: 'api', method: 'GET', path: '/repeated' });
    expect(repeated.headers['x-a']).toBe('one, two');
    const names = Object.keys(repeated.headers);
    expect(names).toEqual([...names].sort());
  });
});

describe('keep-alive', () => {
  test('every transport of the process reuses the one socket of an origin', async () => {
    const server = await loopback((seen, answer) => json(answer, 200, { socket: seen.socket }));
    try {
      for (let index = 0; index < 20; index++) {
        // A transport per call, as an admin client per clock move makes: the socket is still the one.
        const answer = await httpTransport({ urls: { api: server.url } })({ mount: 'api', method: 'GET', path: '/' });
        expect(answer.body).toEqual({ socket: 0 });
      }
      expect(server.seen).toHaveLength(20);
    } finally {
      await server.close();
    }
  });

  test('a reused socket the server closed before answering: the request goes once more, on a new socket', async () => {
    let dropped = 0;
    const server = await loopback((seen, answer, socket) => {
      if (seen.url === '/drop' && seen.socket === 0 && dropped === 0) {
        dropped++;
        socket.destroy();
        return;
      }
      json(answer, 200, { socket: seen.socket });
    });
    try {
      const transport = httpTransport({ urls: { api: server.url } });
      expect((await transport({ mount: 'api', method: 'GET', path: '/first' })).body).toEqual({ socket: 0 });
      expect((await transport({ mount: 'api', method: 'POST', path: '/drop', body: {} })).body).toEqual({ socket: 1 });
      expect(server.seen.map((seen) => [seen.url, seen.socket])).toEqual([
        ['/first', 0],
        ['/drop', 0],
        ['/drop', 1],
      ]);
    } finally {
      await server.close();
    }
  });
});
