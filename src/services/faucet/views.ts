/**
 * Read-only faucet views: claim status (A and B), one agent's details (its owner only), and the
 * referral view. Nothing here changes observable state (at most an empty faucet record is created
 * for an agent that entered the registry without the faucet).
 *
 * Invariants: `canClaim`/`eligible` say exactly whether a claim at `nowMs` would be paid (the
 * pool is checked too); a B agent that never had a grant or claim has no next claim instant.
 */
import { fail, isFailure, succeed, type Outcome } from '../../core/errors.ts';
import { FAUCET_POOL, agentAccount } from '../../core/ledger.ts';
import type { Micro } from '../../core/money.ts';
import type { Agent } from '../shared/agents.ts';
import type { ServiceContext } from '../shared/context.ts';
import { referralStats, type ReferralLevelStats } from '../shared/referral-programme.ts';
import type { FaucetRecords } from './faucet-records.ts';

/** Most referred agents listed in the referral view (the count is always complete). */
export const REFERRED_AGENTS_MAX = 100;

export interface StatusA {
  readonly eligible: boolean;
  readonly balanceMicro: Micro;
}

export interface StatusB {
  readonly agentId: string;
  readonly canClaim: boolean;
  readonly nextClaimAtMs: number | null;
  readonly secondsUntilNextClaim: number;
  readonly balanceMicro: Micro;
  readonly poolMicro: Micro;
}

export interface AgentDetails {
  readonly agent: Agent;
  readonly balanceMicro: Micro;
}

export interface ReferralView {
  readonly referralCode: string;
  readonly referredCount: number;
  /** The first REFERRED_AGENTS_MAX referred agents, in registration order. */
  readonly referred: readonly { readonly agentId: string; readonly registeredAtMs: number }[];
  readonly earnedMicro: Micro;
  readonly paidMicro: Micro;
  readonly pendingMicro: Micro;
  readonly shareBps: bigint;
  /** Per level of the referrer's tree, every service together (referral-programme.ts). */
  readonly levels: readonly ReferralLevelStats[];
}

export function statusA(ctx: ServiceContext, records: FaucetRecords, agentId: string): Outcome<StatusA> {
  const agent = ctx.agents.get(agentId);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${agentId} is not registered`);
  const record = records.forAgent(agent);
  const eligible = !record.claimedA && ctx.ledger.balance(FAUCET_POOL) >= ctx.config.faucet.claimAMicro;
  return succeed({ eligible, balanceMicro: ctx.ledger.balance(agentAccount(agentId)) });
}

export function statusB(ctx: ServiceContext, records: FaucetRecords, agentId: string, nowMs: number): Outcome<StatusB> {
  const agent = ctx.agents.get(agentId);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${agentId} is not registered`);
  const record = records.forAgent(agent);
  const nextClaimAtMs = record.nextClaimBAtMs;
  const waitMs = nextClaimAtMs === null ? 0 : Math.max(0, nextClaimAtMs - nowMs);
  const poolMicro = ctx.ledger.balance(FAUCET_POOL);
  return succeed({
    agentId,
    canClaim: waitMs === 0 && poolMicro >= ctx.config.faucet.claimBMicro,
    nextClaimAtMs,
    secondsUntilNextClaim: Math.ceil(waitMs / 1000),
    balanceMicro: ctx.ledger.balance(agentAccount(agentId)),
    poolMicro,
  });
}

/** An agent's details, by id, address or referral code; only the agent itself may see them. */
export function agentDetails(
  ctx: ServiceContext,
  query: { callerId: string; reference: string },
): Outcome<AgentDetails> {
  const agent = ctx.agents.resolve(query.reference);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${query.reference} is not registered`);
  if (agent.id !== query.callerId) return fail('FORBIDDEN', 'an agent may only view its own details');
  return succeed({ agent, balanceMicro: ctx.ledger.balance(agentAccount(agent.id)) });
}

export function referralView(ctx: ServiceContext, agentId: string): Outcome<ReferralView> {
  const agent = ctx.agents.get(agentId);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${agentId} is not registered`);
  const referredIds = ctx.referrals.referredBy(agentId);
  const referred: { agentId: string; registeredAtMs: number }[] = [];
  for (const referredId of referredIds.slice(0, REFERRED_AGENTS_MAX)) {
    const referredAgent = ctx.agents.get(referredId);
    if (referredAgent !== undefined) referred.push({ agentId: referredId, registeredAtMs: referredAgent.createdAtMs });
  }
  const totals = ctx.referrals.totalsFor(agentId);
  const stats = referralStats(ctx, agentId);
  if (isFailure(stats)) return stats;
  return succeed({
    referralCode: agent.referralCode,
    referredCount: referredIds.length,
    referred,
    earnedMicro: totals.earnedMicro,
    paidMicro: totals.paidMicro,
    pendingMicro: ctx.referrals.pendingMicro(agentId),
    shareBps: ctx.config.faucet.referralShareBps,
    levels: stats.value.levels,
  });
}
