/**
 * SimAgent: one agent of a run — its archetype, its context (client, clock, own rng and faker stream,
 * params, style, tier) and its counts. Built from a scenario's populations in file order.
 *
 * Determinism: agent `k` of an archetype is named `${archetype}-${k}` plus a 4-hex suffix from
 * its own stream `Rng(seed).fork('agents').fork(name)`; everything the agent draws (style when
 * the population is mixed, start time, faker seed, every choice it makes) comes from forks of
 * that stream, so adding an agent changes no other agent's draws. Indexes count per archetype
 * across populations, in file order.
 */
import type { Faker } from '@faker-js/faker';
import type { AfpClient } from '../client/client.ts';
import { assert } from '../core/assert.ts';
import type { Clock } from '../core/clock.ts';
import { Rng } from '../core/rng.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { AgentContext, AnyAgentDefinition, PlatformFacts } from './agent.ts';
import type { AgentFakers, FakerStream } from './agent-fakers.ts';
import type { AgentDirectory } from './agent-directory.ts';
import { AgentCounts } from './run-stats.ts';
import type { Population } from './scenario.ts';

/** What the runner lends every agent context. */
export interface AgentHost {
  readonly clock: Clock;
  readonly directory: AgentDirectory;
  /** The run's one Faker, which each agent draws from through its own stream (agent-fakers.ts). */
  readonly fakers: AgentFakers;
  /** A client for `agent` with its key and IP, attributing every exchange to it (built per wake, not kept per agent). */
  clientFor(agent: SimAgent): AfpClient;
  /** Called when the agent learns its key: lists it, sets its tier. */
  onKey(agent: SimAgent, apiKey: string): void;
  report(agent: SimAgent, message: string, event: unknown): void;
  /** True while a scenario fault window makes `service` answer 5xx. */
  outage(service: ServiceName): boolean;
  readonly platformFacts: PlatformFacts;
}

const FAKER_SEED_BOUND = 0x7fff_ffff;

export class SimAgent implements AgentContext<unknown>, FakerStream {
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
  private readonly host: AgentHost;
  /** Shared by the population's agents: its params and tier are read through it (no copy per agent). */
  private readonly population: Population;

  constructor(options: {
    definition: AnyAgentDefinition;
    population: Population;
    seed: string;
    archetypeIndex: number;
    index: number;
    startSpreadMs: number;
    host: AgentHost;
  }) {
    const { definition, population, host } = options;
    const name = `${definition.name}-${options.archetypeIndex}`;
    this.rng = new Rng(options.seed).fork('agents').fork(name);
    this.agentId = `${name}-${this.rng.fork('id').hex(2)}`;
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

  setKey(apiKey: string): void {
    assert(this.apiKey === null, `agent ${this.agentId} learns its key once`);
    this.apiKey = apiKey;
    this.host.onKey(this, apiKey);
  }

  report(message: string, event: unknown): void {
    this.host.report(this, message, event);
  }

  expectedOutage(service: ServiceName): boolean {
    return this.host.outage(service);
  }

  get platformFacts(): PlatformFacts {
    return this.host.platformFacts;
  }
}
