// The HTTP edge over a test-only route table: the query (duplicates refused), the originating IP
// (X-Forwarded-For read only from trusted proxies: the rightmost untrusted entry), bodies past every limit, invalid
// UTF-8, and a bug inside the dispatcher (500 INTERNAL_ERROR, logged with the seed, still serving).
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { succeed } from '../../src/core/errors.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { defineRoute } from '../../src/http/route.ts';
import { createApiServer } from '../../src/http/server.ts';
import { Platform } from '../../src/platform/platform.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES, NO_PROXIES, TrustedProxies } from '../../src/http/trusted-proxies.ts';

const echo = defineRoute<unknown, unknown>({
  id: 'test.B.echo',
  service: 'escrow',
  style: 'B',
  mount: 'api',
  method: 'POST',
  path: '/echo',
  auth: 'none',
  summary: 'echo',
  parse: (input, context) => ({ ip: context.ip, query: input.query, body: input.body ?? null }),
  run: (_context, command) => succeed(command),
  successStatus: 200,
  render: (value) => value as never,
});
const crash = defineRoute<null, null>({
  id: 'test.B.crash',
  service: 'escrow',
  style: 'B',
  mount: 'api',
  method: 'GET',
  path: '/crash',
  auth: 'none',
  summary: 'a bug',
  parse: () => null,
  run: () => {
    throw new Error('boom');
  },
  successStatus: 200,
  render: () => ({}),
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(trustedProxies: TrustedProxies = LOOPBACK_PROXIES): Promise<{ url: string; logs: string[] }> {
  const platform = new Platform({ seed: '42', startMs: START_MS });
  const logs: string[] = [];
  const server = createApiServer({
    dispatcher: new Dispatcher(platform, [echo, crash]),
    clock: new VirtualClock(START_MS),
    mount: 'api',
    trustedProxies,
    log: (line) => logs.push(line),
    // A raw handler with a bug (as the MCP door whose module failed to load: a probe saw a hang-up).
    rawPaths: { '/raw-crash': () => Promise.reject(new Error('module failed to load')) },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logs };
}

async function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('createApiServer', () => {
  test('path, query and body reach the row; a duplicate query key is 400', async () => {
    const { url } = await start();
    expect(await post(`${url}/echo?a=1&b=x%20y`, '{"k":[1]}')).toMatchObject({
      status: 200,
      body: { query: { a: '1', b: 'x y' }, body: { k: [1] } },
    });
    expect(await post(`${url}/echo?a=1&a=2`, '{}')).toMatchObject({
      status: 400,
      body: { code: 'BAD_REQUEST', error: 'duplicate query parameter: a' },
    });
  });

  test('X-Forwarded-For names the client only from a trusted proxy: its rightmost untrusted address', async () => {
    const trusted = await start(LOOPBACK_PROXIES);
    const untrusted = await start(NO_PROXIES);
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '10.1.1.1, 10.2.2.2' };
    expect((await post(`${trusted.url}/echo`, '{}', headers)).body['ip']).toBe('10.2.2.2');
    expect((await post(`${untrusted.url}/echo`, '{}', headers)).body['ip']).toBe('127.0.0.1');
    expect((await post(`${trusted.url}/echo`, '{}')).body['ip']).toBe('127.0.0.1');
    const chain = TrustedProxies.parse(['127.0.0.1/32', '10.2.0.0/16']) as TrustedProxies;
    expect((await post(`${(await start(chain)).url}/echo`, '{}', headers)).body['ip']).toBe('10.1.1.1');
  });

  test('bodies past the limit are 413, drained or cut; invalid UTF-8 is 400', async () => {
    const { url } = await start();
    const limit = new Platform({ seed: '1', startMs: START_MS }).config.maxBodyBytes;
    expect(await post(`${url}/echo`, `"${'a'.repeat(limit)}"`)).toMatchObject({
      status: 413,
      body: { code: 'BAD_REQUEST' },
    });
    const huge = await rawPost(url, Buffer.alloc(limit + 2 * 1024 * 1024, 0x61));
    expect(huge.status).toBe(413);
    expect(huge.connection).toBe('close');
    expect(await post(`${url}/echo`, Buffer.from([0x22, 0xff, 0x22]))).toMatchObject({
      status: 400,
      body: { error: 'request body is not valid UTF-8' },
    });
    expect((await post(`${url}/echo`, '"fine"')).status).toBe(200);
  });

  test('a throw inside the dispatcher is a 500 INTERNAL_ERROR logged with the seed; serving goes on', async () => {
    const { url, logs } = await start();
    const response = await fetch(`${url}/crash`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal error (seed 42)', code: 'INTERNAL_ERROR' });
    expect(logs.join('\n')).toMatch(/INTERNAL ERROR \(a bug\) on GET api:\/crash — seed 42[\s\S]*boom/);
    expect((await post(`${url}/echo`, '{}')).status).toBe(200);
  });

  test("a raw handler's throw is a 500 INTERNAL_ERROR too, not a hang-up; serving goes on", async () => {
    const { url, logs } = await start();
    const response = await fetch(`${url}/raw-crash`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal error (seed 42)', code: 'INTERNAL_ERROR' });
    expect(logs.join('\n')).toContain('failed to answer POST /raw-crash (seed 42): Error: module failed to load');
    expect((await post(`${url}/echo`, '{}')).status).toBe(200);
  });
});

/** A POST through node:http that tolerates the server closing while the body is still going out. */
function rawPost(url: string, body: Buffer): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}/echo`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
