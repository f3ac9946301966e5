/**
 * The public agent list of style B (`GET /agents`): top agents by accepted claims (desc), ties
 * by agent id (ascending, by UTF-16 code units: locale-free, so byte-stable), plus totals and a
 * framework breakdown over all agents.
 *
 * Invariants: `limit` is bounded by the caller (1..100); the breakdown's counts sum to
 * `totalAgents`; frameworks are listed in name order. Cost: O(n log n) per call over all agents;
 * the list is a rarely polled public page, not a hot path.
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { FaucetRecords } from './faucet-records.ts';

export const AGENT_LIST_LIMIT_MAX = 100;

export interface AgentListEntry {
  readonly agentId: string;
  readonly address: string;
  readonly framework: string;
  readonly claims: number;
  readonly receivedMicro: Micro;
  readonly createdAtMs: number;
}

export interface AgentList {
  readonly agents: readonly AgentListEntry[];
  readonly totalAgents: number;
  readonly totalClaimedMicro: Micro;
  /** [framework, count] pairs in framework-name order. */
  readonly frameworks: readonly (readonly [string, number])[];
}

export function agentList(ctx: ServiceContext, records: FaucetRecords, limit: number): AgentList {
  assert(Number.isSafeInteger(limit) && limit >= 1 && limit <= AGENT_LIST_LIMIT_MAX, 'agent list limit in 1..100');
  const entries: AgentListEntry[] = [];
  const frameworkCounts = new Map<string, number>();
  for (const agent of ctx.agents.all()) {
    const record = records.forAgent(agent);
    entries.push({
      agentId: agent.id,
      address: agent.address,
      framework: record.framework,
      claims: record.claims,
      receivedMicro: record.receivedMicro,
      createdAtMs: agent.createdAtMs,
    });
    frameworkCounts.set(record.framework, (frameworkCounts.get(record.framework) ?? 0) + 1);
  }
  entries.sort(byClaimsThenId);
  const frameworks = [...frameworkCounts.entries()].sort(([a], [b]) => compareText(a, b));
  return {
    agents: entries.slice(0, limit),
    totalAgents: entries.length,
    totalClaimedMicro: records.totalMicro,
    frameworks,
  };
}

function byClaimsThenId(a: AgentListEntry, b: AgentListEntry): number {
  return b.claims - a.claims || compareText(a.agentId, b.agentId);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
