/**
 * RunAgent: one agent of a run, the one agent runtime of afp — the simulator (in-process
 * transport, virtual clock), `afp load` (node HTTP, the target's clock) and the k6 export
 * (k6's http.asyncRequest) all drive the archetypes of agents/ through it; only the AgentHost and
 * the Transport under its client differ.
 *
 * Determinism: agent `k` of an archetype is named `${archetype}-${k}` and draws everything from
 * its own stream `Rng(seed).fork('agents').fork(name)` (style when the population is mixed, start
 * time, faker seed, every choice it makes), so adding an agent changes no other agent's draws.
 * Indexes count per archetype across populations, in file order. Its id is the name plus a
 * 4-hex suffix from its stream (`idSuffix: null`: the simulator), or plus a run tag (`afp load`
 * and k6: a second run against the same live target must not collide with the first one's
 * registrations).
 * Non-goal: scheduling. When an agent acts is the host's (the simulator's event queue, the load
 * generator's arrivals, a k6 VU's iterations: agent-turn.ts).
 */
import type { Faker } from '@faker-js/faker';
import type { AfpClient } from '../client/client.ts';
import type { Clock } from '../core/clock.ts';
import { Rng } from '../core/rng.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { AgentContext, AnyAgentDefinition, PlatformFacts } from './agent.ts';
import type { AgentFakers, FakerStream } from './agent-fakers.ts';
import type { AgentDirectory } from './agent-directory.ts';
import { AgentCounts } from './run-stats.ts';
import type { Population } from '../scenario/scenario.ts';

/** What the harness lends every agent context. */
export interface AgentHost {
  readonly clock: Clock;
  readonly directory: AgentDirectory;
  /** The run's one Faker, which each agent draws from through its own stream (agent-fakers.ts). */
  readonly fakers: AgentFakers;
  /** A client for `agent` with its key and IP (the host decides whether it keeps one per agent). */
  clientFor(agent: RunAgent): AfpClient;
  /** Called when the agent learns its key: lists it, sets its tier. */
  onKey(agent: RunAgent, apiKey: string): void;
  report(agent: RunAgent, message: string, event: unknown): void;
  /** True while a scenario fault window makes `service` answer 5xx (a live target's never do: false). */
  outage(service: ServiceName): boolean;
  /** What the simulator lends its agents of the platform (seed, config, trading schedule); absent live (afp load, k6). */
  readonly platformFacts?: PlatformFacts;
}

export const FAKER_SEED_BOUND = 0x7fff_ffff;

export interface RunAgentOptions {
  readonly definition: AnyAgentDefinition;
  readonly population: Population;
  readonly seed: string;
  readonly archetypeIndex: number;
  /** Position in the run (all populations): its simulated IP. */
  readonly index: number;
  /** Start times are drawn in [0, startSpreadMs) (the simulator); 0 or 1: every agent starts at once. */
  readonly startSpreadMs: number;
  /** null: a suffix drawn from the agent's stream (the simulator); else the run's tag (live runs). */
  readonly idSuffix: string | null;
  readonly host: AgentHost;
}

/** `${archetype}-${k}`: the name an agent's stream and id derive from. */
export function agentName(archetype: string, archetypeIndex: number): string {
  return `${archetype}-${archetypeIndex}`;
}

export class RunAgent implements AgentContext<unknown>, FakerStream {
  readonly agentId: string;
  readonly definition: AnyAgentDefinition;
  readonly index: number;
  readonly rng: Rng;
  readonly fakerSeed: number;
  fakerDraws = 0;
  readonly style: 'A' | 'B';
  readonly displayName: string;
  readonly startOffsetMs: number;
  readonly counts = new AgentCounts();
  memory: object | null = null;
  apiKey: string | null = null;
  /** Broken rules the agent reported (context.report) over the run. */
  reports = 0;
  private readonly host: AgentHost;
  /** Shared by the population's agents: its params and tier are read through it (no copy per agent). */
  private readonly population: Population;

  constructor(options: RunAgentOptions) {
    const { definition, population, host } = options;
    const name = agentName(definition.name, options.archetypeIndex);
    this.rng = new Rng(options.seed).fork('agents').fork(name);
    this.agentId = `${name}-${options.idSuffix ?? this.rng.fork('id').hex(2)}`;
    this.definition = definition;
    this.index = options.index;
    this.population = population;
    this.style = population.style === 'mixed' ? (this.rng.fork('style').chance(1, 2) ? 'A' : 'B') : population.style;
    this.host = host;
    this.startOffsetMs = options.startSpreadMs <= 1 ? 0 : this.rng.fork('start').int(options.startSpreadMs);
    this.fakerSeed = this.rng.fork('faker').int(FAKER_SEED_BOUND);
    this.displayName = this.faker.person.fullName();
  }

  get archetype(): string {
    return this.definition.name;
  }

  get params(): unknown {
    return this.population.params;
  }

  get tier(): Tier {
    return this.population.tier;
  }

  get clock(): Clock {
    return this.host.clock;
  }

  get directory(): AgentDirectory {
    return this.host.directory;
  }

  /** The run's shared Faker, drawing from this agent's stream (select it again before each use). */
  get faker(): Faker {
    return this.host.fakers.select(this);
  }

  get client(): AfpClient {
    return this.host.clientFor(this);
  }

  /** A live target may hand the key out again (a retried registration): the latest one is used. */
  setKey(apiKey: string): void {
    this.apiKey = apiKey;
    this.host.onKey(this, apiKey);
  }

  report(message: string, event: unknown): void {
    this.reports += 1;
    this.host.report(this, message, event);
  }

  expectedOutage(service: ServiceName): boolean {
    return this.host.outage(service);
  }

  get platformFacts(): PlatformFacts | undefined {
    return this.host.platformFacts;
  }
}
