// Issue 20's acceptance through the check's frame: every trading and domains bad input of
// SERVICE_BAD_INPUTS (types, ranges, unknown pairs and markets, invalid DNS content, years and
// leverage outside 1..10, a limit order without price) answers its 4xx JSON `{ error, code }`, and
// nothing changes: after each, the frame reads every balance back, then the agent's orders,
// positions and domains are still what the model holds — in-process and against
// `afp serve --clock manual`. And the frame catches a row whose bad input was accepted.
import { describe, expect, it } from 'vitest';
import { CHECK_START_MS, type CheckRun } from '../../src/check/check-target.ts';
import { inProcessTarget } from '../../src/check/in-process-target.ts';
import { liveTarget } from '../../src/check/live-target.ts';
import { SERVICE_BAD_INPUTS, badInputCommand } from '../../src/check/command-bad-input.ts';
import { registerCommand } from '../../src/check/faucet/command-faucet.ts';
import { ModelCommand, type CommandSpec } from '../../src/check/model-command.ts';
import { placeOrderCommand, tradingViewCommand } from '../../src/check/trading/command-trading.ts';
import { SystemClock } from '../../src/core/clock.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

function steps(): CommandSpec[] {
  return [
    registerCommand({ style: 'B', again: null, referrer: null }),
    registerCommand({ style: 'B', again: null, referrer: null }),
    // Something held, so that "nothing changes" has something to keep: a long and a resting order.
    placeOrderCommand({
      style: 'B',
      slot: 0,
      market: 0,
      side: 'buy',
      type: 'market',
      limit: 'far',
      size: 2_000_000n,
      leverage: 2,
    }),
    placeOrderCommand({
      style: 'B',
      slot: 0,
      market: 1,
      side: 'sell',
      type: 'limit',
      limit: 'far',
      size: 1_000_000n,
      leverage: 1,
    }),
    ...SERVICE_BAD_INPUTS.map((row) => badInputCommand(row, 0, 1)),
    tradingViewCommand('portfolioB', 0, 0),
    tradingViewCommand('ordersB', 0, 100),
  ];
}

async function runSteps(run: CheckRun): Promise<void> {
  for (const spec of steps()) {
    const command = new ModelCommand(spec);
    if (!command.check(run.model)) throw new Error(`${spec.label} was not applicable`);
    await command.run(run.model, run.real);
  }
  expect(run.model.trading.orders.map((order) => order.status)).toEqual(['filled', 'open']);
  expect(run.model.agents[0]?.balanceMicro).toBe(10_000_000n - 1_000_000n - 4_000n - 1_000_000n - 1_000n);
}

const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '9',
  startMs: CHECK_START_MS,
});

describe('trading and domains bad input through the check frame', () => {
  it('covers every kind the acceptance names', () => {
    const names = SERVICE_BAD_INPUTS.map((row) => row.name).join('\n');
    for (const kind of [
      /amount "ten"/,
      /size a string/,
      /unknown pair/,
      /unknown market/,
      /A record 300/,
      /CNAME not a host/,
      /years 0/,
      /years 11/,
      /leverage 0/,
      /leverage 11/,
      /limit without price/,
    ])
      expect(names).toMatch(kind);
    expect(SERVICE_BAD_INPUTS.every((row) => row.status >= 400 && row.status < 500)).toBe(true);
  });

  it('every row answers its 4xx and nothing changes, in-process', async () => {
    await runSteps(await inProcessTarget({ seed: 4 }).newRun());
  });

  it('every row answers its 4xx and nothing changes, against afp serve --clock manual', async () => {
    const handle = await serve();
    if (handle.urls.api === undefined) throw new Error('afp serve has an api mount');
    const target = await liveTarget({
      url: handle.urls.api,
      session: 'bad1e9b0',
      wallClock: new SystemClock(),
      timeoutMs: 5_000,
    });
    await runSteps(await target.newRun());
  });

  it('a bad input the service accepted would be caught: a valid order in a bad-input row is answered 201', async () => {
    const run = await inProcessTarget({ seed: 4 }).newRun();
    await new ModelCommand(registerCommand({ style: 'B', again: null, referrer: null })).run(run.model, run.real);
    const row = SERVICE_BAD_INPUTS.find((candidate) => candidate.name === 'order B: leverage 11');
    if (row === undefined) throw new Error('the row exists');
    const accepted = {
      ...row,
      input: () => ({
        body: { pair: 'BTC-USDC', side: 'buy', amount: '2.00', type: 'market', market_type: 'perp', leverage: 10 },
      }),
    };
    await expect(new ModelCommand(badInputCommand(accepted, 0, 1)).run(run.model, run.real)).rejects.toThrow(
      /status: expected 400 BAD_REQUEST, got 201/,
    );
  });
});
