/**
 * Archetype `escrow-seller`: registers, claims the faucet daily, and every `check_every` lists
 * the escrows it receives that are still locked; it may dispute one (`dispute`) or read its
 * detail (`view`). Buyers find sellers through the directory.
 * Checks: a listed escrow names this agent as receiver and is locked; disputing an escrow listed
 * as locked at the same instant succeeds (it cannot have expired: expiry runs at its instant).
 */
import { z } from 'zod';
import type { ApiResult } from '../../src/client/client.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  claimIfDue,
  expectedRefusal,
  freshFaucetMemory,
  HOUR_MS,
  jittered,
  memoryOf,
  MINUTE_MS,
  reportUnexpected,
  type FaucetMemory,
  onboard,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';
import { productName } from '../../src/agent/product-name.ts';

const params = z.strictObject({
  check_every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('2h')
    .describe('time between looks at incoming escrows'),
  dispute: probability().prefault(0.02).describe('chance of disputing each incoming locked escrow'),
  view: probability().prefault(0.1).describe('chance of reading the detail of each incoming locked escrow'),
  list_limit: z.int().min(1).max(100).prefault(20).describe('escrows listed per look'),
});

type Params = z.output<typeof params>;

interface Incoming {
  readonly escrowId: string;
  readonly receiver: string;
  readonly status: string;
}

function memory(context: AgentContext<Params>): FaucetMemory {
  return memoryOf(context, freshFaucetMemory);
}

async function listIncoming(context: AgentContext<Params>): Promise<Incoming[] | null> {
  const query = { role: 'receiver' as const, status: 'locked' as const, limit: context.params.list_limit };
  if (context.style === 'A') {
    const result = await context.client.escrowA.list(query);
    return result.ok
      ? result.body.escrows.map((escrow) => ({
          escrowId: escrow.escrow_id,
          receiver: escrow.seller,
          status: escrow.status,
        }))
      : refused(context, result);
  }
  const result = await context.client.escrowB.list(query);
  return result.ok
    ? result.body.escrows.map((escrow) => ({
        escrowId: escrow.escrow_id,
        receiver: escrow.receiver,
        status: escrow.status,
      }))
    : refused(context, result);
}

function refused(context: AgentContext<Params>, result: ApiResult<unknown>): null {
  if (!expectedRefusal(context, result, 'escrow')) reportUnexpected(context, 'listing incoming escrows', result, '200');
  return null;
}

async function openDispute(context: AgentContext<Params>, escrowId: string): Promise<void> {
  const reason = `not delivered: ${productName(context.faker)}`;
  const result =
    context.style === 'A'
      ? await context.client.escrowA.dispute({ escrow_id: escrowId, reason })
      : await context.client.escrowB.dispute(escrowId, { reason });
  if (!result.ok && !expectedRefusal(context, result, 'escrow'))
    reportUnexpected(context, `dispute of escrow ${escrowId}, listed as locked`, result, '200');
}

async function look(context: AgentContext<Params>): Promise<void> {
  const incoming = await listIncoming(context);
  if (incoming === null) return;
  for (const escrow of incoming) {
    if (escrow.receiver !== context.agentId || escrow.status !== 'locked') {
      context.report(
        `listed escrow ${escrow.escrowId} is ${escrow.status} for receiver ${escrow.receiver}, asked for locked escrows received by ${context.agentId}`,
        escrow,
      );
      return;
    }
    if (context.rng.chance(context.params.view, BASIS_POINTS)) {
      const detail =
        context.style === 'A'
          ? await context.client.escrowA.get(escrow.escrowId)
          : await context.client.escrowB.get(escrow.escrowId);
      if (!detail.ok && !expectedRefusal(context, detail, 'escrow'))
        reportUnexpected(context, `reading incoming escrow ${escrow.escrowId}`, detail, '200');
    }
    if (context.rng.chance(context.params.dispute, BASIS_POINTS)) await openDispute(context, escrow.escrowId);
  }
}

export const escrowSeller = defineAgent<Params>({
  name: 'escrow-seller',
  service: 'escrow',
  description: 'receives escrows: lists the incoming locked ones, reads some, disputes a few',
  params,
  async setup(context) {
    const seller = memory(context);
    await onboard(context, seller);
  },
  async step(context) {
    const seller = memory(context);
    if (!seller.registered) {
      if (!(await onboard(context, seller))) return { wakeInMs: RETRY_MS };
      return { wakeInMs: jittered(context, context.params.check_every, Math.floor(context.params.check_every / 4)) };
    }
    await claimIfDue(context, seller);
    await look(context);
    return { wakeInMs: jittered(context, context.params.check_every, Math.floor(context.params.check_every / 4)) };
  },
});
