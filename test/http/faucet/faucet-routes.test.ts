// Faucet route rows driven through the in-process Dispatcher: exact bodies of every endpoint of
// both styles, `_info` on every answer, auth and ownership errors, and bad input on every
// endpoint (4xx JSON `{error, code}` with no change to any balance or to the agent registry).
// Most tests use generous rate limits so that validation, not the limiter, answers; one test
// checks that the contract's limit rows are wired with the default limits.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../../src/core/errors.ts';
import { FAUCET_POOL } from '../../../src/core/ledger.ts';
import { usdc } from '../../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import type { RouteLimits } from '../../../src/platform/route-limits.ts';
import { faucetRoutes } from '../../../src/http/routes/faucet/faucet.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../../../src/services/shared/config.ts';

const START_MS = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const START_ISO = '2026-01-01T00:00:00.000Z';
const NEXT_DAY_ISO = '2026-01-02T00:00:00.000Z';
const INFO = { service: 'faucet', docs: '/openapi.json', referral: expect.any(String) as string, version: 'v1' };

const RELAXED: PlatformConfig = {
  ...DEFAULT_CONFIG,
  limits: {
    ...DEFAULT_CONFIG.limits,
    tiers: {
      free: { perMinute: null, perDay: null },
      pro: { perMinute: null, perDay: null },
      enterprise: { perMinute: null, perDay: null },
    },
    registerPerMinutePerIp: 100_000,
    serviceB: { ...DEFAULT_CONFIG.limits.serviceB, faucet: { perMinute: 100_000, burst: 100_000, perDay: null } },
  },
};

interface Call {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly key?: string;
  readonly body?: unknown;
  readonly ip?: string;
}

class Harness {
  readonly platform: Platform;
  readonly dispatcher: Dispatcher;
  nowMs = START_MS;

  constructor(config: PlatformConfig = RELAXED) {
    this.platform = new Platform({ seed: 'test', startMs: START_MS, config });
    this.dispatcher = new Dispatcher(this.platform, faucetRoutes);
  }

  send(call: Call, atMs = this.nowMs): ApiResponse {
    this.nowMs = atMs;
    const headers: Record<string, string> = call.key === undefined ? {} : { authorization: `Bearer ${call.key}` };
    return this.dispatcher.handle(
      {
        mount: call.mount,
        method: call.method,
        path: call.path,
        query: call.query ?? {},
        headers,
        body: call.body,
        ip: call.ip ?? '10.0.0.1',
      },
      atMs,
    );
  }

  registerA(agentId: string, extra: JsonObject = {}): { key: string; body: JsonObject } {
    const response = this.send({
      mount: 'faucet',
      method: 'POST',
      path: '/api/v1/agents/register',
      body: { agent_id: agentId, ...extra },
    });
    expect(response.status).toBe(201);
    return { key: response.body['api_key'] as string, body: response.body };
  }

  registerB(agentId: string, extra: JsonObject = {}): { key: string; body: JsonObject } {
    const response = this.send({
      mount: 'api',
      method: 'POST',
      path: '/register',
      body: { agent_id: agentId, ...extra },
    });
    expect(response.status).toBe(201);
    return { key: response.body['api_key'] as string, body: response.body };
  }

  snapshot(): { accounts: Map<string, bigint>; agents: number } {
    return { accounts: new Map(this.platform.ledger.accounts()), agents: this.platform.agents.size };
  }
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ error: expect.any(String) as string, code, _info: INFO });
  expect((response.body['error'] as string).length).toBeGreaterThan(0);
}

describe('route table', () => {
  test('nine rows with the contract ids, mounts, paths, auth and limits', () => {
    // Rows' limits as the rows write them: compare what is set.
    const declared = (limits: RouteLimits | undefined) =>
      limits === undefined
        ? null
        : Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined && value !== false));
    const rows = faucetRoutes.map((route) => [
      route.id,
      route.style,
      route.mount,
      route.method,
      route.path,
      route.auth,
      declared(route.limits),
    ]);
    expect(rows).toEqual([
      ['faucet.A.register', 'A', 'faucet', 'POST', '/api/v1/agents/register', 'none', { registerPerIp: true }],
      ['faucet.A.claim', 'A', 'faucet', 'POST', '/api/v1/faucet/claim', 'bearer', null],
      ['faucet.A.status', 'A', 'faucet', 'GET', '/api/v1/faucet/status', 'bearer', null],
      ['faucet.A.agent', 'A', 'faucet', 'GET', '/api/v1/agents/:id', 'bearer', null],
      ['faucet.B.register', 'B', 'api', 'POST', '/register', 'none', { registerPerIp: true, serviceRowB: true }],
      ['faucet.B.claim', 'B', 'api', 'POST', '/claim', 'optional', { serviceRowB: true }],
      ['faucet.B.status', 'B', 'api', 'GET', '/status', 'bearer', { serviceRowB: true }],
      ['faucet.B.agents', 'B', 'api', 'GET', '/agents', 'none', { serviceRowB: true }],
      ['faucet.B.referrals', 'B', 'api', 'GET', '/referrals', 'bearer', { serviceRowB: true }],
    ]);
    for (const route of faucetRoutes) {
      expect(route.service).toBe('faucet');
      expect(route.summary.length).toBeGreaterThan(10);
      expect(route.summary).not.toContain('\n');
    }
  });
});

describe('style A', () => {
  test('register, claim once, status, own details', () => {
    const h = new Harness();
    const ref = h.registerA('ref');
    const { key, body } = h.registerA('alice', { referrer: 'ref' });
    const alice = h.platform.agents.get('alice');
    expect(body).toEqual({
      agent_id: 'alice',
      agent_address: alice?.address,
      api_key: key,
      referral_code: alice?.referralCode,
      created_at: START_ISO,
      _info: INFO,
    });
    expect(key).toMatch(/^sk_live_[0-9a-f]{48}$/);
    expect(body['agent_address']).toMatch(/^0x[0-9a-f]{40}$/);
    expect(body['referral_code']).toMatch(/^ref_[0-9a-f]{8}$/);

    const status = h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/faucet/status', key });
    expect(status).toMatchObject({
      status: 200,
      routeId: 'faucet.A.status',
      body: { eligible: true, balance_usdc: 0, _info: INFO },
    });
    expect(Object.keys(status.body).sort()).toEqual(['_info', 'balance_usdc', 'eligible']);

    const claim = h.send({ mount: 'faucet', method: 'POST', path: '/api/v1/faucet/claim', key });
    expect(claim.status).toBe(200);
    expect(claim.body).toEqual({ amount_usdc: 1, balance_usdc: 1, _info: INFO });
    expect(h.platform.ledger.balance('agent:alice')).toBe(usdc(1));

    const poolBefore = h.platform.ledger.balance(FAUCET_POOL);
    expectError(
      h.send({ mount: 'faucet', method: 'POST', path: '/api/v1/faucet/claim', key }, START_MS + 30 * DAY_MS),
      409,
      'FAUCET_CLAIMED',
    );
    expect(h.platform.ledger.balance(FAUCET_POOL)).toBe(poolBefore);
    expect(h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/faucet/status', key }).body).toMatchObject({
      eligible: false,
      balance_usdc: 1,
    });

    const details = h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/alice', key });
    expect(details.status).toBe(200);
    expect(details.body).toEqual({
      agent_id: 'alice',
      agent_address: alice?.address,
      balance_usdc: 1,
      tier: 'free',
      referrer: 'ref',
      referral_code: alice?.referralCode,
      created_at: START_ISO,
      _info: INFO,
    });
    const byAddress = h.send({
      mount: 'faucet',
      method: 'GET',
      path: `/api/v1/agents/${String(alice?.address).toUpperCase().replace('0X', '0x')}`,
      key,
    });
    expect(byAddress.body['agent_id']).toBe('alice');
    expectError(h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/ref', key }), 403, 'FORBIDDEN');
    expectError(h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/ghost', key }), 404, 'NOT_FOUND');
    expect(
      h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/ref', key: ref.key }).body['referrer'],
    ).toBeNull();
  });

  test('bearer rows answer 401 without a key or with an unknown key', () => {
    const h = new Harness();
    h.registerA('alice');
    for (const key of [undefined, 'sk_live_' + '0'.repeat(48), 'nonsense']) {
      expectError(h.send({ mount: 'faucet', method: 'POST', path: '/api/v1/faucet/claim', key }), 401, 'UNAUTHORIZED');
      expectError(h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/faucet/status', key }), 401, 'UNAUTHORIZED');
      expectError(h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/agents/alice', key }), 401, 'UNAUTHORIZED');
    }
  });

  test('duplicate 409, unknown referrer 404, referrer by referral code', () => {
    const h = new Harness();
    const ref = h.registerA('ref');
    expectError(
      h.send({ mount: 'faucet', method: 'POST', path: '/api/v1/agents/register', body: { agent_id: 'ref' } }),
      409,
      'CONFLICT',
    );
    expectError(
      h.send({
        mount: 'faucet',
        method: 'POST',
        path: '/api/v1/agents/register',
        body: { agent_id: 'x', referrer: 'ghost' },
      }),
      404,
      'NOT_FOUND',
    );
    h.registerA('x', { referrer: ref.body['referral_code'] as string });
    expect(h.platform.agents.get('x')?.referrerId).toBe('ref');
  });
});

describe('style B', () => {
  test('register with grant, keyless first claim at next_claim, then key required', () => {
    const h = new Harness();
    const { key, body } = h.registerB('bob', { metadata: { framework: 'langchain' } });
    const bob = h.platform.agents.get('bob');
    expect(body).toEqual({
      agent_id: 'bob',
      agent_address: bob?.address,
      api_key: key,
      referral_code: bob?.referralCode,
      amount: '10.00',
      currency: 'USDC',
      balance: '10.00',
      next_claim: NEXT_DAY_ISO,
      _info: INFO,
    });

    const early = h.send(
      { mount: 'api', method: 'POST', path: '/claim', key, body: { agent_id: 'bob' } },
      START_MS + DAY_MS - 1,
    );
    expectError(early, 409, 'FAUCET_CLAIMED');
    expect(early.body).toMatchObject({ next_claim: NEXT_DAY_ISO, retry_after_seconds: 1 });

    const claim = h.send(
      { mount: 'api', method: 'POST', path: '/claim', key, body: { agent_id: 'bob' } },
      START_MS + DAY_MS,
    );
    expect(claim.status).toBe(200);
    expect(claim.body).toEqual({
      amount: '2.00',
      balance: '12.00',
      next_claim: '2026-01-03T00:00:00.000Z',
      _info: INFO,
    });

    const keyless = h.send(
      { mount: 'api', method: 'POST', path: '/claim', body: { agent_id: 'bob' } },
      START_MS + 3 * DAY_MS,
    );
    expectError(keyless, 401, 'UNAUTHORIZED');
    expect(keyless.body['error']).toContain('the first claim is the registration grant');

    const keyed = h.send({ mount: 'api', method: 'POST', path: '/claim', key }, START_MS + 3 * DAY_MS);
    expect(keyed.body).toEqual({
      amount: '2.00',
      balance: '14.00',
      next_claim: '2026-01-05T00:00:00.000Z',
      _info: INFO,
    });
    const keyedWithId = h.send(
      { mount: 'api', method: 'POST', path: '/claim', key, body: { agent_id: 'bob' } },
      START_MS + 4 * DAY_MS,
    );
    expect(keyedWithId.status).toBe(200);
    expect(h.platform.ledger.balance('agent:bob')).toBe(usdc(16));
  });

  test("claim with a key and another agent's agent_id is 403; no key is 401, with or without an agent_id", () => {
    const h = new Harness();
    const { key } = h.registerB('bob');
    h.registerB('eve');
    const before = h.snapshot();
    expectError(
      h.send({ mount: 'api', method: 'POST', path: '/claim', key, body: { agent_id: 'eve' } }, START_MS + DAY_MS),
      403,
      'FORBIDDEN',
    );
    expectError(h.send({ mount: 'api', method: 'POST', path: '/claim' }), 401, 'UNAUTHORIZED');
    expectError(h.send({ mount: 'api', method: 'POST', path: '/claim', key: 'sk_live_bad' }), 401, 'UNAUTHORIZED');
    expectError(
      h.send({ mount: 'api', method: 'POST', path: '/claim', body: { agent_id: 'ghost' } }),
      401,
      'UNAUTHORIZED',
    );
    expect(h.snapshot()).toEqual(before);
  });

  test('status: exact fields inside and after the cooldown', () => {
    const h = new Harness();
    const { key } = h.registerB('bob');
    const inside = h.send({ mount: 'api', method: 'GET', path: '/status', key }, START_MS + DAY_MS - 1500);
    expect(inside.status).toBe(200);
    expect(inside.body).toEqual({
      agent_id: 'bob',
      can_claim: false,
      next_claim: NEXT_DAY_ISO,
      seconds_until_next_claim: 2,
      balance: '10.00',
      pool_balance: '99999990.00',
      _info: INFO,
    });
    const after = h.send({ mount: 'api', method: 'GET', path: '/status', key }, START_MS + DAY_MS);
    expect(after.body).toMatchObject({ can_claim: true, next_claim: NEXT_DAY_ISO, seconds_until_next_claim: 0 });
    const fresh = h.registerA('alice');
    expect(h.send({ mount: 'api', method: 'GET', path: '/status', key: fresh.key }).body).toMatchObject({
      agent_id: 'alice',
      can_claim: true,
      next_claim: null,
      seconds_until_next_claim: 0,
      balance: '0.00',
    });
    expectError(h.send({ mount: 'api', method: 'GET', path: '/status' }), 401, 'UNAUTHORIZED');
  });

  test('public agent list: order, limit, totals, frameworks', () => {
    const h = new Harness();
    const zed = h.registerB('zed', { metadata: { framework: 'crewai' } });
    h.registerB('amy', { metadata: { framework: 'crewai', version: '2' } });
    h.registerB('max');
    expect(h.send({ mount: 'api', method: 'POST', path: '/claim', key: zed.key }, START_MS + DAY_MS).status).toBe(200);
    const list = h.send({ mount: 'api', method: 'GET', path: '/agents', query: { limit: '2' } });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      agents: [
        {
          agent_id: 'zed',
          agent_address: h.platform.agents.get('zed')?.address,
          framework: 'crewai',
          claims: 1,
          total_claimed: '12.00',
          created_at: START_ISO,
        },
        {
          agent_id: 'amy',
          agent_address: h.platform.agents.get('amy')?.address,
          framework: 'crewai',
          claims: 0,
          total_claimed: '10.00',
          created_at: START_ISO,
        },
      ],
      total_agents: 3,
      total_claimed: '32.00',
      frameworks: { crewai: 2, unknown: 1 },
      _info: INFO,
    });
    const all = h.send({ mount: 'api', method: 'GET', path: '/agents' });
    expect((all.body['agents'] as JsonObject[]).map((entry) => entry['agent_id'])).toEqual(['zed', 'amy', 'max']);
  });

  test('referrals: referred agents and the share', () => {
    const h = new Harness();
    const ref = h.registerB('ref');
    h.registerB('one', { referrer: 'ref' });
    h.nowMs = START_MS + 5_000;
    h.registerA('two', { referrer: ref.body['agent_address'] as string });
    h.registerA('deep', { referrer: 'one' });
    const view = h.send({ mount: 'api', method: 'GET', path: '/referrals', key: ref.key });
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      referral_code: ref.body['referral_code'],
      referred_count: 2,
      referred_agents: [
        { agent_id: 'one', registered_at: START_ISO },
        { agent_id: 'two', registered_at: '2026-01-01T00:00:05.000Z' },
      ],
      fees_earned: '0.00',
      paid_out: '0.00',
      pending_payouts: '0.00',
      share_pct: 15,
      withdrawn: '0.00',
      available: '0.00',
      by_level: [
        { level: 1, referred_agents: 2, earned: '0.00' },
        { level: 2, referred_agents: 1, earned: '0.00' },
        { level: 3, referred_agents: 0, earned: '0.00' },
      ],
      _info: INFO,
    });
    expectError(h.send({ mount: 'api', method: 'GET', path: '/referrals' }), 401, 'UNAUTHORIZED');
  });

  test('B registration with the pool short is 422 and registers nothing', () => {
    const h = new Harness({ ...RELAXED, faucet: { ...RELAXED.faucet, poolFundingMicro: usdc(15) } });
    h.registerB('one');
    const before = h.snapshot();
    expectError(
      h.send({ mount: 'api', method: 'POST', path: '/register', body: { agent_id: 'two' } }),
      422,
      'INSUFFICIENT_BALANCE',
    );
    expect(h.snapshot()).toEqual(before);
  });
});

describe('bad input on every endpoint: 4xx JSON, nothing changes', () => {
  const long = 'x'.repeat(65);
  const malformedBodies: unknown[] = [[], ['agent_id'], 'agent_id', 42, true];

  interface Case {
    readonly name: string;
    readonly call: Omit<Call, 'key'>;
    readonly auth: boolean;
    readonly status?: number;
  }

  const registerCases = (mount: Mount, path: string, extraKeys: boolean): Case[] => [
    ...malformedBodies.map((body) => ({
      name: `body ${JSON.stringify(body)}`,
      call: { mount, method: 'POST', path, body },
      auth: false,
    })),
    { name: 'missing body', call: { mount, method: 'POST', path }, auth: false },
    { name: 'missing agent_id', call: { mount, method: 'POST', path, body: { referrer: 'ref' } }, auth: false },
    { name: 'agent_id number', call: { mount, method: 'POST', path, body: { agent_id: 7 } }, auth: false },
    { name: 'agent_id null', call: { mount, method: 'POST', path, body: { agent_id: null } }, auth: false },
    { name: 'agent_id object', call: { mount, method: 'POST', path, body: { agent_id: { id: 'x' } } }, auth: false },
    { name: 'agent_id empty', call: { mount, method: 'POST', path, body: { agent_id: '' } }, auth: false },
    { name: 'agent_id blank', call: { mount, method: 'POST', path, body: { agent_id: '   ' } }, auth: false },
    { name: 'agent_id too long', call: { mount, method: 'POST', path, body: { agent_id: long } }, auth: false },
    {
      name: 'agent_id bad characters',
      call: { mount, method: 'POST', path, body: { agent_id: 'a b/c' } },
      auth: false,
    },
    {
      name: 'referrer number',
      call: { mount, method: 'POST', path, body: { agent_id: 'x', referrer: 1 } },
      auth: false,
    },
    {
      name: 'referrer empty',
      call: { mount, method: 'POST', path, body: { agent_id: 'x', referrer: '' } },
      auth: false,
    },
    {
      name: 'referrer too long',
      call: { mount, method: 'POST', path, body: { agent_id: 'x', referrer: long } },
      auth: false,
    },
    { name: 'unknown field', call: { mount, method: 'POST', path, body: { agent_id: 'x', amount: 5 } }, auth: false },
    {
      name: 'unknown query',
      call: { mount, method: 'POST', path, query: { debug: '1' }, body: { agent_id: 'x' } },
      auth: false,
    },
    ...(extraKeys
      ? [
          {
            name: 'metadata string',
            call: { mount, method: 'POST', path, body: { agent_id: 'x', metadata: 'langchain' } },
            auth: false,
          },
          {
            name: 'metadata array',
            call: { mount, method: 'POST', path, body: { agent_id: 'x', metadata: ['a'] } },
            auth: false,
          },
          {
            name: 'metadata framework number',
            call: { mount, method: 'POST', path, body: { agent_id: 'x', metadata: { framework: 3 } } },
            auth: false,
          },
          {
            name: 'metadata framework too long',
            call: { mount, method: 'POST', path, body: { agent_id: 'x', metadata: { framework: long } } },
            auth: false,
          },
          {
            name: 'metadata too many keys',
            call: {
              mount,
              method: 'POST',
              path,
              body: {
                agent_id: 'x',
                metadata: Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`k${index}`, index])),
              },
            },
            auth: false,
          },
        ]
      : [
          {
            name: 'metadata in style A',
            call: { mount, method: 'POST', path, body: { agent_id: 'x', metadata: {} } },
            auth: false,
          },
        ]),
  ];

  const emptyBodyCases = (mount: Mount, method: string, path: string, allowedQuery: string | null): Case[] => [
    ...malformedBodies.map((body) => ({
      name: `body ${JSON.stringify(body)}`,
      call: { mount, method, path, body },
      auth: true,
    })),
    { name: 'unknown field', call: { mount, method, path, body: { agent: 'x' } }, auth: true },
    { name: 'unknown query', call: { mount, method, path, query: { foo: 'bar' } }, auth: true },
    ...(allowedQuery === null
      ? []
      : [
          {
            name: 'unknown query beside a known one',
            call: { mount, method, path, query: { [allowedQuery]: '5', foo: 'bar' } },
            auth: true,
          },
        ]),
  ];

  const cases: Record<string, Case[]> = {
    'faucet.A.register': registerCases('faucet', '/api/v1/agents/register', false),
    'faucet.B.register': registerCases('api', '/register', true),
    'faucet.A.claim': emptyBodyCases('faucet', 'POST', '/api/v1/faucet/claim', null),
    'faucet.A.status': emptyBodyCases('faucet', 'GET', '/api/v1/faucet/status', null),
    'faucet.A.agent': [
      ...emptyBodyCases('faucet', 'GET', '/api/v1/agents/victim', null),
      { name: 'id too long', call: { mount: 'faucet', method: 'GET', path: `/api/v1/agents/${long}` }, auth: true },
      { name: 'id bad characters', call: { mount: 'faucet', method: 'GET', path: '/api/v1/agents/a%20b' }, auth: true },
    ],
    'faucet.B.claim': [
      ...malformedBodies.map((body) => ({
        name: `body ${JSON.stringify(body)}`,
        call: { mount: 'api' as Mount, method: 'POST', path: '/claim', body },
        auth: true,
      })),
      {
        name: 'agent_id number',
        call: { mount: 'api', method: 'POST', path: '/claim', body: { agent_id: 1 } },
        auth: false,
      },
      {
        name: 'agent_id empty',
        call: { mount: 'api', method: 'POST', path: '/claim', body: { agent_id: '' } },
        auth: false,
      },
      {
        name: 'agent_id too long',
        call: { mount: 'api', method: 'POST', path: '/claim', body: { agent_id: long } },
        auth: false,
      },
      {
        name: 'agent_id bad characters',
        call: { mount: 'api', method: 'POST', path: '/claim', body: { agent_id: 'vic tim' } },
        auth: false,
      },
      {
        name: 'unknown field (keyless)',
        call: { mount: 'api', method: 'POST', path: '/claim', body: { agent_id: 'victim', amount: 100 } },
        auth: false,
      },
      {
        name: 'unknown field (key)',
        call: { mount: 'api', method: 'POST', path: '/claim', body: { amount: 100 } },
        auth: true,
      },
      {
        name: 'unknown query',
        call: { mount: 'api', method: 'POST', path: '/claim', query: { agent_id: 'victim' } },
        auth: true,
      },
    ],
    'faucet.B.status': emptyBodyCases('api', 'GET', '/status', null),
    'faucet.B.agents': [
      ...emptyBodyCases('api', 'GET', '/agents', 'limit'),
      ...['0', '101', '-1', '1.5', 'ten', '', '1e2', '99999999'].map((limit) => ({
        name: `limit ${JSON.stringify(limit)}`,
        call: { mount: 'api' as Mount, method: 'GET', path: '/agents', query: { limit } },
        auth: false,
      })),
    ],
    'faucet.B.referrals': emptyBodyCases('api', 'GET', '/referrals', null),
  };

  test('every row has bad-input cases', () => {
    expect(Object.keys(cases).sort()).toEqual(faucetRoutes.map((route) => route.id).sort());
  });

  for (const [routeId, routeCases] of Object.entries(cases)) {
    test(`${routeId}: ${routeCases.length} bad requests answer 400 and change nothing`, () => {
      const h = new Harness();
      // The victim can claim in both styles (no grant, no claim yet): any slip would move money.
      const victim = h.registerA('victim');
      h.registerA('ref');
      const before = h.snapshot();
      for (const { name, call, auth, status } of routeCases) {
        const response = h.send({ ...call, key: auth ? victim.key : undefined });
        expect(response.routeId, name).toBe(routeId);
        expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(status ?? 400);
        expect(response.body, name).toMatchObject({
          error: expect.any(String) as string,
          code: 'BAD_REQUEST',
          _info: INFO,
        });
        expect(h.snapshot(), name).toEqual(before);
      }
      // The refused cases left no trace in the faucet state of the agent they named or keyed.
      expect(h.platform.faucet.record('victim')).toMatchObject({ claimedA: false, claimsB: 0, claims: 0 });
    });
  }
});

describe('limits', () => {
  test('register endpoints: 10 per minute per IP across styles, whatever the key', () => {
    const h = new Harness(DEFAULT_CONFIG);
    for (let index = 0; index < 5; index++) h.registerA(`a${index}`);
    for (let index = 0; index < 5; index++) h.registerB(`b${index}`);
    const refused = h.send({ mount: 'api', method: 'POST', path: '/register', body: { agent_id: 'late' } });
    expect(refused.status).toBe(429);
    expect(h.platform.agents.has('late')).toBe(false);
    const otherIp = h.send({
      mount: 'faucet',
      method: 'POST',
      path: '/api/v1/agents/register',
      body: { agent_id: 'late' },
      ip: '10.0.0.2',
    });
    expect(otherIp.status).toBe(201);
  });

  test('B rows count against the faucet row (10 per minute burst); A rows do not', () => {
    const h = new Harness(DEFAULT_CONFIG);
    const { key } = h.registerA('alice');
    for (let index = 0; index < 10; index++)
      expect(h.send({ mount: 'api', method: 'GET', path: '/status', key }).status).toBe(200);
    expect(h.send({ mount: 'api', method: 'GET', path: '/status', key }).status).toBe(429);
    expect(h.send({ mount: 'faucet', method: 'GET', path: '/api/v1/faucet/status', key }).status).toBe(200);
  });
});

// Issue 17 (5): a keyless style-B claim naming another agent paid that agent, showed its balance
// and used up its keyless claim. The documents' B claim takes no body and a bearer key; "the first
// claim needs no key" is the registration grant (the grant starts the cooldown). A keyless claim is
// now 401 whoever it names, the same answer for an unknown id: it reveals and changes nothing.
test('a keyless claim naming an agent is 401 whatever the agent, and changes nothing', () => {
  const h = new Harness();
  const { key: keyA } = h.registerA('ann'); // no B grant: a B claim would pay at once
  const { key: keyB } = h.registerB('bob');
  const before = h.snapshot();
  const answers = [START_MS, START_MS + DAY_MS].flatMap((atMs) =>
    ['ann', 'bob', 'ghost'].map((agentId) =>
      h.send({ mount: 'api', method: 'POST', path: '/claim', body: { agent_id: agentId } }, atMs),
    ),
  );
  for (const answer of [...answers, h.send({ mount: 'api', method: 'POST', path: '/claim' }, START_MS + DAY_MS)]) {
    expectError(answer, 401, 'UNAUTHORIZED');
    expect(answer.body).toEqual({
      error: 'missing API key: send Authorization: Bearer <api_key> (the first claim is the registration grant)',
      code: 'UNAUTHORIZED',
      _info: INFO,
    });
  }
  expect(h.snapshot()).toEqual(before);
  expect(h.send({ mount: 'api', method: 'POST', path: '/claim', key: keyA }, START_MS + DAY_MS).status).toBe(200);
  expect(h.send({ mount: 'api', method: 'POST', path: '/claim', key: keyB }, START_MS + DAY_MS).status).toBe(200);
});
