// The referral programme through the route tables, in-process: a chain registered on three
// services' register calls (faucet B `referrer`, faucet A `referrer`, casino A `referral_code`),
// fees charged through trading, domains and escrow rows, then the faucet's /referrals and the
// casino's /auth/referral/stats show earned, withdrawn, available and the per-level breakdown,
// and /gossip the live agent count. Self-referral at registration is 404 on every register row.
import { describe, expect, test } from 'vitest';
import { FAUCET_POOL, agentAccount } from '../../src/core/ledger.ts';
import { formatDecimal, toNumber, usdc, type Micro } from '../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../src/http/dispatcher.ts';
import type { Mount } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import type { DomainEvent } from '../../src/services/shared/events.ts';

const START = Date.UTC(2026, 0, 1, 1);

function world() {
  const platform = new Platform({ seed: 'referral-routes', startMs: START });
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  /** The fee of the first event of `type` (from the events, not the referral book). */
  const feeOf = (type: 'trading.order' | 'domains.registered' | 'escrow.released'): Micro => {
    const event = events.find((candidate) => candidate.type === type);
    if (event === undefined) throw new Error(`no ${type} event`);
    return event.type === 'domains.registered'
      ? event.costMicro
      : event.type === 'trading.order' || event.type === 'escrow.released'
        ? event.feeMicro
        : 0n;
  };
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  let nowMs = START;
  const send = (
    mount: Mount,
    method: string,
    path: string,
    options: { key?: string; body?: unknown } = {},
  ): ApiResponse & { body: Record<string, unknown> } => {
    nowMs += 1_000;
    const headers: Record<string, string> = options.key === undefined ? {} : { authorization: `Bearer ${options.key}` };
    const ip = `10.0.${Math.floor(nowMs / 1_000) % 250}.1`;
    return dispatcher.handle(
      { mount, method, path, query: {}, headers, body: options.body, ip },
      nowMs,
    ) as ApiResponse & { body: Record<string, unknown> };
  };
  return { platform, send, feeOf };
}

const share = (feeMicro: Micro, bps: bigint): Micro => (feeMicro * bps) / 10_000n;

describe('referral rows across services', () => {
  test('a chain registered on three services earns per level on trading, domains and escrow fees', () => {
    const { platform, send, feeOf } = world();
    const root = send('api', 'POST', '/register', { body: { agent_id: 'root' } });
    expect(root.status).toBe(201);
    const top = send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'top', referrer: 'root' } });
    expect(top.status).toBe(201);
    const mid = send('casino', 'POST', '/api/v1/auth/register', {
      body: { agent_id: 'mid', referral_code: top.body['referral_code'] },
    });
    expect(mid.status).toBe(201);
    const payer = send('api', 'POST', '/register', {
      body: { agent_id: 'payer', referrer: mid.body['agent_address'] },
    });
    expect(payer.status).toBe(201);
    expect(['top', 'mid', 'payer'].map((id) => platform.agents.get(id)?.referrerId)).toEqual(['root', 'top', 'mid']);
    platform.ledger.transfer({
      from: FAUCET_POOL,
      to: agentAccount('payer'),
      amountMicro: usdc(2_000),
      reason: 'test.fund',
      reference: 'payer',
    });
    const payerKey = payer.body['api_key'] as string;

    const order = send('trading', 'POST', '/api/v1/orders', {
      key: payerKey,
      body: { symbol: 'BTC-USDC', side: 'buy', size: 900, type: 'market' },
    });
    expect(order.status).toBe(201);
    const domain = send('domains', 'POST', '/api/v1/register', {
      key: payerKey,
      body: { domain: 'referral-tree.com', years: 2 },
    });
    expect(domain.status).toBe(201);
    const escrow = send('api', 'POST', '/escrow', {
      key: payerKey,
      body: { amount: 250, receiver: 'root', description: 'tree' },
    });
    expect(escrow.status).toBe(201);
    const release = send('api', 'POST', `/escrow/${escrow.body['escrow_id'] as string}/release`, { key: payerKey });
    expect(release.status).toBe(200);

    const [tradingFee, domainFee, escrowFee] = [
      feeOf('trading.order'),
      feeOf('domains.registered'),
      feeOf('escrow.released'),
    ];
    expect(escrowFee).toBe(usdc(250) / 100n);
    // top is payer's level 2: half of each level-1 share; root (level 3, and the escrow's receiver) earns only on trading and domains.
    const topLevelTwo = share(tradingFee, 1_000n) + share(domainFee, 750n) + share(escrowFee, 750n);
    expect(platform.referrals.earnedByLevel('top', 'trading')).toEqual([0n, share(tradingFee, 1_000n), 0n]);
    expect(platform.referrals.earnedByLevel('top', 'escrow')).toEqual([0n, share(escrowFee, 750n), 0n]);
    expect(platform.referrals.earnedByLevel('root', 'escrow')).toEqual([0n, 0n, 0n]);
    expect(platform.referrals.earnedByLevel('root', 'trading')).toEqual([0n, 0n, share(tradingFee, 500n)]);

    const view = send('api', 'GET', '/referrals', { key: top.body['api_key'] as string });
    expect(view.status).toBe(200);
    expect(view.body['by_level']).toEqual([
      { level: 1, referred_agents: 1, earned: '0.00' },
      { level: 2, referred_agents: 1, earned: formatDecimal(topLevelTwo) },
      { level: 3, referred_agents: 0, earned: '0.00' },
    ]);
    expect(view.body).toMatchObject({
      fees_earned: formatDecimal(topLevelTwo),
      available: formatDecimal(topLevelTwo),
      withdrawn: '0.00',
    });

    const stats = send('casino', 'GET', '/api/v1/auth/referral/stats', { key: root.body['api_key'] as string });
    expect(stats.status).toBe(200);
    const rootEarned = platform.referrals.totalsFor('root').earnedMicro;
    expect(rootEarned).toBe(share(tradingFee, 500n) + share(domainFee, 375n));
    expect(stats.body).toMatchObject({
      total_earned: toNumber(rootEarned),
      withdrawn: 0,
      available: toNumber(rootEarned),
    });
    expect((stats.body['by_level'] as { referred_agents: number }[]).map((level) => level.referred_agents)).toEqual([
      1, 1, 1,
    ]);

    const code = send('casino', 'GET', '/api/v1/auth/referral/code', { key: root.body['api_key'] as string });
    expect(code.body).toMatchObject({
      referral_code: root.body['referral_code'],
      commission: { level_1_pct: 10, level_2_pct: 5, level_3_pct: 2.5 },
    });

    const gossip = send('casino', 'GET', '/api/v1/gossip');
    expect(gossip.body['current_registered_agents']).toBe(4);
  });

  test('registering with the own id as referrer is 404 on every register row', () => {
    const { platform, send } = world();
    expect(send('api', 'POST', '/register', { body: { agent_id: 'me', referrer: 'me' } }).status).toBe(404);
    expect(send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'me', referrer: 'me' } }).status).toBe(
      404,
    );
    expect(send('casino', 'POST', '/api/v1/auth/register', { body: { agent_id: 'me', referrer: 'me' } }).status).toBe(
      404,
    );
    expect(platform.agents.size).toBe(0);
  });
});
