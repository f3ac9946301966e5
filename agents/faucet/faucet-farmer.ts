/**
 * Archetype `faucet-farmer`: registers, then farms the faucet. Claims in style B about every
 * `claim_every` (± `jitter`) after the next_claim it was told, so some attempts land before it and
 * must be refused with FAUCET_CLAIMED; with probability `early_claim` it deliberately tries again
 * soon after a payout. Style A farmers take their one-time A claim at registration and then farm
 * style B too (mixing styles); with probability `repeat_a_claim` any farmer retries the A claim,
 * which pays once ever. Checks (agent-kit): no payout before the announced next_claim, no refusal
 * after it, a second A claim always refused.
 */
import { z } from 'zod';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  claimA,
  claimB,
  freshFaucetMemory,
  HOUR_MS,
  jittered,
  memoryOf,
  MINUTE_MS,
  untilMs,
  type FaucetMemory,
  onboard,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';

const params = z.strictObject({
  claim_every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('24h')
    .describe('time between claim attempts'),
  jitter: durationMs({ maxMs: 24 * HOUR_MS })
    .prefault('30m')
    .describe('uniform spread around each planned attempt'),
  early_claim: probability().prefault(0.1).describe('chance of an extra, deliberately early attempt after a payout'),
  repeat_a_claim: probability().prefault(0.05).describe('chance per wake of retrying the one-time A claim'),
  check_status: probability().prefault(0.5).describe('chance per wake of reading the faucet status first'),
});

type Params = z.output<typeof params>;

/** After a rate limit or an outage: try again in 10 to 20 minutes. */

interface FarmerMemory extends FaucetMemory {
  wakes: number;
}

function memory(context: AgentContext<Params>): FarmerMemory {
  return memoryOf(context, () => ({ ...freshFaucetMemory(), wakes: 0 }));
}

async function readStatus(context: AgentContext<Params>): Promise<void> {
  if (context.style === 'A') await context.client.faucetA.status();
  else await context.client.faucetB.status();
}

/** The next attempt: deliberately early after a payout, else the announced instant ± jitter. */
function nextWakeMs(context: AgentContext<Params>, farmer: FarmerMemory, paidNow: boolean): number {
  const { params, rng } = context;
  if (paidNow && rng.chance(params.early_claim, BASIS_POINTS)) return 1 + rng.int(Math.max(1, params.claim_every - 1));
  const target = farmer.nextClaimBAtMs ?? context.clock.nowMs() + params.claim_every;
  const delayMs = untilMs(context, target);
  // A target already due gets a forward-only spread: never a burst of 1 ms wake-ups.
  return delayMs <= params.jitter ? delayMs + rng.int(params.jitter + 1) : jittered(context, delayMs, params.jitter);
}

export const faucetFarmer = defineAgent<Params>({
  name: 'faucet-farmer',
  service: 'faucet',
  description: 'registers and claims the faucet about every 24 h, sometimes early; mixes styles A and B',
  params,
  async setup(context) {
    const farmer = memory(context);
    await onboard(context, farmer);
  },
  async step(context) {
    const farmer = memory(context);
    farmer.wakes++;
    if (!(await onboard(context, farmer))) return { wakeInMs: RETRY_MS };
    // The first wake follows setup at once: plan the first attempt instead of claiming.
    if (farmer.wakes === 1) return { wakeInMs: nextWakeMs(context, farmer, false) };
    if (context.rng.chance(context.params.check_status, BASIS_POINTS)) await readStatus(context);
    if (context.rng.chance(context.params.repeat_a_claim, BASIS_POINTS)) await claimA(context, farmer);
    const outcome = await claimB(context, farmer);
    if (outcome === 'not-answered') return { wakeInMs: RETRY_MS + context.rng.int(RETRY_MS) };
    return { wakeInMs: nextWakeMs(context, farmer, outcome === 'paid') };
  },
});
