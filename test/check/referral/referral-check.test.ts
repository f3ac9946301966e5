// The referral levels in afp check: in a chain a0 ← a1 ← a2 ← a3, a3 pays trading, domains and
// escrow fees (its escrow to a1, a party, skips a1's level-2 share); the reference model (src/check/model-referral.ts) predicts every level's share, and the
// ModelCommand frame reads every balance back after the referral sweep — in-process and over HTTP
// against `afp serve --clock manual`. With the defect referral-level2-full-share the read-back
// after the sweep disagrees (a1, at level 2, is paid the level-1 share).
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../../src/check/check-target.ts';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { liveTarget } from '../../../src/check/live-target.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { registerDomainCommand } from '../../../src/check/domains/command-domains.ts';
import { plainEscrowCommand, releaseCommand } from '../../../src/check/escrow/command-escrow.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';
import { placeOrderCommand } from '../../../src/check/trading/command-trading.ts';
import { SystemClock } from '../../../src/core/clock.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

const HOUR_MS = 3_600_000;

/** Up to the fees: the payables hold the shares, the sweep has not run. */
function fees(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    registerCommand({ style: 'A', again: null, referrer: { slot: 1, via: 'address' } }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 2, via: 'code' } }),
    // a0 (no referrer: its fee pays nobody) funds a3, the payer, for a domain (.xyz, 14.40).
    plainEscrowCommand(0, 3, 9_900_000n),
    releaseCommand({ style: 'B', caller: 'sender', escrow: { index: 0 } }),
    registerDomainCommand({ style: 'B', slot: 3, index: 0, years: 1 }),
    placeOrderCommand({
      style: 'A',
      slot: 3,
      market: 0,
      side: 'buy',
      type: 'market',
      limit: 'far',
      size: 2_500_000n,
      leverage: 1,
    }),
    plainEscrowCommand(3, 1, 2_000_000n),
    releaseCommand({ style: 'B', caller: 'sender', escrow: { index: 1 } }),
  ];
}

async function run(check: CheckRun, specs: readonly CommandSpec[]): Promise<string[]> {
  const skipped: string[] = [];
  for (const spec of specs) {
    const command = new ModelCommand(spec);
    if (!command.check(check.model)) skipped.push(spec.label);
    else await command.run(check.model, check.real);
  }
  return skipped;
}

/** The sweep pays every payable: the frame reads each balance back against the model. */
const sweep = (): CommandSpec[] => [advanceTimeCommand({ kind: 'by', ms: 25 * HOUR_MS })];

function expectLevels(check: CheckRun): void {
  const pending = [0, 1, 2, 3].map((slot) => check.model.agents[slot]?.pendingReferralMicro ?? 0n);
  // a2 (level 1) > a1 (level 2) > a0 (level 3) > 0; a3, the payer, earns nothing.
  expect(pending[2]).toBeGreaterThan(pending[1] ?? 0n);
  expect(pending[1]).toBeGreaterThan(pending[0] ?? 0n);
  expect(pending[0]).toBeGreaterThan(0n);
  expect(pending[3]).toBe(0n);
}

const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '21',
  startMs: Date.parse('2025-03-01T09:30:00.000Z'),
});

describe('referral levels in afp check', () => {
  it('the model predicts every level in-process, and the balances after the sweep agree', async () => {
    const check = await inProcessTarget({ seed: 21 }).newRun();
    expect(await run(check, fees())).toEqual([]);
    expectLevels(check);
    expect(await run(check, sweep())).toEqual([]);
    expect(check.model.agents[1]?.pendingReferralMicro).toBe(0n);
  });

  it('the same over HTTP against afp serve --clock manual', async () => {
    const handle = await serve();
    if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
    const target = await liveTarget({
      url: handle.urls.api,
      session: '2121abcd',
      wallClock: new SystemClock(),
      timeoutMs: 5_000,
    });
    const check = await target.newRun();
    expect(await run(check, fees())).toEqual([]);
    expectLevels(check);
    expect(await run(check, sweep())).toEqual([]);
  });

  it('a level 2 paid the level-1 share is seen when the sweep pays it', async () => {
    const check = await inProcessTarget({ seed: 21, defects: ['referral-level2-full-share'] }).newRun();
    expect(await run(check, fees())).toEqual([]);
    await expect(run(check, sweep())).rejects.toThrow(/then the balance of a1 .*body.balance_usdc: expected/);
  });
});
