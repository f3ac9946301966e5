// Trading route rows through the in-process dispatcher: every field of the success bodies of both
// styles (A: symbol/long/size as numbers; B: pair/market_type/amount as decimal strings), bad
// input on every trading endpoint answering 4xx `{ error, code, _info }` while moving no money and
// creating nothing, the per-endpoint rate rows (/positions 300 a minute, B 120 a minute with burst
// 200), and once over a real `afp serve` listener on 127.0.0.1 (ephemeral ports).
import { afterEach, describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { tradingRoutes } from '../../../src/http/routes/trading/trading.ts';
import { INFO } from '../../../src/platform/info.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { startServe, type ServeHandle } from '../../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

const START = Date.UTC(2026, 0, 1);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PRICE = /^\d+\.\d{2,8}$/;
const MONEY = /^-?\d+\.\d{2,6}$/;

interface World {
  platform: Platform;
  keys: { alice: string; bob: string; poor: string };
  a(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; query?: Record<string, string>; advanceMs?: number },
  ): ApiResponse;
  b(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; query?: Record<string, string>; advanceMs?: number },
  ): ApiResponse;
  snapshot(): Map<string, Micro>;
}

function world(): World {
  const platform = new Platform({
    seed: 'routes',
    startMs: START,
    trading: { closures: [{ symbol: 'GOLD-PERP', fromMs: START, untilMs: START + 86_400_000 }] },
  });
  const keys = {
    alice: addAgent(platform, 'alice', { createdAtMs: START, fundMicro: usdc(1000) }),
    bob: addAgent(platform, 'bob', { createdAtMs: START, fundMicro: usdc(1000) }),
    poor: addAgent(platform, 'poor', { createdAtMs: START, fundMicro: usdc(1) }),
  };
  const dispatcher = new Dispatcher(platform, tradingRoutes);
  let nowMs = START;
  const call = (
    mount: Mount,
    method: string,
    path: string,
    options: { key?: string | null; body?: unknown; query?: Record<string, string>; advanceMs?: number } = {},
  ): ApiResponse => {
    nowMs += options.advanceMs ?? 1000;
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
    a: (method, path, options) => call('trading', method, `/api/v1${path}`, options),
    b: (method, path, options) => call('api', method, `/trading-api${path}`, options),
    snapshot: () => new Map(platform.ledger.accounts()),
  };
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toEqual({ error: expect.any(String) as string, code, _info: INFO.trading });
}

describe('style A', () => {
  test('order, ticker, markets, positions, cancel: every field', () => {
    const w = world();
    const markets = w.a('GET', '/markets');
    expect(markets.status).toBe(200);
    const list = markets.body['markets'] as Record<string, unknown>[];
    expect(list.filter((market) => market['type'] === 'perp')).toHaveLength(275);
    expect(list.find((market) => market['symbol'] === 'GOLD-PERP')?.['open']).toBe(false);
    const ticker = w.a('GET', '/ticker/BTC-PERP');
    expect(ticker.body).toEqual({
      symbol: 'BTC-PERP',
      mark_price: expect.any(Number),
      bid: expect.any(Number),
      ask: expect.any(Number),
      change_24h: expect.any(Number),
      volume_24h: expect.any(Number),
      funding_rate: expect.any(Number),
      next_funding_at: new Date(START + 8 * 3_600_000).toISOString(),
      open: true,
      _info: INFO.trading,
    });
    const placed = w.a('POST', '/orders', {
      body: { symbol: 'BTC-PERP', side: 'long', size: 100, leverage: 4, type: 'market' },
    });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({
      status: 'filled',
      symbol: 'BTC-PERP',
      side: 'long',
      type: 'market',
      size: 100,
      leverage: 4,
      price: null,
      fee: 0.2,
      realized_pnl: 0,
      filled_at: expect.stringMatching(ISO),
      cancelled_at: null,
    });
    expect(placed.body['entry_price']).toBeGreaterThan(0);
    const positions = w.a('GET', '/positions');
    const [position] = positions.body['positions'] as Record<string, unknown>[];
    expect(positions.body['count']).toBe(1);
    expect(position).toMatchObject({
      symbol: 'BTC-PERP',
      side: 'long',
      margin: 25,
      leverage: 4,
      entry_price: placed.body['entry_price'],
      funding_paid: 0,
    });
    expect(position?.['liquidation_price']).toBeLessThan(position?.['entry_price'] as number);
    const resting = w.a('POST', '/orders', {
      body: { symbol: 'ETH-PERP', side: 'short', size: 10, type: 'limit', price: 999_999 },
    });
    expect(resting.body['status']).toBe('open');
    const cancelled = w.a('POST', `/orders/${resting.body['order_id'] as string}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      order_id: resting.body['order_id'],
      status: 'cancelled',
      side: 'short',
      cancelled_at: expect.stringMatching(ISO),
    });
  });

  test('bad input answers 4xx and changes nothing', () => {
    const w = world();
    const before = w.snapshot();
    const bodies: unknown[] = [
      { symbol: 'NOPE-PERP', side: 'long', size: 10 },
      { symbol: 'BTC-PERP', side: 'up', size: 10 },
      { symbol: 'BTC-PERP', side: 'long', size: '10' },
      { symbol: 'BTC-PERP', side: 'long', size: -1 },
      { symbol: 'BTC-PERP', side: 'long', size: 10, leverage: 11 },
      { symbol: 'BTC-PERP', side: 'long', size: 10, leverage: 0 },
      { symbol: 'BTC-PERP', side: 'long', size: 10, leverage: 2.5 },
      { symbol: 'BTC-PERP', side: 'long', size: 10, type: 'limit' },
      { symbol: 'BTC-PERP', side: 'long', size: 10, price: 5 },
      { symbol: 'BTC-PERP', side: 'long', size: 10, type: 'limit', price: 1e-9 },
      { symbol: 'BTC-USDC', side: 'buy', size: 10, leverage: 3 },
      { symbol: 'BTC-PERP', side: 'long', size: 0.5 },
      { symbol: 'BTC-PERP', side: 'long', size: 10, colour: 'blue' },
      [1, 2],
    ];
    for (const body of bodies) expectError(w.a('POST', '/orders', { body }), 400, 'BAD_REQUEST');
    expectError(
      w.a('POST', '/orders', { body: { symbol: 'BTC-PERP', side: 'long', size: 10 }, key: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      w.a('POST', '/orders', { body: { symbol: 'GOLD-PERP', side: 'long', size: 10 } }),
      409,
      'MARKET_CLOSED',
    );
    expectError(
      w.a('POST', '/orders', { body: { symbol: 'BTC-PERP', side: 'long', size: 10 }, key: w.keys.poor }),
      422,
      'INSUFFICIENT_BALANCE',
    );
    expectError(w.a('GET', '/ticker/NOPE-PERP'), 404, 'NOT_FOUND');
    expectError(w.a('GET', '/positions', { query: { x: '1' } }), 400, 'BAD_REQUEST');
    expectError(w.a('POST', '/orders/ord_missing/cancel'), 404, 'NOT_FOUND');
    expectError(w.a('POST', '/orders/ord_x/cancel', { body: { why: 1 } }), 400, 'BAD_REQUEST');
    expect(w.snapshot()).toEqual(before);
    expect(w.platform.trading.book.orderCount).toBe(0);
  });

  test('/positions is capped at 300 a minute (on top of the tier): a pro agent meets 429 at the 301st', () => {
    const w = world();
    const agent = w.platform.agents.get('alice');
    if (agent !== undefined) agent.tier = 'pro';
    let answered = 0;
    let limited: ApiResponse | null = null;
    for (let index = 0; index < 400 && limited === null; index++) {
      const response = w.a('GET', '/positions', { advanceMs: 0 });
      if (response.status === 429) limited = response;
      else answered++;
    }
    expect(answered).toBe(300);
    expect(limited?.body['error']).toBe('rate_limit_exceeded');
  });
});

describe('style B', () => {
  test('price, order (spot and perp), orders list, cancel, portfolio: every field', () => {
    const w = world();
    const price = w.b('GET', '/price/BTC-USDC', { key: w.keys.bob });
    expect(price.body).toEqual({
      pair: 'BTC-USDC',
      market_type: 'spot',
      bid: expect.stringMatching(PRICE),
      ask: expect.stringMatching(PRICE),
      mid: expect.stringMatching(PRICE),
      change_24h: expect.stringMatching(/^-?\d+\.\d{2}$/),
      volume_24h: expect.stringMatching(MONEY),
      funding_rate: null,
      next_funding_at: null,
      open: true,
      _info: INFO.trading,
    });
    expect(w.b('GET', '/price/TSLA-USDC', { key: w.keys.bob }).body['market_type']).toBe('perp');
    expect(
      typeof w.b('GET', '/price/BTC-USDC', { key: w.keys.bob, query: { market_type: 'perp' } }).body['funding_rate'],
    ).toBe('string');
    const spot = w.b('POST', '/order', { key: w.keys.bob, body: { pair: 'BTC-USDC', side: 'buy', amount: '50.00' } });
    expect(spot.status).toBe(201);
    expect(spot.body).toMatchObject({
      status: 'filled',
      pair: 'BTC-USDC',
      market_type: 'spot',
      side: 'buy',
      type: 'market',
      amount: '50.00',
      fee: '0.10',
      fill_price: expect.stringMatching(PRICE),
      fill_qty: expect.stringMatching(/^\d+\.\d{2,8}$/),
      ts: expect.stringMatching(ISO),
    });
    const perp = w.b('POST', '/order', {
      key: w.keys.bob,
      body: { pair: 'SOL-USDC', side: 'sell', amount: 30, market_type: 'perp', leverage: 3 },
    });
    expect(perp.body).toMatchObject({
      status: 'filled',
      pair: 'SOL-USDC',
      market_type: 'perp',
      side: 'sell',
      leverage: 3,
      fee: '0.06',
    });
    const resting = w.b('POST', '/order', {
      key: w.keys.bob,
      body: { pair: 'ETH-USDC', side: 'buy', amount: '5', type: 'limit', price: '0.5' },
    });
    expect(resting.body).toMatchObject({
      status: 'open',
      price: '0.50',
      fill_price: null,
      fill_qty: null,
      fee: '0.00',
    });
    const open = w.b('GET', '/orders', { key: w.keys.bob, query: { status: 'open' } });
    expect((open.body['orders'] as Record<string, unknown>[]).map((order) => order['order_id'])).toEqual([
      resting.body['order_id'],
    ]);
    const byPair = w.b('GET', '/orders', { key: w.keys.bob, query: { pair: 'SOL-USDC', limit: '1' } });
    expect((byPair.body['orders'] as Record<string, unknown>[]).map((order) => order['order_id'])).toEqual([
      perp.body['order_id'],
    ]);
    const portfolio = w.b('GET', '/portfolio', { key: w.keys.bob });
    expect(portfolio.body).toMatchObject({ margin_used: '10.00', held_for_orders: '5.005', open_orders: 1 });
    expect(portfolio.body['positions']).toEqual([
      expect.objectContaining({
        pair: 'SOL-USDC',
        market_type: 'perp',
        side: 'short',
        margin: '10.00',
        liquidation_price: expect.stringMatching(PRICE),
      }),
    ]);
    expect(portfolio.body['spot']).toEqual([
      expect.objectContaining({ pair: 'BTC-USDC', market_type: 'spot', qty: spot.body['fill_qty'] }),
    ]);
    const cancelled = w.b('DELETE', `/order/${resting.body['order_id'] as string}`, { key: w.keys.bob });
    expect(cancelled.body).toMatchObject({ order_id: resting.body['order_id'], status: 'cancelled' });
    expectError(w.b('DELETE', `/order/${resting.body['order_id'] as string}`, { key: w.keys.bob }), 409, 'CONFLICT');
    expectError(w.b('DELETE', `/order/${perp.body['order_id'] as string}`, { key: w.keys.alice }), 403, 'FORBIDDEN');
  });

  test('bad input answers 4xx and changes nothing', () => {
    const w = world();
    const before = w.snapshot();
    const bodies: unknown[] = [
      { pair: 'NOPE-USDC', side: 'buy', amount: 10 },
      { pair: 'TSLA-USDC', side: 'buy', amount: 10 },
      { pair: 'BTC-PERP', side: 'buy', amount: 10 },
      { pair: 'BTC-USDC', side: 'long', amount: 10 },
      { pair: 'BTC-USDC', side: 'buy', amount: 'ten' },
      { pair: 'BTC-USDC', side: 'buy', amount: 10, market_type: 'futures' },
      { pair: 'BTC-USDC', side: 'buy', amount: 10, market_type: 'perp', leverage: 20 },
      { pair: 'BTC-USDC', side: 'buy', amount: 10, type: 'limit' },
      { pair: 'BTC-USDC', side: 'buy', amount: 10, type: 'limit', price: '1.123456789' },
      { pair: 'BTC-USDC', side: 'buy', amount: 10, type: 'stop' },
      { pair: 'BTC-USDC', side: 'buy', amount: 10, leverage: 2 },
      { side: 'buy', amount: 10 },
    ];
    for (const body of bodies) expectError(w.b('POST', '/order', { body }), 400, 'BAD_REQUEST');
    expectError(w.b('GET', '/price/NOPE-USDC'), 404, 'NOT_FOUND');
    expectError(w.b('GET', '/price/BTC-USDC', { query: { market_type: 'x' } }), 400, 'BAD_REQUEST');
    for (const query of [
      { limit: '101' },
      { limit: '0' },
      { status: 'done' },
      { pair: 'NOPE-USDC' },
      { market_type: 'perp' },
      { sort: 'asc' },
    ] as Record<string, string>[])
      expectError(w.b('GET', '/orders', { query }), 400, 'BAD_REQUEST');
    expectError(w.b('DELETE', '/order/ord_missing'), 404, 'NOT_FOUND');
    expectError(w.b('GET', '/portfolio', { key: null }), 401, 'UNAUTHORIZED');
    expect(w.snapshot()).toEqual(before);
    expect(w.platform.trading.book.orderCount).toBe(0);
  });

  test('style B trading row: 120 a minute with a burst of 200 (pro tier, one instant)', () => {
    const w = world();
    const agent = w.platform.agents.get('alice');
    if (agent !== undefined) agent.tier = 'pro';
    let answered = 0;
    for (let index = 0; index < 300; index++)
      if (w.b('GET', '/price/BTC-USDC', { advanceMs: 0 }).status === 200) answered++;
    expect(answered).toBe(200);
  });
});

describe('over HTTP (afp serve on 127.0.0.1, ephemeral ports)', () => {
  const handles: ServeHandle[] = [];
  afterEach(async () => {
    for (const handle of handles.splice(0)) await handle.close();
  });

  test('register, fund, order in both styles, read back positions and portfolio', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: 'http',
      port: 0,
      clockMode: 'manual',
      startMs: START,
      log: () => undefined,
    });
    handles.push(handle);
    const api = handle.urls.api as string;
    const trading = handle.urls.trading as string;
    const register = await fetch(`${api}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"agent_id":"trader"}',
    });
    const key = ((await register.json()) as { api_key: string }).api_key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const order = await fetch(`${trading}/api/v1/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ symbol: 'ETH-PERP', side: 'long', size: 5, leverage: 2 }),
    });
    expect(order.status).toBe(201);
    expect(order.headers.get('x-ratelimit-limit')).not.toBeNull();
    const placed = (await order.json()) as Record<string, unknown>;
    expect(placed).toMatchObject({ status: 'filled', symbol: 'ETH-PERP', size: 5, fee: 0.01 });
    const positions = (await (await fetch(`${trading}/api/v1/positions`, { headers })).json()) as { count: number };
    expect(positions.count).toBe(1);
    const spot = await fetch(`${api}/trading-api/order`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ pair: 'ETH-USDC', side: 'buy', amount: '1.50' }),
    });
    expect(spot.status).toBe(201);
    const bad = await fetch(`${api}/trading-api/order`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ pair: 'ETH-USDC', side: 'buy', amount: '1.50', leverage: 50 }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('BAD_REQUEST');
    const portfolio = (await (await fetch(`${api}/trading-api/portfolio`, { headers })).json()) as {
      positions: unknown[];
      spot: unknown[];
    };
    expect(portfolio.positions).toHaveLength(1);
    expect(portfolio.spot).toHaveLength(1);
  });
});
