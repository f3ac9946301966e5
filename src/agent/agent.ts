/**
 * The agent model: an archetype is a small state machine the simulator drives. `setup` runs once
 * (typically: register, first claim); `step` runs at every wake-up and says when to wake next, or
 * 'done'. Agents talk to the platform only through their AfpClient (never the Platform object), so
 * the same archetype can drive a live deployment.
 *
 * Invariants: an agent draws chance only from `rng` (its own fork: adding an agent changes no other
 * agent's draws) and time only from `clock`; probabilities in params are integer basis points
 * (src/scenario/probability.ts), durations integer milliseconds (src/scenario/duration.ts).
 * An agent that sees the platform break a rule it can observe (a 2xx to bad input, a 5xx outside a
 * fault window) calls `report`: the runner turns it into an invariant violation.
 */
import type { Faker } from '@faker-js/faker';
import type { z } from 'zod';
import type { AfpClient } from '../client/client.ts';
import type { Clock } from '../core/clock.ts';
import type { Rng } from '../core/rng.ts';
import type { FaultWindow, ServiceName } from '../platform/platform.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { PlatformConfig } from '../services/shared/config.ts';
import type { MarketClosure, PriceShock } from '../services/trading/trading-record.ts';
import type { AgentDirectory } from './agent-directory.ts';

export type StepResult = { readonly wakeInMs: number } | 'done';

export interface AgentContext<P> {
  /** Deterministic: `${archetype}-${index}-${suffix}`; also the agent_id the agent registers. */
  readonly agentId: string;
  readonly archetype: string;
  /** Carries the agent's key after `setKey`, and its own simulated IP (x-forwarded-for). */
  readonly client: AfpClient;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly faker: Faker;
  readonly params: P;
  /** The addressing style this agent prefers (drawn per agent; archetypes may mix). */
  readonly style: 'A' | 'B';
  readonly tier: Tier;
  /** Registered agents by archetype, to find counterparties. */
  readonly directory: AgentDirectory;
  /** The agent's own memory, made by `memoryOf` (agent-kit.ts) on first use; each archetype keeps a typed view of it. */
  memory: object | null;
  /** Gives the client the agent's key and lists the agent in the directory (after registration). */
  setKey(apiKey: string): void;
  /** Reports a broken platform rule the agent observed; the run stops with an invariant failure. */
  report(message: string, event: unknown): void;
  /**
   * True while the scenario's fault window makes `service` answer 5xx: the harness's plan, known
   * to the agent as a test knows its fault injection, so a 5xx then is not reported.
   */
  expectedOutage(service: ServiceName): boolean;
  /**
   * What the simulator knows of the platform it runs, lent as a test knows its fixture: absent
   * where agents drive a deployment (afp load, k6). The property archetype prices trading with it.
   */
  readonly platformFacts?: PlatformFacts;
}

/** A wallet mint through the simulator's door, and its answer (the body of POST /_afp/wallet/mint on afp serve). */
export interface WalletMintDoor {
  (body: {
    chain: string;
    address: string;
    amount: string;
    token?: string;
  }): Promise<{ status: number; body: unknown }>;
}

/** A run's fault windows and casino game closures, at absolute instants. */
export interface ScheduledOutages {
  readonly faults: readonly FaultWindow[];
  readonly gameClosures: readonly GameClosure[];
}

/** The simulated platform's seed, configuration, trading schedule, fault windows and game closures (absolute instants) and the run's archetypes. */
export interface PlatformFacts {
  readonly seed: string;
  readonly config: PlatformConfig;
  readonly tradingShocks: readonly PriceShock[];
  readonly marketClosures: readonly MarketClosure[];
  /** The run's scheduled outages: what an agent meets there is the outage, not a broken rule. */
  readonly outages: ScheduledOutages;
  /** The archetypes of the run's populations, sorted (what else acts on the shared platform). */
  readonly archetypes: readonly string[];
  /**
   * The wallet's funding door, lent to property agents as afp check's in-process target lends it
   * (its wallet rows mint before they send). Each mint is recorded (`mints`, after the last
   * exchange) so the run replays. Scripted archetypes get `wallet.starting_funds` instead.
   */
  readonly walletMint: WalletMintDoor;
}

export interface AgentDefinition<P> {
  readonly name: string;
  /** The service this archetype's agents mostly use (its folder under agents/); absent when they cross services. */
  readonly service?: ServiceName;
  readonly description: string;
  /** zod strict object with defaults: the `params` of a scenario population. */
  readonly params: z.ZodType<P>;
  /**
   * True: the simulator mints no `wallet.starting_funds` at this archetype's wallets, which fund
   * themselves through PlatformFacts.walletMint (a model that predicts every balance must know
   * every mint). Default false.
   */
  readonly fundsOwnWallets?: boolean;
  setup(context: AgentContext<P>): Promise<void>;
  step(context: AgentContext<P>): Promise<StepResult>;
  /**
   * Work a live engine (afp load, a k6 VU's init) does once before the load starts, so an agent's
   * first iteration does not pay for it: building the key code's precomputed tables. No traffic,
   * no state an agent sees.
   */
  readonly warmUp?: () => void;
}

/** A definition with its params type erased, as stored in the AGENTS table. */
export type AnyAgentDefinition = AgentDefinition<unknown>;

/** Erases the params type so archetypes of many shapes share one table. */
export function defineAgent<P>(definition: AgentDefinition<P>): AnyAgentDefinition {
  return definition as unknown as AnyAgentDefinition;
}
