/**
 * Archetype `rate-limit-abuser`: registers, then every `every` fires `burst` requests at one
 * instant at one endpoint, far beyond its tier, honouring nothing (no Retry-After, no backoff).
 * It counts its 429s. Check: within one burst the platform accepts at most the tier's token
 * bucket capacity (platform.md Limits rule 2: 3 × the per-minute limit; free 300, pro 3,000;
 * enterprise unbounded), and every refusal is a 429 (never a 5xx outside a fault window).
 * Limits: `burst` at most 5,000 (the simulator's per-step bound is higher).
 */
import { z } from 'zod';
import type { EndpointId } from '../../src/client/client.ts';
import type { Tier } from '../../src/services/shared/agents.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  expectedRefusal,
  freshFaucetMemory,
  HOUR_MS,
  memoryOf,
  MINUTE_MS,
  register,
  reportUnexpected,
  type FaucetMemory,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';

/** Endpoints without path parameters that an abuser may hammer. */
const TARGETS = [
  'faucet.A.status',
  'faucet.B.status',
  'faucet.B.agents',
  'escrow.A.list',
  'escrow.B.list',
] as const satisfies readonly EndpointId[];

/** The largest burst the spec lets a tier pass at one instant (tier bucket capacity). */
const BURST_CAPACITY: Readonly<Record<Tier, number | null>> = { free: 300, pro: 3_000, enterprise: null };

const params = z.strictObject({
  burst: z.int().min(1).max(5_000).prefault(500).describe('requests fired at one instant'),
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('2h')
    .describe('time between bursts'),
  target: z.enum(TARGETS).prefault('faucet.A.status').describe('the endpoint hammered'),
});

type Params = z.output<typeof params>;

interface AbuserMemory extends FaucetMemory {
  bursts: number;
  accepted: number;
  rateLimited: number;
}

function memory(context: AgentContext<Params>): AbuserMemory {
  return memoryOf(context, () => ({ ...freshFaucetMemory(), bursts: 0, accepted: 0, rateLimited: 0 }));
}

async function burst(context: AgentContext<Params>, abuser: AbuserMemory): Promise<void> {
  const service = context.params.target.startsWith('faucet') ? 'faucet' : 'escrow';
  let accepted = 0;
  for (let sent = 0; sent < context.params.burst; sent++) {
    const result = await context.client.call(context.params.target, {});
    if (result.ok) accepted++;
    else if (result.status === 429) abuser.rateLimited++;
    else if (!expectedRefusal(context, result, service)) {
      reportUnexpected(context, `request ${sent + 1} of a burst at ${context.params.target}`, result, '200 or 429');
      return;
    }
  }
  abuser.bursts++;
  abuser.accepted += accepted;
  const capacity = BURST_CAPACITY[context.tier];
  if (capacity !== null && accepted > capacity) {
    context.report(
      `a burst of ${context.params.burst} requests got ${accepted} accepted at one instant; the ${context.tier} tier allows at most ${capacity}`,
      { target: context.params.target, accepted },
    );
  }
}

export const rateLimitAbuser = defineAgent<Params>({
  name: 'rate-limit-abuser',
  description: 'bursts far beyond its tier at one endpoint, honours nothing, counts its 429s',
  params,
  async setup(context) {
    await register(context, memory(context));
  },
  async step(context) {
    const abuser = memory(context);
    if (!abuser.registered && !(await register(context, abuser))) return { wakeInMs: RETRY_MS };
    await burst(context, abuser);
    return { wakeInMs: context.params.every };
  },
});
