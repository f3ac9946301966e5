// The trading check through time, exactly: funding at each 00/08/16 UTC instant with the exact
// amount, liquidation at the first tick the mark crosses (margin forfeited, balance untouched),
// resting limits filling at their limit at the crossing tick (and not while their market is
// closed), in-process and over HTTP against `afp serve --clock manual`; and the deliberate
// defects trading-funding-late, trading-liquidation-as-close and trading-limit-at-quote, each
// seen by a scripted journey and found and shrunk by random runs.
import { describe, expect, it } from 'vitest';
import { marketClosuresFrom, type CheckRun } from '../../../src/check/check-target.ts';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { liveTarget } from '../../../src/check/live-target.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';
import { runCheck } from '../../../src/check/run-check.ts';
import {
  placeOrderCommand,
  tradingViewCommand,
  type PlaceCommandInput,
} from '../../../src/check/trading/command-trading.ts';
import { SystemClock } from '../../../src/core/clock.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';
import { manualServes } from '../../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../../src/http/trusted-proxies.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const START_MS = Date.parse('2025-03-01T09:30:00.000Z');
/** From the start (09:30 UTC) to the first funding instant (16:00 UTC). */
const TO_FUNDING_MS = 6 * HOUR_MS + 30 * MINUTE_MS;

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

/**
 * Both sides of BTC at ×10, resting limits near the quote on ETH (both sides) and on BTC spot
 * (closed for the run's 2nd and 3rd hour), then time: to 1 ms before the first funding instant,
 * onto it, 1 ms past it, a minute, then weeks — every step followed by every trading agent's
 * portfolio compared field for field.
 */
function journey(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    order({ style: 'A', slot: 0, size: 40_000_000n, leverage: 10 }),
    order({ style: 'B', slot: 1, side: 'sell', size: 40_000_000n, leverage: 10 }),
    order({ style: 'B', slot: 0, market: 1, type: 'limit', limit: 'near', size: 1_000_000n, leverage: 1 }),
    order({
      style: 'A',
      slot: 1,
      market: 1,
      side: 'sell',
      type: 'limit',
      limit: 'near',
      size: 1_000_000n,
      leverage: 2,
    }),
    order({ style: 'B', slot: 2, market: 2, type: 'limit', limit: 'near', size: 2_000_000n, leverage: 1 }),
    order({ style: 'B', slot: 2, type: 'limit', limit: 'near', size: 1_000_000n, leverage: 5 }),
    advanceTimeCommand({ kind: 'by', ms: TO_FUNDING_MS - 1 }),
    advanceTimeCommand({ kind: 'by', ms: 1 }),
    advanceTimeCommand({ kind: 'by', ms: 1 }),
    advanceTimeCommand({ kind: 'by', ms: MINUTE_MS }),
    tradingViewCommand('positionsA', 0, 0),
    ...Array.from({ length: 4 }, () => advanceTimeCommand({ kind: 'by', ms: 7 * 24 * HOUR_MS })),
    tradingViewCommand('portfolioB', 1, 0),
  ];
}

async function runJourney(run: CheckRun): Promise<void> {
  for (const spec of journey()) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) throw new Error(`${spec.label} does not apply`);
    await command.run(run.model, run.real);
  }
}

function expectJourneyState(run: CheckRun): void {
  const trading = run.model.trading;
  // Every resting order met its limit within the weeks; at ×10 a side was liquidated.
  expect(trading.orders.filter((placed) => placed.status === 'open')).toEqual([]);
  expect(trading.orders.filter((placed) => placed.status === 'filled').length).toBeGreaterThanOrEqual(5);
  expect(trading.liquidations).toBeGreaterThanOrEqual(1);
  expect(trading.shortfallMicro).toBeGreaterThanOrEqual(0n);
  for (const agent of run.model.agents) if (agent !== undefined) expect(agent.balanceMicro).toBeGreaterThanOrEqual(0n);
  // Neither funding nor liquidation touches a balance: a0 paid its BTC margin and taker fee, its ETH
  // limit's margin and maker fee, and was paid 20% of a2's two maker fees (2.00 and 1.00 × 0.1%) by the sweep.
  expect(run.model.agents[0]?.balanceMicro).toBe(
    10_000_000n - 4_000_000n - 80_000n - 1_000_000n - 1_000n + 400n + 200n,
  );
}

const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '4',
  startMs: START_MS,
  trading: { shocks: [], closures: marketClosuresFrom(START_MS) },
});
const serveWith = (defects: readonly DefectName[]) =>
  manualServes({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '4',
    startMs: START_MS,
    defects,
    trading: { shocks: [], closures: marketClosuresFrom(START_MS) },
  });
const serveFundingLate = serveWith(['trading-funding-late']);
const serveLimitAtQuote = serveWith(['trading-limit-at-quote']);

async function servedRun(start: () => Promise<{ urls: { api?: string } }>): Promise<CheckRun> {
  const handle = await start();
  if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
  const target = await liveTarget({
    url: handle.urls.api,
    session: '7ad1e5e6',
    wallClock: new SystemClock(),
    timeoutMs: 5_000,
  });
  expect(target.capabilities).toMatchObject({ trading: true, exactTime: true, advance: true });
  return target.newRun();
}

describe('the trading check through time', () => {
  it('predicts funding, liquidation and limit fills at their exact instants in-process', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await runJourney(run);
    expectJourneyState(run);
  });

  it('predicts the same over HTTP against afp serve --clock manual (the seed from GET /_afp/platform)', async () => {
    const run = await servedRun(serve);
    await runJourney(run);
    expectJourneyState(run);
  });

  it('sees trading-funding-late at the funding instant itself, in-process and against serve', async () => {
    const failure = /^advanceTime\(\+1 ms\), then the portfolio of a0 .* body\.positions\[0\]\.margin: expected /;
    await expect(
      runJourney(await inProcessTarget({ seed: 4, defects: ['trading-funding-late'] }).newRun()),
    ).rejects.toThrow(failure);
    await expect(runJourney(await servedRun(serveFundingLate))).rejects.toThrow(failure);
  });

  it('sees trading-limit-at-quote at the tick a resting limit fills', async () => {
    await expect(
      runJourney(await inProcessTarget({ seed: 4, defects: ['trading-limit-at-quote'] }).newRun()),
    ).rejects.toThrow(/^advanceTime\(.*\), then the portfolio of a\d .*entry_price: expected /);
  });

  it('sees trading-liquidation-as-close in the balance after the liquidating tick', async () => {
    await expect(
      runJourney(await inProcessTarget({ seed: 4, defects: ['trading-liquidation-as-close'] }).newRun()),
    ).rejects.toThrow(
      /^advanceTime\(\+7 d\), then the portfolio of a\d .*\(1 liquidation\(s\) so far\).* body\.balance: expected /,
    );
  });

  // Seeds chosen where random runs meet the rule within a few dozen runs (each a few seconds).
  const shrinkCases: readonly { defect: DefectName; seed: number; last: RegExp; error: RegExp }[] = [
    { defect: 'trading-funding-late', seed: 7, last: /^advanceTime\(/, error: /margin: expected / },
    { defect: 'trading-limit-at-quote', seed: 4, last: /^advanceTime\(/, error: /entry_price: expected / },
    {
      defect: 'trading-liquidation-as-close',
      seed: 2,
      last: /^advanceTime\(/,
      error: /\(1 liquidation\(s\) so far\).* body\.balance: expected /,
    },
  ];
  for (const { defect, seed, last, error } of shrinkCases) {
    it(`random runs find ${defect} and shrink it to an order and the time step past its tick`, async () => {
      const result = await runCheck({ seed, runs: 60, defects: [defect] });
      expect(result.ok).toBe(false);
      const commands = result.failure?.commands ?? [];
      expect(commands.length).toBeLessThanOrEqual(4);
      expect(commands.some((command) => /^placeOrder[AB]\(a\d, BTC-PERP, /.test(command))).toBe(true);
      expect(commands.at(-1)).toMatch(last);
      expect(result.failure?.error).toMatch(error);
    });
  }

  it('random runs against afp serve --clock manual find trading-limit-at-quote and shrink it', async () => {
    const handle = await serveLimitAtQuote();
    const result = await runCheck({ target: handle.urls.api as string, seed: 4, runs: 60 });
    expect(result.ok).toBe(false);
    expect((result.failure?.commands ?? []).length).toBeLessThanOrEqual(4);
    expect(result.failure?.commands.at(-1)).toMatch(/^advanceTime\(/);
    expect(result.failure?.error).toMatch(/entry_price: expected /);
  });
});
