// afp serve --dialect deployed, the wallet (spec/DEPLOYED.md §6) on P + 5 under /v1: real listeners
// on loopback, real HTTP, the manual clock. Happy paths in the deployment's field names and
// statuses (201 register and create, chain default base, symbols in swaps), bad input refused 4xx
// in the deployment's error shape with nothing moved, pk_live_ keys, and the per-IP limits.
import { describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { DEPLOYED_PORT_OFFSETS } from '../../src/server/deployed-ports.ts';
import { deriveWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const startDeployed = manualServes(
  { trustedProxies: LOOPBACK_PROXIES, routes: DEPLOYED_ROUTES, layout: DEPLOYED_LAYOUT, seed: '7', startMs: START_MS },
  { forceAfterMs: 0 },
);

interface Served {
  readonly casino: string;
  readonly wallet: string;
  readonly trading: string;
}

async function serve(): Promise<Served> {
  const handle = await startDeployed();
  return {
    casino: handle.urls.casino as string,
    wallet: handle.urls.wallet as string,
    trading: handle.urls.trading as string,
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

interface Holder {
  readonly key: string;
  readonly addresses: Record<string, string>;
  readonly ethKey: string;
}

async function holder(served: Served, ip = '203.0.113.1'): Promise<Holder> {
  const registered = await call('POST', `${served.wallet}/v1/auth/register`, { body: {}, ip });
  expect(registered.status).toBe(201);
  const key = registered.body['api_key'] as string;
  const created = await call('POST', `${served.wallet}/v1/wallet/create`, { key });
  expect(created.status).toBe(201);
  return {
    key,
    addresses: created.body['addresses'] as Record<string, string>,
    ethKey: deriveWallet(created.body['mnemonic'] as string).privateKeys.ethereum,
  };
}

async function mint(served: Served, chain: string, address: string, amount: string): Promise<void> {
  expect((await call('POST', `${served.casino}/_afp/wallet/mint`, { body: { chain, address, amount } })).status).toBe(
    200,
  );
}

async function nativeAmount(served: Served, key: string, address: string, chain: string): Promise<string> {
  const answer = await call('GET', `${served.wallet}/v1/wallet/balance/${address}?chain=${chain}`, { key });
  expect(answer.status).toBe(200);
  return (answer.body['balance'] as { native: { amount: string } }).native.amount;
}

describe('deployed wallet: accounts and reads', () => {
  test("register 201 with a pk_live_ key that works on the wallet only; 401 and 404 in the casino's shape", async () => {
    const served = await serve();
    const answer = await call('POST', `${served.wallet}/v1/auth/register`, {
      body: { referral_code: 'nobody', extra: 1 },
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual([
      '_info',
      'agent_id',
      'api_key',
      'message',
      'next_steps',
      'referral_code',
    ]);
    expect(answer.body['api_key']).toMatch(/^pk_live_[0-9a-f]{48}$/);
    expect(answer.body['_info']).toMatchObject({ service: 'public-wallet', version: '1.0.0' });
    const key = answer.body['api_key'] as string;
    expect((await call('GET', `${served.wallet}/v1/referral/code`, { key })).status).toBe(200);
    expect((await call('GET', `${served.casino}/api/v1/auth/balance`, { key })).status).toBe(401);
    const casinoKey = (await call('POST', `${served.casino}/api/v1/auth/register`, { body: {} })).body[
      'api_key'
    ] as string;
    expect(await call('GET', `${served.wallet}/v1/referral/code`, { key: casinoKey })).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'Invalid API key' },
    });
    expect(await call('POST', `${served.wallet}/v1/wallet/create`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'Missing or invalid Authorization header. Use: Bearer {api_key}' },
    });
    expect(await call('GET', `${served.wallet}/v1/nowhere`)).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'GET /v1/nowhere not found', openapi: '/openapi.json' },
    });
    // Style A and B calls are not served by the deployment.
    expect((await call('GET', `${served.wallet}/api/v1/balance`, { key })).status).toBe(404);
  });

  test('the layout mounts the wallet on P + 5 under /v1', () => {
    expect(DEPLOYED_LAYOUT.mounts(DEPLOYED_ROUTES)).toContainEqual(['wallet', 5]);
    expect(DEPLOYED_PORT_OFFSETS.wallet).toBe(5);
    expect(DEPLOYED_LAYOUT.basePaths['wallet']).toBe('/v1');
  });

  test('create 201 with derivation paths; balance defaults to base with an explorer; monero without view_key is 400 view_key_required', async () => {
    const served = await serve();
    const registered = await call('POST', `${served.wallet}/v1/auth/register`, { body: {} });
    const key = registered.body['api_key'] as string;
    const created = await call('POST', `${served.wallet}/v1/wallet/create`, { key });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body['addresses'] as object).sort()).toEqual([
      'base',
      'bitcoin',
      'ethereum',
      'monero',
      'solana',
      'tron',
    ]);
    expect(created.body['derivation_paths']).toMatchObject({
      ethereum: "m/44'/60'/0'/0/0",
      bitcoin: "m/84'/0'/0'/0/0",
    });
    expect(typeof created.body['mnemonic']).toBe('string');
    const addresses = created.body['addresses'] as Record<string, string>;
    await mint(served, 'base', addresses['base'] as string, '0.25');
    const balance = await call('GET', `${served.wallet}/v1/wallet/balance/${addresses['base'] as string}`, { key });
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({
      address: addresses['base'],
      chain: 'base',
      balance: { native: { symbol: 'ETH', amount: '0.25' } },
      explorer: `https://basescan.org/address/${addresses['base'] as string}`,
    });
    expect(Object.keys(balance.body['balance'] as object)).toEqual(['native']);
    expect(
      await call('GET', `${served.wallet}/v1/wallet/balance/${addresses['monero'] as string}?chain=monero`, { key }),
    ).toMatchObject({ status: 400, body: { error: 'view_key_required' } });
    expect(
      await call('GET', `${served.wallet}/v1/wallet/balance/${addresses['base'] as string}?chain=dogecoin`, { key }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request', field: 'chain' } });
    expect(await call('GET', `${served.wallet}/v1/wallet/balance/not-an-address`, { key })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    const history = await call('GET', `${served.wallet}/v1/wallet/transactions/${addresses['base'] as string}`, {
      key,
    });
    expect(history).toMatchObject({ status: 200, body: { chain: 'base', count: 1 } });
    expect(
      await call('GET', `${served.wallet}/v1/wallet/transactions/${addresses['base'] as string}?limit=51`, { key }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request', message: 'limit must be between 1 and 50' } });
    expect(await call('GET', `${served.wallet}/v1/wallet/deposit-address`, { key })).toMatchObject({
      status: 200,
      body: { chain: 'base', derivation_path: "m/44'/60'/0'/0/0" },
    });
    expect((await call('GET', `${served.wallet}/v1/wallet/chains`)).status).toBe(200);
    expect(await call('GET', `${served.wallet}/v1/gossip`)).toMatchObject({
      status: 200,
      body: { multi_level_referral: true },
    });
  });
});

describe('deployed wallet: sends and swaps', () => {
  test('a send with the right key moves the amount and answers the six fields; a wrong key, bitcoin and monero without keys move nothing', async () => {
    const served = await serve();
    const alice = await holder(served);
    const bob = await holder(served);
    const from = alice.addresses['ethereum'] as string;
    await mint(served, 'ethereum', from, '1');
    const sent = await call('POST', `${served.wallet}/v1/wallet/send`, {
      key: alice.key,
      body: {
        chain: 'ethereum',
        to: bob.addresses['ethereum'],
        amount: '0.1',
        private_key: alice.ethKey,
        memo: 'ignored',
      },
    });
    expect(sent.status).toBe(200);
    expect(Object.keys(sent.body).sort()).toEqual(['_info', 'amount', 'chain', 'explorer', 'from', 'to', 'tx_hash']);
    expect(sent.body).toMatchObject({ chain: 'ethereum', from, to: bob.addresses['ethereum'], amount: '0.1' });
    expect(sent.body['explorer']).toBe(`https://etherscan.io/tx/${sent.body['tx_hash'] as string}`);
    const after = await nativeAmount(served, alice.key, from, 'ethereum');
    // Bob's key controls Bob's address, which holds nothing: refused, nothing moves.
    const wrong = await call('POST', `${served.wallet}/v1/wallet/send`, {
      key: alice.key,
      body: { chain: 'ethereum', to: bob.addresses['ethereum'], amount: '0.1', private_key: bob.ethKey },
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'insufficient_balance' } });
    const bad = await call('POST', `${served.wallet}/v1/wallet/send`, {
      key: alice.key,
      body: { chain: 'ethereum', to: bob.addresses['ethereum'], amount: '0.1', private_key: 'not-a-key' },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(
      await call('POST', `${served.wallet}/v1/wallet/send`, {
        key: alice.key,
        body: { chain: 'bitcoin', to: bob.addresses['bitcoin'], amount: '0.1', private_key: alice.ethKey },
      }),
    ).toMatchObject({ status: 501, body: { error: 'not_implemented' } });
    expect(
      await call('POST', `${served.wallet}/v1/wallet/send`, {
        key: alice.key,
        body: { chain: 'monero', to: bob.addresses['monero'], amount: '0.1' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'monero_keys_required', field: 'from' } });
    expect(
      await call('POST', `${served.wallet}/v1/wallet/send`, {
        key: alice.key,
        body: { chain: 'ethereum', to: bob.addresses['ethereum'], amount: '-1', private_key: alice.ethKey },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request', field: 'amount' } });
    expect(await nativeAmount(served, alice.key, from, 'ethereum')).toBe(after);
  });

  test('swap quote and swap take symbols or addresses; status; a bad token is 400', async () => {
    const served = await serve();
    const alice = await holder(served);
    const fields = { from_chain: 'ethereum', to_chain: 'base', from_token: 'eth', to_token: 'USDC', amount: '0.5' };
    const quote = await call('GET', `${served.wallet}/v1/wallet/swap/quote?${new URLSearchParams(fields).toString()}`, {
      key: alice.key,
    });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ integrator_fee: '0.5%', quote: { fromAmount: '0.5' } });
    expect(Object.keys(quote.body['quote'] as object)).toEqual(
      expect.arrayContaining(['fromAmount', 'toAmount', 'minReceived', 'estimatedTime']),
    );
    const byAddress = {
      ...fields,
      from_token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      to_token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    };
    const same = await call(
      'GET',
      `${served.wallet}/v1/wallet/swap/quote?${new URLSearchParams(byAddress).toString()}`,
      { key: alice.key },
    );
    expect((same.body['quote'] as Record<string, unknown>)['toAmount']).toBe(
      (quote.body['quote'] as Record<string, unknown>)['toAmount'],
    );
    const swap = await call('POST', `${served.wallet}/v1/wallet/swap`, {
      key: alice.key,
      body: { ...fields, to_address: alice.addresses['base'] },
    });
    expect(swap.status).toBe(200);
    expect(Object.keys(swap.body).sort()).toEqual([
      '_info',
      'check_status',
      'deposit',
      'expires_at',
      'fee',
      'order_id',
      'output',
      'status',
      'swap_id',
    ]);
    const status = await call('GET', `${served.wallet}/v1/wallet/swap/status/${swap.body['order_id'] as string}`, {
      key: alice.key,
    });
    expect(status).toMatchObject({ status: 200, body: { order_id: swap.body['order_id'], status: 'waiting' } });
    expect(await call('GET', `${served.wallet}/v1/wallet/swap/status/nope`, { key: alice.key })).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect(
      await call(
        'GET',
        `${served.wallet}/v1/wallet/swap/quote?${new URLSearchParams({ ...fields, to_token: 'DOGE' }).toString()}`,
        { key: alice.key },
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request', field: 'to_token' } });
  });

  test("per-IP windows: register 10, send 20, swap 30 per 60 s in the deployment's 429 shape", async () => {
    const served = await serve();
    for (let i = 0; i < 10; i += 1)
      expect((await call('POST', `${served.wallet}/v1/auth/register`, { body: {}, ip: '198.51.100.1' })).status).toBe(
        201,
      );
    const over = await call('POST', `${served.wallet}/v1/auth/register`, { body: {}, ip: '198.51.100.1' });
    expect(over).toMatchObject({
      status: 429,
      body: { error: 'rate_limited', message: 'Too many requests. Limit: 10 per 60s' },
    });
    // Trading is another process on the deployment: the same path from the same IP has its own window.
    expect((await call('POST', `${served.trading}/v1/auth/register`, { body: {}, ip: '198.51.100.1' })).status).toBe(
      201,
    );
    const alice = await holder(served, '198.51.100.2');
    for (let i = 0; i < 20; i += 1)
      expect(
        (
          await call('POST', `${served.wallet}/v1/wallet/send`, {
            key: alice.key,
            body: { chain: 'base' },
            ip: '198.51.100.3',
          })
        ).status,
      ).toBe(400);
    expect(
      await call('POST', `${served.wallet}/v1/wallet/send`, {
        key: alice.key,
        body: { chain: 'base' },
        ip: '198.51.100.3',
      }),
    ).toMatchObject({ status: 429, body: { message: 'Too many requests. Limit: 20 per 60s' } });
    for (let i = 0; i < 30; i += 1)
      expect(
        (await call('POST', `${served.wallet}/v1/wallet/swap`, { key: alice.key, body: {}, ip: '198.51.100.4' }))
          .status,
      ).toBe(400);
    expect(
      await call('POST', `${served.wallet}/v1/wallet/swap`, { key: alice.key, body: {}, ip: '198.51.100.4' }),
    ).toMatchObject({ status: 429, body: { message: 'Too many requests. Limit: 30 per 60s' } });
    // The quote has no window of its own.
    expect(
      (await call('GET', `${served.wallet}/v1/wallet/swap/quote`, { key: alice.key, ip: '198.51.100.4' })).status,
    ).toBe(400);
  });
});
