/**
 * Archetype `referral-recruiter`: grows a referral tree and pays fees on every service, so the
 * tree's referrers earn at every level (platform.md item 6; docs/decisions/platform.md "Referral
 * programme").
 *
 * At setup it registers, with chance `referred`, referred by a recruiter already registered (the
 * directory lists agents in registration order, so the first recruiters are roots and later ones
 * hang below them: a tree three levels deep and more). Every `every` (± a quarter) it pays one
 * fee drawn from `activities`: a market order on BTC-USDC, a domain of its own, an escrow to
 * another recruiter it releases at once, or a coin flip; then it reads its own referral stats
 * (/referrals) and checks them: the levels add up to the earnings, and withdrawn + available =
 * earned. Style B's view is the wire's; a style A agent reads the same view with its one key.
 * Limits: DOMAINS_MAX names of its own; one fee per step.
 */
import { z } from 'zod';
import type { Micro } from '../../src/core/money.ts';
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
  onboard,
  reportUnexpected,
  RETRY_MS,
  untilMs,
  usdcAmount,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';
import { placeOrder } from '../../src/agent/trading-kit.ts';
import { freshDomainsMemory, labelOf, registerDomain, type DomainsMemory } from '../domains/domains-kit.ts';

const ACTIVITIES = ['trade', 'domain', 'escrow', 'casino'] as const;
type Activity = (typeof ACTIVITIES)[number];
const DOMAINS_MAX = 20;
const RECRUITER = 'referral-recruiter';

const params = z.strictObject({
  referred: probability().prefault(0.9).describe('chance of registering with a referrer of archetype `referrer`'),
  referrer: z.string().min(1).max(64).prefault('referral-recruiter').describe('archetype the referrer is drawn from'),
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('2h')
    .describe('time between fees paid'),
  amount: usdcAmount().prefault('5.00').describe('order size, escrow amount; a coin flip stakes a tenth of it'),
  activities: z
    .array(z.enum(ACTIVITIES))
    .min(1)
    .max(ACTIVITIES.length)
    .prefault([...ACTIVITIES])
    .describe('the fees it pays, one drawn per step'),
});

type Params = z.output<typeof params>;

interface RecruiterMemory extends DomainsMemory {
  nextFeeAtMs: number;
  domains: number;
}

function memory(context: AgentContext<Params>): RecruiterMemory {
  return memoryOf(context, () => ({
    ...freshFaucetMemory(),
    ...freshDomainsMemory(),
    nextFeeAtMs: context.clock.nowMs() + context.rng.int(context.params.every),
    domains: 0,
  }));
}

async function escrowFee(context: AgentContext<Params>): Promise<void> {
  const receiver = context.directory.pick(RECRUITER, context.rng, context.agentId);
  if (receiver === null) return;
  const amount = context.params.amount;
  const created =
    context.style === 'A'
      ? await context.client.escrowA.create({
          buyer: context.agentId,
          seller: receiver,
          amount: moneyOut('A', amount) as number,
        })
      : await context.client.escrowB.create({ amount: moneyOut('B', amount), receiver, description: 'referral tree' });
  if (!created.ok) {
    if (!expectedRefusal(context, created, 'escrow') && created.body.code !== 'INSUFFICIENT_BALANCE')
      reportUnexpected(context, `escrow to ${receiver}`, created, '201 or 422');
    return;
  }
  const released =
    context.style === 'A'
      ? await context.client.escrowA.release({ escrow_id: created.body.escrow_id })
      : await context.client.escrowB.release(created.body.escrow_id);
  if (!released.ok && !expectedRefusal(context, released, 'escrow'))
    reportUnexpected(context, `release of ${created.body.escrow_id}`, released, '200');
}

async function payFee(context: AgentContext<Params>, recruiter: RecruiterMemory, activity: Activity): Promise<void> {
  switch (activity) {
    case 'trade':
      await placeOrder(context, {
        base: 'BTC',
        kind: 'spot',
        side: 'buy',
        amountMicro: context.params.amount,
        leverage: 1,
        limitPrice: null,
      });
      return;
    case 'domain':
      if (recruiter.domains >= DOMAINS_MAX) return;
      recruiter.domains++;
      await registerDomain(context, recruiter, `${labelOf(context.agentId)}-${recruiter.domains}.xyz`, 1);
      return;
    case 'escrow':
      await escrowFee(context);
      return;
    case 'casino': {
      const result = await context.client.casino.play('coin-flip', {
        side: context.rng.pick(['heads', 'tails']),
        amount: moneyOut('A', context.params.amount / 10n),
      });
      // 422: broke; 400 with max_bet: the Kelly rule caps the stake for what is left of its bankroll.
      const kellyCapped = result.status === 400 && 'max_bet' in result.body;
      if (!result.ok && !expectedRefusal(context, result, 'casino') && result.status !== 422 && !kellyCapped)
        reportUnexpected(context, 'a coin flip', result, '200, 422 or a Kelly 400');
      return;
    }
  }
}

/** Its own stats: the levels add up to the earnings, withdrawn + available = earned. */
async function checkStats(context: AgentContext<Params>): Promise<void> {
  const result = await context.client.faucetB.referrals();
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'faucet')) reportUnexpected(context, 'its referral stats', result, '200');
    return;
  }
  const earned = moneyIn(result.body.fees_earned);
  const withdrawn = moneyIn(result.body.withdrawn);
  const available = moneyIn(result.body.available);
  const levels = result.body.by_level.map((level) => moneyIn(level.earned));
  if (earned === null || withdrawn === null || available === null || levels.some((level) => level === null)) {
    context.report('referral stats without their figures', result.body);
    return;
  }
  const levelSum = levels.reduce<Micro>((sum, level) => sum + (level ?? 0n), 0n);
  if (levelSum !== earned || withdrawn + available !== earned)
    context.report(
      `referral stats disagree: levels add to ${levelSum}, earned ${earned}, withdrawn ${withdrawn} + available ${available}`,
      result.body,
    );
}

export const referralRecruiter = defineAgent<Params>({
  name: RECRUITER,
  service: 'faucet',
  description:
    'registers under a recruiter (a tree several levels deep), pays trading, domain, escrow and casino fees, and checks its referral stats by level',
  params,
  async setup(context) {
    const recruiter = memory(context);
    const referrer = context.rng.chance(context.params.referred, BASIS_POINTS)
      ? context.directory.pick(context.params.referrer, context.rng, context.agentId)
      : null;
    await onboard(context, recruiter, referrer ?? undefined);
  },
  async step(context) {
    const recruiter = memory(context);
    if (!(await onboard(context, recruiter))) return { wakeInMs: RETRY_MS };
    await claimIfDue(context, recruiter);
    const nowMs = context.clock.nowMs();
    if (nowMs >= recruiter.nextFeeAtMs) {
      await payFee(context, recruiter, context.rng.pick(context.params.activities));
      await checkStats(context);
      recruiter.nextFeeAtMs = nowMs + jittered(context, context.params.every, Math.floor(context.params.every / 4));
    }
    return {
      wakeInMs: untilMs(context, Math.min(recruiter.nextFeeAtMs, recruiter.nextClaimBAtMs ?? Number.MAX_SAFE_INTEGER)),
    };
  },
});
