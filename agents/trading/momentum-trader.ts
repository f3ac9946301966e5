/**
 * Archetype `momentum-trader`: registers, then every `every` reads the quote of its perpetual and
 * follows the move since its last look: up by more than `threshold_bps` → be long, down by more
 * → be short (an order of twice the size flips an open position). It keeps one position.
 *
 * Answers: a filled order (its fee checked against the taker rule, trading-kit.ts); MARKET_CLOSED
 * (waits `closed_wait`); INSUFFICIENT_BALANCE (gives up after BROKE_MAX in a row: its position
 * was liquidated or its balance spent). Anything else an order cannot get is reported.
 */
import { z } from 'zod';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  claimIfDue,
  freshFaucetMemory,
  HOUR_MS,
  jittered,
  memoryOf,
  MINUTE_MS,
  onboard,
  RETRY_MS,
  usdcAmount,
  type FaucetMemory,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { perpAsset, placeOrder, readQuote } from '../../src/agent/trading-kit.ts';

const BROKE_MAX = 5;

const params = z.strictObject({
  market: perpAsset().prefault('BTC').describe('asset of the perpetual traded (BTC for BTC-PERP)'),
  amount: usdcAmount().prefault(2).describe('USDC notional per order'),
  leverage: z.int().min(1).max(10).prefault(3).describe('leverage of every order'),
  threshold_bps: z
    .int()
    .min(1)
    .max(5000)
    .prefault(20)
    .describe('move since the last look, in basis points, that triggers a trade'),
  every: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
    .prefault('15m')
    .describe('time between looks'),
  closed_wait: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
    .prefault('1h')
    .describe('wait after a MARKET_CLOSED answer'),
});

type Params = z.output<typeof params>;

interface MomentumMemory extends FaucetMemory {
  lastMid: bigint | null;
  side: 'long' | 'short' | null;
  broke: number;
}

function memory(context: AgentContext<Params>): MomentumMemory {
  return memoryOf(context, () => ({ ...freshFaucetMemory(), lastMid: null, side: null, broke: 0 }));
}

export const momentumTrader = defineAgent<Params>({
  name: 'momentum-trader',
  service: 'trading',
  description: 'follows the move of one perpetual since its last look: long on a rise, short on a fall',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const trader = memory(context);
    if (!(await onboard(context, trader))) return { wakeInMs: RETRY_MS };
    await claimIfDue(context, trader);
    const { market, amount, leverage, threshold_bps: threshold, every } = context.params;
    const quote = await readQuote(context, market, 'perp');
    const next = { wakeInMs: jittered(context, every, Math.floor(every / 4)) };
    if (quote === null) return next;
    const last = trader.lastMid;
    trader.lastMid = quote.mid;
    if (last === null) return next;
    const moveBps = ((quote.mid - last) * 10_000n) / last;
    const wanted = moveBps > BigInt(threshold) ? 'long' : moveBps < -BigInt(threshold) ? 'short' : null;
    if (wanted === null || wanted === trader.side) return next;
    const amountMicro = trader.side === null ? amount : amount * 2n;
    const outcome = await placeOrder(context, {
      base: market,
      kind: 'perp',
      side: wanted === 'long' ? 'buy' : 'sell',
      amountMicro,
      leverage,
      limitPrice: null,
    });
    switch (outcome.kind) {
      case 'filled':
        trader.side = wanted;
        trader.broke = 0;
        return next;
      case 'closed':
        return { wakeInMs: context.params.closed_wait };
      case 'broke':
        trader.broke++;
        trader.side = null;
        return trader.broke >= BROKE_MAX ? 'done' : next;
      case 'open':
      case 'refused':
        return next;
    }
  },
});
