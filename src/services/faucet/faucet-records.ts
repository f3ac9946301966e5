/**
 * FaucetRecords: what the faucet remembers about each agent beyond the shared registry — whether
 * the one-time A claim was taken, the style-B cooldown, claim counts and money received.
 *
 * Invariants: at most one record per agent, created at registration (or on first use for an agent
 * that entered the shared registry another way, e.g. a test fixture); `receivedMicro` of all
 * records sums to `totalMicro`, which equals everything the faucet pool paid out (grants and
 * claims; a `mint-on-claim` defect credit is not faucet money and is not counted). Records are
 * mutated only by the faucet's own operations. Non-goal: persistence (the platform is rebuilt by
 * replaying commands).
 */
import { assert } from '../../core/assert.ts';
import type { JsonObject } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';
import type { Agent } from '../shared/agents.ts';
import { ShardedMap } from '../../core/sharded-map.ts';

/** Longest framework name kept from registration metadata. */
export const FRAMEWORK_MAX_LENGTH = 64;
export const UNKNOWN_FRAMEWORK = 'unknown';

export interface FaucetRecord {
  /** The one style-A claim has been paid. */
  claimedA: boolean;
  /** Accepted claims through style B `/claim` (the registration grant is not one). */
  claimsB: number;
  /** First instant a style-B claim is accepted; null when no B grant or claim has happened. */
  nextClaimBAtMs: number | null;
  /** Accepted claims of both styles (the public list's `claims`). */
  claims: number;
  /** Faucet money received: registration grant plus claims. */
  receivedMicro: Micro;
  /** From the registration metadata; 'unknown' when none was given. */
  readonly framework: string;
}

export class FaucetRecords {
  /** By agent id; lookups only, sharded (core/sharded-map.ts): one entry per registration. */
  private readonly records = new ShardedMap<FaucetRecord>();
  private total: Micro = 0n;

  /** Faucet money paid out to all agents, grants included. */
  get totalMicro(): Micro {
    return this.total;
  }

  create(agentId: string, framework: string): FaucetRecord {
    assert(!this.records.has(agentId), 'one faucet record per agent');
    const record: FaucetRecord = {
      claimedA: false,
      claimsB: 0,
      nextClaimBAtMs: null,
      claims: 0,
      receivedMicro: 0n,
      framework,
    };
    this.records.set(agentId, record);
    return record;
  }

  get(agentId: string): FaucetRecord | undefined {
    return this.records.get(agentId);
  }

  /** The agent's record, created empty if the agent was registered without the faucet. */
  forAgent(agent: Agent): FaucetRecord {
    return this.records.get(agent.id) ?? this.create(agent.id, frameworkOf(agent.metadata ?? undefined));
  }

  /** Books faucet money paid to `record`'s agent. */
  credit(record: FaucetRecord, amountMicro: Micro): void {
    assert(amountMicro > 0n, 'faucet payouts are positive');
    record.receivedMicro += amountMicro;
    this.total += amountMicro;
  }
}

/** The framework named in registration metadata, or 'unknown'. Route rows validate its type. */
export function frameworkOf(metadata: JsonObject | undefined): string {
  const framework = metadata?.['framework'];
  if (typeof framework !== 'string' || framework.trim() === '') return UNKNOWN_FRAMEWORK;
  return framework.slice(0, FRAMEWORK_MAX_LENGTH);
}
