// The HTTP transport and target discovery against small local servers: JSON answers of any status
// resolve with lower-case headers; transport trouble (no URL for a mount, nothing listening, a
// non-JSON answer, a timeout) rejects with a message naming the URL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpTransport } from '../../src/client/http-transport.ts';
import { parseTarget, targetUrlError } from '../../src/client/target.ts';
import { discoverTarget } from '../../src/live/afp-mounts.ts';
import { servedSetup, type ServedSetup } from './fixtures.ts';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('httpTransport', () => {
  const seen: Seen[] = [];
  let base = '';
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/text') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
      } else if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(5_000)}"`);
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/text' }).end();
      } else if (request.url === '/hang') {
        return; // never answers: the timeout must end the request
      } else {
        response
          .writeHead(418, { 'Content-Type': 'application/json', 'X-RateLimit-Limit': '100' })
          .end('{"error":"teapot","code":"BAD_REQUEST"}');
      }
    });
  });
  beforeAll(async () => {
    base = await listen(server);
  });
  afterAll(() => close(server));

  test('sends JSON with its content type and the query; any JSON answer resolves with lower-case headers', async () => {
    const transport = httpTransport({ urls: { api: `${base}/` } });
    const response = await transport({
      mount: 'api',
      method: 'POST',
      path: '/escrow/a%2Fb',
      query: { limit: '5', q: 'a b' },
      headers: { authorization: 'Bearer k' },
      body: { amount: '1.00' },
    });
    expect(response.status).toBe(418);
    expect(response.body).toEqual({ error: 'teapot', code: 'BAD_REQUEST' });
    expect(response.headers['x-ratelimit-limit']).toBe('100');
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/escrow/a%2Fb?limit=5&q=a+b', body: '{"amount":"1.00"}' });
    expect(request?.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k' });
  });

  test('a raw body goes out byte for byte with its own content type; no body, no content type', async () => {
    const transport = httpTransport({ urls: { api: base } });
    await transport({
      mount: 'api',
      method: 'POST',
      path: '/x',
      rawBody: { text: '{"a":', contentType: 'text/plain' },
    });
    expect(seen.at(-1)).toMatchObject({ body: '{"a":', headers: { 'content-type': 'text/plain' } });
    await transport({ mount: 'api', method: 'GET', path: '/x' });
    expect(seen.at(-1)?.headers['content-type']).toBeUndefined();
  });

  test('a mount without a URL rejects naming the known mounts', async () => {
    await expect(
      httpTransport({ urls: { api: base } })({ mount: 'escrow', method: 'GET', path: '/x' }),
    ).rejects.toThrow(/no URL for mount 'escrow' \(known: api\)/);
  });

  test('a non-JSON answer rejects naming the URL and status', async () => {
    await expect(
      httpTransport({ urls: { api: base } })({ mount: 'api', method: 'GET', path: '/text' }),
    ).rejects.toThrow(`GET ${base}/text answered 200 with a non-JSON body`);
  });

  test('answerBytesMax: a longer answer is not read (bodyOverBytes, no body; rejected unless kept); a shorter one is', async () => {
    const kept = httpTransport({ urls: { api: base }, nonJson: 'keep', answerBytesMax: 1_000 });
    expect(await kept({ mount: 'api', method: 'GET', path: '/big' })).toMatchObject({
      status: 200,
      body: undefined,
      bodyOverBytes: 1_000,
    });
    const fits = await kept({ mount: 'api', method: 'GET', path: '/x' });
    expect(fits.body).toEqual({ error: 'teapot', code: 'BAD_REQUEST' });
    expect(fits.bodyOverBytes).toBeUndefined();
    await expect(
      httpTransport({ urls: { api: base }, answerBytesMax: 1_000 })({ mount: 'api', method: 'GET', path: '/big' }),
    ).rejects.toThrow(
      `GET ${base}/big answered 200: its answer's body is over 1000 bytes, afp's limit (--max-body-mb): not read`,
    );
  });

  test("redirect: 'manual' answers the redirect itself; the default follows it", async () => {
    const manual = httpTransport({ urls: { api: base }, nonJson: 'keep', redirect: 'manual' });
    const answer = await manual({ mount: 'api', method: 'GET', path: '/moved' });
    expect(answer.status).toBe(302);
    expect(answer.headers['location']).toBe('/text');
    const followed = await httpTransport({ urls: { api: base }, nonJson: 'keep' })({
      mount: 'api',
      method: 'GET',
      path: '/moved',
    });
    expect(followed).toMatchObject({ status: 200, text: '<html>not json</html>' });
  });

  test('a request that gets no answer is bounded by the timeout', async () => {
    await expect(
      httpTransport({ urls: { api: base }, timeoutMs: 200 })({ mount: 'api', method: 'GET', path: '/hang' }),
    ).rejects.toThrow(`GET ${base}/hang failed: TimeoutError`);
  });

  test('nothing listening rejects naming the URL', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await close(closed);
    await expect(
      httpTransport({ urls: { faucet: url } })({ mount: 'faucet', method: 'GET', path: '/health' }),
    ).rejects.toThrow(`GET ${url}/health failed`);
    await expect(discoverTarget(url)).rejects.toThrow(`target ${url} does not answer`);
  });
});

describe('targets', () => {
  let served: ServedSetup;
  beforeAll(async () => {
    served = await servedSetup();
  });
  afterAll(() => served.serve.close());

  test('parseTarget: one URL is the api mount; bad URLs are refused', () => {
    expect(parseTarget('http://127.0.0.1:8700/')).toEqual({ api: 'http://127.0.0.1:8700' });
    expect(targetUrlError('ftp://x')).toMatch(/http:\/\/ or https:\/\//);
    expect(targetUrlError('nonsense')).toMatch(/invalid target URL/);
    expect(targetUrlError('http://x/?a=1')).toMatch(/query or fragment/);
    expect(() => parseTarget('nonsense')).toThrow(/invalid target URL/);
  });

  test('discoverTarget finds the style-A mounts of an afp server, and only api elsewhere', async () => {
    const urls = served.serve.urls;
    expect(await discoverTarget(urls.api as string)).toEqual({
      api: urls.api,
      faucet: urls.faucet,
      escrow: urls.escrow,
      trading: urls.trading,
      domains: urls.domains,
      wallet: urls.wallet,
      casino: urls.casino,
    });
    const plain = createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'application/json' }).end('{}'),
    );
    const url = await listen(plain);
    expect(await discoverTarget(url)).toEqual({ api: url });
    await close(plain);
  });
});
