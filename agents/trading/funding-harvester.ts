/**
 * Archetype `funding-harvester`: registers, then half an hour before each funding instant (00, 08
 * and 16 UTC) reads the funding rate of the perpetuals it watches and holds the side that is paid:
 * short where the rate is positive (longs pay shorts), long where it is negative, on the market
 * with the largest rate in size, at low leverage. It moves (closes and reopens) only when the best
 * market or the paid side changes; a move closes the held position by its quantity (an order of
 * the opening amount would leave a dust position on the unpaid side once the price moved).
 *
 * Checks: a quote of a perpetual carries a funding rate. MARKET_CLOSED and INSUFFICIENT_BALANCE
 * are answers it waits out (gives up after BROKE_MAX in a row).
 */
import { z } from 'zod';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  claimIfDue,
  freshFaucetMemory,
  HOUR_MS,
  memoryOf,
  MINUTE_MS,
  onboard,
  RETRY_MS,
  untilMs,
  usdcAmount,
  type FaucetMemory,
} from '../../src/agent/agent-kit.ts';
import { closingAmount, perpAsset, placeOrder, readPositions, readQuote } from '../../src/agent/trading-kit.ts';

const BROKE_MAX = 5;
const FUNDING_PERIOD_MS = 8 * HOUR_MS;
const LEAD_MS = 30 * MINUTE_MS;

const params = z.strictObject({
  markets: z
    .array(perpAsset())
    .min(1)
    .max(20)
    .prefault(['BTC', 'ETH', 'SOL', 'DOGE', 'GOLD'])
    .describe('assets whose perpetuals it watches'),
  amount: usdcAmount().prefault(5).describe('USDC notional of its position'),
  leverage: z.int().min(1).max(10).prefault(2).describe('leverage of its position'),
});

type Params = z.output<typeof params>;

interface HarvesterMemory extends FaucetMemory {
  held: { base: string; side: 'long' | 'short' } | null;
  broke: number;
}

function memory(context: AgentContext<Params>): HarvesterMemory {
  return memoryOf(context, () => ({ ...freshFaucetMemory(), held: null, broke: 0 }));
}

/** The next look: LEAD_MS before the next funding instant (strictly in the future). */
function nextLook(context: AgentContext<Params>): { wakeInMs: number } {
  const nowMs = context.clock.nowMs();
  let atMs = (Math.floor(nowMs / FUNDING_PERIOD_MS) + 1) * FUNDING_PERIOD_MS - LEAD_MS;
  if (atMs <= nowMs) atMs += FUNDING_PERIOD_MS;
  return { wakeInMs: Math.max(1, untilMs(context, atMs)) };
}

async function best(context: AgentContext<Params>): Promise<{ base: string; side: 'long' | 'short' } | null> {
  let chosen: { base: string; side: 'long' | 'short'; size: number } | null = null;
  for (const base of context.params.markets) {
    const quote = await readQuote(context, base, 'perp');
    if (quote === null) continue;
    if (quote.fundingPpm === null) {
      context.report(`the quote of ${base}-PERP carries no funding rate`, quote);
      continue;
    }
    const size = Math.abs(quote.fundingPpm);
    if (size > 0 && (chosen === null || size > chosen.size))
      chosen = { base, side: quote.fundingPpm > 0 ? 'short' : 'long', size };
  }
  return chosen === null ? null : { base: chosen.base, side: chosen.side };
}

/**
 * Closes the held position exactly: its quantity at the taker price (a long sells at the bid, a
 * short buys at the ask). True when nothing is held any more (closed, or gone: liquidated).
 */
async function closeHeld(
  context: AgentContext<Params>,
  held: { base: string; side: 'long' | 'short' },
): Promise<boolean> {
  const positions = await readPositions(context);
  if (positions === null) return false;
  const position = positions.find((open) => open.base === held.base && open.side === held.side);
  if (position === undefined || position.qty === 0n) return true;
  const quote = await readQuote(context, held.base, 'perp');
  if (quote === null) return false;
  const amountMicro = closingAmount(position.qty, held.side === 'long' ? quote.bid : quote.ask);
  const closing = await placeOrder(context, {
    base: held.base,
    kind: 'perp',
    side: held.side === 'long' ? 'sell' : 'buy',
    amountMicro,
    leverage: context.params.leverage,
    limitPrice: null,
  });
  return closing.kind === 'filled';
}

export const fundingHarvester = defineAgent<Params>({
  name: 'funding-harvester',
  service: 'trading',
  description: 'before each funding instant holds the paid side of the perpetual with the largest funding rate',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const harvester = memory(context);
    if (!(await onboard(context, harvester))) return { wakeInMs: RETRY_MS };
    await claimIfDue(context, harvester);
    const target = await best(context);
    const held = harvester.held;
    if (target === null || (held !== null && held.base === target.base && held.side === target.side))
      return nextLook(context);
    const { amount, leverage } = context.params;
    if (held !== null) {
      const closed = await closeHeld(context, held);
      if (!closed) return nextLook(context);
      harvester.held = null;
    }
    const outcome = await placeOrder(context, {
      base: target.base,
      kind: 'perp',
      side: target.side === 'long' ? 'buy' : 'sell',
      amountMicro: amount,
      leverage,
      limitPrice: null,
    });
    if (outcome.kind === 'filled') {
      harvester.held = target;
      harvester.broke = 0;
    } else if (outcome.kind === 'broke') harvester.broke++;
    return harvester.broke >= BROKE_MAX ? 'done' : nextLook(context);
  },
});
