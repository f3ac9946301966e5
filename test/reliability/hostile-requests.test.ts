// Reliability: 10,000+ hostile requests over real HTTP to a served platform on 127.0.0.1, spread
// round-robin over every route row (plus /mcp, /_afp/* and unknown paths), each carrying at least
// one thing that must make it fail (malformed JSON, a wrong content type, an unknown field or query
// parameter, a wrong method, a traversal path, an oversized or deeply nested body, no or a bad key),
// with wrong types and huge/negative/NaN numbers in the fields. Demanded: no 5xx, every answer a
// JSON error, and the platform's state digest (ledger, agents, escrows, timers) unchanged.
// Malformed HTTP that Node's own parser refuses is sent on raw sockets and must get a JSON 4xx too.
// Generation is fast-check's, seeded; the seed is printed first and with any failure.
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { jsonOf, pool, send, stateDigest, StatusCounts, type RawRequest } from './reliability-kit.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const SEED = Number(process.env['AFP_RELIABILITY_SEED'] ?? 20_261_117);
const CASES = 10_200;
const START_MS = Date.parse('2026-01-01T01:00:00Z');
const UNKNOWN_FIELD = '__hostile_unknown_field';

let handle: ServeHandle;
let keys: { a: string; b: string };
let escrowId: string;

beforeAll(async () => {
  handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '17',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    shed: { maxInFlight: 0, maxEventLoopDelayMs: 0 },
    log: () => undefined,
  });
  const api = handle.urls.api as string;
  const register = async (agentId: string): Promise<string> => {
    const answer = jsonOf(
      await send(api, {
        method: 'POST',
        path: '/register',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.0.${agentId.length}` },
        body: JSON.stringify({ agent_id: agentId }),
      }),
    );
    return String(answer?.['api_key']);
  };
  keys = { a: await register('hostile-a'), b: await register('hostile-bb') };
  for (const agentId of ['hostile-a', 'hostile-bb'])
    await send(api, {
      method: 'POST',
      path: '/_afp/tier',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: agentId, tier: 'enterprise' }),
    });
  const escrow = jsonOf(
    await send(api, {
      method: 'POST',
      path: '/escrow',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.a}` },
      body: JSON.stringify({ receiver: 'hostile-bb', amount: '1.00' }),
    }),
  );
  escrowId = String(escrow?.['escrow_id'] ?? escrow?.['id']);
});

afterAll(async () => {
  await handle.close({ forceAfterMs: 100 });
});

const HOSTILE_NUMBERS = [
  '-1',
  '-0',
  '0',
  '1e400',
  '-1e400',
  '1e308',
  '9007199254740993',
  '18446744073709551616',
  '0.0000001',
  '1.0000001',
  '"NaN"',
  '"Infinity"',
  '"-5"',
  '"1e9"',
  '"0x10"',
  '""',
  'null',
  'true',
  '[]',
  '{}',
  '[1]',
];
const HOSTILE_STRINGS = [
  '"../../../etc/passwd"',
  '"%2e%2e%2f"',
  `"${'x'.repeat(5_000)}"`,
  '"\\u0000"',
  '"😀"',
  '" "',
  '"<script>"',
  '"DROP TABLE agents"',
  '"sk_live_000"',
  '"0xZZ"',
];
const FIELD_NAMES = [
  'agent_id',
  'amount',
  'receiver',
  'seller',
  'buyer',
  'referrer',
  'expires_in',
  'escrow_id',
  'description',
  'reason',
  'evidence',
  'conditions',
  'game',
  'bet_amount',
  'amount_usdc',
  'target',
  'choice',
  'client_seed',
  'chain',
  'address',
  'tier',
  'to_ms',
  'advance_ms',
  'metadata',
  'risk_factor',
  'bankroll',
  'spins',
  'rounds',
  'bets',
  'name',
  'entry_fee',
  'limit',
  'page',
  '__proto__',
  'constructor',
];
const PATH_IDS = [
  '..',
  '../..',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%E0%A4%A',
  'x'.repeat(3_000),
  '😀',
  '-1',
  'NaN',
  '1e400',
  '%20',
  'escrow_does_not_exist',
];
const WRONG_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'FOO'];

type Hostility =
  | 'malformed'
  | 'content-type'
  | 'unknown-field'
  | 'unknown-query'
  | 'wrong-method'
  | 'path'
  | 'oversized'
  | 'deep-array'
  | 'deep-object'
  | 'no-key'
  | 'bad-key';
const HOSTILITIES: readonly Hostility[] = [
  'malformed',
  'content-type',
  'unknown-field',
  'unknown-query',
  'wrong-method',
  'path',
  'oversized',
  'deep-array',
  'deep-object',
  'no-key',
  'bad-key',
];

interface Case {
  readonly hostility: Hostility;
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly pathId: string;
  readonly method: string;
  readonly malformed: string;
  readonly auth: 'a' | 'b' | 'none' | 'garbage';
  readonly depth: number;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  hostility: fc.constantFrom(...HOSTILITIES),
  fields: fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...HOSTILE_NUMBERS, ...HOSTILE_STRINGS)), {
    maxLength: 6,
  }),
  pathId: fc.constantFrom(...PATH_IDS),
  method: fc.constantFrom(...WRONG_METHODS),
  malformed: fc.constantFrom(
    '{',
    '{"a":',
    'nul',
    '[1,2',
    "{'a':1}",
    '{"a":1,}',
    '\u0000',
    '{"a":1}{"b":2}',
    '\ufeff{',
    '{"a":"\\x"}',
    '1e',
    '"unterminated',
  ),
  auth: fc.constantFrom('a', 'b', 'none', 'garbage'),
  depth: fc.integer({ min: 200, max: 20_000 }),
});

/** Whether the key alone makes the request fail: none or a bad one on a row that needs one. */
function keyHostileOf(route: Route, hostility: Hostility): boolean {
  return (hostility === 'no-key' || hostility === 'bad-key') && route.auth === 'bearer';
}

/** The request one case makes of one route row: hostile by construction (see the header). */
function requestOf(route: Route, hostileCase: Case, index: number): { mount: string; request: RawRequest } {
  const { hostility } = hostileCase;
  const auth = hostility === 'no-key' ? 'none' : hostility === 'bad-key' ? 'garbage' : hostileCase.auth;
  const authorization =
    auth === 'a'
      ? `Bearer ${keys.a}`
      : auth === 'b'
        ? `Bearer ${keys.b}`
        : auth === 'garbage'
          ? 'Bearer sk_live_000000000000000000000000000000000000000000000000'
          : undefined;
  // A keyless request on a key-less row (registration) would be valid: it gets an unknown field too.
  const keyHostile = keyHostileOf(route, hostility);
  const hasParam = route.path.includes(':');
  let path = route.path.replaceAll(/:(\w+)/g, () =>
    hostility === 'path' ? encodeURIComponent(hostileCase.pathId) : escrowId,
  );
  // Traversal around a row without parameters: a path no row serves.
  if (hostility === 'path' && !hasParam)
    path =
      index % 2 === 0
        ? `/${hostileCase.pathId.startsWith('.') ? hostileCase.pathId : '..'}${path}`
        : `${path}/${encodeURIComponent(hostileCase.pathId)}`;
  // A GET carries its hostility in the query unless the key, path or method is the hostile part:
  // a body on a GET is meaningless in HTTP, and a row may ignore it.
  const bodyless = route.method === 'GET' && hostility !== 'wrong-method';
  const queryHostile =
    hostility === 'unknown-query' || (bodyless && !['path', 'no-key', 'bad-key'].includes(hostility));
  if (queryHostile || (bodyless && !keyHostileOf(route, hostility))) path = `${path}?${UNKNOWN_FIELD}=1&limit=-5`;
  const fieldText = hostileCase.fields.map(([name, value]) => `${JSON.stringify(name)}:${value}`);
  if (!keyHostile) fieldText.push(`"${UNKNOWN_FIELD}":1`);
  const objectBody = `{${fieldText.join(',')}}`;
  let body: string = objectBody;
  let contentType = 'application/json';
  switch (hostility) {
    case 'malformed':
      body = hostileCase.malformed;
      break;
    case 'content-type':
      contentType = [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
      ][index % 4] as string;
      break;
    case 'oversized':
      body = `{"description":"${'y'.repeat(70 * 1024 + (index % 4096))}","${UNKNOWN_FIELD}":1}`;
      break;
    case 'deep-array':
      body = `${'['.repeat(hostileCase.depth)}${']'.repeat(hostileCase.depth)}`;
      break;
    case 'deep-object':
      body = `${'{"a":'.repeat(hostileCase.depth)}1${'}'.repeat(hostileCase.depth)}`;
      break;
    case 'unknown-field':
    case 'unknown-query':
    case 'wrong-method':
    case 'path':
    case 'no-key':
    case 'bad-key':
      break;
  }
  const method = hostility === 'wrong-method' ? hostileCase.method : route.method;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-forwarded-for': `10.2.${(index >> 8) & 255}.${index & 255}`,
  };
  if (authorization !== undefined) headers['authorization'] = authorization;
  return { mount: route.mount, request: { method, path, headers, body } };
}

/** Rows to aim at: every route row, plus the serve-only paths and an unknown one. */
function targets(): Route[] {
  const extra = (mount: Route['mount'], method: Route['method'], path: string): Route => ({
    ...(ALL_ROUTES[0] as Route),
    id: `extra ${mount} ${method} ${path}`,
    mount,
    method,
    path,
    auth: 'none',
  });
  return [
    ...ALL_ROUTES,
    extra('faucet', 'POST', '/mcp'),
    extra('escrow', 'POST', '/mcp'),
    extra('api', 'POST', '/_afp/clock'),
    extra('api', 'POST', '/_afp/tier'),
    extra('api', 'POST', '/_afp/casino/deposit'),
    extra('api', 'GET', '/nowhere/at/all'),
  ];
}

describe('reliability: hostile requests', () => {
  test(`${CASES} hostile requests across every route: no 5xx, JSON errors only, no state change (seed ${SEED})`, async () => {
    console.log(
      `hostile requests: seed ${SEED} (AFP_RELIABILITY_SEED=${SEED} npx vitest run test/reliability/hostile-requests.test.ts)`,
    );
    const before = stateDigest(handle.platform);
    const cases = fc.sample(caseArbitrary, { seed: SEED, numRuns: CASES });
    const rows = targets();
    const statuses = new StatusCounts();
    const fiveHundreds: string[] = [];
    const notJsonErrors: string[] = [];
    const startedMs = performance.now();
    await pool(cases.length, 8, async (index) => {
      const route = rows[index % rows.length] as Route;
      const { mount, request } = requestOf(route, cases[index] as Case, index);
      const answer = await send(handle.urls[mount as keyof typeof handle.urls] ?? (handle.urls.api as string), request);
      statuses.add(answer.status);
      const label = `#${index} ${cases[index]?.hostility ?? ''} ${mount} ${request.method} ${request.path.slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 120)}`;
      if (answer.status >= 500 || answer.status === 0) fiveHundreds.push(label);
      if (answer.status < 300 && request.method !== 'GET') console.log(`  2xx to a hostile ${label}`);
      const body = jsonOf(answer);
      // /mcp answers in JSON-RPC's error shape (the SDK's); every other path in the spec's.
      const isMcp = request.path.startsWith('/mcp');
      const errorShaped = isMcp
        ? body !== null
        : typeof body?.['error'] === 'string' && typeof body['code'] === 'string';
      if (answer.status < 400 || !errorShaped) notJsonErrors.push(label);
    });
    const after = stateDigest(handle.platform);
    console.log(
      `hostile requests: ${statuses.total} sent to ${rows.length} routes in ${Math.round(performance.now() - startedMs)} ms; statuses ${statuses.text()}; 5xx/failed ${fiveHundreds.length}; non-error answers ${notJsonErrors.length}; state ${before === after ? 'unchanged' : 'CHANGED'}`,
    );
    const groups = new StatusCounts();
    const groupNames = new Map<number, string>();
    for (const line of [...fiveHundreds, ...notJsonErrors]) {
      const name = (/ (\S+ \S+ )\S+ → (\d+) ?(.{0,1})/.exec(line) ?? []).slice(1).join('');
      const id = [...groupNames.values()].indexOf(name);
      const key = id < 0 ? groupNames.size : id;
      if (id < 0) groupNames.set(key, name);
      groups.add(key);
    }
    for (const [key, count] of groups.counts) console.log(`  failing kind: ${groupNames.get(key) ?? ''} ×${count}`);
    for (const line of [...fiveHundreds.slice(0, 5), ...notJsonErrors.slice(0, 5)]) console.log(`  ${line}`);
    expect(statuses.total).toBeGreaterThanOrEqual(10_000);
    expect(fiveHundreds, `seed ${SEED}`).toEqual([]);
    expect(notJsonErrors, `seed ${SEED}`).toEqual([]);
    expect(after, `seed ${SEED}: state digest`).toBe(before);
  }, 300_000);

  test('admin edge values are 4xx, never 5xx: instants past the Date range, huge advances, bad tiers', async () => {
    const api = handle.urls.api as string;
    const before = stateDigest(handle.platform);
    const bodies = [
      { to_ms: 8.64e15 + 1 },
      { to_ms: 1e20 },
      { advance_ms: 2 ** 60 },
      { advance_ms: 8.64e15 },
      { to: '+275760-09-13T00:00:00.001Z' },
      { to: '9999999-01-01' },
      { to_ms: -1 },
    ];
    const answers = await Promise.all(
      bodies.map((body) =>
        send(
          api,
          {
            method: 'POST',
            path: '/_afp/clock',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          },
          5_000,
        ),
      ),
    );
    const tier = await send(api, {
      method: 'POST',
      path: '/_afp/tier',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"hostile-a","tier":"gold"}',
    });
    const statuses = [...answers, tier].map((answer) => answer.status);
    console.log(`admin edge values: statuses ${statuses.join(' ')}`);
    expect(statuses.every((status) => status >= 400 && status < 500)).toBe(true);
    expect(stateDigest(handle.platform)).toBe(before);
  });

  test("malformed HTTP refused by Node's parser answers a JSON 4xx too", async () => {
    const { port } = new URL(handle.urls.api as string);
    const raw = [
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'BLAH\r\n\r\n',
      'GET /status HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
      `GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'z'.repeat(20_000)}\r\n\r\n`,
      'POST /register HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GET /status HTTP/9.9\r\nHost: x\r\n\r\n',
    ];
    const answers = await Promise.all(raw.map((text) => rawExchange(Number(port), text)));
    const lines = answers.map(
      (answer, index) =>
        `#${index} ${answer.split('\r\n')[0] ?? '(nothing)'} body ${JSON.stringify(answer.split('\r\n\r\n')[1]?.slice(0, 80) ?? '')}`,
    );
    console.log(`malformed HTTP: ${lines.join('; ')}`);
    for (const [index, answer] of answers.entries()) {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      expect(status, lines[index]).toBeGreaterThanOrEqual(400);
      expect(status, lines[index]).toBeLessThan(500);
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      expect(body, lines[index]).toMatch(/"code":"BAD_REQUEST"/);
    }
  });
});

/** Writes `text` on a fresh socket and reads until the server closes it (at most 5 s). */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}
