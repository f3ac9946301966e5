// The trading check beyond perpetual fills: spot orders (the quote balance, holdings, reserved
// units, sells of the free holding), market closures (409 MARKET_CLOSED inside the window, `open`
// on the quote, at the window's exact edges) and the views' unrealized PnL and liquidation price
// predicted from the quote read at the same instant — in-process and against
// `afp serve --clock manual` serving the same closures; and the model caught when it is wrong.
import { describe, expect, it } from 'vitest';
import { CHECK_START_MS, marketClosuresFrom, type CheckRun } from '../../../src/check/check-target.ts';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { liveTarget } from '../../../src/check/live-target.ts';
import { advanceTimeCommand } from '../../../src/check/command-time.ts';
import { registerCommand } from '../../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../../src/check/model-command.ts';
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
const BTC_PERP = 0;
const ETH_PERP = 1;
const BTC_SPOT = 2;

function order(input: Partial<PlaceCommandInput> & Pick<PlaceCommandInput, 'style' | 'slot'>): CommandSpec {
  return placeOrderCommand({
    market: BTC_SPOT,
    side: 'buy',
    type: 'market',
    limit: 'far',
    size: 2_500_000n,
    leverage: 1,
    ...input,
  });
}

/** Spot buys, a resting sell and buy, a sell of the free holding, refusals; perpetual views; the closure window and its edges. */
function journey(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: { slot: 0, via: 'id' } }),
    order({ style: 'A', slot: 1 }),
    order({ style: 'B', slot: 1, size: 2_000_000n }),
    // Spot refusals: leverage 2 (spot is 1), a sell beyond the holding, a buy beyond the balance.
    order({ style: 'B', slot: 1, leverage: 2 }),
    order({ style: 'A', slot: 1, side: 'sell', size: 9_000_000n }),
    order({ style: 'B', slot: 0, size: 10_000_000n }),
    // A resting sell reserves units, a resting buy holds size + maker fee; then the free rest is sold.
    order({ style: 'B', slot: 1, side: 'sell', type: 'limit', limit: 'far', size: 1_000_000n }),
    order({ style: 'A', slot: 1, type: 'limit', limit: 'far', size: 1_000_000n }),
    tradingViewCommand('portfolioB', 1, 0),
    order({ style: 'B', slot: 1, side: 'close', size: 'close' }),
    tradingViewCommand('portfolioB', 1, 0),
    cancelOrderCommand({ style: 'A', role: 'owner', order: { index: 0, open: true } }),
    tradingViewCommand('portfolioB', 1, 0),
    // Perpetual positions valued at the mark: a long and a short, views in both styles.
    order({ style: 'A', slot: 0, market: BTC_PERP, size: 5_000_000n, leverage: 5 }),
    order({ style: 'B', slot: 0, market: ETH_PERP, side: 'sell', size: 20_000_000n, leverage: 10 }),
    tradingViewCommand('positionsA', 0, 0),
    tradingViewCommand('portfolioB', 0, 0),
    // One millisecond before the window: still open; at its first instant: closed (409), quotes say so.
    advanceTimeCommand({ kind: 'by', ms: HOUR_MS - 1 }),
    order({ style: 'B', slot: 1, size: 1_000_000n }),
    advanceTimeCommand({ kind: 'by', ms: 1 }),
    order({ style: 'A', slot: 1, size: 1_000_000n }),
    order({ style: 'B', slot: 0, market: ETH_PERP, side: 'close', size: 'close' }),
    order({ style: 'A', slot: 0, market: BTC_PERP, side: 'close', size: 'close' }),
    tradingViewCommand('portfolioB', 0, 0),
    // ETH reopens after one hour, BTC spot after two.
    advanceTimeCommand({ kind: 'by', ms: HOUR_MS }),
    order({ style: 'B', slot: 0, market: ETH_PERP, side: 'close', size: 'close' }),
    order({ style: 'B', slot: 1, size: 1_000_000n }),
    advanceTimeCommand({ kind: 'by', ms: HOUR_MS }),
    order({ style: 'A', slot: 1, side: 'close', size: 'close' }),
    tradingViewCommand('portfolioB', 1, 0),
    tradingViewCommand('positionsA', 0, 0),
  ];
}

async function runJourney(run: CheckRun): Promise<void> {
  for (const spec of journey()) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) throw new Error(`${spec.label} was not applicable`);
    await command.run(run.model, run.real);
  }
}

function expectJourneyState(run: CheckRun): void {
  const trading = run.model.trading;
  // Two spot buys, the resting sell (cancelled) and buy (still open), the free-holding sell, the long and the short,
  // the buy 1 ms before the window, the BTC-PERP close inside it (only ETH-PERP and BTC spot close), the ETH close
  // once it reopened and the last spot sell; refusals and orders on a closed market left no order.
  expect(trading.orders.map((placed) => `${placed.slot}:${placed.market}:${placed.status}`)).toEqual([
    '1:2:filled',
    '1:2:filled',
    '1:2:cancelled',
    '1:2:open',
    '1:2:filled',
    '0:0:filled',
    '0:1:filled',
    '1:2:filled',
    '0:0:filled',
    '0:1:filled',
    '1:2:filled',
  ]);
  expect(trading.positions).toEqual([]);
  const holding = trading.holdings.find((held) => held.slot === 1);
  expect(holding?.reservedQty).toBe(0n);
  // What is left after selling the free holding is less than one unit's worth of a cent.
  expect(holding !== undefined && holding.qty < 2_000n).toBe(true);
}

const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '5',
  startMs: CHECK_START_MS,
  trading: { shocks: [], closures: marketClosuresFrom(CHECK_START_MS) },
});

async function served(): Promise<string> {
  const handle = await serve();
  if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
  return handle.urls.api;
}

describe('the trading check: spot, closures, unrealized PnL and liquidation price', () => {
  it('holds through the spot and closure journey in-process', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await runJourney(run);
    expectJourneyState(run);
  });

  it('holds through the same journey over HTTP against afp serve --clock manual with the same closures', async () => {
    const target = await liveTarget({
      url: await served(),
      session: '5b07c105',
      wallClock: new SystemClock(),
      timeoutMs: 5_000,
    });
    expect(target.notes.join('\n')).not.toMatch(/market closures/);
    const run = await target.newRun();
    expect(run.model.trading.closures).toEqual(marketClosuresFrom(CHECK_START_MS));
    await runJourney(run);
    expectJourneyState(run);
  });

  it('a model that does not know the closure sees the 409 MARKET_CLOSED and the closed quote', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await new ModelCommand(registerCommand({ style: 'B', again: null, referrer: null })).run(run.model, run.real);
    await new ModelCommand(advanceTimeCommand({ kind: 'by', ms: HOUR_MS })).run(run.model, run.real);
    Object.assign(run.model.trading, { closures: [] });
    await expect(new ModelCommand(order({ style: 'B', slot: 0 })).run(run.model, run.real)).rejects.toThrow(
      /open: expected true .*got false/,
    );
  });

  it('the views catch a wrong margin through the liquidation price and a wrong entry through the unrealized PnL', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await new ModelCommand(registerCommand({ style: 'B', again: null, referrer: null })).run(run.model, run.real);
    await new ModelCommand(order({ style: 'A', slot: 0, market: BTC_PERP, size: 5_000_000n, leverage: 5 })).run(
      run.model,
      run.real,
    );
    const position = run.model.trading.positions[0];
    if (position === undefined) throw new Error('the order opened a position');
    position.entry += 100_000_000n;
    await expect(new ModelCommand(tradingViewCommand('positionsA', 0, 0)).run(run.model, run.real)).rejects.toThrow(
      /unrealized_pnl: expected/,
    );
    position.entry -= 100_000_000n;
    position.marginMicro += 1_000n;
    await expect(new ModelCommand(tradingViewCommand('portfolioB', 0, 0)).run(run.model, run.real)).rejects.toThrow(
      /liquidation_price: expected/,
    );
  });

  it('a spot sell the model thinks the holding covers is refused by the wire (422), caught', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await new ModelCommand(registerCommand({ style: 'B', again: null, referrer: null })).run(run.model, run.real);
    await new ModelCommand(order({ style: 'B', slot: 0 })).run(run.model, run.real);
    const holding = run.model.trading.holdings[0];
    if (holding === undefined) throw new Error('the buy made a holding');
    holding.qty *= 2n;
    await expect(
      new ModelCommand(order({ style: 'A', slot: 0, side: 'close', size: 'close' })).run(run.model, run.real),
    ).rejects.toThrow(/expected 201.*got 422|status: expected 201, got 422/);
  });
});
