/**
 * The referral programme, one module every service calls (platform.md item 6; casino.md
 * "Referral"; wallet.md referral rows): who is owed a share of a fee, at which level, and the
 * views a referrer sees (code, stats by level, withdrawal).
 *
 * Rules (docs/decisions/platform.md "Referral programme"):
 * - A referral chain is the registration referrers above an agent: level 1 its referrer, level 2
 *   that agent's referrer, level 3 the next. Links are set once, at registration, to an agent that
 *   already exists, so a chain can neither contain the agent itself nor a cycle (asserted).
 * - Fee services pay the spec's share at level 1 and half and a quarter of it at levels 2 and 3
 *   (the casino's 10 / 5 / 2.5 halving), each level floor(fee × bps / 10,000) of the same fee,
 *   out of fee-income. The casino's own commissions on net losses stay in referral-commission.ts.
 * - A level whose referrer is one of the `excluded` agents (the payer, an escrow's parties) earns
 *   nothing; the chain above it still does.
 * Limits: REFERRAL_LEVELS_MAX levels; REFERRED_PER_LEVEL_MAX agents counted per level.
 */
import { assert } from '../../core/assert.ts';
import { fail, isFailure, succeed, type Outcome } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import type { AgentRegistry } from './agents.ts';
import type { PlatformConfig } from './config.ts';
import type { ServiceContext } from './context.ts';
import { REFERRAL_LEVELS_MAX, REFERRAL_SERVICES, type ReferralBook, type ReferralService } from './referral.ts';

export { REFERRAL_LEVELS_MAX, REFERRAL_SERVICES, type ReferralService } from './referral.ts';

/** Level ℓ's share is the level-1 share divided by LEVEL_DIVISORS[ℓ − 1] (1, 1/2, 1/4). */
export const LEVEL_DIVISORS: readonly bigint[] = [1n, 2n, 4n];
/** Most agents counted at one level of a referrer's tree (the stats walk stops there). */
export const REFERRED_PER_LEVEL_MAX = 100_000;

/** The spec's level-1 shares in basis points (platform.md item 6); configs override their own. */
export const SPEC_LEVEL_ONE_BPS: Readonly<Record<ReferralService, bigint>> = {
  faucet: 1_500n,
  escrow: 1_500n,
  trading: 2_000n,
  domains: 1_500n,
  casino: 1_000n,
  wallet: 1_000n,
};

/** What the share of a service is paid on (the wire's `of`). */
const SHARE_OF: Readonly<Record<ReferralService, string>> = {
  faucet: "the referred agent's future fees",
  escrow: 'the 1% escrow fee',
  trading: 'trading fees',
  domains: 'domain fees',
  casino: 'net losses of referred agents',
  wallet: 'wallet fees',
};

/** The three level shares of a level-1 share: [bps, bps/2, bps/4]. */
export function levelSharesBps(levelOneBps: bigint): bigint[] {
  assert(levelOneBps >= 0n && levelOneBps <= 10_000n, 'a referral share is a share');
  return LEVEL_DIVISORS.map((divisor) => levelOneBps / divisor);
}

/** The level-1 share a service pays on this platform (its config where it has one). */
export function levelOneBps(config: PlatformConfig, service: ReferralService): bigint {
  switch (service) {
    case 'faucet':
      return config.faucet.referralShareBps;
    case 'escrow':
      return config.escrow.referralShareBps;
    case 'trading':
      return config.trading.referralShareBps;
    case 'domains':
      return config.domains.referralShareBps;
    case 'casino':
      return config.casino.referralLevelsBps[0] ?? SPEC_LEVEL_ONE_BPS.casino;
    case 'wallet':
      return SPEC_LEVEL_ONE_BPS.wallet;
  }
}

/** The shares per level of a service on this platform (the casino's are its configured levels). */
export function serviceLevelsBps(config: PlatformConfig, service: ReferralService): readonly bigint[] {
  return service === 'casino' ? config.casino.referralLevelsBps : levelSharesBps(levelOneBps(config, service));
}

/**
 * The referrers above `agentId`, level 1 first, at most REFERRAL_LEVELS_MAX. `first`, when given,
 * replaces the level-1 referrer (an escrow's explicit referrer) and the chain continues above it.
 */
export function uplineOf(agents: AgentRegistry, agentId: string, first?: string | null): string[] {
  const chain: string[] = [];
  let referrer = first === undefined ? (agents.get(agentId)?.referrerId ?? null) : first;
  while (referrer !== null && chain.length < REFERRAL_LEVELS_MAX) {
    // An explicit first referrer may be the agent's own referee, so the agent itself can appear
    // above it (accrueFeeShares pays it nothing); its own registration chain never reaches it.
    assert(!chain.includes(referrer) && (first !== undefined || referrer !== agentId), 'referral chains have no cycle');
    chain.push(referrer);
    referrer = agents.get(referrer)?.referrerId ?? null;
  }
  return chain;
}

export interface FeeShareCommand {
  readonly service: ReferralService;
  /** The agent whose fee it is. */
  readonly payerId: string;
  readonly feeMicro: Micro;
  readonly reference: string;
  /** Level-1 referrer in place of the payer's own (null: none); levels 2 and 3 are above it. */
  readonly firstReferrerId?: string | null;
  /** Agents that never earn on this fee (the payer always; an escrow's parties). */
  readonly excluded?: readonly string[];
}

/** Pays each level its share of the fee (already in fee-income). Returns the share per level paid. */
export function accrueFeeShares(ctx: ServiceContext, command: FeeShareCommand): Micro[] {
  const paid: Micro[] = [];
  if (command.feeMicro <= 0n) return paid;
  const shares = levelSharesBps(levelOneBps(ctx.config, command.service));
  const chain = uplineOf(ctx.agents, command.payerId, command.firstReferrerId);
  const defective = ctx.defects.has('referral-level2-full-share');
  for (const [index, referrerId] of chain.entries()) {
    const excluded = referrerId === command.payerId || (command.excluded?.includes(referrerId) ?? false);
    const shareBps = defective && index === 1 ? (shares[0] as bigint) : (shares[index] as bigint);
    paid.push(
      excluded
        ? 0n
        : ctx.referrals.accrue({
            referrerId,
            feeMicro: command.feeMicro,
            shareBps,
            reference: command.reference,
            service: command.service,
            level: index + 1,
          }),
    );
  }
  return paid;
}

/** Agents referred at each depth below `agentId` (level 1 = direct), capped per level. */
export function referredByLevel(referrals: ReferralBook, agentId: string): string[][] {
  const result: string[][] = [];
  let frontier = [agentId];
  for (let level = 0; level < REFERRAL_LEVELS_MAX; level++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const referred of referrals.referredBy(id)) if (next.length < REFERRED_PER_LEVEL_MAX) next.push(referred);
    }
    result.push(next);
    frontier = next;
  }
  return result;
}

export interface ReferralLevelStats {
  readonly level: number;
  readonly referredAgents: number;
  readonly earnedMicro: Micro;
}

export interface ReferralStats {
  readonly agentId: string;
  readonly referralCode: string;
  readonly earnedMicro: Micro;
  /** Moved from the payable into the balance (daily sweep or withdrawal). */
  readonly withdrawnMicro: Micro;
  /** In the payable now: what a withdrawal would pay. */
  readonly availableMicro: Micro;
  readonly levels: readonly ReferralLevelStats[];
  /** Per service that paid anything, in REFERRAL_SERVICES order: earned per level. */
  readonly services: readonly { readonly service: ReferralService; readonly earnedMicro: readonly Micro[] }[];
}

/** The referrer's earnings: total, withdrawn, available, by level and by service. 404 for no agent. */
export function referralStats(ctx: ServiceContext, agentId: string): Outcome<ReferralStats> {
  const agent = ctx.agents.get(agentId);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${agentId} is not registered`);
  const members = referredByLevel(ctx.referrals, agentId);
  const perLevel = new Array<Micro>(REFERRAL_LEVELS_MAX).fill(0n);
  const services: { service: ReferralService; earnedMicro: readonly Micro[] }[] = [];
  for (const service of REFERRAL_SERVICES) {
    const earned = ctx.referrals.earnedByLevel(agentId, service);
    if (earned.every((amount) => amount === 0n)) continue;
    services.push({ service, earnedMicro: earned });
    for (const [index, amount] of earned.entries()) perLevel[index] = (perLevel[index] as Micro) + amount;
  }
  const totals = ctx.referrals.totalsFor(agentId);
  return succeed({
    agentId,
    referralCode: agent.referralCode,
    earnedMicro: totals.earnedMicro,
    withdrawnMicro: totals.paidMicro,
    availableMicro: ctx.referrals.pendingMicro(agentId),
    levels: perLevel.map((earnedMicro, index) => ({
      level: index + 1,
      referredAgents: members[index]?.length ?? 0,
      earnedMicro,
    })),
    services,
  });
}

export interface ReferralCode {
  readonly referralCode: string;
  readonly service: ReferralService;
  /** Per level: the share in basis points and what it is a share of. */
  readonly levels: readonly { readonly level: number; readonly shareBps: bigint; readonly of: string }[];
}

/** The agent's code and its service's shares per level. 404 for no agent. */
export function referralCode(ctx: ServiceContext, agentId: string, service: ReferralService): Outcome<ReferralCode> {
  const agent = ctx.agents.get(agentId);
  if (agent === undefined) return fail('NOT_FOUND', `agent ${agentId} is not registered`);
  const levels = serviceLevelsBps(ctx.config, service).map((shareBps, index) => ({
    level: index + 1,
    shareBps,
    of: SHARE_OF[service],
  }));
  return succeed({ referralCode: agent.referralCode, service, levels });
}

export interface ReferralWithdrawal {
  readonly agentId: string;
  readonly amountMicro: Micro;
  /** The agent's stats after the withdrawal (available is then 0). */
  readonly stats: ReferralStats;
}

/**
 * Withdraws every available referral earning into the agent's platform balance now (the daily
 * sweep does the same). 404 for no agent, 422 INSUFFICIENT_BALANCE when nothing is available.
 */
export function withdrawReferral(ctx: ServiceContext, agentId: string, nowMs: number): Outcome<ReferralWithdrawal> {
  if (ctx.agents.get(agentId) === undefined) return fail('NOT_FOUND', `agent ${agentId} is not registered`);
  const amountMicro = ctx.referrals.withdraw(agentId, nowMs);
  if (isFailure(amountMicro)) return amountMicro;
  const stats = referralStats(ctx, agentId);
  assert(!isFailure(stats), 'the agent exists');
  return succeed({ agentId, amountMicro: amountMicro.value, stats: stats.value });
}
