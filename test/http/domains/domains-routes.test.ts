// Domains route rows through the in-process dispatcher: the success bodies of both styles, the
// priced transfer as an offer then an atomic swap, and bad input on every domains endpoint (types,
// ranges, invalid names, invalid DNS content, years outside 1..10) answering 4xx `{ error, code }`
// while moving no money and changing no domain. Then once over a real HTTP listener on 127.0.0.1.
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { addAgent as addFixtureAgent } from '../../fixtures/agents.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { FEE_INCOME, agentAccount, referralAccount } from '../../../src/core/ledger.ts';
import { usdc } from '../../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { domainsRoutes } from '../../../src/http/routes/domains/domains.ts';
import { createApiServer } from '../../../src/http/server.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { NO_PROXIES } from '../../../src/http/trusted-proxies.ts';

const START = Date.UTC(2026, 0, 1);
const YEAR = 365 * 86_400_000;
const TX_HASH = /^0x[0-9a-f]{64}$/;
const iso = (ms: number): string => new Date(ms).toISOString();

interface CallOptions {
  key?: string | null;
  body?: unknown;
  query?: Record<string, string>;
}

function world() {
  const platform = new Platform({ seed: 'domains-routes', startMs: START });
  const keys = {
    rita: addFixtureAgent(platform, 'rita', { createdAtMs: START }),
    alice: addFixtureAgent(platform, 'alice', { referrerId: 'rita', fundMicro: usdc(300), createdAtMs: START }),
    bob: addFixtureAgent(platform, 'bob', { fundMicro: usdc(100), createdAtMs: START }),
  };
  const dispatcher = new Dispatcher(platform, domainsRoutes);
  let nowMs = START;
  const call = (mount: Mount, method: string, path: string, options: CallOptions = {}): ApiResponse => {
    nowMs += 1000;
    const key = options.key === undefined ? keys.alice : options.key;
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    return dispatcher.handle(
      { mount, method, path, query: options.query ?? {}, headers, body: options.body, ip: '127.0.0.1' },
      nowMs,
    );
  };
  const a = (method: string, path: string, options?: CallOptions) => call('domains', method, `/api/v1${path}`, options);
  const b = (method: string, path: string, options?: CallOptions) =>
    call('api', method, `/domains-api${path}`, options);
  /** Every balance, every domain and its records: what a refused request must leave unchanged. */
  const state = (): string =>
    JSON.stringify(
      {
        balances: ['alice', 'bob', 'rita'].map((id) => platform.ledger.balance(agentAccount(id)).toString()),
        fee: platform.ledger.balance(FEE_INCOME).toString(),
        domains: platform.domains.all(),
      },
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
  return { platform, keys, call, a, b, state, now: () => nowMs };
}

describe('success bodies', () => {
  test('style A: check, register, dns add/update/list, domains, valuation', () => {
    const { a, now, platform } = world();
    const check = a('GET', '/check', { query: { domain: 'Shop.com' } });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ domain: 'shop.com', available: true, price_usdc: 18 });
    const register = a('POST', '/register', { body: { domain: 'shop.com', years: 2 } });
    expect(register.status).toBe(201);
    expect(register.body).toMatchObject({ domain: 'shop.com', expires_at: iso(now() + 2 * YEAR) });
    expect(Object.keys(register.body).sort()).toEqual(['_info', 'domain', 'expires_at']);
    expect(platform.ledger.balance(agentAccount('alice'))).toBe(usdc(264));
    expect(platform.ledger.balance(referralAccount('rita'))).toBe(5_400_000n);
    expect(a('GET', '/check', { query: { domain: 'shop.com' } }).body).toMatchObject({
      available: false,
      price_usdc: 18,
    });
    const dns = a('POST', '/dns', {
      body: {
        domain: 'shop.com',
        records: [
          { type: 'A', value: '192.0.2.1' },
          { type: 'AAAA', name: 'www', value: '2001:DB8::1', ttl: 600 },
        ],
      },
    });
    expect(dns.status).toBe(200);
    expect(dns.body['records']).toEqual([
      { type: 'A', name: '@', value: '192.0.2.1', ttl: 3600, priority: null },
      { type: 'AAAA', name: 'www', value: '2001:db8::1', ttl: 600, priority: null },
    ]);
    a('POST', '/dns', { body: { domain: 'shop.com', records: [{ type: 'A', value: '192.0.2.2' }] } });
    const listed = a('GET', '/dns', { query: { domain: 'shop.com' } });
    expect(listed.body).toMatchObject({
      domain: 'shop.com',
      count: 2,
      records: [{ type: 'A', value: '192.0.2.2' }, { type: 'AAAA' }],
    });
    expect(a('GET', '/domains').body).toMatchObject({
      count: 1,
      domains: [{ domain: 'shop.com', status: 'active', resolver: null }],
    });
    expect(a('GET', '/valuation', { query: { domain: 'defi.eth' } }).body).toMatchObject({
      domain: 'defi.eth',
      score: 73.75,
      value_usdc: 22.125,
      category: 'standard',
    });
  });

  test('style B: register with resolver, lookup, domains, renew, a sale offered then accepted', () => {
    const { b, keys, platform } = world();
    const register = b('POST', '/register', { body: { domain: 'bot.io', years: 1, resolver: 'ns1.example.net' } });
    expect(register.status).toBe(201);
    expect(register.body).toMatchObject({ domain: 'bot.io', cost: '54.00' });
    expect(register.body['tx_hash']).toMatch(TX_HASH);
    const lookup = b('GET', '/lookup/BOT.io', { key: keys.bob });
    expect(lookup.body).toMatchObject({
      domain: 'bot.io',
      status: 'active',
      owner: 'alice',
      resolver: 'ns1.example.net',
      records: [],
      offer: null,
    });
    expect(b('POST', '/renew', { body: { domain: 'bot.io', years: 2 } }).body).toMatchObject({
      domain: 'bot.io',
      years: 2,
      cost: '108.00',
    });
    const offer = b('POST', '/transfer', { body: { domain: 'bot.io', to: 'bob', price: '40.50' } });
    expect(offer.body).toMatchObject({
      status: 'offered',
      from: 'alice',
      to: 'bob',
      price: '40.50',
      owner: 'alice',
      tx_hash: null,
    });
    expect(b('GET', '/lookup/bot.io', { key: keys.bob }).body['offer']).toMatchObject({ to: 'bob', price: '40.50' });
    const aliceBefore = platform.ledger.balance(agentAccount('alice'));
    const accept = b('POST', '/transfer', { key: keys.bob, body: { domain: 'bot.io', to: 'bob', price: 40.5 } });
    expect(accept.body).toMatchObject({ status: 'completed', from: 'alice', to: 'bob', owner: 'bob', price: '40.50' });
    expect(accept.body['tx_hash']).toMatch(TX_HASH);
    expect(platform.ledger.balance(agentAccount('alice'))).toBe(aliceBefore + 40_500_000n);
    expect(b('GET', '/domains', { key: keys.bob }).body).toMatchObject({
      count: 1,
      domains: [{ domain: 'bot.io', status: 'active' }],
    });
    expect(b('GET', '/domains').body).toMatchObject({ count: 0, domains: [] });
  });

  test('a taken name is 409 CONFLICT in both styles', () => {
    const { a, b, keys } = world();
    a('POST', '/register', { body: { domain: 'one.com' } });
    expect(a('POST', '/register', { key: keys.bob, body: { domain: 'one.com' } })).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
    expect(b('POST', '/register', { key: keys.bob, body: { domain: 'ONE.com' } })).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
  });
});

describe('rate caps', () => {
  test('10 registrations per agent per day, A and B together; the 11th is 429 and charges nothing', () => {
    const { a, b, platform } = world();
    for (let index = 0; index < 5; index++)
      expect(a('POST', '/register', { body: { domain: `a${index}.xyz` } }).status).toBe(201);
    for (let index = 0; index < 5; index++)
      expect(b('POST', '/register', { body: { domain: `b${index}.xyz` } }).status).toBe(201);
    const before = platform.ledger.balance(agentAccount('alice'));
    const refused = b('POST', '/register', { body: { domain: 'eleventh.xyz' } });
    expect(refused.status).toBe(429);
    expect(a('POST', '/register', { body: { domain: 'eleventh.xyz' } }).status).toBe(429);
    expect(platform.ledger.balance(agentAccount('alice'))).toBe(before);
    expect(platform.domains.find('eleventh.xyz')).toBeUndefined();
  });

  test('style B rows share the domains bucket: a burst of 50, then 429', () => {
    const platform = new Platform({ seed: 'domains-burst', startMs: START });
    const key = addFixtureAgent(platform, 'alice', { createdAtMs: START });
    const dispatcher = new Dispatcher(platform, domainsRoutes);
    const statuses: number[] = [];
    for (let index = 0; index < 60; index++)
      statuses.push(
        dispatcher.handle(
          {
            mount: 'api',
            method: 'GET',
            path: '/domains-api/domains',
            query: {},
            headers: { authorization: `Bearer ${key}` },
            body: undefined,
            ip: '127.0.0.1',
          },
          START,
        ).status,
      );
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.slice(50).every((status) => status === 429)).toBe(true);
  });
});

describe('bad input: 4xx in the spec shape, nothing changes', () => {
  const cases: [string, Mount, string, string, CallOptions][] = [
    ['check: no domain', 'domains', 'GET', '/api/v1/check', {}],
    ['check: invalid name', 'domains', 'GET', '/api/v1/check', { query: { domain: 'bad_name.com' } }],
    ['check: unsold TLD', 'domains', 'GET', '/api/v1/check', { query: { domain: 'x.agent' } }],
    ['check: unknown query', 'domains', 'GET', '/api/v1/check', { query: { domain: 'x.com', colour: 'blue' } }],
    ['register A: years 0', 'domains', 'POST', '/api/v1/register', { body: { domain: 'x.com', years: 0 } }],
    ['register A: years 11', 'domains', 'POST', '/api/v1/register', { body: { domain: 'x.com', years: 11 } }],
    ['register A: years 1.5', 'domains', 'POST', '/api/v1/register', { body: { domain: 'x.com', years: 1.5 } }],
    ['register A: years as text', 'domains', 'POST', '/api/v1/register', { body: { domain: 'x.com', years: '2' } }],
    [
      'register A: resolver is B only',
      'domains',
      'POST',
      '/api/v1/register',
      { body: { domain: 'x.com', resolver: 'ns.example.com' } },
    ],
    ['register A: domain a number', 'domains', 'POST', '/api/v1/register', { body: { domain: 42 } }],
    ['register A: subdomain', 'domains', 'POST', '/api/v1/register', { body: { domain: 'a.b.com' } }],
    ['register A: body an array', 'domains', 'POST', '/api/v1/register', { body: [] }],
    [
      'register B: bad resolver',
      'api',
      'POST',
      '/domains-api/register',
      { body: { domain: 'x.com', resolver: 'not a host' } },
    ],
    ['register B: leading hyphen', 'api', 'POST', '/domains-api/register', { body: { domain: '-x.com' } }],
    [
      'register B: too long label',
      'api',
      'POST',
      '/domains-api/register',
      { body: { domain: `${'a'.repeat(64)}.com` } },
    ],
    [
      'dns: bad IPv4',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'A', value: '256.0.0.1' }] } },
    ],
    [
      'dns: bad IPv6',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'AAAA', value: '2001:::1' }] } },
    ],
    [
      'dns: unknown type',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'SRV', value: 'x' }] } },
    ],
    [
      'dns: MX without priority',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'MX', value: 'mail.held.com' }] } },
    ],
    [
      'dns: CNAME next to A',
      'domains',
      'POST',
      '/api/v1/dns',
      {
        body: {
          domain: 'held.com',
          records: [
            { type: 'CNAME', name: 'www', value: 'x.example.com' },
            { type: 'A', name: 'www', value: '10.0.0.1' },
          ],
        },
      },
    ],
    [
      'dns: TXT not printable',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'TXT', value: 'a\u0000b' }] } },
    ],
    [
      'dns: ttl too small',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'A', value: '10.0.0.1', ttl: 1 }] } },
    ],
    [
      'dns: unknown record field',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: [{ type: 'A', value: '10.0.0.1', weight: 1 }] } },
    ],
    [
      'dns: records not an array',
      'domains',
      'POST',
      '/api/v1/dns',
      { body: { domain: 'held.com', records: { type: 'A' } } },
    ],
    ['dns: no records', 'domains', 'POST', '/api/v1/dns', { body: { domain: 'held.com', records: [] } }],
    [
      'dns: not the owner',
      'domains',
      'POST',
      '/api/v1/dns',
      { key: 'bob', body: { domain: 'held.com', records: [{ type: 'A', value: '10.0.0.1' }] } },
    ],
    ['dns list: not registered', 'domains', 'GET', '/api/v1/dns', { query: { domain: 'free.com' } }],
    ['valuation: invalid name', 'domains', 'GET', '/api/v1/valuation', { query: { domain: 'no dots' } }],
    ['domains: an unknown query parameter', 'domains', 'GET', '/api/v1/domains', { query: { sort: 'name' } }],
    ['domains: limit 101', 'domains', 'GET', '/api/v1/domains', { query: { limit: '101' } }],
    ['lookup: invalid name', 'api', 'GET', '/domains-api/lookup/bad_name.com', {}],
    ['lookup: free name', 'api', 'GET', '/domains-api/lookup/free.com', {}],
    ['renew: years 0', 'api', 'POST', '/domains-api/renew', { body: { domain: 'held.com', years: 0 } }],
    ['renew: years 11', 'api', 'POST', '/domains-api/renew', { body: { domain: 'held.com', years: 11 } }],
    ['renew: not the owner', 'api', 'POST', '/domains-api/renew', { key: 'bob', body: { domain: 'held.com' } }],
    ['renew: past 10 years', 'api', 'POST', '/domains-api/renew', { body: { domain: 'held.com', years: 10 } }],
    ['transfer: no to', 'api', 'POST', '/domains-api/transfer', { body: { domain: 'held.com' } }],
    ['transfer: to unknown', 'api', 'POST', '/domains-api/transfer', { body: { domain: 'held.com', to: 'nobody' } }],
    ['transfer: to self', 'api', 'POST', '/domains-api/transfer', { body: { domain: 'held.com', to: 'alice' } }],
    [
      'transfer: negative price',
      'api',
      'POST',
      '/domains-api/transfer',
      { body: { domain: 'held.com', to: 'bob', price: -1 } },
    ],
    [
      'transfer: price with 7 decimals',
      'api',
      'POST',
      '/domains-api/transfer',
      { body: { domain: 'held.com', to: 'bob', price: '1.0000001' } },
    ],
    [
      'transfer: price not a number',
      'api',
      'POST',
      '/domains-api/transfer',
      { body: { domain: 'held.com', to: 'bob', price: 'lots' } },
    ],
    [
      'transfer: not the owner',
      'api',
      'POST',
      '/domains-api/transfer',
      { key: 'bob', body: { domain: 'held.com', to: 'bob' } },
    ],
    [
      'transfer: accept with no offer',
      'api',
      'POST',
      '/domains-api/transfer',
      { key: 'bob', body: { domain: 'held.com', to: 'bob', price: 5 } },
    ],
    ['no key', 'domains', 'GET', '/api/v1/domains', { key: null }],
    ['bad key', 'api', 'GET', '/domains-api/domains', { key: 'sk_live_nope' }],
  ];

  test.each(cases)('%s', (_name, mount, method, path, options) => {
    const { call, keys, state, a } = world();
    expect(a('POST', '/register', { body: { domain: 'held.com', years: 1 } }).status).toBe(201);
    const before = state();
    const key = options.key === 'bob' ? keys.bob : options.key;
    const response = call(mount, method, path, { ...options, key });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(typeof response.body['error']).toBe('string');
    expect(typeof response.body['code']).toBe('string');
    expect(state()).toBe(before);
  });
});

describe('property: any body on any domains row', () => {
  test('answers 2xx, or a 4xx { error, code } that changed nothing', () => {
    const rows: [Mount, string, string][] = [
      ['domains', 'POST', '/api/v1/register'],
      ['domains', 'POST', '/api/v1/dns'],
      ['api', 'POST', '/domains-api/register'],
      ['api', 'POST', '/domains-api/renew'],
      ['api', 'POST', '/domains-api/transfer'],
    ];
    const value = fc.oneof(
      fc.constantFrom('held.com', 'HELD.com', 'free.xyz', 'bad_name.com', 'bob', 'alice', '', '1.5', 'ns1.example.net'),
      fc.integer({ min: -5, max: 15 }),
      fc.double({ noNaN: false }),
      fc.boolean(),
      fc.constant(null),
    );
    const record = fc.record(
      {
        type: fc.constantFrom('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV'),
        name: fc.constantFrom('@', 'www', 'bad host'),
        value: fc.constantFrom('10.0.0.1', '::1', 'x.example.com', 'text'),
        ttl: fc.integer({ min: 0, max: 90_000 }),
      },
      { requiredKeys: ['type'] },
    );
    const body = fc.oneof(
      fc.record(
        {
          domain: value,
          years: value,
          resolver: value,
          to: value,
          price: value,
          records: fc.oneof(fc.array(record, { maxLength: 3 }), value),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    );
    const { call, state, a } = world();
    expect(a('POST', '/register', { body: { domain: 'held.com', years: 1 } }).status).toBe(201);
    fc.assert(
      fc.property(fc.constantFrom(...rows), body, ([mount, method, path], sent) => {
        const before = state();
        const response = call(mount, method, path, { body: sent });
        if (response.status >= 200 && response.status < 300) return;
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(typeof response.body['error']).toBe('string');
        expect(typeof response.body['code']).toBe('string');
        expect(state()).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});

describe('over a real HTTP listener', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  test('register, DNS and lookup on 127.0.0.1, and a 400 in the spec shape', async () => {
    const platform = new Platform({ seed: 'domains-http', startMs: START });
    const key = addFixtureAgent(platform, 'alice', { fundMicro: usdc(100), createdAtMs: START });
    const clock = new VirtualClock(START);
    const dispatcher = new Dispatcher(platform, domainsRoutes);
    const servers = [
      createApiServer({ dispatcher, clock, mount: 'domains', trustedProxies: NO_PROXIES, log: () => undefined }),
      createApiServer({ dispatcher, clock, mount: 'api', trustedProxies: NO_PROXIES, log: () => undefined }),
    ];
    const urls: string[] = [];
    for (const server of servers) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    const [domainsUrl, apiUrl] = urls as [string, string];
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const send = async (url: string, method: string, body?: unknown) => {
      const response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await send(`${domainsUrl}/api/v1/check?domain=web.dev`, 'GET')).toMatchObject({
      status: 200,
      body: { available: true, price_usdc: 18 },
    });
    expect(await send(`${apiUrl}/domains-api/register`, 'POST', { domain: 'web.dev', years: 1 })).toMatchObject({
      status: 201,
      body: { domain: 'web.dev', cost: '18.00' },
    });
    expect(
      await send(`${domainsUrl}/api/v1/dns`, 'POST', { domain: 'web.dev', records: [{ type: 'TXT', value: 'hello' }] }),
    ).toMatchObject({ status: 200, body: { count: 1 } });
    expect(await send(`${apiUrl}/domains-api/lookup/web.dev`, 'GET')).toMatchObject({
      status: 200,
      body: { owner: 'alice', records: [{ type: 'TXT', value: 'hello' }] },
    });
    expect(await send(`${apiUrl}/domains-api/register`, 'POST', { domain: 'web.dev', years: 12 })).toMatchObject({
      status: 400,
      body: { code: 'BAD_REQUEST' },
    });
    expect(platform.ledger.balance(agentAccount('alice'))).toBe(usdc(82));
  });
});
