// AccountPool (src/live/account-pool.ts) opens the accounts a live suite shares in order: account i
// is the i-th registered, though the fundings run side by side (on a wall-clock serve each waits
// out a deposit's confirmation). Shown on two afp serves of one seed (deployed dialect, manual
// clock, real loopback listeners): the pool's two accounts are the ids two registrations in turn
// get on the twin serve, and each is funded.
import { describe, expect, test } from 'vitest';
import { Deadline } from '../../src/audit/live-target.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { AccountPool } from '../../src/live/account-pool.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
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

async function sessionOf(): Promise<{ session: LiveSession; clock: ReturnType<typeof movingClock> }> {
  const handle = await serve();
  const casino = handle.urls.casino as string;
  const resolved = await resolveTarget(casino);
  if (!resolved.ok) throw new Error(resolved.message);
  const clock = movingClock(casino, START_MS);
  return { session: new LiveSession({ target: resolved.value, clock, deadline: new Deadline(clock, 600) }), clock };
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

    const twin = await sessionOf();
    const inTurn: string[] = [];
    for (let index = 0; index < 2; index++) {
      const opened = await openLiveAccount({
        session: twin.session,
        key: null,
        fundMicro: FUND_MICRO,
        clock: twin.clock,
        deadline: new Deadline(twin.clock, 600),
      });
      if (!opened.ok) throw new Error(opened.message);
      inTurn.push(opened.value.agentId);
    }
    expect(accounts.map((account) => account.agentId)).toStrictEqual(inTurn);
    for (const account of accounts) {
      const balance = await pooled.session.call('casino.balance', {}, account.apiKey);
      expect(balance.kind).toBe('ok');
      if (balance.kind === 'ok') expect(balance.value.balanceMicro).toBeGreaterThanOrEqual(FUND_MICRO);
    }
    expect(await pool.take(1)).toStrictEqual(accounts.slice(0, 1));
  });
});
