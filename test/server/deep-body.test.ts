// Issue 17 (6): a game parameter nested about 3,000 levels deep overflowed the stack (500). Bodies
// nesting deeper than JSON_DEPTH_MAX are refused at the edge with a 400 in the spec's error shape
// and change nothing; the size limit still comes first (413). Real listeners on 127.0.0.1.
import { afterEach, expect, test } from 'vitest';
import { JSON_DEPTH_MAX, readJsonBody } from '../../src/http/body.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

const nested = (depth: number, open = '[', close = ']'): string => `${open.repeat(depth)}${close.repeat(depth)}`;

test('a game parameter thousands of levels deep is a 400 in the error shape, and nothing changes', async () => {
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
  const casino = handle.urls.casino as string;
  const registered = (await (
    await fetch(`${api}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"deep"}',
    })
  ).json()) as { api_key: string };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${registered.api_key}` };
  const transfers = handle.platform.ledger.transfers;
  for (const [url, text] of [
    [`${casino}/api/v1/games/coin-flip`, `{"amount":1,"side":${nested(10_000)}}`],
    [`${casino}/api/v1/games/dice`, `{"amount":1,"direction":${nested(3_000)}}`],
    [`${casino}/api/v1/games/coin-flip`, `{"amount":1,"side":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`],
    [`${api}/escrow`, `{"amount":"1.00","receiver":"deep","conditions":${nested(JSON_DEPTH_MAX + 1)}}`],
  ] as const) {
    const response = await fetch(url, { method: 'POST', headers, body: text });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, `${url}: ${JSON.stringify(body)}`).toBe(400);
    expect(body).toMatchObject({
      code: 'BAD_REQUEST',
      error: `request body nests deeper than ${JSON_DEPTH_MAX} levels`,
    });
  }
  expect(handle.platform.ledger.transfers).toBe(transfers);
  // Exactly at the limit the body is read (and the row says what is wrong with it).
  const atLimit = await fetch(`${api}/escrow`, {
    method: 'POST',
    headers,
    body: `{"amount":"1.00","receiver":"deep","conditions":${nested(JSON_DEPTH_MAX - 1)}}`,
  });
  expect(((await atLimit.json()) as { error: string }).error).not.toContain('nests deeper');
});

test('the depth is counted outside strings; the size limit comes first', () => {
  expect(readJsonBody(`{"a":"${'['.repeat(1_000)}"}`, 'application/json', 10_000)).toEqual({
    body: { a: '['.repeat(1_000) },
  });
  expect(readJsonBody(`{"a":"\\"${'{'.repeat(100)}"}`, 'application/json', 10_000)).toEqual({
    body: { a: `"${'{'.repeat(100)}` },
  });
  const tooDeep = readJsonBody(nested(JSON_DEPTH_MAX + 1), 'application/json', 10_000);
  expect('failure' in tooDeep && tooDeep.failure.status).toBe(400);
  expect(readJsonBody(nested(JSON_DEPTH_MAX), 'application/json', 10_000)).toHaveProperty('body');
  const tooLarge = readJsonBody(nested(5_000), 'application/json', 1_000);
  expect('failure' in tooLarge && tooLarge.failure.status).toBe(413);
});

test('an MCP body nesting too deep is a JSON-RPC parse error, 400', async () => {
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
  const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"register_agent","arguments":{"agent_id":"d","metadata":${nested(10_000)}}}}`;
  const response = await fetch(`${handle.urls.faucet as string}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: text,
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    jsonrpc: '2.0',
    error: { code: -32700, message: `Parse error: request body nests deeper than ${JSON_DEPTH_MAX} levels` },
    id: null,
  });
  expect(handle.platform.agents.has('d')).toBe(false);
});
