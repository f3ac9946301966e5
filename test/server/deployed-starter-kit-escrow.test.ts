// The platform's starter-kit escrow flow, written from spec/DEPLOYED.md's paths alone and sent as
// raw HTTP (fetch, no afp client), against a real `afp serve --dialect deployed` on loopback:
// register on the casino with a referral code nobody holds (ignored: 201, no referrer), claim the
// faucet with the casino agent id (§3), place one bet (§2.4), fund an escrow for a second agent
// (§4), the counterparty completes it, the creator releases it. Status codes, fields and balances
// are asserted as §2.2, §3 and §4 describe them (commission 1% of the amount, the counterparty paid
// amount − commission). A known referral code still links its agent, and a non-text one is a 400.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
let handle: ServeHandle;
let casino = '';
let faucet = '';
let escrow = '';

beforeAll(async () => {
  handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '21',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  casino = handle.urls.casino as string;
  faucet = handle.urls.faucet as string;
  escrow = handle.urls.escrow as string;
});
afterAll(async () => {
  await handle.close({ forceAfterMs: 0 });
});

type Body = Record<string, unknown>;

async function send(
  method: 'GET' | 'POST',
  url: string,
  options: { key?: string; body?: unknown } = {},
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.key !== undefined) headers['Authorization'] = `Bearer ${options.key}`;
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function balanceOf(key: string): Promise<number> {
  const answer = await send('GET', `${casino}/api/v1/auth/balance`, { key });
  expect(answer.status).toBe(200);
  return answer.body['balance_usd'] as number;
}

describe('the starter kit escrow flow on afp serve --dialect deployed (raw HTTP, DEPLOYED.md paths)', () => {
  test('register (unknown referral code ignored), faucet, bet, escrow create → complete → release', async () => {
    const creator = await send('POST', `${casino}/api/v1/auth/register`, { body: { referral_code: 'ref_00000000' } });
    expect(creator.status).toBe(201);
    expect(creator.body).toMatchObject({ balance: 0, tier: 'free', risk_factor: 0.25 });
    expect(creator.body['agent_id']).toMatch(/^ag_[0-9a-f]{12}$/);
    expect(creator.body['api_key']).toMatch(/^sk_live_[0-9a-f]{48}$/);
    expect(creator.body['referral_code']).toMatch(/^ref_[0-9a-f]{8}$/);
    const creatorId = creator.body['agent_id'] as string;
    const creatorKey = creator.body['api_key'] as string;
    expect(handle.platform.agents.get(creatorId)?.referrerId ?? null).toBeNull();

    const claim = await send('POST', `${faucet}/faucet/claim`, { body: { agent_casino_id: creatorId } });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ credited: 1, agent_id: creatorId });
    expect(typeof claim.body['claim_id']).toBe('string');
    expect(await balanceOf(creatorKey)).toBe(1);
    const again = await send('POST', `${faucet}/faucet/claim`, { body: { agent_casino_id: creatorId } });
    expect(again.status).toBeGreaterThanOrEqual(400);

    const bet = await send('POST', `${casino}/api/v1/games/coin-flip`, {
      key: creatorKey,
      body: { amount: 0.01, side: 'heads' },
    });
    expect(bet.status).toBe(200);
    expect(bet.body).toMatchObject({ game: 'coin_flip', amount_bet: 0.01 });
    expect(bet.body['bet_id']).toMatch(/^bet_/);
    expect(Object.keys(bet.body['proof'] as Body).sort()).toEqual([
      'client_seed',
      'nonce',
      'result_hash',
      'server_seed_hash',
    ]);
    const afterBet = Math.round((1 - 0.01 + (bet.body['amount_won'] as number)) * 1e6) / 1e6;
    expect(bet.body['new_balance']).toBeCloseTo(afterBet, 2);
    expect(await balanceOf(creatorKey)).toBeCloseTo(afterBet, 6);

    const worker = await send('POST', `${casino}/api/v1/auth/register`, { body: {} });
    expect(worker.status).toBe(201);
    const workerId = worker.body['agent_id'] as string;
    const workerKey = worker.body['api_key'] as string;

    const created = await send('POST', `${escrow}/escrow/create`, {
      key: creatorKey,
      body: { amount_usd: 0.5, description: 'starter kit job', counterparty_agent_id: workerId, timeout_hours: 2 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      amount_usd: 0.5,
      commission_usd: 0.005,
      net_to_counterparty: 0.495,
      description: 'starter kit job',
      creator_id: creatorId,
      counterparty_id: workerId,
      status: 'funded',
      timeout_hours: 2,
    });
    expect(created.body['escrow_id']).toMatch(/^esc_[0-9a-f]{16}$/);
    expect(Date.parse(created.body['auto_release_at'] as string)).toBe(handle.clock.nowMs() + 2 * 3_600_000);
    const escrowId = created.body['escrow_id'] as string;
    expect(await balanceOf(creatorKey)).toBeCloseTo(afterBet - 0.5, 6);

    const byCreator = await send('POST', `${escrow}/escrow/complete/${escrowId}`, { key: creatorKey });
    expect(byCreator.status).toBe(403);
    const completed = await send('POST', `${escrow}/escrow/complete/${escrowId}`, { key: workerKey });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ escrow_id: escrowId, status: 'completed' });
    const byWorker = await send('POST', `${escrow}/escrow/release/${escrowId}`, { key: workerKey });
    expect(byWorker.status).toBe(403);

    const released = await send('POST', `${escrow}/escrow/release/${escrowId}`, { key: creatorKey });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({
      escrow_id: escrowId,
      status: 'released',
      amount_released: 0.495,
      commission: 0.005,
      referral_commission: 0,
      counterparty_id: workerId,
    });
    const twice = await send('POST', `${escrow}/escrow/release/${escrowId}`, { key: creatorKey });
    expect(twice).toMatchObject({ status: 409, body: { error: 'invalid_status' } });

    const read = await send('GET', `${escrow}/escrow/${escrowId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      escrow_id: escrowId,
      status: 'released',
      amount_usd: 0.5,
      commission_usd: 0.005,
      disputed_at: null,
    });
    expect(typeof read.body['completed_at']).toBe('string');
    expect(typeof read.body['released_at']).toBe('string');
    expect(read.body['next_steps']).toBeUndefined();
    expect(await balanceOf(workerKey)).toBe(0.495);
    expect(await balanceOf(creatorKey)).toBeCloseTo(afterBet - 0.5, 6);
  });

  test('a known referral code links its agent; a referral code that is not text is a 400 that registers nobody', async () => {
    const referrer = await send('POST', `${casino}/api/v1/auth/register`, { body: {} });
    const referred = await send('POST', `${casino}/api/v1/auth/register`, {
      body: { referral_code: referrer.body['referral_code'] },
    });
    expect(referred.status).toBe(201);
    expect(handle.platform.agents.get(referred.body['agent_id'] as string)?.referrerId).toBe(referrer.body['agent_id']);
    const count = handle.platform.agents.size;
    const bad = await send('POST', `${casino}/api/v1/auth/register`, { body: { referral_code: 42 } });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(handle.platform.agents.size).toBe(count);
  });
});
