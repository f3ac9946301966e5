// The deployed stand-in pays casino referrals by the deployment's rule (DEPLOYED.md §2.9), not by
// the documents' net losses: each losing bet pays round2(stake × 10% / 5% / 2.5%) to the referrer
// chain when at least 0.01, even while the referred agent is ahead. Raw HTTP against a real
// `afp serve --dialect deployed`; the referrers' earnings are read from the platform's referral
// book and checked against the bets the agent lost.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
let handle: ServeHandle;
let casino = '';

beforeAll(async () => {
  handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: deployedLayout({ limitsLifted: true }),
    seed: '31',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  casino = handle.urls.casino as string;
});
afterAll(async () => {
  await handle.close({ forceAfterMs: 0 });
});

type Body = Record<string, unknown>;
async function post(path: string, body: unknown, key?: string): Promise<Body> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== undefined) headers['Authorization'] = `Bearer ${key}`;
  return (await (
    await fetch(`${casino}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  ).json()) as Body;
}

describe('casino referral on the deployed stand-in', () => {
  test('every lost stake pays its three levels (round2, at least 0.01); wins and a net gain do not stop it', async () => {
    const top = await post('/api/v1/auth/register', {});
    const middle = await post('/api/v1/auth/register', { referral_code: top['referral_code'] });
    const referrer = await post('/api/v1/auth/register', { referral_code: middle['referral_code'] });
    const player = await post('/api/v1/auth/register', { referral_code: referrer['referral_code'] });
    const deposit = await post('/_afp/casino/deposit', {
      agent_id: player['agent_id'],
      chain: 'solana',
      amount: '100',
    });
    await post('/_afp/clock', { to_ms: deposit['confirm_at_ms'] });
    let lost = 0;
    let won = 0;
    for (let index = 0; index < 30; index++) {
      const bet = await post(
        '/api/v1/games/coin-flip',
        { amount: 1, side: 'heads', client_seed: `r${index}` },
        player['api_key'] as string,
      );
      expect(bet['bet_id'], JSON.stringify(bet)).toMatch(/^bet_/);
      if (bet['won'] === true) won += 1;
      else lost += 1;
    }
    expect(lost).toBeGreaterThan(0);
    expect(won).toBeGreaterThan(0);
    // 1.00 × 10% = 0.10, × 5% = 0.05, × 2.5% = 0.025 → round2 0.03 (half up), per lost bet.
    const earned = (agentId: unknown): readonly bigint[] =>
      handle.platform.casino.state.commissions.earnedBy(agentId as string);
    expect(earned(referrer['agent_id'])[0]).toBe(BigInt(lost) * 100_000n);
    expect(earned(middle['agent_id'])[1]).toBe(BigInt(lost) * 50_000n);
    expect(earned(top['agent_id'])[2]).toBe(BigInt(lost) * 30_000n);
  });
});
