/**
 * Archetype `market-maker`: registers, then every `every` cancels the two limit orders it left
 * last time (one may have filled meanwhile: 409, an answer) and quotes both sides of its market
 * again — a buy `spread_bps` below the mid and a sell `spread_bps` above — each of `amount` USDC.
 * On a perpetual (the default) both sides need only margin; on a spot pair a sell needs the base,
 * so a spot maker's first fills are buys.
 *
 * Checks: a cancel of its own open order answers the cancelled order or 409 (filled); a resting
 * order answers status open with no fee. MARKET_CLOSED waits; INSUFFICIENT_BALANCE gives up after
 * BROKE_MAX rounds in a row.
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
import {
  cancelOrder,
  listsMarket,
  offsetPrice,
  perpAsset,
  placeOrder,
  readQuote,
} from '../../src/agent/trading-kit.ts';

const BROKE_MAX = 5;

const params = z
  .strictObject({
    market: perpAsset().prefault('ETH').describe('asset quoted'),
    market_type: z.enum(['perp', 'spot']).prefault('perp').describe('perpetual or spot market of the asset'),
    amount: usdcAmount().prefault(1).describe('USDC per side'),
    leverage: z.int().min(1).max(10).prefault(2).describe('leverage of each side (perpetuals)'),
    spread_bps: z.int().min(1).max(2000).prefault(15).describe('distance of each quote from the mid, in basis points'),
    every: durationMs({ minMs: MINUTE_MS, maxMs: 24 * HOUR_MS })
      .prefault('10m')
      .describe('time between requotes'),
  })
  .superRefine((value, context) => {
    // Every spot base has a perpetual, not the other way round: a spot maker needs the pair listed.
    if (value.market_type === 'spot' && !listsMarket(value.market, 'spot'))
      context.addIssue({
        code: 'custom',
        path: ['market'],
        message: `the venue lists no spot market of ${value.market} (${value.market}-USDC): quote it as perp or pick a spot asset`,
      });
  });

type Params = z.output<typeof params>;

interface MakerMemory extends FaucetMemory {
  resting: string[];
  broke: number;
}

function memory(context: AgentContext<Params>): MakerMemory {
  return memoryOf(context, () => ({ ...freshFaucetMemory(), resting: [], broke: 0 }));
}

export const marketMaker = defineAgent<Params>({
  name: 'market-maker',
  service: 'trading',
  description: 'quotes both sides of one market with limit orders around the mid, requoting every `every`',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const maker = memory(context);
    if (!(await onboard(context, maker))) return { wakeInMs: RETRY_MS };
    await claimIfDue(context, maker);
    const { market, market_type: kind, amount, leverage, spread_bps: spread, every } = context.params;
    for (const orderId of maker.resting.splice(0)) await cancelOrder(context, orderId);
    const next = { wakeInMs: jittered(context, every, Math.floor(every / 4)) };
    const quote = await readQuote(context, market, kind);
    if (quote === null) return next;
    let broke = false;
    for (const side of ['buy', 'sell'] as const) {
      const limitPrice = offsetPrice(quote.mid, side === 'buy' ? -spread : spread);
      const outcome = await placeOrder(context, {
        base: market,
        kind,
        side,
        amountMicro: amount,
        leverage: kind === 'perp' ? leverage : 1,
        limitPrice,
      });
      if (outcome.kind === 'open') maker.resting.push(outcome.orderId);
      if (outcome.kind === 'broke') broke = true;
      if (outcome.kind === 'closed') return { wakeInMs: HOUR_MS };
    }
    maker.broke = broke ? maker.broke + 1 : 0;
    return maker.broke >= BROKE_MAX ? 'done' : next;
  },
});
