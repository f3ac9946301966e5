/**
 * The agent registry shared by every service: one agent, one balance (spec/NOTES.md "Faucet
 * and escrow"). An agent is found by its caller-chosen id, its address, or its key's hash.
 * Keys are stored only as SHA-256 hashes.
 */
import { assert } from '../../core/assert.ts';
import type { JsonObject } from '../../core/errors.ts';
import { ShardedMap } from '../../core/sharded-map.ts';

export type Tier = 'free' | 'pro' | 'enterprise';

export interface Agent {
  readonly id: string;
  readonly address: string;
  readonly keyHash: string;
  readonly referralCode: string;
  tier: Tier;
  readonly referrerId: string | null;
  readonly createdAtMs: number;
  readonly metadata: JsonObject | null;
  readonly registeredStyle: 'A' | 'B';
}

export class AgentRegistry {
  // Lookups only, sharded (core/sharded-map.ts): they all grow on the same registration; `order` keeps the order.
  private readonly byId = new ShardedMap<Agent>();
  private readonly byAddress = new ShardedMap<Agent>();
  private readonly byKeyHash = new ShardedMap<Agent>();
  private readonly byReferralCode = new ShardedMap<Agent>();
  private readonly order: Agent[] = [];

  get size(): number {
    return this.order.length;
  }

  add(agent: Agent): void {
    assert(!this.byId.has(agent.id), 'agent ids are unique');
    assert(!this.byAddress.has(agent.address.toLowerCase()), 'agent addresses are unique');
    assert(!this.byKeyHash.has(agent.keyHash), 'key hashes are unique');
    this.byId.set(agent.id, agent);
    this.byAddress.set(agent.address.toLowerCase(), agent);
    this.byKeyHash.set(agent.keyHash, agent);
    this.byReferralCode.set(agent.referralCode, agent);
    this.order.push(agent);
  }

  has(agentId: string): boolean {
    return this.byId.has(agentId);
  }

  get(agentId: string): Agent | undefined {
    return this.byId.get(agentId);
  }

  byKey(keyHash: string): Agent | undefined {
    return this.byKeyHash.get(keyHash);
  }

  /** Finds an agent by id, EVM address (any case) or referral code. */
  resolve(reference: string): Agent | undefined {
    return (
      this.byId.get(reference) ?? this.byAddress.get(reference.toLowerCase()) ?? this.byReferralCode.get(reference)
    );
  }

  /** Agents in registration order. */
  all(): readonly Agent[] {
    return this.order;
  }
}
