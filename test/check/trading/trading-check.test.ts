// The trading check: a scripted journey through every trading command family (the ModelCommand
// frame: each answer compared with the model, every balance read back) in-process and over HTTP
// against `afp serve --clock manual`; random runs hold in-process and against serve, reach filled
// orders (not only refusals), and find and shrink the deliberate defect trading-fee-unpaid.
import { describe, expect, it } from 'vitest';
import { marketClosuresFrom, type CheckRun } from '../../../src/check/check-target.ts';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { liveTarget } from '../../../src/check/live-target.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';
import { runCheck } from '../../../src/check/run-check.ts';
import {
  cancelOrderCommand,
  placeOrderCommand,
  tradingViewCommand,
  type PlaceCommandInput,
} from '../../../src/check/trading/command-trading.ts';
import { SystemClock } from '../../../src/core/clock.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

const HOUR_MS = 3_600_000;

function order(input: Partial<PlaceCommandInput> & Pick<PlaceCommandInput, 'style' | 'slot'>): CommandSpec {
  return placeOrderCommand({
    market: 0,
    side: 'buy',
    type: 'market',
    limit: 'far',
    size: 2_500_000n,
    leverage: 1,
    ...input,
  });
}

function journey(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    // Refusals: unknown market, leverage 0 and 11, a limit without price, more than the balance.
    order({ style: 'A', slot: 1, market: 'unknown' }),
    order({ style: 'B', slot: 1, leverage: 0 }),
    order({ style: 'A', slot: 1, leverage: 11 }),
    order({ style: 'B', slot: 1, type: 'limit', limit: 'missing' }),
    order({ style: 'A', slot: 1, size: 10_000_001n }),
    // a1 (referred by a0) opens a long at leverage 5, adds to it, and a short on ETH at leverage 10.
    order({ style: 'A', slot: 1, size: 5_000_000n, leverage: 5 }),
    order({ style: 'B', slot: 1, size: 2_500_000n, leverage: 2 }),
    order({ style: 'B', slot: 1, market: 1, side: 'sell', size: 40_000_000n, leverage: 10 }),
    tradingViewCommand('positionsA', 1, 0),
    tradingViewCommand('portfolioB', 1, 0),
    // A resting limit (held), a marketable limit (taker at the quote), a cancel by another agent, by the owner, twice.
    order({ style: 'B', slot: 1, type: 'limit', limit: 'far', size: 1_000_000n, leverage: 1 }),
    order({ style: 'A', slot: 2, side: 'sell', type: 'limit', limit: 'far', size: 1_000_000n }),
    order({ style: 'A', slot: 2, type: 'limit', limit: 'through', size: 1_000_000n, leverage: 10 }),
    tradingViewCommand('portfolioB', 1, 0),
    tradingViewCommand('ordersB', 1, 2),
    tradingViewCommand('ordersB', 1, 101),
    cancelOrderCommand({ style: 'A', role: 'outsider', order: { index: 0, open: true } }),
    cancelOrderCommand({ style: 'B', role: 'owner', order: { index: 0, open: true } }),
    cancelOrderCommand({ style: 'A', role: 'owner', order: { index: 3, open: false } }),
    cancelOrderCommand({ style: 'B', role: 'owner', order: 'unknown' }),
    // A partial close (opposite, smaller), then the rest of the BTC long closed at the quote.
    order({ style: 'A', slot: 1, side: 'sell', size: 1_000_000n, leverage: 1 }),
    order({ style: 'B', slot: 1, side: 'close', size: 'close' }),
    tradingViewCommand('positionsA', 1, 0),
    // Time: ticks, a funding instant (00/08/16 UTC), then the positions re-read.
    advanceTimeCommand({ kind: 'by', ms: 30 * 60_000 }),
    advanceTimeCommand({ kind: 'by', ms: 9 * HOUR_MS }),
    tradingViewCommand('portfolioB', 1, 0),
    order({ style: 'A', slot: 1, market: 1, side: 'close', size: 'close' }),
    tradingViewCommand('portfolioB', 1, 0),
    cancelOrderCommand({ style: 'B', role: 'owner', order: { index: 0, open: true } }),
    order({ style: 'B', slot: 2, side: 'close', size: 'close' }),
    tradingViewCommand('portfolioB', 2, 0),
    tradingViewCommand('positionsA', 2, 0),
  ];
}

async function runJourney(run: CheckRun): Promise<string[]> {
  const skipped: string[] = [];
  for (const spec of journey()) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) skipped.push(spec.label);
    else await command.run(run.model, run.real);
  }
  return skipped;
}

function expectJourneyState(run: CheckRun): void {
  const trading = run.model.trading;
  // Every position closed, every resting order cancelled: all the money is back in the balances.
  expect(trading.positions).toEqual([]);
  expect(trading.orders.filter((placed) => placed.status === 'open')).toEqual([]);
  expect(trading.orders.map((placed) => `${placed.slot}:${placed.status}`)).toEqual([
    '1:filled',
    '1:filled',
    '1:filled',
    '1:cancelled',
    '2:cancelled',
    '2:filled',
    '1:filled',
    '1:filled',
    '1:filled',
    '2:filled',
  ]);
  expect(trading.liquidations).toBe(0);
  // a2 traded a 1.00 notional at ×10 and closed it: two taker fees, the PnL of hours and one funding (the frame read the exact figure back).
  const a2 = run.model.agents[2]?.balanceMicro ?? 0n;
  expect(a2).not.toBe(10_000_000n);
  expect(a2 > 9_800_000n && a2 < 10_200_000n).toBe(true);
  // a0 referred a1: 20% of a1's fees waits in a0's payable until the sweep.
  expect(run.model.agents[0]?.pendingReferralMicro).toBeGreaterThan(0n);
}

const SERVE_START_MS = Date.parse('2025-03-01T09:30:00.000Z');
const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '5',
  startMs: SERVE_START_MS,
  trading: { shocks: [], closures: marketClosuresFrom(SERVE_START_MS) },
});

async function served(): Promise<string> {
  const handle = await serve();
  if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
  return handle.urls.api;
}

describe('the trading check', () => {
  it('holds through the scripted journey in-process: every rule met, every balance read back', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    expect(await runJourney(run)).toEqual([]);
    expectJourneyState(run);
  });

  it('holds through the same journey over HTTP against afp serve --clock manual', async () => {
    const target = await liveTarget({
      url: await served(),
      session: '7ad1e5e5',
      wallClock: new SystemClock(),
      timeoutMs: 5_000,
    });
    expect(target.capabilities).toMatchObject({ trading: true, exactTime: true });
    const run = await target.newRun();
    expect(await runJourney(run)).toEqual([]);
    expectJourneyState(run);
  });

  it('follows funding and liquidation through time: both sides at ×10, weeks of steps, margins re-read, balances untouched', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    const steps: CommandSpec[] = [
      registerCommand({ style: 'B', again: null, referrer: null }),
      registerCommand({ style: 'B', again: null, referrer: null }),
      order({ style: 'A', slot: 0, size: 40_000_000n, leverage: 10 }),
      order({ style: 'B', slot: 1, side: 'sell', size: 40_000_000n, leverage: 10 }),
      ...Array.from({ length: 8 }, () => advanceTimeCommand({ kind: 'by', ms: 7 * 24 * HOUR_MS })),
    ];
    for (const spec of steps) await new ModelCommand(spec).run(run.model, run.real);
    // One side lost more than its margin's worth and was liquidated: every balance (10 − 4.00 margin − 0.08 fee) is untouched.
    expect(run.model.trading.liquidations).toBeGreaterThanOrEqual(1);
    const balances = [run.model.agents[0]?.balanceMicro, run.model.agents[1]?.balanceMicro];
    expect(balances).toEqual([10_000_000n - 4_000_000n - 80_000n, 10_000_000n - 4_000_000n - 80_000n]);
    await new ModelCommand(tradingViewCommand('portfolioB', 0, 0)).run(run.model, run.real);
    await new ModelCommand(tradingViewCommand('positionsA', 1, 0)).run(run.model, run.real);
  });

  it('the portfolio read after time moves sees a margin the wire does not hold', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await new ModelCommand(registerCommand({ style: 'B', again: null, referrer: null })).run(run.model, run.real);
    await new ModelCommand(order({ style: 'A', slot: 0, size: 5_000_000n, leverage: 5 })).run(run.model, run.real);
    const position = run.model.trading.positions[0];
    if (position === undefined) throw new Error('the order opened a position');
    position.marginMicro += 1n;
    await expect(
      new ModelCommand(advanceTimeCommand({ kind: 'by', ms: 60_000 })).run(run.model, run.real),
    ).rejects.toThrow(/body\.positions\[0\]\.margin: expected "1\.000001", got "1\.00"/);
  });

  it('finds trading-fee-unpaid in the journey: the first market fill answers fee 0', async () => {
    const run = await inProcessTarget({ seed: 4, defects: ['trading-fee-unpaid'] }).newRun();
    await expect(runJourney(run)).rejects.toThrow(
      /^placeOrderA\(a1, BTC-PERP, buy, market, 5\.00, x5\) .*body\.fee: expected 0\.01, got 0/,
    );
  });

  it('random runs find trading-fee-unpaid and shrink it to a short sequence ending in a taker fill', async () => {
    const result = await runCheck({ seed: 1, runs: 200, defects: ['trading-fee-unpaid'] });
    expect(result.ok).toBe(false);
    const commands = result.failure?.commands ?? [];
    expect(commands.length).toBeLessThanOrEqual(4);
    expect(commands.at(-1)).toMatch(/^placeOrder[AB]\(a\d, (BTC|ETH)-PERP, (buy|sell|close), (market|limit through), /);
    expect(result.failure?.error).toMatch(/body\.fee: expected/);
  });

  it('random runs hold in-process and against serve', async () => {
    for (const seed of [31, 32, 33, 34]) {
      const result = await runCheck({ seed, runs: 40 });
      expect(result.failure?.error, `seed ${seed}`).toBeUndefined();
    }
    const result = await runCheck({ target: await served(), seed: 35, runs: 10 });
    expect(result.failure?.error).toBeUndefined();
    expect(result.ok).toBe(true);
  });
});
