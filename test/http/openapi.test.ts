// The OpenAPI documents generated from the route table (src/http/openapi.ts): each mount's
// document lists exactly that mount's rows; operationIds are unique; the JSON is plain, stable
// and independent of row order; path parameters match the router's patterns; the documented
// success status of every row is the one the dispatcher answers to a valid request; every status
// a simulated population meets is documented; real error and 429 bodies fit their schemas; and
// `afp serve` answers GET /openapi.json on every mount, to any peer, with the document.
import { afterEach, describe, expect, test } from 'vitest';
import { AGENTS } from '../../agents/index.ts';
import type { JsonObject, JsonValue } from '../../src/core/errors.ts';
import { Dispatcher, type ApiResponse } from '../../src/http/dispatcher.ts';
import type { ZodType } from 'zod';
import { openApiDocument, openApiPath } from '../../src/http/openapi.ts';
import { DOMAIN_ERRORS } from '../../src/http/openapi-errors.ts';
import { namedSchemas } from '../../src/http/openapi-fields.ts';
import { REQUESTS } from '../../src/http/openapi-requests.ts';
import { RESPONSES } from '../../src/http/openapi-responses.ts';
import type { Mount, Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Router } from '../../src/http/router.ts';
import type { EdgeRequest } from '../../src/http/server.ts';
import { Platform } from '../../src/platform/platform.ts';
import { adminIntercept } from '../../src/server/admin.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { ServeClock } from '../../src/server/serve-clock.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../src/sim/runner.ts';
import { casinoTour } from './casino/casino-world.ts';
import { domainsTour } from './domains/domains-tour.ts';
import { walletTour } from './wallet/wallet-tour.ts';
import { tradingTour } from './trading/trading-tour.ts';
import { schemaChecker } from './openapi-ajv.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.UTC(2026, 0, 1);
const MOUNTS: readonly Mount[] = ['api', 'faucet', 'escrow', 'casino', 'trading', 'domains', 'wallet'];
/** Statuses only the `default` response covers (its description names them). */
const DEFAULT_STATUSES = ['405', '413', '415', '500', '503'];

interface ResponseDoc {
  readonly description: string;
  readonly headers: Record<string, { $ref: string }>;
  readonly content: { 'application/json': { schema: { $ref: string } } };
}

interface OperationDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly tags: string[];
  readonly security: Record<string, string[]>[];
  readonly parameters?: { name: string; in: string; required: boolean; schema: { type: string } }[];
  readonly requestBody?: unknown;
  readonly responses: Record<string, ResponseDoc>;
}

interface Operation {
  readonly path: string;
  readonly method: string;
  readonly doc: OperationDoc;
}

function operations(document: JsonObject): Operation[] {
  const paths = document['paths'] as unknown as Record<string, Record<string, OperationDoc>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, doc]) => ({ path, method, doc })),
  );
}

const documents = new Map<Mount, JsonObject>();
/** The mount's document, generated once per test file (the generator is pure; a test below checks the bytes repeat). */
const documentOf = (mount: Mount): JsonObject => {
  const document = documents.get(mount) ?? openApiDocument(ALL_ROUTES, { mount });
  documents.set(mount, document);
  return document;
};
const rowsOf = (mount: Mount): Route[] => ALL_ROUTES.filter((route) => route.mount === mount);
const operationOf = (route: Route): OperationDoc => {
  const found = operations(documentOf(route.mount)).find((entry) => entry.doc.operationId === route.id);
  if (found === undefined) throw new Error(`no operation ${route.id}`);
  return found.doc;
};

/** The value at a local `$ref` (`#/components/...`). */
function resolve(document: JsonObject, reference: string): JsonValue | undefined {
  let value: JsonValue | undefined = document;
  for (const key of reference.replace(/^#\//, '').split('/'))
    value = typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
  return value;
}

describe('the document of a mount', () => {
  test.each(MOUNTS)('%s lists exactly its rows, each under its method and path', (mount) => {
    const listed = operations(documentOf(mount));
    const rows = rowsOf(mount);
    expect(rows.length).toBeGreaterThan(0);
    expect(listed.map((entry) => entry.doc.operationId).sort()).toEqual(rows.map((route) => route.id).sort());
    for (const route of rows) {
      const entry = listed.find((candidate) => candidate.doc.operationId === route.id);
      expect(entry, route.id).toMatchObject({ path: openApiPath(route.path), method: route.method.toLowerCase() });
      expect(entry?.doc).toMatchObject({ summary: route.summary, tags: [route.service, route.style] });
    }
  });

  test('operationIds are unique within and across the mounts', () => {
    const ids = MOUNTS.flatMap((mount) => operations(documentOf(mount)).map((entry) => entry.doc.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(ALL_ROUTES.length);
  });

  test('info, servers when known, the bearer scheme and the error schemas', () => {
    const document = openApiDocument(ALL_ROUTES, { mount: 'escrow', serverUrl: 'http://127.0.0.1:8702' });
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Agent Financial Platform (afp stand-in) — escrow', version: 'v1' },
      servers: [{ url: 'http://127.0.0.1:8702' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    });
    expect(documentOf('escrow')).not.toHaveProperty('servers');
    const schemas = (
      document['components'] as {
        schemas: Record<string, { required: string[]; properties: Record<string, { enum?: string[] }> }>;
      }
    ).schemas;
    expect(schemas['Error']?.properties['code']?.enum).toEqual([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
      'RATE_LIMIT',
      'INTERNAL_ERROR',
      'SERVICE_UNAVAILABLE',
      'FAUCET_CLAIMED',
      'GAME_CLOSED',
      'MARKET_CLOSED',
    ]);
    expect(schemas['RateLimitError']?.required).toEqual([
      'error',
      'code',
      'message',
      'limit',
      'window',
      'retry_after_seconds',
      'reset_at',
      'tier',
      'upgrade_url',
      '_info',
    ]);
  });

  test('plain JSON (no undefined, no non-finite numbers), the same bytes every time and for any row order', () => {
    for (const mount of MOUNTS) {
      const document = documentOf(mount);
      const text = JSON.stringify(document);
      expect(JSON.parse(text)).toEqual(document);
      const stack: unknown[] = [document];
      while (stack.length > 0) {
        const value = stack.pop();
        expect(
          ['string', 'boolean', 'object'].includes(typeof value) || Number.isFinite(value),
          `${mount}: ${String(value)}`,
        ).toBe(true);
        if (typeof value === 'object' && value !== null) stack.push(...Object.values(value));
      }
      expect(JSON.stringify(openApiDocument(ALL_ROUTES, { mount }))).toBe(text);
      expect(JSON.stringify(openApiDocument([...ALL_ROUTES].reverse(), { mount }))).toBe(text);
    }
  });

  test('every $ref resolves inside the document', () => {
    for (const mount of MOUNTS) {
      const document = documentOf(mount);
      const references = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
      expect(references.length).toBeGreaterThan(0);
      for (const reference of references) expect(resolve(document, reference.slice(8, -1)), reference).toBeDefined();
    }
  });
});

describe('paths and parameters', () => {
  test('path parameters are exactly the `:name` segments of the router pattern, and the router finds the row', () => {
    const router = new Router(ALL_ROUTES);
    for (const mount of MOUNTS) {
      for (const { path, method, doc } of operations(documentOf(mount))) {
        const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
        const pathParameters = (doc.parameters ?? []).filter((parameter) => parameter.in === 'path');
        expect(
          pathParameters.map((parameter) => parameter.name),
          doc.operationId,
        ).toEqual(names);
        for (const parameter of pathParameters)
          expect(parameter).toMatchObject({
            name: parameter.name,
            in: 'path',
            required: true,
            schema: { type: 'string' },
          });
        for (const parameter of doc.parameters ?? [])
          expect(['path', 'query'], doc.operationId).toContain(parameter.in);
        const route = ALL_ROUTES.find((candidate) => candidate.id === doc.operationId);
        expect(path.replace(/\{([^}]+)\}/g, ':$1')).toBe(route?.path);
        const match = router.match(mount, method.toUpperCase(), path.replace(/\{([^}]+)\}/g, 'sample_$1'));
        expect(match.kind === 'found' ? match.route.id : match.kind, path).toBe(doc.operationId);
      }
    }
  });

  test('`:id` becomes `{id}`; static paths are unchanged', () => {
    expect(openApiPath('/escrow/:id/release')).toBe('/escrow/{id}/release');
    expect(openApiPath('/api/v1/agents/:id')).toBe('/api/v1/agents/{id}');
    expect(openApiPath('/escrows')).toBe('/escrows');
  });
});

describe('security and responses', () => {
  test('security follows auth: none → [], bearer → bearer, optional → bearer or anonymous', () => {
    for (const route of ALL_ROUTES) {
      const expected = { none: [], bearer: [{ bearer: [] }], optional: [{ bearer: [] }, {}] }[route.auth];
      expect(operationOf(route).security, route.id).toEqual(expected);
    }
    expect(ALL_ROUTES.map((route) => route.auth)).toEqual(expect.arrayContaining(['none', 'bearer', 'optional']));
  });

  test('every row documents its success, 400, 401 unless keyless, its domain codes, 429 and default', () => {
    for (const route of ALL_ROUTES) {
      expect(DOMAIN_ERRORS, `${route.id} must be listed in DOMAIN_ERRORS`).toHaveProperty([route.id]);
      const responses = operationOf(route).responses;
      const domain = (DOMAIN_ERRORS[route.id] ?? []).map(
        (code) =>
          (
            {
              FORBIDDEN: '403',
              NOT_FOUND: '404',
              CONFLICT: '409',
              FAUCET_CLAIMED: '409',
              GAME_CLOSED: '409',
              MARKET_CLOSED: '409',
              INSUFFICIENT_BALANCE: '422',
            } as Record<string, string>
          )[code],
      );
      const expected = [
        String(route.successStatus),
        '400',
        ...(route.auth === 'none' ? [] : ['401']),
        ...domain,
        '429',
      ];
      expect(Object.keys(responses), route.id).toEqual([...new Set(expected)].sort().concat('default'));
      for (const [status, response] of Object.entries(responses)) {
        expect(Object.keys(response.headers), `${route.id} ${status}`).toEqual([
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          ...(status === '429' ? ['Retry-After'] : []),
        ]);
        const schema =
          status === '429'
            ? 'RateLimitError'
            : /^2/.test(status)
              ? (namedSchemas().get(RESPONSES[route.id] as ZodType) ?? `${route.id}.response`)
              : 'Error';
        expect(response.content['application/json'].schema.$ref, `${route.id} ${status}`).toBe(
          `#/components/schemas/${schema}`,
        );
        expect(response.description.length).toBeGreaterThan(0);
      }
      expect('requestBody' in operationOf(route), route.id).toBe(REQUESTS[route.id]?.body !== undefined);
      if (REQUESTS[route.id]?.body !== undefined) expect(['POST', 'PUT'], route.id).toContain(route.method);
    }
  });
});

/** A valid request for every row, in an order where each succeeds; answers recorded per row. */
function validRequestForEveryRow(): Map<string, ApiResponse[]> {
  const platform = new Platform({ seed: 'openapi', startMs: START_MS });
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  const answers = new Map<string, ApiResponse[]>();
  let nowMs = START_MS;
  const send = (
    mount: Mount,
    method: string,
    path: string,
    options: { key?: string; body?: unknown; query?: Record<string, string> } = {},
  ): JsonObject => {
    nowMs += 1000;
    const headers: Record<string, string> = options.key === undefined ? {} : { authorization: `Bearer ${options.key}` };
    const response = dispatcher.handle(
      { mount, method, path, query: options.query ?? {}, headers, body: options.body, ip: '127.0.0.1' },
      nowMs,
    );
    if (response.routeId !== null) answers.set(response.routeId, [...(answers.get(response.routeId) ?? []), response]);
    return response.body;
  };
  const alice = send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'alice' } })['api_key'] as string;
  const bob = send('api', 'POST', '/register', { body: { agent_id: 'bob' } })['api_key'] as string;
  send('faucet', 'POST', '/api/v1/faucet/claim', { key: alice });
  send('faucet', 'GET', '/api/v1/faucet/status', { key: alice });
  send('faucet', 'GET', '/api/v1/agents/alice', { key: alice });
  send('api', 'POST', '/claim', { key: alice });
  for (const path of ['/status', '/agents', '/referrals']) send('api', 'GET', path, { key: bob });
  const createA = (): string =>
    send('escrow', 'POST', '/api/v1/escrow/create', {
      key: alice,
      body: { buyer: 'alice', seller: 'bob', amount: 0.5 },
    })['escrow_id'] as string;
  const first = createA();
  send('escrow', 'GET', `/api/v1/escrow/${first}`, { key: alice });
  send('escrow', 'GET', '/api/v1/escrow/list', { key: alice });
  send('escrow', 'POST', '/api/v1/escrow/release', { key: alice, body: { escrow_id: first } });
  send('escrow', 'POST', '/api/v1/escrow/dispute', {
    key: alice,
    body: { escrow_id: createA(), reason: 'not delivered' },
  });
  const createB = (): string =>
    send('api', 'POST', '/escrow', { key: bob, body: { amount: '1.00', receiver: 'alice' } })['escrow_id'] as string;
  const third = createB();
  send('api', 'GET', `/escrow/${third}`, { key: bob });
  send('api', 'GET', '/escrows', { key: bob });
  send('api', 'POST', `/escrow/${third}/release`, { key: bob });
  send('api', 'POST', `/escrow/${createB()}/refund`, { key: bob });
  send('api', 'POST', `/escrow/${createB()}/dispute`, { key: bob, body: { reason: 'not delivered' } });
  for (const agentId of ['alice', 'bob'])
    platform.ledger.transfer({
      from: 'faucet-pool',
      to: `agent:${agentId}`,
      amountMicro: 100_000_000n,
      reason: 'test.fund',
      reference: agentId,
    });
  casinoTour(
    (mount, method, path, options = {}) => ({ status: 200, body: send(mount, method, path, options) }),
    { alice, bob },
    () => nowMs,
  );
  domainsTour(send, { alice, bob });
  tradingTour(send, { alice, bob });
  walletTour(send, { alice, bob }, platform);
  return answers;
}

describe('documented statuses against the dispatcher', () => {
  test('the documented success status of every row is the one a valid request is answered with', () => {
    const answers = validRequestForEveryRow();
    expect([...answers.keys()].sort()).toEqual(ALL_ROUTES.map((route) => route.id).sort());
    for (const route of ALL_ROUTES) {
      const statuses = (answers.get(route.id) ?? []).map((response) => response.status);
      expect(statuses, `${route.id}: ${JSON.stringify(answers.get(route.id)?.[0]?.body)}`).toEqual(
        statuses.map(() => route.successStatus),
      );
      expect(operationOf(route).responses).toHaveProperty([String(route.successStatus)]);
    }
    expect(
      ALL_ROUTES.filter((route) => route.successStatus === 201)
        .map((route) => route.id)
        .sort(),
    ).toEqual([
      'casino.A.challenges.create',
      'casino.A.register',
      'casino.A.tournaments.create',
      'domains.A.register',
      'domains.B.register',
      'escrow.A.create',
      'escrow.B.create',
      'faucet.A.register',
      'faucet.B.register',
      'trading.A.order',
      'trading.B.order',
      'wallet.primary.register',
    ]);
  });

  test('every status a simulated population meets (bad input and a rate-limit abuser included) is documented for its row', async () => {
    const scenario = scenarioFromTable(
      `
name: openapi-statuses
seed: 3
duration: 2d
populations:
  - { agent: faucet-farmer, count: 20, style: mixed, params: { early_claim: 0.5 } }
  - { agent: escrow-seller, count: 10, style: mixed, params: { check_every: 2h, dispute: 0.2 } }
  - { agent: escrow-buyer, count: 17, style: mixed, params: { expires_in: 3h, escrow_every: 2h, release: 0.4, let_expire: 0.3, dispute: 0.2 } }
  - { agent: rate-limit-abuser, count: 1, params: { burst: 350, every: 6h } }
  - { agent: bad-input-sender, count: 3, style: mixed, params: { every: 1h } }
`,
      { agents: AGENTS },
    );
    const record = await runScenarioWith(scenario, { seed: 3, agents: AGENTS });
    const seen = new Set<string>();
    for (const row of record.endpoints) {
      const route = ALL_ROUTES.find((candidate) => candidate.id === row.endpoint);
      if (route === undefined) continue; // 'unmatched': no row, no operation to document it
      const documented = Object.keys(operationOf(route).responses);
      for (const status of Object.keys(row.statuses)) {
        seen.add(status);
        expect(
          documented.includes(status) || DEFAULT_STATUSES.includes(status),
          `${route.id} answered ${status}, documented ${documented.join(' ')}`,
        ).toBe(true);
      }
    }
    // Not vacuous: the run met errors of several kinds.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '404', '409', '413', '415', '422', '429']),
    );
  });

  test('real error, 429 and success bodies fit their schemas', () => {
    const platform = new Platform({ seed: 'openapi', startMs: START_MS });
    const dispatcher = new Dispatcher(platform, ALL_ROUTES);
    const misfits = schemaChecker(documentOf('api'));
    const send = (path: string, atMs: number): ApiResponse =>
      dispatcher.handle(
        { mount: 'api', method: 'GET', path, query: {}, headers: {}, body: undefined, ip: '10.0.0.9' },
        atMs,
      );
    expect(misfits('faucet.B.agents.response', send('/agents', START_MS).body)).toEqual([]);
    const unauthorized = send('/status', START_MS);
    expect(unauthorized.status).toBe(401);
    expect(misfits('Error', unauthorized.body)).toEqual([]);
    let limited: ApiResponse | undefined;
    for (let count = 0; count < 1_000 && limited === undefined; count++) {
      const response = send('/agents', START_MS);
      if (response.status === 429) limited = response;
    }
    expect(limited?.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(misfits('RateLimitError', limited?.body)).toEqual([]);
    expect(misfits('RateLimitError', { ...limited?.body, window: '1h' })).toEqual([
      `RateLimitError/window must be equal to one of the allowed values {"allowedValues":["1m","1d"]}`,
    ]);
  });
});

describe('GET /openapi.json', () => {
  const handles: ServeHandle[] = [];
  afterEach(async () => {
    for (const handle of handles.splice(0)) await handle.close();
  });

  test("afp serve answers it on every mount with that mount's document, the link of `_info.docs`", async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '1',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    handles.push(handle);
    for (const mount of MOUNTS) {
      const url = handle.urls[mount] as string;
      const response = await fetch(`${url}/openapi.json`);
      expect(response.status, mount).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual(openApiDocument(ALL_ROUTES, { mount, serverUrl: url }));
    }
    const answer = await fetch(`${handle.urls.api as string}/agents`);
    const docs = ((await answer.json()) as { _info: { docs: string } })._info.docs;
    expect((await fetch(`${handle.urls.api as string}${docs}`)).status).toBe(200);
    expect((await fetch(`${handle.urls.api as string}/openapi.json`, { method: 'POST' })).status).toBe(405);
  });

  test('any peer may read it (documentation), where the admin endpoints answer loopback only', async () => {
    const platform = new Platform({ seed: '1', startMs: START_MS });
    const options = {
      platform,
      clock: new ServeClock({ mode: 'manual', startMs: START_MS }),
      mounts: () => ({ faucet: 'http://203.0.113.1:8701' }),
      onClockMoved: () => undefined,
      routes: ALL_ROUTES,
    };
    const request = (mount: Mount, path: string): EdgeRequest => ({
      mount,
      method: 'GET',
      path,
      query: {},
      headers: {},
      ip: '203.0.113.5',
      peer: '203.0.113.5',
      forwarding: false,
      sentForwarding: null,
    });
    expect(await adminIntercept('faucet', options)(request('faucet', '/openapi.json'))).toEqual({
      status: 200,
      body: openApiDocument(ALL_ROUTES, { mount: 'faucet', serverUrl: 'http://203.0.113.1:8701' }),
    });
    expect(await adminIntercept('api', options)(request('api', '/openapi.json'))).toEqual({
      status: 200,
      body: openApiDocument(ALL_ROUTES, { mount: 'api' }),
    });
    expect((await adminIntercept('api', options)(request('api', '/_afp/clock')))?.status).toBe(403);
  });
});
