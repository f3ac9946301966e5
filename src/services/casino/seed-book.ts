/**
 * SeedBook: every agent's provably fair server seeds (NOTES.md "Provably fair").
 *
 * Each agent has one active seed: 32 bytes drawn from the casino's own rng stream, as 64 lowercase
 * hex characters, published only as its commitment SHA-256(hex text). Every bet takes the next
 * nonce (0, 1, 2, …). After `rotateAfterNonces` nonces the seed is retired — revealed — and a
 * fresh one becomes active; `rotate` does the same at once. Retired seeds are kept (a bet's proof
 * names its seed by the hash) and shown with their plain text.
 *
 * Invariants: a seed's text is never shown while it is active; a (seed, nonce) pair is used by at
 * most one draw — video poker's deal reserves its nonce and the draw consumes that reservation
 * (the `replayable-nonce` defect breaks exactly this); nonces of a seed are consecutive.
 * Determinism: seeds come from `rng` (a fork of the platform seed), in the order agents first need
 * one. That makes a simulation reproducible — and makes `afp serve`'s seeds predictable to anyone
 * who knows its --seed: afp is a test target, not a casino.
 */
import { hash } from 'node:crypto';
import { assert } from '../../core/assert.ts';
import type { Rng } from '../../core/rng.ts';

export interface ServerSeed {
  readonly hex: string;
  /** The HMAC key: the bytes of `hex` as UTF-8, made once (a text key is converted on every HMAC). */
  readonly keyBytes: Buffer;
  readonly hash: string;
  readonly createdAtMs: number;
  /** Nonces used so far (the next nonce to hand out). */
  nonces: number;
  revealedAtMs: number | null;
}

export interface AgentSeeds {
  active: ServerSeed;
  readonly all: ServerSeed[];
}

/** Seeds shown per agent by GET /fairness/seeds (newest first). */
export const SEEDS_SHOWN_MAX = 100;

export function seedCommitment(hex: string): string {
  return hash('sha256', hex, 'hex'); // one-shot: no Hash object per seed (see ids.ts hashKey)
}

export class SeedBook {
  private readonly rng: Rng;
  private readonly rotateAfterNonces: number;
  private readonly agents = new Map<string, AgentSeeds>();
  private readonly byHash = new Map<string, { readonly agentId: string; readonly seed: ServerSeed }>();

  constructor(options: { rng: Rng; rotateAfterNonces: number }) {
    assert(options.rotateAfterNonces >= 1, 'a seed serves at least one nonce');
    this.rng = options.rng;
    this.rotateAfterNonces = options.rotateAfterNonces;
  }

  /** The agent's seeds, its first seed created now on first use. */
  seedsOf(agentId: string, nowMs: number): AgentSeeds {
    let seeds = this.agents.get(agentId);
    if (seeds === undefined) {
      const active = this.fresh(agentId, nowMs);
      seeds = { active, all: [active] };
      this.agents.set(agentId, seeds);
    }
    return seeds;
  }

  private fresh(agentId: string, nowMs: number): ServerSeed {
    const hex = this.rng.hex(32);
    const seed: ServerSeed = {
      hex,
      keyBytes: Buffer.from(hex, 'utf8'),
      hash: seedCommitment(hex),
      createdAtMs: nowMs,
      nonces: 0,
      revealedAtMs: null,
    };
    assert(!this.byHash.has(seed.hash), 'server seeds never repeat');
    this.byHash.set(seed.hash, { agentId, seed });
    return seed;
  }

  /** The active seed (created on first use). */
  active(agentId: string, nowMs: number): ServerSeed {
    return this.seedsOf(agentId, nowMs).active;
  }

  /** Takes the next nonce of the agent's active seed; rotates first when the seed is used up. */
  take(agentId: string, nowMs: number): { readonly seed: ServerSeed; readonly nonce: number } {
    return this.takeFrom(this.seedsOf(agentId, nowMs), agentId, nowMs);
  }

  /** `take` with the agent's seeds at hand (`seeds` is `seedsOf(agentId)`). */
  takeFrom(seeds: AgentSeeds, agentId: string, nowMs: number): { readonly seed: ServerSeed; readonly nonce: number } {
    if (seeds.active.nonces >= this.rotateAfterNonces) this.rotate(agentId, nowMs);
    const seed = seeds.active;
    const nonce = seed.nonces;
    seed.nonces += 1;
    return { seed, nonce };
  }

  /** Retires and reveals the active seed, activating a fresh one. Returns the revealed seed. */
  rotate(agentId: string, nowMs: number): ServerSeed {
    const seeds = this.seedsOf(agentId, nowMs);
    const retired = seeds.active;
    retired.revealedAtMs = nowMs;
    const next = this.fresh(agentId, nowMs);
    seeds.active = next;
    seeds.all.push(next);
    return retired;
  }

  byCommitment(hash: string): { readonly agentId: string; readonly seed: ServerSeed } | undefined {
    return this.byHash.get(hash);
  }

  /** The agent's seeds, newest first, at most `limit`. */
  list(agentId: string, nowMs: number, limit = SEEDS_SHOWN_MAX): readonly ServerSeed[] {
    const all = this.seedsOf(agentId, nowMs).all;
    return all.slice(-limit).reverse();
  }

  /** Seeds created in total (for reports). */
  get size(): number {
    return this.byHash.size;
  }
}
