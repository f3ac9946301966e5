// afp replay sends a shed request again: a 503 with Retry-After and no rate-limit headers (afp
// serve's load shedder on a busy machine) was never taken, so it is waited out and resent instead
// of being compared with the record; a 503 that went through the limiter (a fault window, with
// x-ratelimit-* headers) is an answer like any other. Against a real listener on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { httpTransport } from '../../src/client/http-transport.ts';
import { sendWithRetries } from '../../src/cli/replay-send.ts';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

async function listen(answer: (call: number) => [number, Record<string, string>, unknown]): Promise<string> {
  let calls = 0;
  const server = createServer((_request, response) => {
    calls += 1;
    const [status, headers, body] = answer(calls);
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('replay and load shedding', () => {
  test('a shed 503 is waited out and sent again; a fault-window 503 is the answer', async () => {
    const shedOnce = await listen((call) =>
      call === 1
        ? [503, { 'retry-after': '0' }, { error: 'server overloaded', code: 'SERVICE_UNAVAILABLE' }]
        : [200, { 'x-ratelimit-limit': '10' }, { ok: true }],
    );
    const transport = httpTransport({ urls: { api: shedOnce } });
    const answer = await sendWithRetries(transport, { mount: 'api', method: 'GET', path: '/x', headers: {} });
    expect(answer.status).toBe(200);

    const fault = await listen(() => [
      503,
      { 'x-ratelimit-limit': '10', 'retry-after': '0' },
      { error: 'escrow is temporarily offline', code: 'SERVICE_UNAVAILABLE' },
    ]);
    const faulted = await sendWithRetries(httpTransport({ urls: { api: fault } }), {
      mount: 'api',
      method: 'GET',
      path: '/x',
      headers: {},
    });
    expect(faulted.status).toBe(503);
    expect(faulted.body).toMatchObject({ error: 'escrow is temporarily offline' });
  });
});
