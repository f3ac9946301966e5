// A funding that credits less than the run needs (a faucet paying 1.00 where 5.00 was asked)
// used to be polled silently until the run's whole budget was spent (a check's 15 minutes, seen
// at 12 minutes by a probe). The wait now ends once the balance has stood still below the amount
// for FUNDING_STALL_MS of wall time, saying what arrived and what was needed. A real deployed-dialect
// serve and a real funding command; the wall clock is a test clock whose sleeps pass at once.
import { describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { FUNDING_STALL_MS, openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';

const serve = manualServes(
  {
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '3',
    startMs: Date.parse('2025-03-01T00:00:00Z'),
  },
  { forceAfterMs: 0 },
);

describe('a funding that credits less than asked', () => {
  test('ends once the balance stands still, naming what arrived and what was needed', async () => {
    const handle = await serve();
    const casino = handle.urls.casino as string;
    // Deposits 1 USDC (confirmed at once on the manual clock), whatever AFP_AMOUNT asks.
    const fund = `const u='${casino}';await fetch(u+'/_afp/casino/deposit',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({agent_id:process.env.AFP_AGENT_ID,chain:'base',amount:'1',confirmed:true})});`;
    const target: Target = {
      name: 'short-funded',
      source: 'test',
      afpServe: false,
      adminUrl: null,
      register: { service: 'casino' },
      funding: { method: 'command', command: `node --input-type=module -e "${fund}"` },
      limits: {},
      fairness: 'afp',
      services: { casino: { url: casino, dialect: 'deployed' } },
    };
    let nowMs = Date.now();
    const clock: WaitClock = {
      nowMs: () => nowMs,
      sleep: async (ms) => {
        nowMs += ms;
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
    const deadline = new Deadline(clock, 900);
    const opened = await openLiveAccount({
      session: new LiveSession({ target, clock, deadline }),
      key: null,
      fundMicro: 5_000_000n,
      clock,
      deadline,
    });
    expect(opened).toMatchObject({ ok: false, kind: 'trouble' });
    const message = opened.ok ? '' : opened.message;
    expect(message).toContain('the funds stopped arriving: the balance is 1.00 USDC of the 5.00 needed');
    expect(message).toContain(`unchanged for ${FUNDING_STALL_MS / 60_000} minutes`);
    // It gave up at the stall, not at the end of the budget.
    expect(deadline.remainingMs()).toBeGreaterThan(900_000 - FUNDING_STALL_MS - 60_000);
  });
});
