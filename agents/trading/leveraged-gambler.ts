/**
 * Archetype `leveraged-gambler`: registers, then bets most of its balance on one direction of a
 * perpetual at high leverage (10x by default), holds it, and when the position is gone (liquidated:
 * the price crossed its liquidation price) opens another after `wait`. The population a price shock
 * turns into a cascade of liquidations.
 *
 * Checks: after an order fills, the position shows in its positions list with the side it chose.
 * INSUFFICIENT_BALANCE means its stake is spent: it waits for the faucet and gives up after
 * BROKE_MAX tries in a row; MARKET_CLOSED waits.
 */
import { z } from 'zod';
import { usdc } from '../../src/core/money.ts';
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
  type FaucetMemory,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';
import { perpAsset, placeOrder, readPositions } from '../../src/agent/trading-kit.ts';

const BROKE_MAX = 4;

const params = z.strictObject({
  markets: z
    .array(perpAsset())
    .min(1)
    .max(50)
    .prefault(['BTC', 'ETH', 'SOL'])
    .describe('assets it picks from (perpetuals)'),
  leverage: z.int().min(1).max(10).prefault(10).describe('leverage of every position'),
  notional: z.int().min(1).max(1_000_000).prefault(80).describe('USDC notional per position'),
  long: probability().prefault(0.5).describe('chance a new position is long'),
  wait: durationMs({ minMs: MINUTE_MS, maxMs: 7 * 24 * HOUR_MS })
    .prefault('2h')
    .describe('time between looks at its position'),
});

type Params = z.output<typeof params>;

interface GamblerMemory extends FaucetMemory {
  holding: { base: string; side: 'long' | 'short' } | null;
  broke: number;
}

function memory(context: AgentContext<Params>): GamblerMemory {
  return memoryOf(context, () => ({ ...freshFaucetMemory(), holding: null, broke: 0 }));
}

async function openPosition(context: AgentContext<Params>, gambler: GamblerMemory): Promise<'done' | null> {
  const markets = context.params.markets;
  const base = markets[context.rng.int(markets.length)] as string;
  const side = context.rng.chance(context.params.long, BASIS_POINTS) ? 'long' : 'short';
  const outcome = await placeOrder(context, {
    base,
    kind: 'perp',
    side: side === 'long' ? 'buy' : 'sell',
    amountMicro: usdc(context.params.notional),
    leverage: context.params.leverage,
    limitPrice: null,
  });
  if (outcome.kind === 'filled') {
    gambler.holding = { base, side };
    gambler.broke = 0;
    const positions = await readPositions(context);
    if (positions !== null && !positions.some((position) => position.base === base && position.side === side)) {
      context.report(`a filled ${side} order on ${base}-PERP left no ${side} position`, positions);
    }
  }
  if (outcome.kind === 'broke') gambler.broke++;
  return gambler.broke >= BROKE_MAX ? 'done' : null;
}

export const leveragedGambler = defineAgent<Params>({
  name: 'leveraged-gambler',
  service: 'trading',
  description: 'puts most of its balance into one 10x perpetual position; after a liquidation, another',
  params,
  async setup(context) {
    await onboard(context, memory(context));
  },
  async step(context) {
    const gambler = memory(context);
    if (!(await onboard(context, gambler))) return { wakeInMs: RETRY_MS };
    await claimIfDue(context, gambler);
    const next = { wakeInMs: jittered(context, context.params.wait, Math.floor(context.params.wait / 4)) };
    if (gambler.holding !== null) {
      const positions = await readPositions(context);
      if (positions === null) return next;
      const held = gambler.holding;
      if (positions.some((position) => position.base === held.base && position.side === held.side)) return next;
      gambler.holding = null;
    }
    return (await openPosition(context, gambler)) ?? next;
  },
});
