// afp serve --dialect deployed, trading (spec/DEPLOYED.md §5) on P + 3 under /v1: real listeners on
// loopback, real HTTP, the manual clock. Happy paths in the deployment's field names, bad input
// refused 4xx in the deployment's error shape with nothing changed, keys with the sk_trade_ prefix,
// and the per-IP limits.
import { describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const startDeployed = manualServes(
  { trustedProxies: LOOPBACK_PROXIES, routes: DEPLOYED_ROUTES, layout: DEPLOYED_LAYOUT, seed: '7', startMs: START_MS },
  { forceAfterMs: 0 },
);

interface Served {
  readonly casino: string;
  readonly trading: string;
  readonly domains: string;
}

async function serve(): Promise<Served> {
  const handle = await startDeployed();
  return {
    casino: handle.urls.casino as string,
    trading: handle.urls.trading as string,
    domains: handle.urls.domains as string,
  };
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function call(
  method: string,
  url: string,
  options: { key?: string; body?: unknown; ip?: string } = {},
): Promise<Answer> {
  // A simulated agent's address on the platform's rows; none on the admin doors, which answer loopback clients only.
  const headers: Record<string, string> = url.includes('/_afp/')
    ? {}
    : { 'x-forwarded-for': options.ip ?? '203.0.113.9' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function trader(
  served: Served,
  amount: string | null,
  ip = '203.0.113.1',
): Promise<{ agentId: string; key: string }> {
  const answer = await call('POST', `${served.trading}/v1/auth/register`, { body: {}, ip });
  expect(answer.status).toBe(201);
  const agent = { agentId: answer.body['agent_id'] as string, key: answer.body['api_key'] as string };
  if (amount !== null) {
    const deposit = await call('POST', `${served.casino}/_afp/casino/deposit`, {
      body: { agent_id: agent.agentId, chain: 'base', amount },
    });
    expect(deposit.status).toBe(200);
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: deposit.body['confirm_at_ms'] } });
  }
  return agent;
}

async function portfolio(served: Served, key: string): Promise<Record<string, unknown>> {
  const answer = await call('GET', `${served.trading}/v1/trade/portfolio`, { key });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('deployed trading: accounts and markets', () => {
  test("register gives an sk_trade_ key that works on trading only; 401 and 404 in trading's shape", async () => {
    const served = await serve();
    const answer = await call('POST', `${served.trading}/v1/auth/register`, {
      body: { referral_code: 'nobody', hl_wallet_address: '0xabc' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      tier: 'free',
      hl_wallet: null,
      balance_usd: 0,
      _info: { service: 'agent-trading', version: '3.0.0' },
    });
    expect(answer.body['api_key']).toMatch(/^sk_trade_[0-9a-f]{48}$/);
    const key = answer.body['api_key'] as string;
    expect(await portfolio(served, key)).toMatchObject({
      agent_id: answer.body['agent_id'],
      balance_usd: 0,
      open_positions: 0,
    });
    const casino = await call('POST', `${served.casino}/api/v1/auth/register`, { body: {} });
    const casinoKey = casino.body['api_key'] as string;
    expect(casinoKey).toMatch(/^sk_live_/);
    expect(await call('GET', `${served.trading}/v1/trade/portfolio`, { key: casinoKey })).toMatchObject({
      status: 401,
      body: { error: 'invalid_key' },
    });
    // One key table by service (service-keys.ts): a trading key is unknown on the casino and the domains; a domains key is unknown on trading.
    expect((await call('GET', `${served.casino}/api/v1/auth/balance`, { key })).status).toBe(401);
    expect(await call('GET', `${served.domains}/v1/auth/account`, { key })).toMatchObject({
      status: 401,
      body: { error: 'invalid_key' },
    });
    const domainsKey = (await call('POST', `${served.domains}/v1/auth/register`, { body: {} })).body[
      'api_key'
    ] as string;
    expect(domainsKey).toMatch(/^sk_domains_/);
    expect(await call('GET', `${served.trading}/v1/trade/portfolio`, { key: domainsKey })).toMatchObject({
      status: 401,
      body: { error: 'invalid_key' },
    });
    expect(await call('GET', `${served.trading}/v1/trade/positions`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'Provide Authorization: Bearer <api_key>' },
    });
    expect(await call('GET', `${served.trading}/v1/nowhere`)).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'GET /v1/nowhere not found' },
    });
  });

  test('markets, one market, its price, funding rates; an unknown coin is 404 market_not_found', async () => {
    const served = await serve();
    const markets = await call('GET', `${served.trading}/v1/markets`);
    expect(markets.status).toBe(200);
    const coins = (markets.body['markets'] as Array<Record<string, unknown>>).map((market) => market['coin']);
    expect(coins.length).toBeGreaterThanOrEqual(275);
    expect(coins).toContain('BTC');
    expect(coins).toContain('xyz:TSLA');
    expect(coins.some((coin) => typeof coin === 'string' && coin.endsWith('-USDC'))).toBe(false);
    const btc = await call('GET', `${served.trading}/v1/markets/BTC`);
    expect(btc.body).toMatchObject({ coin: 'BTC', ticker: 'BTC-PERP', max_leverage: 10 });
    expect(typeof btc.body['price']).toBe('number');
    expect((btc.body['bid'] as number) < (btc.body['ask'] as number)).toBe(true);
    const price = await call('GET', `${served.trading}/v1/markets/BTC/price`);
    expect(price.body).toMatchObject({
      coin: 'BTC',
      ticker: 'BTC-PERP',
      price: btc.body['price'],
      timestamp: START_MS,
    });
    const rates = await call('GET', `${served.trading}/v1/markets/funding-rates`);
    expect(rates.status).toBe(200);
    expect((rates.body['funding_rates'] as unknown[]).length).toBe(coins.length);
    expect(await call('GET', `${served.trading}/v1/markets/NOPE`)).toMatchObject({
      status: 404,
      body: { error: 'market_not_found' },
    });
  });
});

describe('deployed trading: open, close, limit orders', () => {
  test('open at the default leverage 5, a second at 50 clamped to 10, close with exit price and PnL; history and portfolio agree', async () => {
    const served = await serve();
    const agent = await trader(served, '1000');
    const opened = await call('POST', `${served.trading}/v1/trade/open`, {
      key: agent.key,
      body: { coin: 'BTC', side: 'long', size_usd: 500 },
    });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      coin: 'BTC',
      side: 'long',
      size_usd: 500,
      leverage: 5,
      margin_used: 100,
      fee: 1,
      status: 'open',
    });
    expect(opened.body['position_id']).toMatch(/^pos_/);
    expect(opened.body['liquidation_price'] as number).toBeLessThan(opened.body['entry_price'] as number);
    expect(await portfolio(served, agent.key)).toMatchObject({ balance_usd: 899, margin_used: 100, open_positions: 1 });
    const eth = await call('POST', `${served.trading}/v1/trade/open`, {
      key: agent.key,
      body: { coin: 'ETH', side: 'short', size_usd: 1000, leverage: 50 },
    });
    expect(eth.body).toMatchObject({ coin: 'ETH', side: 'short', leverage: 10, margin_used: 100, fee: 2 });
    const positions = await call('GET', `${served.trading}/v1/trade/positions`, { key: agent.key });
    expect((positions.body['positions'] as Array<Record<string, unknown>>).map((position) => position['coin'])).toEqual(
      ['BTC', 'ETH'],
    );
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: START_MS + 3_600_000 } });
    const closed = await call('POST', `${served.trading}/v1/trade/close`, {
      key: agent.key,
      body: { position_id: opened.body['position_id'] },
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      position_id: opened.body['position_id'],
      coin: 'BTC',
      side: 'long',
      size_usd: 500,
      status: 'closed',
    });
    const entry = closed.body['entry_price'] as number;
    const exit = closed.body['exit_price'] as number;
    const pnl = closed.body['pnl'] as number;
    expect(Math.abs(pnl - (500 * (exit - entry)) / entry)).toBeLessThan(0.01);
    expect(closed.body['pnl_percent']).toBeCloseTo((pnl / 100) * 100, 1);
    expect(closed.body['fee'] as number).toBeCloseTo(((500 * exit) / entry) * 0.002, 2);
    const after = await portfolio(served, agent.key);
    expect(after['balance_usd']).toBeCloseTo(899 + 100 + pnl - (closed.body['fee'] as number) - 102, 5);
    expect(after['open_positions']).toBe(1);
    const history = await call('GET', `${served.trading}/v1/trade/history`, { key: agent.key });
    expect(history.body['trades']).toEqual([
      expect.objectContaining({ position_id: opened.body['position_id'], exit_price: exit, pnl, status: 'closed' }),
    ]);
    const again = await call('POST', `${served.trading}/v1/trade/close`, {
      key: agent.key,
      body: { position_id: opened.body['position_id'] },
    });
    expect(again).toMatchObject({ status: 400, body: { error: 'position_not_open' } });
  });

  test('a limit order far from the price is pending, listed, and cancelled with its hold returned', async () => {
    const served = await serve();
    const agent = await trader(served, '100');
    const btc = await call('GET', `${served.trading}/v1/markets/BTC/price`);
    const limitPrice = Math.floor((btc.body['price'] as number) / 2);
    const placed = await call('POST', `${served.trading}/v1/trade/limit`, {
      key: agent.key,
      body: { coin: 'BTC', side: 'long', size_usd: 100, limit_price: limitPrice, leverage: 2 },
    });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({
      coin: 'BTC',
      side: 'long',
      size_usd: 100,
      limit_price: limitPrice,
      leverage: 2,
      status: 'pending',
    });
    expect(await portfolio(served, agent.key)).toMatchObject({
      balance_usd: 49.9,
      held_for_orders: 50.1,
      pending_orders: 1,
    });
    const listed = await call('GET', `${served.trading}/v1/trade/limit-orders`, { key: agent.key });
    expect(listed.body).toMatchObject({ count: 1, orders: [{ order_id: placed.body['order_id'], status: 'pending' }] });
    const cancelled = await call(
      'DELETE',
      `${served.trading}/v1/trade/limit-orders/${placed.body['order_id'] as string}`,
      { key: agent.key },
    );
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(await portfolio(served, agent.key)).toMatchObject({
      balance_usd: 100,
      held_for_orders: 0,
      pending_orders: 0,
    });
    expect(
      await call('DELETE', `${served.trading}/v1/trade/limit-orders/${placed.body['order_id'] as string}`, {
        key: agent.key,
      }),
    ).toMatchObject({ status: 400, body: { error: 'order_not_pending' } });
  });
});

describe("deployed trading: bad input is refused 4xx in the deployment's shape and changes nothing", () => {
  test("every bad field, a position larger than the balance, another agent's position", async () => {
    const served = await serve();
    const agent = await trader(served, '50');
    const other = await trader(served, '50', '203.0.113.2');
    const theirs = await call('POST', `${served.trading}/v1/trade/open`, {
      key: other.key,
      body: { coin: 'SOL', side: 'short', size_usd: 20 },
    });
    expect(theirs.status).toBe(200);
    const before = await portfolio(served, agent.key);
    const cases: ReadonlyArray<readonly [string, string, unknown, number, string]> = [
      ['/v1/trade/open', 'unknown coin', { coin: 'NOPE', side: 'long', size_usd: 10 }, 400, 'invalid_coin'],
      ['/v1/trade/open', 'no coin', { side: 'long', size_usd: 10 }, 400, 'invalid_coin'],
      ['/v1/trade/open', 'side buy', { coin: 'BTC', side: 'buy', size_usd: 10 }, 400, 'invalid_side'],
      [
        '/v1/trade/open',
        'size over 10 000',
        { coin: 'BTC', side: 'long', size_usd: 10_001 },
        400,
        'position_too_large',
      ],
      ['/v1/trade/open', 'negative size', { coin: 'BTC', side: 'long', size_usd: -5 }, 400, 'invalid_size'],
      ['/v1/trade/open', 'size as text', { coin: 'BTC', side: 'long', size_usd: '10' }, 400, 'invalid_size'],
      ['/v1/trade/open', 'size below 1', { coin: 'BTC', side: 'long', size_usd: 0.5 }, 400, 'invalid_size'],
      [
        '/v1/trade/open',
        'leverage 0',
        { coin: 'BTC', side: 'long', size_usd: 10, leverage: 0 },
        400,
        'invalid_leverage',
      ],
      [
        '/v1/trade/open',
        'leverage as text',
        { coin: 'BTC', side: 'long', size_usd: 10, leverage: '5' },
        400,
        'invalid_leverage',
      ],
      [
        '/v1/trade/open',
        'larger than the balance at leverage 1',
        { coin: 'BTC', side: 'long', size_usd: 51, leverage: 1 },
        400,
        'insufficient_balance',
      ],
      [
        '/v1/trade/open',
        'margin over the balance at leverage 10',
        { coin: 'BTC', side: 'long', size_usd: 9_000, leverage: 10 },
        400,
        'insufficient_balance',
      ],
      ['/v1/trade/limit', 'limit without a price', { coin: 'BTC', side: 'long', size_usd: 10 }, 400, 'invalid_price'],
      [
        '/v1/trade/limit',
        'negative limit price',
        { coin: 'BTC', side: 'long', size_usd: 10, limit_price: -1 },
        400,
        'invalid_price',
      ],
      ['/v1/trade/close', 'no position id', {}, 400, 'invalid_request'],
      ['/v1/trade/close', 'unknown position', { position_id: 'pos_0000000000000000' }, 404, 'position_not_found'],
      ['/v1/trade/close', "another agent's position", { position_id: theirs.body['position_id'] }, 403, 'forbidden'],
    ];
    for (const [path, what, body, status, error] of cases) {
      const answer = await call('POST', `${served.trading}${path}`, { key: agent.key, body });
      expect([what, answer.status, answer.body['error'], typeof answer.body['message'], 'code' in answer.body]).toEqual(
        [what, status, error, 'string', false],
      );
    }
    const raw = await fetch(`${served.trading}/v1/trade/open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json' },
      body: '{"coin":',
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as Record<string, unknown>)['error']).toBe('invalid_json');
    expect(await portfolio(served, agent.key)).toEqual(before);
    expect((await portfolio(served, other.key))['open_positions']).toBe(1);
  });

  test('an open on the other side of an open position is refused: close it first', async () => {
    const served = await serve();
    const agent = await trader(served, '100');
    await call('POST', `${served.trading}/v1/trade/open`, {
      key: agent.key,
      body: { coin: 'BTC', side: 'long', size_usd: 50 },
    });
    const before = await portfolio(served, agent.key);
    expect(
      await call('POST', `${served.trading}/v1/trade/open`, {
        key: agent.key,
        body: { coin: 'BTC', side: 'short', size_usd: 50 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'trade_failed' } });
    expect(await portfolio(served, agent.key)).toEqual(before);
  });
});

describe('deployed trading: per-IP limits (60 s fixed windows)', () => {
  test('register 10 per IP; the 11th is 429 rate_limited; another IP is not charged', async () => {
    const served = await serve();
    for (let index = 0; index < 10; index++)
      expect((await call('POST', `${served.trading}/v1/auth/register`, { body: {}, ip: '198.51.100.7' })).status).toBe(
        201,
      );
    expect(await call('POST', `${served.trading}/v1/auth/register`, { body: {}, ip: '198.51.100.7' })).toMatchObject({
      status: 429,
      body: { error: 'rate_limited', message: 'Too many requests. Limit: 10 per 60s' },
    });
    expect((await call('POST', `${served.trading}/v1/auth/register`, { body: {}, ip: '198.51.100.8' })).status).toBe(
      201,
    );
  });

  test('open 30 per IP per 60 s, then a new window', async () => {
    const served = await serve();
    const agent = await trader(served, '1000');
    for (let index = 0; index < 30; index++)
      expect(
        (
          await call('POST', `${served.trading}/v1/trade/open`, {
            key: agent.key,
            body: { coin: 'BTC', side: 'long', size_usd: 1 },
          })
        ).status,
      ).toBe(200);
    expect(
      await call('POST', `${served.trading}/v1/trade/open`, {
        key: agent.key,
        body: { coin: 'BTC', side: 'long', size_usd: 1 },
      }),
    ).toMatchObject({ status: 429, body: { error: 'rate_limited', message: 'Too many requests. Limit: 30 per 60s' } });
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: START_MS + 10 * 60_000 } });
    expect(
      (
        await call('POST', `${served.trading}/v1/trade/open`, {
          key: agent.key,
          body: { coin: 'BTC', side: 'long', size_usd: 1 },
        })
      ).status,
    ).toBe(200);
  });
});
