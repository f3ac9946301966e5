// The domains client's endpoint table is the server's domains rows, id for id; and its typed calls
// reach them through the in-process transport: register, DNS, lookup, a sale offered and accepted.
import { expect, test } from 'vitest';
import { addAgent } from '../fixtures/agents.ts';
import { AfpClient } from '../../src/client/client.ts';
import { DOMAINS_ENDPOINTS } from '../../src/client/domains-client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import { usdc } from '../../src/core/money.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { domainsRoutes } from '../../src/http/routes/domains/domains.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';

const START = Date.UTC(2026, 0, 1);

test('DOMAINS_ENDPOINTS lists exactly the domains rows', () => {
  const rows = Object.fromEntries(
    domainsRoutes.map((route) => [
      route.id,
      { mount: route.mount, method: route.method, path: route.path, style: route.style },
    ]),
  );
  expect(DOMAINS_ENDPOINTS).toEqual(rows);
});

test('typed calls through the client', async () => {
  const platform = new Platform({ seed: 'domains-client', startMs: START });
  let nowMs = START;
  const clock = { nowMs: (): number => (nowMs += 1000) };
  const client = new AfpClient(inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock }));
  const ann = client.withKey(addAgent(platform, 'ann', { fundMicro: usdc(100), createdAtMs: START }));
  const ben = client.withKey(addAgent(platform, 'ben', { fundMicro: usdc(100), createdAtMs: START }));
  const check = await ann.domains.check('ann.app');
  expect(check.ok && check.body.price_usdc).toBe(24);
  const registered = await ann.domains.registerB({ domain: 'ann.app', years: 2, resolver: 'ns.example.org' });
  expect(registered.ok && registered.body.cost).toBe('48.00');
  expect(
    (
      await ann.domains.setDns({
        domain: 'ann.app',
        records: [{ type: 'CNAME', name: 'www', value: 'ann.example.org' }],
      })
    ).status,
  ).toBe(200);
  const dns = await ben.domains.dns('ann.app');
  expect(dns.ok && dns.body.records[0]?.type).toBe('CNAME');
  const offer = await ann.domains.transfer({ domain: 'ann.app', to: 'ben', price: '30.00' });
  expect(offer.ok && offer.body.status).toBe('offered');
  const accepted = await ben.domains.transfer({ domain: 'ann.app', to: 'ben', price: '30.00' });
  expect(accepted.ok && accepted.body.owner).toBe('ben');
  const lookup = await ben.domains.lookup('ann.app');
  expect(lookup.ok && lookup.body.owner).toBe('ben');
  const valuation = await ben.domains.valuation('ann.app');
  expect(valuation.ok && valuation.body.category).toBe('standard');
  const refused = await ben.domains.registerA({ domain: 'ann.app', years: 0 });
  expect(refused.ok ? null : refused.body.code).toBe('BAD_REQUEST');
});
