// Escrow route rows through the in-process dispatcher: every field of every success body in both
// styles (A: numbers, buyer/seller; B: decimal strings, sender/receiver), and bad input on every
// escrow endpoint answering 4xx `{ error, code }` while moving no money and creating nothing.
// Agents are added straight to the registry (keys stored as hashes) and funded from the pool.
import { beforeEach, describe, expect, test } from 'vitest';
import { addAgent as addFixtureAgent } from '../../fixtures/agents.ts';
import { KEY_PREFIX } from '../../../src/core/ids.ts';
import { FEE_INCOME, agentAccount, referralAccount } from '../../../src/core/ledger.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { escrowRoutes } from '../../../src/http/routes/escrow/escrow.ts';
import { INFO } from '../../../src/platform/info.ts';
import { Platform } from '../../../src/platform/platform.ts';

const START = Date.UTC(2026, 0, 1);
const SECOND = 1000;
const HOUR = 3_600_000;
const TX_HASH = /^0x[0-9a-f]{64}$/;
const ESCROW_ID = /^esc_[0-9a-f]{16}$/;
const iso = (ms: number): string => new Date(ms).toISOString();

interface CallOptions {
  key?: string | null;
  body?: unknown;
  query?: Record<string, string>;
  atMs?: number;
}

interface World {
  platform: Platform;
  keys: Record<'alice' | 'bob' | 'carol' | 'rita' | 'eric', string>;
  nowMs(): number;
  call(mount: Mount, method: string, path: string, options?: CallOptions): ApiResponse;
  a(method: string, path: string, options?: CallOptions): ApiResponse;
  b(method: string, path: string, options?: CallOptions): ApiResponse;
  snapshot(): Map<string, Micro>;
}

function addAgent(platform: Platform, id: string, options: { referrerId?: string; fundMicro?: Micro } = {}): string {
  return addFixtureAgent(platform, id, { ...options, createdAtMs: START });
}

/** Each call moves time forward one second (rate limits refill); `atMs` jumps to an instant. */
function world(): World {
  const platform = new Platform({ seed: 'test', startMs: START });
  const keys = {
    rita: addAgent(platform, 'rita'),
    eric: addAgent(platform, 'eric'),
    alice: addAgent(platform, 'alice', { referrerId: 'rita', fundMicro: usdc(100) }),
    bob: addAgent(platform, 'bob', { fundMicro: usdc(5) }),
    carol: addAgent(platform, 'carol', { fundMicro: usdc(5) }),
  };
  const dispatcher = new Dispatcher(platform, escrowRoutes);
  let nowMs = START;
  const call = (mount: Mount, method: string, path: string, options: CallOptions = {}): ApiResponse => {
    nowMs = options.atMs ?? nowMs + SECOND;
    const key = options.key === undefined ? keys.alice : options.key;
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    return dispatcher.handle(
      { mount, method, path, query: options.query ?? {}, headers, body: options.body, ip: '127.0.0.1' },
      nowMs,
    );
  };
  return {
    platform,
    keys,
    nowMs: () => nowMs,
    call,
    a: (method, path, options) => call('escrow', method, path, options),
    b: (method, path, options) => call('api', method, path, options),
    snapshot: () => new Map(platform.ledger.accounts()),
  };
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toEqual({ error: expect.any(String) as string, code, _info: INFO.escrow });
  expect(response.body['error']).not.toBe('');
}

function createdId(response: ApiResponse): string {
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const id = response.body['escrow_id'];
  if (typeof id !== 'string') throw new Error('no escrow_id');
  return id;
}

describe('style B success bodies', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });

  test('create, get, release, list: every field', () => {
    const created = w.b('POST', '/escrow', {
      body: {
        amount: '1.234567',
        receiver: 'bob',
        description: 'logo',
        expires_in: 3600,
        referrer: 'eric',
        conditions: { deliverable: 'svg', rounds: [1, 2] },
      },
    });
    const createdAtMs = w.nowMs();
    const id = createdId(created);
    expect(id).toMatch(ESCROW_ID);
    expect(created.body).toEqual({
      escrow_id: id,
      status: 'locked',
      amount: '1.234567',
      fee: '0.012346',
      net: '1.222221',
      receiver: 'bob',
      expires_at: iso(createdAtMs + HOUR),
      _info: INFO.escrow,
    });
    expect(created.routeId).toBe('escrow.B.create');
    expect(w.platform.ledger.balance(agentAccount('alice'))).toBe(usdc(100) - 1_234_567n);

    const detail = {
      escrow_id: id,
      status: 'locked',
      sender: 'alice',
      receiver: 'bob',
      amount: '1.234567',
      fee: '0.012346',
      net: '1.222221',
      description: 'logo',
      conditions: { deliverable: 'svg', rounds: [1, 2] },
      referrer: 'eric',
      created_at: iso(createdAtMs),
      expires_at: iso(createdAtMs + HOUR),
      settled_at: null,
      tx_hash: null,
      dispute: null,
      _info: INFO.escrow,
    };
    expect(w.b('GET', `/escrow/${id}`).body).toEqual(detail);
    expect(w.b('GET', `/escrow/${id}`, { key: w.keys.bob }).body).toEqual(detail);

    const released = w.b('POST', `/escrow/${id}/release`);
    const releasedAtMs = w.nowMs();
    expect(released.status).toBe(200);
    expect(released.body).toEqual({
      escrow_id: id,
      status: 'released',
      tx_hash: expect.stringMatching(TX_HASH) as string,
      net: '1.222221',
      fee: '0.012346',
      _info: INFO.escrow,
    });
    expect(w.platform.ledger.balance(agentAccount('bob'))).toBe(usdc(5) + 1_222_221n);
    expect(w.platform.ledger.balance(FEE_INCOME)).toBe(12_346n - 1_851n);
    expect(w.platform.ledger.balance(referralAccount('eric'))).toBe(1_851n);

    const settled = { ...detail, status: 'released', settled_at: iso(releasedAtMs), tx_hash: released.body['tx_hash'] };
    expect(w.b('GET', `/escrow/${id}`).body).toEqual(settled);
    const { _info: _ignored, ...item } = settled;
    expect(w.b('GET', '/escrows').body).toEqual({ escrows: [item], count: 1, _info: INFO.escrow });
    expect(
      w.b('GET', '/escrows', { key: w.keys.bob, query: { role: 'receiver', status: 'released', limit: '1' } }).body,
    ).toEqual({ escrows: [item], count: 1, _info: INFO.escrow });
    expect(w.b('GET', '/escrows', { query: { role: 'receiver' } }).body).toEqual({
      escrows: [],
      count: 0,
      _info: INFO.escrow,
    });
    expectError(w.b('POST', `/escrow/${id}/release`), 409, 'CONFLICT');
  });

  test('defaults: number amount, no optional fields, registration referrer, 24 h expiry', () => {
    const created = w.b('POST', '/escrow', { body: { amount: 10, receiver: 'ref_bob' } });
    const id = createdId(created);
    const createdAtMs = w.nowMs();
    expect(created.body).toEqual({
      escrow_id: id,
      status: 'locked',
      amount: '10.00',
      fee: '0.10',
      net: '9.90',
      receiver: 'bob',
      expires_at: iso(createdAtMs + 24 * HOUR),
      _info: INFO.escrow,
    });
    expect(w.b('GET', `/escrow/${id}`).body).toMatchObject({
      description: null,
      conditions: null,
      referrer: 'rita',
      created_at: iso(createdAtMs),
    });
  });

  test('refund: every field, full amount back', () => {
    const id = createdId(w.b('POST', '/escrow', { body: { amount: '0.10', receiver: 'bob' } }));
    const refunded = w.b('POST', `/escrow/${id}/refund`, { body: {} });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toEqual({
      escrow_id: id,
      status: 'refunded',
      amount: '0.10',
      tx_hash: expect.stringMatching(TX_HASH) as string,
      _info: INFO.escrow,
    });
    expect(w.platform.ledger.balance(agentAccount('alice'))).toBe(usdc(100));
    expectError(w.b('POST', `/escrow/${id}/refund`), 409, 'CONFLICT');
  });

  test('dispute: every field, detail shows it, refund 409, window end refunds', () => {
    const id = createdId(w.b('POST', '/escrow', { body: { amount: 2, receiver: 'bob', expires_in: 60 } }));
    const disputed = w.b('POST', `/escrow/${id}/dispute`, {
      key: w.keys.bob,
      body: { reason: 'never delivered', evidence: 'sha256:abc' },
    });
    const openedAtMs = w.nowMs();
    expect(disputed.status).toBe(200);
    expect(disputed.body).toEqual({
      escrow_id: id,
      status: 'disputed',
      reason: 'never delivered',
      evidence: 'sha256:abc',
      window_ends_at: iso(openedAtMs + 48 * HOUR),
      _info: INFO.escrow,
    });
    expectError(w.b('POST', `/escrow/${id}/refund`), 409, 'CONFLICT');
    expectError(w.b('POST', `/escrow/${id}/release`, { key: w.keys.bob }), 403, 'FORBIDDEN');
    const dispute = {
      reason: 'never delivered',
      evidence: 'sha256:abc',
      opened_by: 'bob',
      opened_at: iso(openedAtMs),
      window_ends_at: iso(openedAtMs + 48 * HOUR),
      outcome: null,
    };
    expect(w.b('GET', `/escrow/${id}`).body).toMatchObject({ status: 'disputed', dispute });
    const after = w.b('GET', `/escrow/${id}`, { atMs: openedAtMs + 48 * HOUR });
    expect(after.body).toMatchObject({
      status: 'refunded',
      settled_at: iso(openedAtMs + 48 * HOUR),
      dispute: { ...dispute, outcome: 'refunded' },
    });
    expect(w.platform.ledger.balance(agentAccount('alice'))).toBe(usdc(100));
  });

  test('expiry through the dispatcher: locked at expires_at − 1, expired at expires_at', () => {
    const id = createdId(w.b('POST', '/escrow', { body: { amount: 3, receiver: 'bob', expires_in: 120 } }));
    const expiresAtMs = w.nowMs() + 120 * SECOND;
    expect(w.b('GET', `/escrow/${id}`, { atMs: expiresAtMs - 1 }).body).toMatchObject({
      status: 'locked',
      settled_at: null,
    });
    expect(w.platform.ledger.balance(agentAccount('alice'))).toBe(usdc(97));
    expect(w.b('GET', `/escrow/${id}`, { atMs: expiresAtMs }).body).toMatchObject({
      status: 'expired',
      settled_at: iso(expiresAtMs),
      tx_hash: expect.stringMatching(TX_HASH) as string,
    });
    expect(w.platform.ledger.balance(agentAccount('alice'))).toBe(usdc(100));
    expectError(w.b('POST', `/escrow/${id}/refund`), 409, 'CONFLICT');
    expectError(w.b('POST', `/escrow/${id}/release`), 409, 'CONFLICT');
  });

  test('403 for a bystander, 404 for an unknown escrow, 401 without a key', () => {
    const id = createdId(w.b('POST', '/escrow', { body: { amount: 1, receiver: 'bob' } }));
    expectError(w.b('GET', `/escrow/${id}`, { key: w.keys.carol }), 403, 'FORBIDDEN');
    expectError(w.b('POST', `/escrow/${id}/dispute`, { key: w.keys.carol, body: { reason: 'x' } }), 403, 'FORBIDDEN');
    expectError(w.b('POST', `/escrow/${id}/refund`, { key: w.keys.bob }), 403, 'FORBIDDEN');
    expectError(w.b('GET', '/escrow/esc_0000000000000000'), 404, 'NOT_FOUND');
    expectError(w.b('GET', `/escrow/${id}`, { key: null }), 401, 'UNAUTHORIZED');
  });
});

describe('style A success bodies', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });

  test('create, get, release, list: every field', () => {
    const created = w.a('POST', '/api/v1/escrow/create', {
      body: { buyer: 'alice', seller: 'bob', amount: 1.234567, currency: 'USDC', memo: 'api work' },
    });
    const createdAtMs = w.nowMs();
    const id = createdId(created);
    expect(created.body).toEqual({
      escrow_id: id,
      status: 'locked',
      amount: 1.234567,
      fee: 0.012346,
      net: 1.222221,
      expires_at: iso(createdAtMs + 24 * HOUR),
      _info: INFO.escrow,
    });
    expect(created.routeId).toBe('escrow.A.create');
    const detail = {
      escrow_id: id,
      status: 'locked',
      buyer: 'alice',
      seller: 'bob',
      currency: 'USDC',
      memo: 'api work',
      amount: 1.234567,
      fee: 0.012346,
      net: 1.222221,
      conditions: null,
      referrer: 'rita',
      created_at: iso(createdAtMs),
      expires_at: iso(createdAtMs + 24 * HOUR),
      settled_at: null,
      tx_hash: null,
      dispute: null,
      _info: INFO.escrow,
    };
    expect(w.a('GET', `/api/v1/escrow/${id}`).body).toEqual(detail);

    const released = w.a('POST', '/api/v1/escrow/release', { body: { escrow_id: id } });
    const releasedAtMs = w.nowMs();
    expect(released.status).toBe(200);
    expect(released.body).toEqual({
      escrow_id: id,
      status: 'released',
      released_amount: 1.222221,
      seller: 'bob',
      fee: 0.012346,
      tx_hash: expect.stringMatching(TX_HASH) as string,
      _info: INFO.escrow,
    });
    expect(w.platform.ledger.balance(agentAccount('bob'))).toBe(usdc(5) + 1_222_221n);
    expect(w.platform.ledger.balance(referralAccount('rita'))).toBe(1_851n);

    const { _info: _ignored, ...item } = {
      ...detail,
      status: 'released',
      settled_at: iso(releasedAtMs),
      tx_hash: released.body['tx_hash'],
    };
    expect(w.a('GET', '/api/v1/escrow/list').body).toEqual({ escrows: [item], count: 1, _info: INFO.escrow });
    expect(w.a('GET', '/api/v1/escrow/list', { query: { role: 'sender', status: 'locked' } }).body).toEqual({
      escrows: [],
      count: 0,
      _info: INFO.escrow,
    });
    expectError(w.a('POST', '/api/v1/escrow/release', { body: { escrow_id: id } }), 409, 'CONFLICT');
  });

  test('buyer may be given by address; seller by referral code; currency optional', () => {
    const address = `0x${Buffer.from('alice').toString('hex').padEnd(40, 'a')}`.toUpperCase().replace('0X', '0x');
    const id = createdId(
      w.a('POST', '/api/v1/escrow/create', { body: { buyer: address, seller: 'ref_bob', amount: 2 } }),
    );
    expect(w.a('GET', `/api/v1/escrow/${id}`).body).toMatchObject({
      buyer: 'alice',
      seller: 'bob',
      amount: 2,
      fee: 0.02,
      net: 1.98,
      memo: null,
    });
  });

  test('dispute: every field; the seller may open it', () => {
    const id = createdId(w.a('POST', '/api/v1/escrow/create', { body: { buyer: 'alice', seller: 'bob', amount: 5 } }));
    const disputed = w.a('POST', '/api/v1/escrow/dispute', {
      key: w.keys.bob,
      body: { escrow_id: id, reason: 'buyer vanished' },
    });
    expect(disputed.status).toBe(200);
    expect(disputed.body).toEqual({
      escrow_id: id,
      status: 'disputed',
      reason: 'buyer vanished',
      evidence: null,
      window_ends_at: iso(w.nowMs() + 48 * HOUR),
      _info: INFO.escrow,
    });
    const conceded = w.a('POST', '/api/v1/escrow/release', { body: { escrow_id: id } });
    expect(conceded.body).toMatchObject({ status: 'released', released_amount: 4.95, fee: 0.05 });
  });

  test('buyer other than the caller is 403 and moves nothing', () => {
    const before = w.snapshot();
    expectError(
      w.a('POST', '/api/v1/escrow/create', { body: { buyer: 'bob', seller: 'carol', amount: 1 } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      w.a('POST', '/api/v1/escrow/create', { body: { buyer: 'nobody', seller: 'carol', amount: 1 } }),
      403,
      'FORBIDDEN',
    );
    expect(w.snapshot()).toEqual(before);
  });
});

type Case = readonly [
  label: string,
  style: 'A' | 'B',
  method: string,
  path: string,
  options: CallOptions,
  status: number,
  code: string,
];

/** Bad input on every endpoint; `{id}` is replaced with a real locked escrow of alice → bob. */
function badInputCases(): Case[] {
  const huge = 1e13;
  const createB = (body: unknown, status = 400, code = 'BAD_REQUEST'): Case => [
    'B create ' + JSON.stringify(body),
    'B',
    'POST',
    '/escrow',
    { body },
    status,
    code,
  ];
  const createA = (body: unknown, status = 400, code = 'BAD_REQUEST'): Case => [
    'A create ' + JSON.stringify(body),
    'A',
    'POST',
    '/api/v1/escrow/create',
    { body },
    status,
    code,
  ];
  const okB = { amount: 1, receiver: 'bob' };
  const okA = { buyer: 'alice', seller: 'bob', amount: 1 };
  const cases: Case[] = [
    ...['not an object', 42, true, [1, 2], [okB]].map((body) => createB(body)),
    createB({}),
    createB({ receiver: 'bob' }),
    createB({ amount: 1 }),
    createB({ ...okB, extra: 1 }),
    createB({ ...okB, sender: 'bob' }),
    ...[
      -1,
      0,
      '0',
      '-0.5',
      'abc',
      'NaN',
      'Infinity',
      '-Infinity',
      Number.POSITIVE_INFINITY,
      Number.NaN,
      huge,
      '10000000000000',
      '1e3',
      '1.1234567',
      1.1234567,
      true,
      {},
      [],
      '',
      '  ',
      0.09,
      '0.099999',
      0.000001,
      '0x10',
    ].map((amount) => createB({ ...okB, amount })),
    createB({ ...okB, amount: 1000 }, 422, 'INSUFFICIENT_BALANCE'),
    ...[42, '', ' ', 'x'.repeat(300), {}, true].map((receiver) => createB({ ...okB, receiver })),
    createB({ ...okB, receiver: 'nobody' }, 404, 'NOT_FOUND'),
    createB({ ...okB, receiver: 'alice' }),
    createB({ ...okB, receiver: 'ref_alice' }),
    ...[5, '', 'd'.repeat(1001), { text: 'x' }].map((description) => createB({ ...okB, description })),
    ...[0, -5, 1.5, 7_776_001, 1e300, '3600', true, Number.POSITIVE_INFINITY, Number.NaN, {}].map((expiresIn) =>
      createB({ ...okB, expires_in: expiresIn }),
    ),
    ...[7, '', true].map((referrer) => createB({ ...okB, referrer })),
    createB({ ...okB, referrer: 'nobody' }, 404, 'NOT_FOUND'),
    createB({ ...okB, referrer: 'alice' }),
    createB({ ...okB, referrer: 'bob' }),
    ...[
      'text',
      5,
      [1],
      true,
      { a: { b: { c: { d: { e: 1 } } } } },
      Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`k${index}`, index])),
      { long: 'x'.repeat(1001) },
      { list: Array.from({ length: 300 }, (_, index) => index) },
    ].map((conditions) => createB({ ...okB, conditions })),

    ...['text', 7, [okA]].map((body) => createA(body)),
    createA({}),
    createA({ seller: 'bob', amount: 1 }),
    createA({ buyer: 'alice', amount: 1 }),
    createA({ buyer: 'alice', seller: 'bob' }),
    createA({ ...okA, extra: true }),
    createA({ ...okA, receiver: 'bob' }),
    createA({ ...okA, expires_in: 60 }),
    ...['1', '1.00', -1, 0, huge, 1.1234567, 0.05, Number.NaN, Number.POSITIVE_INFINITY, null, true].map((amount) =>
      createA({ ...okA, amount }),
    ),
    ...['EUR', 'usd', 5, ''].map((currency) => createA({ ...okA, currency })),
    ...[5, '', 'm'.repeat(1001)].map((memo) => createA({ ...okA, memo })),
    ...[5, '', null].map((buyer) => createA({ ...okA, buyer })),
    ...[5, ''].map((seller) => createA({ ...okA, seller })),
    createA({ ...okA, seller: 'nobody' }, 404, 'NOT_FOUND'),
    createA({ ...okA, seller: 'alice' }),
    createA({ ...okA, amount: 101 }, 422, 'INSUFFICIENT_BALANCE'),
  ];
  for (const action of ['release', 'refund']) {
    cases.push(
      [`B ${action} bad id`, 'B', 'POST', `/escrow/${encodeURIComponent('!!')}/${action}`, {}, 400, 'BAD_REQUEST'],
      [`B ${action} long id`, 'B', 'POST', `/escrow/${'e'.repeat(65)}/${action}`, {}, 400, 'BAD_REQUEST'],
      [`B ${action} unknown id`, 'B', 'POST', `/escrow/esc_0000000000000000/${action}`, {}, 404, 'NOT_FOUND'],
      [`B ${action} body field`, 'B', 'POST', `/escrow/{id}/${action}`, { body: { amount: 1 } }, 400, 'BAD_REQUEST'],
      [`B ${action} body text`, 'B', 'POST', `/escrow/{id}/${action}`, { body: 'now' }, 400, 'BAD_REQUEST'],
      [`B ${action} query`, 'B', 'POST', `/escrow/{id}/${action}`, { query: { force: '1' } }, 400, 'BAD_REQUEST'],
    );
  }
  const disputeB = (body: unknown, path = '/escrow/{id}/dispute', status = 400, code = 'BAD_REQUEST'): Case => [
    'B dispute ' + JSON.stringify(body) + path,
    'B',
    'POST',
    path,
    { body },
    status,
    code,
  ];
  cases.push(
    disputeB(undefined),
    disputeB({}),
    disputeB({ reason: 5 }),
    disputeB({ reason: '' }),
    disputeB({ reason: '   ' }),
    disputeB({ reason: 'r'.repeat(1001) }),
    disputeB({ reason: 'x', evidence: 5 }),
    disputeB({ reason: 'x', evidence: 'e'.repeat(1001) }),
    disputeB({ reason: 'x', escrow_id: 'esc_1' }),
    disputeB('text'),
    disputeB({ reason: 'x' }, '/escrow/%20/dispute'),
    disputeB({ reason: 'x' }, '/escrow/esc_0000000000000000/dispute', 404, 'NOT_FOUND'),
    ['B get bad id', 'B', 'GET', '/escrow/a%2Fb', {}, 400, 'BAD_REQUEST'],
    ['B get unknown', 'B', 'GET', '/escrow/esc_ffffffffffffffff', {}, 404, 'NOT_FOUND'],
    ['B get query', 'B', 'GET', '/escrow/{id}', { query: { verbose: '1' } }, 400, 'BAD_REQUEST'],
    ['A get bad id', 'A', 'GET', '/api/v1/escrow/%24%24', {}, 400, 'BAD_REQUEST'],
    ['A get unknown', 'A', 'GET', '/api/v1/escrow/esc_ffffffffffffffff', {}, 404, 'NOT_FOUND'],
    ['A get query', 'A', 'GET', '/api/v1/escrow/{id}', { query: { x: '' } }, 400, 'BAD_REQUEST'],
  );
  for (const [style, path] of [
    ['A', '/api/v1/escrow/list'],
    ['B', '/escrows'],
  ] as const) {
    const queries: Record<string, string>[] = [
      { role: 'buyer' },
      { role: '' },
      { status: 'open' },
      { status: 'LOCKED' },
      { limit: '0' },
      { limit: '101' },
      { limit: 'ten' },
      { limit: '-1' },
      { limit: '1.5' },
      { limit: '1e2' },
      { limit: '' },
      { page: '2' },
    ];
    for (const query of queries) {
      cases.push([`${style} list ${JSON.stringify(query)}`, style, 'GET', path, { query }, 400, 'BAD_REQUEST']);
    }
  }
  const releaseA = (body: unknown, status = 400, code = 'BAD_REQUEST'): Case => [
    'A release ' + JSON.stringify(body),
    'A',
    'POST',
    '/api/v1/escrow/release',
    { body },
    status,
    code,
  ];
  const disputeA = (body: unknown, status = 400, code = 'BAD_REQUEST'): Case => [
    'A dispute ' + JSON.stringify(body),
    'A',
    'POST',
    '/api/v1/escrow/dispute',
    { body },
    status,
    code,
  ];
  cases.push(
    releaseA(undefined),
    releaseA({}),
    releaseA({ escrow_id: 5 }),
    releaseA({ escrow_id: '' }),
    releaseA({ escrow_id: 'a b' }),
    releaseA({ escrow_id: ['{id}'] }),
    releaseA({ escrow_id: '{id}', amount: 1 }),
    releaseA('{id}'),
    releaseA({ escrow_id: 'esc_0000000000000000' }, 404, 'NOT_FOUND'),
    disputeA(undefined),
    disputeA({ reason: 'x' }),
    disputeA({ escrow_id: '{id}' }),
    disputeA({ escrow_id: '{id}', reason: 7 }),
    disputeA({ escrow_id: '{id}', reason: '' }),
    disputeA({ escrow_id: '{id}', reason: 'x', evidence: false }),
    disputeA({ escrow_id: '{id}', reason: 'x', extra: 1 }),
    disputeA({ escrow_id: '!', reason: 'x' }),
    disputeA({ escrow_id: 'esc_0000000000000000', reason: 'x' }, 404, 'NOT_FOUND'),
  );
  return cases;
}

/** Replaces the `{id}` placeholder in strings, arrays and objects. */
function withId<T>(value: T, id: string): T {
  return JSON.parse(JSON.stringify(value ?? null).replaceAll('{id}', id)) as T;
}

describe('bad input on every escrow endpoint: 4xx { error, code }, no balance change, nothing created', () => {
  const cases = badInputCases();
  test.each(cases.map((entry) => [entry[0], entry] as const))(
    '%s',
    (_label, [, style, method, path, options, status, code]) => {
      const w = world();
      const id = createdId(w.b('POST', '/escrow', { body: { amount: 1, receiver: 'bob' } }));
      const before = w.snapshot();
      const sizeBefore = w.platform.escrow.size;
      const body = options.body === undefined || hasNonJson(options.body) ? options.body : withId(options.body, id);
      const response = w.call(style === 'A' ? 'escrow' : 'api', method, path.replace('{id}', id), { ...options, body });
      expectError(response, status, code);
      expect(w.snapshot()).toEqual(before);
      expect(w.platform.escrow.size).toBe(sizeBefore);
      expect(w.platform.escrow.find(id)?.status).toBe('locked');
    },
  );

  test('every escrow row is covered by a bad-input case', () => {
    const covered = new Set<string>();
    const w = world();
    for (const [, style, method, path] of cases) {
      const response = w.call(style === 'A' ? 'escrow' : 'api', method, path.replace('{id}', 'esc_0000000000000000'), {
        atMs: w.nowMs() + HOUR,
      });
      if (response.routeId !== null) covered.add(response.routeId);
    }
    expect([...covered].sort()).toEqual(escrowRoutes.map((route) => route.id).sort());
  });

  test('every escrow row answers 401 without a key or with an unknown key', () => {
    const w = world();
    const rows: [Mount, string, string][] = escrowRoutes.map((route) => [
      route.mount,
      route.method,
      route.path.replace(':id', 'esc_0000000000000000'),
    ]);
    for (const [mount, method, path] of rows) {
      expectError(w.call(mount, method, path, { key: null }), 401, 'UNAUTHORIZED');
      expectError(w.call(mount, method, path, { key: `${KEY_PREFIX}${'0'.repeat(48)}` }), 401, 'UNAUTHORIZED');
    }
  });
});

/** Values JSON cannot carry (NaN, Infinity) must reach the row as they are. */
function hasNonJson(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(hasNonJson);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasNonJson);
  return false;
}
