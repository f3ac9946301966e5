// The casino client's endpoint table is the server's casino rows, id for id; and its calls reach
// them through the in-process transport.
import { expect, test } from 'vitest';
import { CASINO_ENDPOINTS } from '../../src/client/casino-client.ts';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { casinoRoutes } from '../../src/http/routes/casino/casino.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';

test('CASINO_ENDPOINTS lists exactly the casino rows', () => {
  const rows = Object.fromEntries(
    casinoRoutes.map((route) => [
      route.id,
      { mount: route.mount, method: route.method, path: route.path, style: route.style },
    ]),
  );
  expect(CASINO_ENDPOINTS).toEqual(rows);
});

test('a bet, a rotation and a verification through the client', async () => {
  const platform = new Platform({ seed: 'client', startMs: Date.UTC(2026, 0, 1) });
  let nowMs = Date.UTC(2026, 0, 1);
  const clock = { nowMs: (): number => (nowMs += 1000) };
  const client = new AfpClient(inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock }));
  const registered = await client.casino.call('casino.A.register', { body: { agent_id: 'carla' } });
  expect(registered.status).toBe(201);
  const carla = client.withKey(String(registered.ok ? registered.body['api_key'] : ''));
  platform.ledger.transfer({
    from: 'faucet-pool',
    to: 'agent:carla',
    amountMicro: 50_000_000n,
    reason: 'test.fund',
    reference: 'carla',
  });
  const bet = await carla.casino.play('dice', { direction: 'over', threshold: 50, amount: 1 });
  expect(bet.ok).toBe(true);
  const betId = String(bet.ok ? bet.body['bet_id'] : '');
  expect((await carla.casino.verify(betId)).body['verified']).toBeNull();
  expect((await carla.casino.rotate()).ok).toBe(true);
  expect((await carla.casino.verify(betId)).body['verified']).toBe(true);
});
