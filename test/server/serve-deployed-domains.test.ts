// afp serve --dialect deployed: the domains service on the deployment's wire (spec/DEPLOYED.md §7),
// over real loopback HTTP (port 0, manual clock). Its own agents and sk_domains_ keys; 400
// domain_unavailable for a taken name; DNS records by id; a transfer is a gift; bad input is a 4xx
// in the deployment's error shape and changes nothing.
import { describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');

const startDeployed = manualServes(
  {
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '11',
    startMs: START_MS,
    defects: [],
  },
  { forceAfterMs: 0 },
);

interface Served {
  readonly casino: string;
  readonly domains: string;
}

async function serve(): Promise<Served> {
  const handle = await startDeployed();
  return { casino: handle.urls.casino as string, domains: handle.urls.domains as string };
}

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Record<string, unknown>;
}

async function call(
  method: string,
  url: string,
  options: { key?: string; body?: unknown; raw?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined || options.raw !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function agent(served: Served, fund = 0): Promise<{ id: string; key: string }> {
  const answer = await call('POST', `${served.domains}/v1/auth/register`, { body: {} });
  expect(answer.status).toBe(201);
  const id = answer.body['agent_id'] as string;
  if (fund > 0) {
    const deposit = await call('POST', `${served.casino}/_afp/casino/deposit`, {
      body: { agent_id: id, chain: 'base', amount: fund },
    });
    expect(deposit.status).toBe(200);
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: deposit.body['confirm_at_ms'] } });
  }
  return { id, key: answer.body['api_key'] as string };
}

async function balanceOf(served: Served, key: string): Promise<number> {
  const account = await call('GET', `${served.domains}/v1/auth/account`, { key });
  expect(account.status).toBe(200);
  return account.body['balance_usd'] as number;
}

describe('the deployed domains stand-in', () => {
  test('registers its own agents with sk_domains_ keys, pricing and balance; other keys are unknown there', async () => {
    const served = await serve();
    const answer = await call('POST', `${served.domains}/v1/auth/register`, { body: { agent_name: 'ignored' } });
    expect(answer.status).toBe(201);
    expect(answer.contentType).toBe('application/json; charset=UTF-8');
    expect(answer.body).toMatchObject({
      balance_usd: 0,
      tier: 'free',
      pricing: { currency: 'USD', per_year: { '.com': 18, '.xyz': 14.4 } },
      _info: { service: 'agent-domains' },
    });
    expect(answer.body['api_key']).toMatch(/^sk_domains_[0-9a-f]{48}$/);
    const casinoKey = (await call('POST', `${served.casino}/api/v1/auth/register`, { body: {} })).body[
      'api_key'
    ] as string;
    expect(await call('GET', `${served.domains}/v1/auth/account`, { key: casinoKey })).toMatchObject({
      status: 401,
      body: { error: 'invalid_key' },
    });
    expect(await call('GET', `${served.domains}/v1/auth/account`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'Provide Authorization: Bearer <api_key>' },
    });
    expect(
      (await call('GET', `${served.casino}/api/v1/auth/balance`, { key: answer.body['api_key'] as string })).status,
    ).toBe(401);
    expect(await call('GET', `${served.domains}/v1/nowhere`)).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'GET /v1/nowhere not found' },
    });
  });

  test('public check, value and whois; register for a year → 201; the name taken → 400 domain_unavailable, nothing charged', async () => {
    const served = await serve();
    const alice = await agent(served, 50);
    const bob = await agent(served, 50);
    const check = await call('GET', `${served.domains}/v1/domains/check?names=afp-test.com,afp-test.xyz`);
    expect(check.body['results']).toEqual([
      { domain: 'afp-test.com', available: true, price_usd: 18, tld: 'com', currency: 'USD' },
      { domain: 'afp-test.xyz', available: true, price_usd: 14.4, tld: 'xyz', currency: 'USD' },
    ]);
    const value = await call('GET', `${served.domains}/v1/domains/value?name=crypto.ai`);
    expect(value.status).toBe(200);
    expect(value.body).toMatchObject({
      domain: 'crypto.ai',
      label: 'crypto',
      tld: 'ai',
      valuation: { category: expect.any(String) as unknown },
    });
    const registered = await call('POST', `${served.domains}/v1/domains/register`, {
      key: alice.key,
      body: { domain: 'AFP-Test.com', years: 5 },
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      domain: 'afp-test.com',
      status: 'active',
      cost: { registration_usd: 18, years: 1, total_usd: 18 },
      balance_usd: 32,
    });
    expect(registered.body['domain_id']).toMatch(/^dom_[0-9a-f]{16}$/);
    expect(typeof registered.body['transaction_id']).toBe('string');
    const taken = await call('POST', `${served.domains}/v1/domains/register`, {
      key: bob.key,
      body: { domain: 'afp-test.com' },
    });
    expect(taken).toMatchObject({ status: 400, body: { error: 'domain_unavailable' } });
    expect(await balanceOf(served, bob.key)).toBe(50);
    const whois = await call('GET', `${served.domains}/v1/whois/afp-test.com`);
    expect(whois.body).toMatchObject({
      registered: true,
      registrant: alice.id,
      status: 'active',
      expires_at: registered.body['expires_at'],
    });
    // One year, whatever the body asked (the deployment reads no `years`).
    expect(
      Date.parse(registered.body['expires_at'] as string) - Date.parse(whois.body['registered_at'] as string),
    ).toBe(365 * 86_400_000);
    expect((await call('GET', `${served.domains}/v1/whois/free-one.com`)).body).toMatchObject({
      registered: false,
      available: true,
    });
    expect(
      ((await call('GET', `${served.domains}/v1/domains/check?names=afp-test.com`)).body['results'] as unknown[])[0],
    ).toMatchObject({ available: false });
  });

  test('short balance → 400 insufficient_balance; bad input → 4xx in the deployment shape; nothing changes', async () => {
    const served = await serve();
    const poor = await agent(served);
    expect(
      await call('POST', `${served.domains}/v1/domains/register`, { key: poor.key, body: { domain: 'afp-poor.com' } }),
    ).toMatchObject({ status: 400, body: { error: 'insufficient_balance' } });
    const rich = await agent(served, 20);
    const bad: Array<[string, string, unknown, number, string]> = [
      ['POST', '/v1/domains/register', { domain: 'no-such-tld.zzz' }, 400, 'invalid_domain'],
      ['POST', '/v1/domains/register', { domain: 42 }, 400, 'invalid_domain'],
      ['POST', '/v1/domains/register', [], 400, 'invalid_request'],
      [
        'POST',
        '/v1/dns/records',
        { domain_id: 'dom_0000000000000000', type: 'A', content: '192.0.2.1' },
        404,
        'not_found',
      ],
      ['POST', '/v1/domains/dom_0000000000000000/transfer', { to_agent_id: poor.id }, 404, 'not_found'],
    ];
    for (const [method, path, body, status, error] of bad) {
      const answer = await call(method, `${served.domains}${path}`, { key: rich.key, body });
      expect(answer, `${method} ${path}`).toMatchObject({ status, body: { error } });
      expect(typeof answer.body['message']).toBe('string');
      expect(answer.body['code']).toBeUndefined();
    }
    expect(
      await call('POST', `${served.domains}/v1/domains/register`, { key: rich.key, raw: '{"domain":' }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_json' } });
    expect(await call('GET', `${served.domains}/v1/domains/check?names=`)).toMatchObject({
      status: 400,
      body: { error: 'missing_names' },
    });
    expect(
      await call(
        'GET',
        `${served.domains}/v1/domains/check?names=${Array.from({ length: 51 }, (_, i) => `n${i}.com`).join(',')}`,
      ),
    ).toMatchObject({ status: 400, body: { error: 'too_many_names' } });
    expect(await call('GET', `${served.domains}/v1/domains/value?name=not a name`)).toMatchObject({
      status: 400,
      body: { error: 'invalid_domain' },
    });
    expect(await balanceOf(served, rich.key)).toBe(20);
    expect((await call('GET', `${served.domains}/v1/domains`, { key: rich.key })).body).toMatchObject({
      domains: [],
      count: 0,
    });
  });

  test("afp's cap of 100 domains an agent: the 101st registration is 400 domain_limit_reached and charges nothing", async () => {
    const served = await serve();
    const rich = await agent(served, 2000);
    for (let index = 0; index < 100; index++) {
      expect(
        (
          await call('POST', `${served.domains}/v1/domains/register`, {
            key: rich.key,
            body: { domain: `cap-${index}.xyz` },
          })
        ).status,
      ).toBe(201);
    }
    const before = await balanceOf(served, rich.key);
    expect(
      await call('POST', `${served.domains}/v1/domains/register`, { key: rich.key, body: { domain: 'cap-100.xyz' } }),
    ).toMatchObject({ status: 400, body: { error: 'domain_limit_reached' } });
    expect(await balanceOf(served, rich.key)).toBe(before);
  });

  test('DNS records by id: add, list, update, delete; invalid content and unknown ids refused, the records unchanged', async () => {
    const served = await serve();
    const alice = await agent(served, 20);
    const bob = await agent(served, 20);
    const domainId = (
      await call('POST', `${served.domains}/v1/domains/register`, { key: alice.key, body: { domain: 'afp-dns.com' } })
    ).body['domain_id'] as string;
    const added = await call('POST', `${served.domains}/v1/dns/records`, {
      key: alice.key,
      body: { domain_id: domainId, type: 'a', name: 'www', content: '192.0.2.1', ttl: 300 },
    });
    expect(added.status).toBe(201);
    const record = added.body['record'] as Record<string, unknown>;
    expect(record).toMatchObject({
      domain_id: domainId,
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
      ttl: 300,
      priority: null,
    });
    const mx = await call('POST', `${served.domains}/v1/dns/records`, {
      key: alice.key,
      body: { domain_id: domainId, type: 'MX', name: '@', content: 'mail.example.com', ttl: 3600, priority: 5 },
    });
    expect(mx.status).toBe(201);
    const refusals: Array<[unknown, string]> = [
      [{ domain_id: domainId, type: 'A', name: 'www', content: 'not-an-ip', ttl: 300 }, 'invalid_request'],
      [{ domain_id: domainId, type: 'SRV', content: 'x' }, 'invalid_type'],
      [{ domain_id: domainId, type: 'A', content: '192.0.2.9', ttl: 10 }, 'invalid_ttl'],
      [{ domain_id: domainId, type: 'CNAME', name: 'www', content: 'target.example.com' }, 'invalid_request'],
      [{ type: 'A', content: '192.0.2.9' }, 'missing_domain_id'],
    ];
    for (const [body, error] of refusals)
      expect(
        await call('POST', `${served.domains}/v1/dns/records`, { key: alice.key, body }),
        JSON.stringify(body),
      ).toMatchObject({ status: 400, body: { error } });
    expect(
      await call('POST', `${served.domains}/v1/dns/records`, {
        key: bob.key,
        body: { domain_id: domainId, type: 'A', content: '192.0.2.9' },
      }),
    ).toMatchObject({ status: 404, body: { error: 'not_found' } });
    const listed = await call('GET', `${served.domains}/v1/dns/records?domain_id=${domainId}`, { key: alice.key });
    expect(listed.body['count']).toBe(2);
    const updated = await call('PUT', `${served.domains}/v1/dns/records/${record['id'] as string}`, {
      key: alice.key,
      body: { content: '192.0.2.2' },
    });
    expect(updated.status).toBe(200);
    const updatedRecord = updated.body['record'] as Record<string, unknown>;
    expect(updatedRecord).toMatchObject({ type: 'A', name: 'www', content: '192.0.2.2', ttl: 300 });
    expect(
      await call('PUT', `${served.domains}/v1/dns/records/${updatedRecord['id'] as string}`, {
        key: alice.key,
        body: { ttl: 5 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_ttl' } });
    expect(
      await call('PUT', `${served.domains}/v1/dns/records/${record['id'] as string}`, {
        key: alice.key,
        body: { content: '192.0.2.3' },
      }),
    ).toMatchObject({ status: 404 });
    expect(
      await call('DELETE', `${served.domains}/v1/dns/records/${updatedRecord['id'] as string}`, { key: bob.key }),
    ).toMatchObject({ status: 404 });
    expect(
      await call('DELETE', `${served.domains}/v1/dns/records/${updatedRecord['id'] as string}`, { key: alice.key }),
    ).toMatchObject({ status: 200, body: { deleted: true } });
    const detail = await call('GET', `${served.domains}/v1/domains/${domainId}`, { key: alice.key });
    expect(
      (detail.body['dns_records'] as Array<Record<string, unknown>>).map(
        (one) => `${one['type'] as string} ${one['content'] as string}`,
      ),
    ).toEqual(['MX mail.example.com']);
  });

  test('a transfer is a gift by domain id: no price, no charge; only the owner; unknown recipient 404', async () => {
    const served = await serve();
    const alice = await agent(served, 20);
    const bob = await agent(served);
    const domainId = (
      await call('POST', `${served.domains}/v1/domains/register`, { key: alice.key, body: { domain: 'afp-gift.com' } })
    ).body['domain_id'] as string;
    expect(
      await call('POST', `${served.domains}/v1/domains/${domainId}/transfer`, {
        key: bob.key,
        body: { to_agent_id: bob.id },
      }),
    ).toMatchObject({ status: 404 });
    expect(
      await call('POST', `${served.domains}/v1/domains/${domainId}/transfer`, {
        key: alice.key,
        body: { to_agent_id: 'ag_nobody' },
      }),
    ).toMatchObject({ status: 404, body: { error: 'recipient_not_found' } });
    expect(
      await call('POST', `${served.domains}/v1/domains/${domainId}/transfer`, {
        key: alice.key,
        body: { to_agent_id: 'bad id!' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_recipient' } });
    const moved = await call('POST', `${served.domains}/v1/domains/${domainId}/transfer`, {
      key: alice.key,
      body: { to_agent_id: bob.id, note: 'thanks', price: 100 },
    });
    expect(moved).toMatchObject({
      status: 200,
      body: { status: 'transferred', from_agent_id: alice.id, to_agent_id: bob.id, note: 'thanks' },
    });
    expect(await balanceOf(served, alice.key)).toBe(2);
    expect(await balanceOf(served, bob.key)).toBe(0);
    expect((await call('GET', `${served.domains}/v1/whois/afp-gift.com`)).body).toMatchObject({ registrant: bob.id });
    expect((await call('GET', `${served.domains}/v1/domains/${domainId}`, { key: bob.key })).status).toBe(200);
    expect((await call('GET', `${served.domains}/v1/domains/${domainId}`, { key: alice.key })).status).toBe(404);
  });
});
