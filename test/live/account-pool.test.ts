// AccountPool (src/live/account-pool.ts) opens the accounts a live suite shares in order: account i
// is the i-th registered, though the fundings run side by side (on a wall-clock serve each waits
// out a deposit's confirmation). Shown on an afp serve (deployed dialect, manual clock, real
// loopback listeners): the pool's two accounts are the serve's first two agents, in the order the
// serve registered them, and each is funded. (Comparing with a twin serve's ids depended on where
// the fundings drew their deposit ids among the registrations, which is no part of the order.)
import { describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { AccountPool } from '../../src/live/account-pool.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes, movingClock } from '../fixtures/manual-serves.ts';

const START_MS = Date.parse('2026-03-01T00:00:00.000Z');
const FUND_MICRO = 5_000_000n;
const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '6',
  startMs: START_MS,
});

async function sessionOf(): Promise<{
  session: LiveSession;
  clock: ReturnType<typeof movingClock>;
  handle: Awaited<ReturnType<typeof serve>>;
}> {
  const handle = await serve();
  const casino = handle.urls.casino as string;
  const resolved = await resolveTarget(casino);
  if (!resolved.ok) throw new Error(resolved.message);
  const clock = movingClock(casino, START_MS);
  return {
    session: new LiveSession({ target: resolved.value, clock, deadline: new Deadline(clock, 600) }),
    clock,
    handle,
  };
}

describe('AccountPool', () => {
  test('opens its accounts in registration order, each funded', async () => {
    const pooled = await sessionOf();
    const pool = new AccountPool({
      session: pooled.session,
      clock: pooled.clock,
      deadline: new Deadline(pooled.clock, 600),
      fundMicro: FUND_MICRO,
    });
    const accounts = await pool.take(2);
    if (typeof accounts === 'string') throw new Error(accounts);
    // The serve's agents in the order they registered (its agent table keeps insertion order).
    const registered = pooled.handle.platform.agents.all().map((agent) => agent.id);
    expect(accounts.map((account) => account.agentId)).toStrictEqual(registered.slice(0, 2));
    for (const account of accounts) {
      const balance = await pooled.session.call('casino.balance', {}, account.apiKey);
      expect(balance.kind).toBe('ok');
      if (balance.kind === 'ok') expect(balance.value.balanceMicro).toBeGreaterThanOrEqual(FUND_MICRO);
    }
    expect(await pool.take(1)).toStrictEqual(accounts.slice(0, 1));
  });
});
