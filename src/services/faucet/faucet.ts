/**
 * FaucetService: agent registration for the whole platform, faucet claims of both styles, claim
 * status, the public agent list and the referral view (spec/platform.md "Faucet"; the wire
 * contract is in src/http/routes/faucet/faucet.ts).
 *
 * A thin facade over one operation per file: every method takes a command object (and `nowMs`
 * where time matters) and returns an Outcome; no HTTP types. The service owns only its
 * FaucetRecords; agents, balances, referral links and events live in the shared ServiceContext.
 * Amount rules are keyed by the style of the call: A pays 1 USDC once, B grants 10 USDC at B
 * registration and pays 2 USDC per claim, one claim per cooldown.
 */
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import type { ServiceContext } from '../shared/context.ts';
import { AGENT_LIST_LIMIT_MAX, agentList, type AgentList } from './agent-list.ts';
import { grantClaimA, grantClaimB, type ClaimACommand, type ClaimBCommand, type ClaimResult } from './claims.ts';
import { FaucetRecords, type FaucetRecord } from './faucet-records.ts';
import { registerInFaucet, type RegisterCommand, type Registration } from './registration.ts';
import {
  agentDetails,
  referralView,
  statusA,
  statusB,
  type AgentDetails,
  type ReferralView,
  type StatusA,
  type StatusB,
} from './views.ts';

export type { AgentList, AgentListEntry } from './agent-list.ts';
export type { ClaimACommand, ClaimBCommand, ClaimResult } from './claims.ts';
export type { FaucetRecord } from './faucet-records.ts';
export type { RegisterCommand, Registration } from './registration.ts';
export type { AgentDetails, ReferralView, StatusA, StatusB } from './views.ts';

export class FaucetService {
  private readonly ctx: ServiceContext;
  private readonly records = new FaucetRecords();

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
  }

  register(command: RegisterCommand, nowMs: number): Outcome<Registration> {
    return registerInFaucet(this.ctx, this.records, command, nowMs);
  }

  /** Style A: 1 USDC, once per agent. */
  claimA(command: ClaimACommand, nowMs: number): Outcome<ClaimResult> {
    return grantClaimA(this.ctx, this.records, command, nowMs);
  }

  /** Style B: 2 USDC per cooldown, with the agent's key (a keyless claim is 401, claims.ts). */
  claimB(command: ClaimBCommand, nowMs: number): Outcome<ClaimResult> {
    return grantClaimB(this.ctx, this.records, command, nowMs);
  }

  statusA(command: { agentId: string }): Outcome<StatusA> {
    return statusA(this.ctx, this.records, command.agentId);
  }

  statusB(command: { agentId: string }, nowMs: number): Outcome<StatusB> {
    return statusB(this.ctx, this.records, command.agentId, nowMs);
  }

  /** One agent's details (by id, address or referral code), visible to that agent only. */
  agentDetails(command: { callerId: string; reference: string }): Outcome<AgentDetails> {
    return agentDetails(this.ctx, command);
  }

  /** The public list: top agents by claims desc, then agent id; `limit` in 1..100. */
  listAgents(command: { limit: number }): Outcome<AgentList> {
    const { limit } = command;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > AGENT_LIST_LIMIT_MAX)
      return fail('BAD_REQUEST', `limit must be between 1 and ${AGENT_LIST_LIMIT_MAX}`);
    return succeed(agentList(this.ctx, this.records, limit));
  }

  referrals(command: { agentId: string }): Outcome<ReferralView> {
    return referralView(this.ctx, command.agentId);
  }

  /** Read-only faucet state of one agent, for invariant checkers and reports. */
  record(agentId: string): Readonly<FaucetRecord> | undefined {
    return this.records.get(agentId);
  }

  /** Faucet money paid out so far, grants included. */
  get totalPaidMicro(): bigint {
    return this.records.totalMicro;
  }

  /**
   * The faucet's totals (the deployment's public `GET /faucet/stats`): accepted claims, the agents
   * that made at least one, and the faucet money paid (grants included). O(agents): a rarely
   * polled public page, as the agent list.
   */
  claimStats(): FaucetStats {
    let claims = 0;
    let agents = 0;
    for (const agent of this.ctx.agents.all()) {
      const record = this.records.get(agent.id);
      if (record === undefined || record.claims === 0) continue;
      claims += record.claims;
      agents += 1;
    }
    return { claims, agents, paidMicro: this.records.totalMicro };
  }
}

export interface FaucetStats {
  readonly claims: number;
  readonly agents: number;
  readonly paidMicro: bigint;
}
