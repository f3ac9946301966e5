// Reliability: races over real HTTP, resolved exactly. Requests sent at once on separate
// connections to a served platform (manual clock): concurrent faucet claims of one agent (exactly
// one paid), escrow release vs refund vs expiry at the same instant (exactly one settlement, money
// conserved), concurrent escrow creates and casino bets against one balance (never below zero,
// exactly as many accepted as the balance covers, every accepted bet counted once).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { jsonOf, send, StatusCounts, type RawAnswer } from './reliability-kit.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2026-01-01T01:00:00Z');
let handle: ServeHandle;
let api = '';

beforeAll(async () => {
  handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '19',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    shed: { maxInFlight: 0, maxEventLoopDelayMs: 0 },
    log: () => undefined,
  });
  api = handle.urls.api as string;
});

afterAll(async () => {
  await handle.close({ forceAfterMs: 100 });
});

let ipCount = 0;
function post(base: string, path: string, body: unknown, key?: string): Promise<RawAnswer> {
  ipCount += 1;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': `10.4.${ipCount >> 8}.${ipCount & 255}`,
  };
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
  return send(base, { method: 'POST', path, headers, body: JSON.stringify(body) });
}

/** A style-B agent (10 USDC grant), Enterprise so the tier bucket never answers first. */
async function agentB(agentId: string): Promise<string> {
  const key = String(jsonOf(await post(api, '/register', { agent_id: agentId }))?.['api_key']);
  await post(api, '/_afp/tier', { agent_id: agentId, tier: 'enterprise' });
  return key;
}

function balanceMicro(agentId: string): bigint {
  return handle.platform.ledger.balance(`agent:${agentId}`);
}

function conserved(): void {
  expect(handle.platform.ledger.sumMicro).toBe(0n);
  expect(handle.platform.ledger.auditSum()).toBe(0n);
  expect(handle.platform.ledger.negativeAccounts().filter((account) => account.startsWith('agent:'))).toEqual([]);
}

describe('reliability: races', () => {
  test('concurrent faucet claims of one agent: exactly one paid', async () => {
    const faucet = handle.urls.faucet as string;
    const key = String(
      jsonOf(await post(faucet, '/api/v1/agents/register', { agent_id: 'race-claimer' }))?.['api_key'],
    );
    await post(api, '/_afp/tier', { agent_id: 'race-claimer', tier: 'enterprise' });
    const before = balanceMicro('race-claimer');
    const a = await Promise.all(Array.from({ length: 8 }, () => post(faucet, '/api/v1/faucet/claim', {}, key)));
    const b = await Promise.all(Array.from({ length: 8 }, () => post(api, '/claim', {}, key)));
    const countsA = new StatusCounts();
    const countsB = new StatusCounts();
    for (const answer of a) countsA.add(answer.status);
    for (const answer of b) countsB.add(answer.status);
    console.log(
      `races: 8 concurrent A claims ${countsA.text()}; 8 concurrent B claims ${countsB.text()}; balance ${before} → ${balanceMicro('race-claimer')} micro`,
    );
    expect(countsA.count((status) => status < 300)).toBe(1);
    expect(countsB.count((status) => status < 300)).toBe(1);
    expect(countsA.count((status) => status >= 500) + countsB.count((status) => status >= 500)).toBe(0);
    expect(balanceMicro('race-claimer') - before).toBe(1_000_000n + 2_000_000n);
    conserved();
  });

  test('escrow release vs refund vs expiry at the same instant: exactly one settlement', async () => {
    await agentB('race-seller');
    const buyerKey = await agentB('race-buyer');
    const outcomes = new StatusCounts();
    const finals: Record<string, number> = {};
    for (let round = 0; round < 6; round += 1) {
      const created = jsonOf(
        await post(api, '/escrow', { receiver: 'race-seller', amount: '1.00', expires_in: 60 }, buyerKey),
      );
      const escrowId = String(created?.['escrow_id']);
      const expiresAtMs = handle.clock.nowMs() + 60_000;
      const totalBefore = balanceMicro('race-buyer') + balanceMicro('race-seller');
      // Up to one millisecond before expiry, then release, refund and the clock's move to expiry all at once.
      await post(api, '/_afp/clock', { to_ms: expiresAtMs - (round % 2) });
      const [release, refund] = await Promise.all([
        post(api, `/escrow/${escrowId}/release`, {}, buyerKey),
        post(api, `/escrow/${escrowId}/refund`, {}, buyerKey),
        post(api, '/_afp/clock', { to_ms: expiresAtMs + 1 }),
      ]);
      const settled = [release, refund].filter((answer) => answer !== undefined && answer.status < 300).length;
      const status = String(handle.platform.escrow.find(escrowId)?.status ?? 'missing');
      finals[status] = (finals[status] ?? 0) + 1;
      outcomes.add(release?.status ?? 0);
      outcomes.add(refund?.status ?? 0);
      expect(
        settled + (status === 'expired' ? 1 : 0),
        `round ${round}: release ${release?.status}, refund ${refund?.status}, final ${status}`,
      ).toBe(1);
      // Money conserved between the two parties and the fee account: a release moves the fee out.
      const fee = status === 'released' ? 10_000n : 0n;
      expect(balanceMicro('race-buyer') + balanceMicro('race-seller') + fee).toBe(totalBefore + 1_000_000n);
    }
    console.log(
      `races: 6 rounds of release vs refund vs expiry: answers ${outcomes.text()}; final states ${JSON.stringify(finals)}`,
    );
    conserved();
  });

  test('concurrent escrow creates and casino bets against one balance: exactly what it covers', async () => {
    const key = await agentB('race-spender');
    await agentB('race-payee');
    const before = balanceMicro('race-spender');
    expect(before).toBe(10_000_000n);
    const creates = await Promise.all(
      Array.from({ length: 10 }, () => post(api, '/escrow', { receiver: 'race-payee', amount: '3.00' }, key)),
    );
    const createCounts = new StatusCounts();
    for (const answer of creates) createCounts.add(answer.status);
    expect(createCounts.count((status) => status < 300)).toBe(3);
    expect(balanceMicro('race-spender')).toBe(1_000_000n);
    const casino = handle.urls.casino as string;
    const bets = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        post(casino, '/api/v1/games/coin-flip', { side: n % 2 === 0 ? 'heads' : 'tails', amount: 0.01 }, key),
      ),
    );
    const betCounts = new StatusCounts();
    for (const answer of bets) betCounts.add(answer.status);
    const accepted = betCounts.count((status) => status < 300);
    const stats = jsonOf(
      await send(casino, {
        method: 'GET',
        path: '/api/v1/stats/me',
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '10.4.255.1' },
      }),
    );
    console.log(
      `races: 10 concurrent 3.00 escrows on 10.00: ${createCounts.text()}; 40 concurrent 0.01 bets: ${betCounts.text()}, stats total_bets ${String(stats?.['total_bets'])}; balance ${balanceMicro('race-spender')} micro`,
    );
    expect(betCounts.count((status) => status >= 500)).toBe(0);
    expect(stats?.['total_bets']).toBe(accepted);
    expect(balanceMicro('race-spender')).toBeGreaterThanOrEqual(0n);
    conserved();
  });
});
