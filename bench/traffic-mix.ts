/**
 * A traffic mix: the requests one simulated run sent, in order, with the virtual instant and the
 * agent of each, plus what is needed to rebuild the platform they ran against (seed, start,
 * config, fault windows, out-of-band tier upgrades). Every timed phase of the benchmark replays a
 * mix on a fresh platform built by `freshPlatform`; determinism makes the replay answer exactly
 * as the run did (the in-process phase counts any status that differs).
 *
 * Invariants: exchanges are in send order and `atMs` never decreases; `status` is what the
 * original run answered; `body` (the original answer) is kept only for the prefix the HTTP phase
 * may send (it needs them to rebind identifiers), to bound memory on large mixes.
 */
import type { TransportRequest } from '../src/client/transport.ts';
import { Platform, type FaultWindow } from '../src/platform/platform.ts';
import type { PlatformConfig } from '../src/services/shared/config.ts';
import type { Tier } from '../src/services/shared/agents.ts';

export interface MixExchange {
  readonly atMs: number;
  /** The agent that sent it (null: the harness itself). */
  readonly agentId: string | null;
  readonly request: TransportRequest;
  readonly status: number;
  /** The original answer's body; undefined beyond the kept prefix. */
  readonly body: unknown;
  /** The simulator set this agent's tier right after this exchange (registration of a pro agent). */
  readonly tierAfter?: { readonly agentId: string; readonly tier: Tier };
}

export interface TrafficMix {
  /** 'quickstart', 'quickstart-small', 'synthetic'... */
  readonly name: string;
  readonly seed: string;
  readonly startMs: number;
  readonly durationMs: number;
  readonly agents: number;
  readonly config?: PlatformConfig;
  readonly faults: readonly FaultWindow[];
  readonly exchanges: readonly MixExchange[];
}

/** A platform in the state the mix's run started from. */
export function freshPlatform(mix: TrafficMix): Platform {
  return new Platform({
    seed: mix.seed,
    startMs: mix.startMs,
    faults: mix.faults,
    ...(mix.config === undefined ? {} : { config: mix.config }),
  });
}

/** Applies the out-of-band tier change that followed an exchange, if any (as the simulator did). */
export function applyTierAfter(platform: Platform, exchange: MixExchange): void {
  if (exchange.tierAfter === undefined) return;
  const agent = platform.agents.get(exchange.tierAfter.agentId);
  if (agent !== undefined) agent.tier = exchange.tierAfter.tier;
}
