/**
 * AgentDirectory: the registered agents of a run, by archetype, so an agent can find a
 * counterparty (a buyer finds a seller). Agents are listed in the order they registered, which
 * the scheduler makes deterministic; picks draw from the caller's own rng.
 *
 * Wallet agents also publish their wallets' public addresses here, so another agent can pay them:
 * the out-of-band exchange of an address a real payee makes (never a key).
 * Limits: at most `maxAgents` entries (a run's population bound); listing is O(1), picking O(1);
 * one address set per listed agent.
 */
import { assert } from '../core/assert.ts';
import type { Rng } from '../core/rng.ts';

export class AgentDirectory {
  private readonly byArchetype = new Map<string, string[]>();
  private readonly known = new Set<string>();
  private readonly addresses = new Map<string, Readonly<Record<string, string>>>();
  private readonly maxAgents: number;

  constructor(options: { maxAgents?: number } = {}) {
    this.maxAgents = options.maxAgents ?? 1_000_000;
  }

  get size(): number {
    return this.known.size;
  }

  /** Lists a registered agent; listing the same agent twice is a harness bug. */
  add(archetype: string, agentId: string): void {
    assert(!this.known.has(agentId), `agent ${agentId} is listed once`);
    assert(this.known.size < this.maxAgents, `the directory holds at most ${this.maxAgents} agents`);
    this.known.add(agentId);
    const list = this.byArchetype.get(archetype);
    if (list === undefined) this.byArchetype.set(archetype, [agentId]);
    else list.push(agentId);
  }

  has(agentId: string): boolean {
    return this.known.has(agentId);
  }

  /** Publishes a listed agent's public wallet addresses by chain (its latest wallet's). */
  publishAddresses(agentId: string, addresses: Readonly<Record<string, string>>): void {
    assert(this.known.has(agentId), `agent ${agentId} is listed before it publishes addresses`);
    this.addresses.set(agentId, { ...addresses });
  }

  /** The addresses `agentId` published; null before it published any. */
  addressesOf(agentId: string): Readonly<Record<string, string>> | null {
    return this.addresses.get(agentId) ?? null;
  }

  /** Registered agents of one archetype, in registration order. */
  list(archetype: string): readonly string[] {
    return this.byArchetype.get(archetype) ?? [];
  }

  /** A registered agent of `archetype` other than `excluding`, drawn with `rng`; null if none. */
  pick(archetype: string, rng: Rng, excluding?: string): string | null {
    const list = this.list(archetype);
    if (list.length === 0) return null;
    const first = list[rng.int(list.length)] as string;
    if (first !== excluding) return first;
    if (list.length === 1) return null;
    // One redraw among the others keeps the pick uniform over the agents that qualify.
    const index = rng.int(list.length - 1);
    const other = list[index] as string;
    return other === excluding ? (list[list.length - 1] as string) : other;
  }
}
