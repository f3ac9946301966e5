/**
 * Archetype `escrow-buyer`: registers (sometimes referred by an agent it finds), claims the faucet
 * daily, and every `escrow_every` (± a quarter) locks an escrow to a counterparty found in the
 * directory, then settles it as its `mix` draws: release, refund, dispute, or let it expire.
 *
 * Style A buyers create through A (default expiry) and refund through B (A has no refund); style
 * B buyers send `expires_in`. Actions are planned inside the escrow's lifetime and run when due
 * (escrow-plans.ts). Checks: fee = 1% rounded up and net = amount − fee at creation; release pays
 * that net; a repeated release answers 409; an escrow past its expiry is no longer locked; a
 * dispute window, once over, has settled the escrow.
 * Limits: at most PLANS_MAX open plans (no new escrow while full).
 */
import { z } from 'zod';
import { basisPoints, type Micro } from '../../src/core/money.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  claimIfDue,
  expectedRefusal,
  freshFaucetMemory,
  HOUR_MS,
  jittered,
  memoryOf,
  MINUTE_MS,
  moneyIn,
  moneyOut,
  parseIsoMs,
  reportUnexpected,
  untilMs,
  usdcAmount,
  onboard,
  RETRY_MS,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { runDuePlans, type BuyerMemory, type Plan, type EscrowSettlement } from '../../src/agent/escrow-plans.ts';
import { BASIS_POINTS, pickOutcome, probability } from '../../src/scenario/probability.ts';
import { productName } from '../../src/agent/product-name.ts';

const params = z
  .strictObject({
    release: probability().prefault(0.6).describe('weight of escrows the buyer releases'),
    refund: probability().prefault(0.1).describe('weight of escrows the buyer refunds'),
    dispute: probability().prefault(0.05).describe('weight of escrows the buyer disputes'),
    let_expire: probability().prefault(0.25).describe('weight of escrows left to expire'),
    expires_in: durationMs({ minMs: 60_000, maxMs: 90 * 24 * HOUR_MS })
      .prefault('6h')
      .describe('escrow lifetime (style B; A uses the default 24 h)'),
    escrow_every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
      .prefault('4h')
      .describe('time between new escrows'),
    amount_min: usdcAmount().prefault('0.10').describe('smallest escrow amount, USDC'),
    amount_max: usdcAmount().prefault('2.00').describe('largest escrow amount, USDC (at most 1000)'),
    counterparty: z
      .string()
      .min(1)
      .max(64)
      .prefault('escrow-seller')
      .describe('archetype whose agents receive the escrows'),
    referred: probability().prefault(0.2).describe('chance of registering with a referrer found in the directory'),
    retry_release: probability().prefault(0.05).describe('chance of repeating a release (must answer 409)'),
    concede: probability().prefault(0.5).describe('chance of releasing during a dispute window it opened'),
  })
  .refine((value) => value.release + value.refund + value.dispute + value.let_expire > 0, {
    message: 'release, refund, dispute and let_expire must not all be 0',
  })
  .refine((value) => value.amount_min <= value.amount_max && value.amount_max <= 1_000_000_000n, {
    message: 'amount_min <= amount_max <= 1000',
  });

type Params = z.output<typeof params>;

export const PLANS_MAX = 64;
const SETTLEMENTS: readonly EscrowSettlement[] = ['release', 'refund', 'dispute', 'let_expire'];
const FEE_BPS = 100n;

function memory(context: AgentContext<Params>): BuyerMemory {
  return memoryOf(context, () => ({
    ...freshFaucetMemory(),
    nextCreateAtMs: context.clock.nowMs() + context.rng.int(context.params.escrow_every),
    plans: [] as Plan[],
  }));
}

function drawAmount(context: AgentContext<Params>): Micro {
  const { amount_min: min, amount_max: max } = context.params;
  return min + BigInt(context.rng.int(Number(max - min) + 1));
}

/** Creates one escrow to a counterparty and plans its settlement. */
async function createEscrow(context: AgentContext<Params>, buyer: BuyerMemory): Promise<void> {
  const seller = context.directory.pick(context.params.counterparty, context.rng, context.agentId);
  if (seller === null || buyer.plans.length >= PLANS_MAX) return;
  const amountMicro = drawAmount(context);
  const settlement = pickOutcome(context.rng, context.params, SETTLEMENTS);
  const memo = productName(context.faker);
  const result =
    context.style === 'A'
      ? await context.client.escrowA.create({
          buyer: context.agentId,
          seller,
          amount: moneyOut('A', amountMicro) as number,
          currency: 'USDC',
          memo,
        })
      : await context.client.escrowB.create({
          amount: moneyOut('B', amountMicro),
          receiver: seller,
          description: memo,
          expires_in: Math.floor(context.params.expires_in / 1000),
        });
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'escrow') && result.body.code !== 'INSUFFICIENT_BALANCE')
      reportUnexpected(context, `escrow create to ${seller}`, result, '201 or 422');
    return;
  }
  const feeMicro = moneyIn(result.body.fee);
  const netMicro = moneyIn(result.body.net);
  const expectedFee = basisPoints(amountMicro, FEE_BPS, 'up');
  if (feeMicro !== expectedFee || netMicro !== amountMicro - expectedFee) {
    const what = `an escrow of ${amountMicro} micro-USDC was charged fee ${String(feeMicro)}, net ${String(netMicro)}; 1% rounded up is fee ${expectedFee}, net ${amountMicro - expectedFee}`;
    context.report(what, { status: result.status, body: result.body });
    return;
  }
  const nowMs = context.clock.nowMs();
  const expiresAtMs = parseIsoMs(result.body.expires_at) ?? nowMs;
  const actAtMs = nowMs + 1 + context.rng.int(Math.max(1, Math.floor((expiresAtMs - nowMs) / 2)));
  const plan: Plan =
    settlement === 'let_expire'
      ? {
          escrowId: result.body.escrow_id,
          action: 'check-expired',
          atMs: expiresAtMs + 1_000,
          netMicro: amountMicro - expectedFee,
          expiresAtMs,
        }
      : {
          escrowId: result.body.escrow_id,
          action: settlement,
          atMs: actAtMs,
          netMicro: amountMicro - expectedFee,
          expiresAtMs,
        };
  buyer.plans.push(plan);
}

export const escrowBuyer = defineAgent<Params>({
  name: 'escrow-buyer',
  service: 'escrow',
  description:
    'locks escrows to sellers it finds, then releases, refunds, disputes or lets them expire by a params mix',
  params,
  async setup(context) {
    const buyer = memory(context);
    const referrer = context.rng.chance(context.params.referred, BASIS_POINTS)
      ? context.directory.pick(context.params.counterparty, context.rng)
      : null;
    await onboard(context, buyer, referrer ?? undefined);
  },
  async step(context) {
    const buyer = memory(context);
    if (!(await onboard(context, buyer))) return { wakeInMs: RETRY_MS };
    await claimIfDue(context, buyer);
    await runDuePlans(context, buyer, { retryRelease: context.params.retry_release, concede: context.params.concede });
    const nowMs = context.clock.nowMs();
    if (nowMs >= buyer.nextCreateAtMs) {
      await createEscrow(context, buyer);
      buyer.nextCreateAtMs =
        nowMs + jittered(context, context.params.escrow_every, Math.floor(context.params.escrow_every / 4));
    }
    let nextMs = Math.min(buyer.nextCreateAtMs, buyer.nextClaimBAtMs ?? Number.MAX_SAFE_INTEGER);
    for (const plan of buyer.plans) nextMs = Math.min(nextMs, plan.atMs);
    return { wakeInMs: untilMs(context, nextMs) };
  },
});
