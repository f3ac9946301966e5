// The trading client's endpoint table is the server's trading rows, id for id; and its calls reach
// them through the in-process transport in both styles.
import { expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import { TRADING_ENDPOINTS } from '../../src/client/trading-client.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { tradingRoutes } from '../../src/http/routes/trading/trading.ts';
import { Platform } from '../../src/platform/platform.ts';

test('TRADING_ENDPOINTS lists exactly the trading rows', () => {
  const rows = Object.fromEntries(
    tradingRoutes.map((route) => [
      route.id,
      { mount: route.mount, method: route.method, path: route.path, style: route.style },
    ]),
  );
  expect(TRADING_ENDPOINTS).toEqual(rows);
});

test('orders, quotes, positions and a cancel through the client', async () => {
  const platform = new Platform({ seed: 'client', startMs: Date.UTC(2026, 0, 1) });
  let nowMs = Date.UTC(2026, 0, 1);
  const clock = { nowMs: (): number => (nowMs += 1000) };
  const client = new AfpClient(inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock }));
  const registered = await client.faucetB.register({ agent_id: 'tina' });
  const tina = client.withKey(registered.ok ? registered.body.api_key : '');
  expect((await tina.trading.tickerA('BTC-PERP')).status).toBe(200);
  expect((await tina.trading.priceB('ETH-USDC')).body['pair']).toBe('ETH-USDC');
  expect((await tina.trading.orderA({ symbol: 'ETH-PERP', side: 'short', size: 2, leverage: 2 })).status).toBe(201);
  expect((await tina.trading.positionsA()).body['count']).toBe(1);
  const resting = await tina.trading.orderB({
    pair: 'BTC-USDC',
    side: 'buy',
    amount: '1.00',
    type: 'limit',
    price: '1.00',
  });
  expect((await tina.trading.cancelB(String(resting.body['order_id']))).body['status']).toBe('cancelled');
  expect((await tina.trading.ordersB({ status: 'cancelled' })).body['count']).toBe(1);
  expect((await tina.trading.portfolioB()).ok).toBe(true);
  expect(((await tina.trading.marketsA()).body['markets'] as unknown[]).length).toBeGreaterThanOrEqual(275);
  expect((await tina.trading.cancelA('ord_missing')).status).toBe(404);
});
