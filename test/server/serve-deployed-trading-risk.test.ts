// afp serve --dialect deployed, trading's risk rows (spec/DEPLOYED.md §5; src/http/routes/deployed/trading-risk.ts)
// on real loopback listeners with the manual clock: stop-loss and take-profit set on a position and
// fired by the clock at the exact instant a price shock crosses them, check-limits, risk settings
// (leverage ceiling, daily loss limit → 403 daily_loss_limit_reached), the derived order book; bad
// input refused 4xx in the deployment's error shape with nothing changed.
import { describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const SHOCK_MS = START_MS + 2 * 3_600_000;
const startDeployed = manualServes(
  {
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '7',
    startMs: START_MS,
    trading: { shocks: [{ base: 'BTC', atMs: SHOCK_MS, moveBps: -2000 }], closures: [] },
  },
  { forceAfterMs: 0 },
);

interface Served {
  readonly casino: string;
  readonly trading: string;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function serve(): Promise<Served> {
  const handle = await startDeployed();
  return { casino: handle.urls.casino as string, trading: handle.urls.trading as string };
}

async function call(method: string, url: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  // A simulated agent's address on the platform's rows; none on the admin doors, which answer loopback clients only.
  const headers: Record<string, string> = url.includes('/_afp/') ? {} : { 'x-forwarded-for': '203.0.113.7' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function clockTo(served: Served, ms: number): Promise<void> {
  expect((await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: ms } })).status).toBe(200);
}

async function trader(served: Served, amount: string): Promise<string> {
  const registered = await call('POST', `${served.trading}/v1/auth/register`, { body: {} });
  expect(registered.status).toBe(201);
  const deposit = await call('POST', `${served.casino}/_afp/casino/deposit`, {
    body: { agent_id: registered.body['agent_id'], chain: 'base', amount },
  });
  expect(deposit.status).toBe(200);
  await clockTo(served, deposit.body['confirm_at_ms'] as number);
  return registered.body['api_key'] as string;
}

async function openLong(served: Served, key: string, body: Record<string, unknown> = {}): Promise<Answer> {
  return call('POST', `${served.trading}/v1/trade/open`, {
    key,
    body: { coin: 'BTC', side: 'long', size_usd: 500, leverage: 2, ...body },
  });
}

describe('deployed trading: stop-loss and take-profit', () => {
  test('a stop-loss fires at the instant the shock crosses it and closes the position; the take-profit ends with it; check-limits shows both', async () => {
    const served = await serve();
    const key = await trader(served, '1000');
    const opened = await openLong(served, key);
    expect(opened.status).toBe(200);
    const positionId = opened.body['position_id'] as string;
    const price = opened.body['current_price'] as number;
    const stop = Math.round(price * 0.9);
    const profit = Math.round(price * 1.5);
    const set = await call('POST', `${served.trading}/v1/trade/stop-loss`, {
      key,
      body: { position_id: positionId, trigger_price: stop },
    });
    expect(set.status).toBe(201);
    expect(set.body).toMatchObject({
      position_id: positionId,
      coin: 'BTC',
      side: 'long',
      type: 'stop_loss',
      trigger_price: stop,
      status: 'active',
      _info: { service: 'agent-trading' },
    });
    expect(set.body['trigger_id']).toMatch(/^trg_/);
    const take = await call('POST', `${served.trading}/v1/trade/take-profit`, {
      key,
      body: { position_id: positionId, trigger_price: profit },
    });
    expect(take).toMatchObject({ status: 201, body: { type: 'take_profit', trigger_price: profit, status: 'active' } });
    const before = await call('POST', `${served.trading}/v1/trade/check-limits`, { key });
    expect(before).toMatchObject({
      status: 200,
      body: { count: 1, positions: [{ position_id: positionId, stop_loss: stop, take_profit: profit }], triggered: [] },
    });
    await clockTo(served, SHOCK_MS - 60_000);
    expect((await call('GET', `${served.trading}/v1/trade/positions`, { key })).body['count']).toBe(1);
    await clockTo(served, SHOCK_MS + 30 * 60_000);
    expect((await call('GET', `${served.trading}/v1/trade/positions`, { key })).body['count']).toBe(0);
    const history = await call('GET', `${served.trading}/v1/trade/history`, { key });
    expect(history.body['trades']).toEqual([
      expect.objectContaining({
        position_id: positionId,
        status: 'closed',
        closed_at: new Date(SHOCK_MS).toISOString(),
      }),
    ]);
    const exit = (history.body['trades'] as Array<Record<string, unknown>>)[0]?.['exit_price'] as number;
    expect(exit).toBeLessThanOrEqual(stop);
    const after = await call('POST', `${served.trading}/v1/trade/check-limits`, { key });
    expect(after.body).toMatchObject({
      count: 0,
      positions: [],
      triggered: [
        {
          trigger_id: set.body['trigger_id'],
          type: 'stop_loss',
          status: 'fired',
          ended_at: new Date(SHOCK_MS).toISOString(),
        },
      ],
    });
    expect(
      (after.body['triggered'] as Array<Record<string, unknown>>)[0]?.['fired_at_price'] as number,
    ).toBeLessThanOrEqual(stop);
    // Once: the position is closed, the trigger is not set again.
    expect(
      await call('POST', `${served.trading}/v1/trade/stop-loss`, {
        key,
        body: { position_id: positionId, trigger_price: 1 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'position_not_open' } });
  });

  test("bad triggers are refused in the deployment's shape and change nothing", async () => {
    const served = await serve();
    const key = await trader(served, '1000');
    const other = await trader(served, '1000');
    const opened = await openLong(served, key);
    const positionId = opened.body['position_id'] as string;
    const price = opened.body['current_price'] as number;
    const url = `${served.trading}/v1/trade/stop-loss`;
    expect(await call('POST', url, { body: { position_id: positionId, trigger_price: 1 } })).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
    expect(await call('POST', url, { key, body: { trigger_price: 1 } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await call('POST', url, { key, body: { position_id: positionId, trigger_price: '1000' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_price' },
    });
    expect(await call('POST', url, { key, body: { position_id: positionId, trigger_price: -5 } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_price' },
    });
    expect(
      await call('POST', url, { key, body: { position_id: positionId, trigger_price: Math.round(price * 1.1) } }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_trigger_price' } });
    expect(
      await call('POST', `${served.trading}/v1/trade/take-profit`, {
        key,
        body: { position_id: positionId, trigger_price: Math.round(price * 0.9) },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_trigger_price' } });
    expect(await call('POST', url, { key, body: { position_id: 'pos_nope', trigger_price: 1 } })).toMatchObject({
      status: 404,
      body: { error: 'position_not_found' },
    });
    expect(await call('POST', url, { key: other, body: { position_id: positionId, trigger_price: 1 } })).toMatchObject({
      status: 403,
      body: { error: 'forbidden' },
    });
    const limits = await call('POST', `${served.trading}/v1/trade/check-limits`, { key });
    expect(limits.body).toMatchObject({
      positions: [{ position_id: positionId, stop_loss: null, take_profit: null }],
      triggered: [],
    });
  });
});

describe('deployed trading: risk settings', () => {
  test('max_leverage clamps later orders; bad settings are refused and change nothing', async () => {
    const served = await serve();
    const key = await trader(served, '1000');
    const url = `${served.trading}/v1/trade/risk-settings`;
    expect(await call('GET', url, { key })).toMatchObject({
      status: 200,
      body: { max_leverage: 10, daily_loss_limit_usd: null, realized_pnl_today: 0, daily_loss_limit_reached: false },
    });
    for (const body of [
      { max_leverage: 51 },
      { max_leverage: 0 },
      { max_leverage: 2.5 },
      { daily_loss_limit_usd: -1 },
      { daily_loss_limit_usd: 'ten' },
      [],
    ]) {
      const refused = await call('POST', url, { key, body });
      expect(refused.status).toBe(400);
      expect(['invalid_leverage', 'invalid_limit', 'invalid_request']).toContain(refused.body['error']);
    }
    expect((await call('GET', url, { key })).body).toMatchObject({ max_leverage: 10, daily_loss_limit_usd: null });
    expect(await call('POST', url, { key, body: {} })).toMatchObject({
      status: 200,
      body: { max_leverage: 10, daily_loss_limit_usd: null },
    });
    expect(await call('POST', url, { key, body: { max_leverage: 3 } })).toMatchObject({
      status: 200,
      body: { max_leverage: 3, daily_loss_limit_usd: null },
    });
    expect((await openLong(served, key, { size_usd: 600, leverage: 8 })).body).toMatchObject({
      leverage: 3,
      margin_used: 200,
    });
  });

  test('a daily loss limit refuses new positions 403 daily_loss_limit_reached until the next UTC day', async () => {
    const served = await serve();
    const key = await trader(served, '1000');
    expect(
      await call('POST', `${served.trading}/v1/trade/risk-settings`, { key, body: { daily_loss_limit_usd: 0.01 } }),
    ).toMatchObject({ status: 200, body: { daily_loss_limit_usd: 0.01 } });
    const opened = await openLong(served, key);
    // Closing at once sells at the bid what was bought at the ask: a realized loss of the spread.
    const closed = await call('POST', `${served.trading}/v1/trade/close`, {
      key,
      body: { position_id: opened.body['position_id'] },
    });
    expect(closed.body['pnl'] as number).toBeLessThanOrEqual(-0.01);
    const settings = await call('GET', `${served.trading}/v1/trade/risk-settings`, { key });
    expect(settings.body).toMatchObject({ realized_pnl_today: closed.body['pnl'], daily_loss_limit_reached: true });
    const before = await call('GET', `${served.trading}/v1/trade/portfolio`, { key });
    expect(await openLong(served, key)).toMatchObject({ status: 403, body: { error: 'daily_loss_limit_reached' } });
    expect(
      await call('POST', `${served.trading}/v1/trade/limit`, {
        key,
        body: { coin: 'BTC', side: 'long', size_usd: 100, limit_price: 1 },
      }),
    ).toMatchObject({ status: 403, body: { error: 'daily_loss_limit_reached' } });
    expect((await call('GET', `${served.trading}/v1/trade/portfolio`, { key })).body['balance_usd']).toBe(
      before.body['balance_usd'],
    );
    await clockTo(served, START_MS + 86_400_000);
    expect((await openLong(served, key)).status).toBe(200);
  });
});

describe('deployed trading: order book', () => {
  test("levels outwards from the quote's bid and ask, ?depth bounded; unknown coin 404", async () => {
    const served = await serve();
    const market = await call('GET', `${served.trading}/v1/markets/BTC`);
    const book = await call('GET', `${served.trading}/v1/markets/BTC/orderbook`);
    expect(book).toMatchObject({
      status: 200,
      body: { coin: 'BTC', ticker: 'BTC-PERP', depth: 10, mid: market.body['price'], timestamp: START_MS },
    });
    const bids = book.body['bids'] as Array<Record<string, number>>;
    const asks = book.body['asks'] as Array<Record<string, number>>;
    expect([bids.length, asks.length]).toEqual([10, 10]);
    expect(bids[0]?.['price']).toBe(market.body['bid']);
    expect(asks[0]?.['price']).toBe(market.body['ask']);
    for (let rank = 1; rank < 10; rank++) {
      expect(bids[rank]?.['price'] as number).toBeLessThan(bids[rank - 1]?.['price'] as number);
      expect(asks[rank]?.['price'] as number).toBeGreaterThan(asks[rank - 1]?.['price'] as number);
      expect(bids[rank]?.['size_usd']).toBe((bids[0]?.['size_usd'] as number) * (rank + 1));
    }
    expect((await call('GET', `${served.trading}/v1/markets/BTC/orderbook?depth=3`)).body['asks']).toHaveLength(3);
    for (const depth of ['0', '51', 'x'])
      expect(await call('GET', `${served.trading}/v1/markets/BTC/orderbook?depth=${depth}`)).toMatchObject({
        status: 400,
        body: { error: 'invalid_depth' },
      });
    expect(await call('GET', `${served.trading}/v1/markets/NOPE/orderbook`)).toMatchObject({
      status: 404,
      body: { error: 'market_not_found' },
    });
  });
});
