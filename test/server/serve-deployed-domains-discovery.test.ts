// afp serve --dialect deployed, the domains service's discovery rows (spec/DEPLOYED.md §7;
// src/http/routes/deployed/domains-discovery.ts) over real loopback HTTP with the manual clock:
// search and bulk-check (bearer), expiring, suggest and portfolio-value (public); a registered name
// reads taken everywhere; bad input is a 4xx in the deployment's error shape and changes nothing;
// /v1/auctions is not served.
import { describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { BULK_CHECK_MAX } from '../../src/http/routes/deployed/domains-discovery.ts';
import { SUPPORTED_TLDS } from '../../src/services/domains/domain-name.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DAY_MS = 86_400_000;
const startDeployed = manualServes(
  { trustedProxies: LOOPBACK_PROXIES, routes: DEPLOYED_ROUTES, layout: DEPLOYED_LAYOUT, seed: '13', startMs: START_MS },
  { forceAfterMs: 0 },
);

interface Served {
  readonly casino: string;
  readonly domains: string;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function serve(): Promise<Served> {
  const handle = await startDeployed();
  return { casino: handle.urls.casino as string, domains: handle.urls.domains as string };
}

async function call(method: string, url: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A funded domains agent holding `names` (registered now). */
async function holder(served: Served, names: readonly string[]): Promise<string> {
  const registered = await call('POST', `${served.domains}/v1/auth/register`, { body: {} });
  const deposit = await call('POST', `${served.casino}/_afp/casino/deposit`, {
    body: { agent_id: registered.body['agent_id'], chain: 'base', amount: '500' },
  });
  await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: deposit.body['confirm_at_ms'] } });
  const key = registered.body['api_key'] as string;
  for (const domain of names)
    expect((await call('POST', `${served.domains}/v1/domains/register`, { key, body: { domain } })).status).toBe(201);
  return key;
}

const results = (answer: Answer, field = 'results'): Array<Record<string, unknown>> =>
  answer.body[field] as Array<Record<string, unknown>>;

describe('deployed domains: search and bulk-check', () => {
  test('search lists the label under every sold TLD (the named TLD first); a held name reads taken', async () => {
    const served = await serve();
    const key = await holder(served, ['afpagent.com']);
    const plain = await call('GET', `${served.domains}/v1/domains/search?q=afpagent`, { key });
    expect(plain).toMatchObject({
      status: 200,
      body: {
        query: 'afpagent',
        count: SUPPORTED_TLDS.length,
        available_count: SUPPORTED_TLDS.length - 1,
        _info: { service: 'agent-domains' },
      },
    });
    expect(results(plain).map((row) => row['domain'])).toEqual(SUPPORTED_TLDS.map((tld) => `afpagent.${tld}`));
    expect(results(plain).find((row) => row['domain'] === 'afpagent.com')).toMatchObject({
      available: false,
      price_usd: 18,
      tld: 'com',
    });
    expect(results(plain).find((row) => row['domain'] === 'afpagent.xyz')).toMatchObject({
      available: true,
      price_usd: 14.4,
    });
    const named = await call('GET', `${served.domains}/v1/domains/search?q=AfpAgent.ai`, { key });
    expect(results(named)[0]).toMatchObject({ domain: 'afpagent.ai', price_usd: 102 });
    expect(await call('GET', `${served.domains}/v1/domains/search?q=afpagent`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
    for (const q of ['', '-bad', 'a_b', 'afpagent.zzz', 'x'.repeat(64)])
      expect(await call('GET', `${served.domains}/v1/domains/search?q=${q}`, { key })).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^(missing_query|invalid_query)$/) },
      });
  });

  test(`bulk-check answers 1 to ${BULK_CHECK_MAX} names as check does; more, none, or a name not sold is 400`, async () => {
    const served = await serve();
    const key = await holder(served, ['taken-one.xyz']);
    const answer = await call('POST', `${served.domains}/v1/domains/bulk-check`, {
      key,
      body: { domains: ['taken-one.xyz', 'Free-One.com'] },
    });
    expect(answer).toMatchObject({ status: 200, body: { count: 2, available_count: 1 } });
    expect(results(answer)).toEqual([
      expect.objectContaining({ domain: 'taken-one.xyz', available: false, price_usd: 14.4 }),
      expect.objectContaining({ domain: 'free-one.com', available: true, price_usd: 18 }),
    ]);
    const check = await call('GET', `${served.domains}/v1/domains/check?names=taken-one.xyz,free-one.com`);
    expect(results(check)).toEqual(results(answer));
    const full = Array.from({ length: BULK_CHECK_MAX }, (_, index) => `bulk${index}.io`);
    expect(
      (await call('POST', `${served.domains}/v1/domains/bulk-check`, { key, body: { domains: full } })).body['count'],
    ).toBe(BULK_CHECK_MAX);
    expect(
      await call('POST', `${served.domains}/v1/domains/bulk-check`, {
        key,
        body: { domains: [...full, 'one-more.io'] },
      }),
    ).toMatchObject({ status: 400, body: { error: 'too_many_domains', max: BULK_CHECK_MAX } });
    expect(await call('POST', `${served.domains}/v1/domains/bulk-check`, { key, body: { domains: [] } })).toMatchObject(
      { status: 400, body: { error: 'missing_domains' } },
    );
    expect(
      await call('POST', `${served.domains}/v1/domains/bulk-check`, { key, body: { names: ['a.com'] } }),
    ).toMatchObject({ status: 400, body: { error: 'missing_domains' } });
    expect(
      await call('POST', `${served.domains}/v1/domains/bulk-check`, {
        key,
        body: { domains: ['fine.com', 'bad.zzz'] },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_domain' } });
    expect(
      await call('POST', `${served.domains}/v1/domains/bulk-check`, { key, body: { domains: ['fine.com', 7] } }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_domain' } });
  });
});

describe('deployed domains: expiring, suggest, portfolio-value (public)', () => {
  test('expiring lists held names by expiry within ?days, soonest first, without their holders', async () => {
    const served = await serve();
    await holder(served, ['early-name.com']);
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: START_MS + 10 * DAY_MS } });
    await holder(served, ['later-name.xyz']);
    const registeredAt = START_MS + 10 * DAY_MS;
    expect((await call('GET', `${served.domains}/v1/domains/expiring`)).body).toMatchObject({ count: 0, days: 30 });
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: START_MS + 350 * DAY_MS } });
    const soon = await call('GET', `${served.domains}/v1/domains/expiring`);
    expect(soon).toMatchObject({ status: 200, body: { count: 2, total: 2, days: 30 } });
    expect(results(soon, 'domains').map((row) => row['domain'])).toEqual(['early-name.com', 'later-name.xyz']);
    expect(results(soon, 'domains')[0]).toMatchObject({ status: 'active', days_left: 15 });
    expect(Object.keys(results(soon, 'domains')[0] ?? {})).not.toContain('registrant');
    expect((await call('GET', `${served.domains}/v1/domains/expiring?days=20`)).body).toMatchObject({
      count: 1,
      domains: [{ domain: 'early-name.com' }],
    });
    const whois = await call('GET', `${served.domains}/v1/whois/later-name.xyz`);
    expect(results(soon, 'domains')[1]?.['expires_at']).toBe(whois.body['expires_at']);
    expect(Date.parse(whois.body['expires_at'] as string) - registeredAt).toBeGreaterThanOrEqual(365 * DAY_MS);
    for (const days of ['0', '366', 'soon'])
      expect(await call('GET', `${served.domains}/v1/domains/expiring?days=${days}`)).toMatchObject({
        status: 400,
        body: { error: 'invalid_days' },
      });
  });

  test('suggest builds valid names on a keyword, best score first, with availability; bad keyword 400', async () => {
    const served = await serve();
    await holder(served, ['swapbot.ai']);
    const answer = await call('GET', `${served.domains}/v1/domains/suggest?q=swap`);
    expect(answer).toMatchObject({ status: 200, body: { keyword: 'swap', count: 20 } });
    const rows = results(answer, 'suggestions');
    const scores = rows.map((row) => row['score'] as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(rows.every((row) => typeof row['domain'] === 'string' && (row['domain'] as string).includes('swap'))).toBe(
      true,
    );
    const value = await call('GET', `${served.domains}/v1/domains/value?name=${rows[0]?.['domain'] as string}`);
    expect((value.body['valuation'] as Record<string, unknown>)['score']).toBe(rows[0]?.['score']);
    const held = rows.find((row) => row['domain'] === 'swapbot.ai');
    if (held !== undefined) expect(held['available']).toBe(false);
    expect(await call('GET', `${served.domains}/v1/domains/suggest`)).toMatchObject({
      status: 400,
      body: { error: 'missing_query' },
    });
    expect(await call('GET', `${served.domains}/v1/domains/suggest?q=no%20spaces`)).toMatchObject({
      status: 400,
      body: { error: 'invalid_query' },
    });
  });

  test('portfolio-value values each name as /value does and sums them; 1 to 50 names', async () => {
    const served = await serve();
    const answer = await call(
      'GET',
      `${served.domains}/v1/domains/portfolio-value?names=defi.agent,my-wallet99.com,zz.eth`,
    );
    expect(answer).toMatchObject({ status: 200, body: { count: 3 } });
    let total = 0;
    for (const row of results(answer, 'domains')) {
      const one = await call('GET', `${served.domains}/v1/domains/value?name=${row['domain'] as string}`);
      expect(row['valuation']).toEqual(one.body['valuation']);
      total += (row['valuation'] as Record<string, number>)['estimated_market_value_usd'] as number;
    }
    expect(answer.body['total_estimated_value_usd']).toBeCloseTo(total, 6);
    expect(await call('GET', `${served.domains}/v1/domains/portfolio-value`)).toMatchObject({
      status: 400,
      body: { error: 'missing_names' },
    });
    const many = Array.from({ length: 51 }, (_, index) => `n${index}.com`).join(',');
    expect(await call('GET', `${served.domains}/v1/domains/portfolio-value?names=${many}`)).toMatchObject({
      status: 400,
      body: { error: 'too_many_names' },
    });
    expect(await call('GET', `${served.domains}/v1/domains/portfolio-value?names=ok.com,not%20a%20name`)).toMatchObject(
      { status: 400, body: { error: 'invalid_domain' } },
    );
  });

  test('/v1/auctions is not served (DEPLOYED.md §7 shows no shape)', async () => {
    const served = await serve();
    expect(await call('GET', `${served.domains}/v1/auctions`)).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
  });
});
