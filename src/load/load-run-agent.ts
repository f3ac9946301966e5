/**
 * LoadAgent: one scenario agent driving a live target under `afp load` — the same archetype code
 * the simulator runs (agents/), given an AgentContext whose client speaks HTTP through a recording
 * transport (load-run-transport.ts) and whose clock is the target's time.
 *
 * As in the simulator (src/sim/sim-agent.ts), agent `k` of an archetype draws everything (style of a
 * mixed population, faker seed, every choice) from `Rng(seed).fork('agents').fork('<archetype>-<k>')`,
 * and sends its own simulated IP (x-forwarded-for). Its id is `<archetype>-<k>-<runTag>`: the run's
 * tag (the CLI's start instant) keeps a second run against the same live target from colliding
 * with the first one's registrations.
 * Wake-ups: the load generator ignores the `wakeInMs` a step returns; the arrival schedule decides
 * when the agent steps next. The agent's own timed moves (a claim when due, an escrow's planned
 * settlement) still follow its clock, so a step may send nothing when nothing is due.
 * An agent runs one iteration at a time (`busy`); its first iteration is its `setup` (register,
 * fund), the next ones its `step`s, until a step answers 'done'.
 */
import type { Faker } from '@faker-js/faker';
import { AfpClient } from '../client/client.ts';
import type { Transport } from '../client/transport.ts';
import type { Clock } from '../core/clock.ts';
import { Rng } from '../core/rng.ts';
import type { Tier } from '../services/shared/agents.ts';
import type { AgentContext, AnyAgentDefinition } from '../sim/agent.ts';
import type { AgentDirectory } from '../sim/agent-directory.ts';
import { englishFaker } from '../sim/english-faker.ts';
import type { Population } from '../sim/scenario.ts';
import { simulatedIp } from '../sim/simulated-ip.ts';

/** What the load run lends every agent. */
export interface LoadAgentHost {
  readonly clock: Clock;
  readonly directory: AgentDirectory;
  transportFor(agent: LoadAgent): Transport;
  /** The agent learnt its key: list it, apply its tier and starting deposit where the target allows. */
  onKey(agent: LoadAgent, apiKey: string): void;
  report(agent: LoadAgent, message: string, event: unknown): void;
}

const FAKER_SEED_BOUND = 0x7fff_ffff;

export class LoadAgent implements AgentContext<unknown> {
  readonly agentId: string;
  readonly archetype: string;
  readonly definition: AnyAgentDefinition;
  readonly index: number;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly faker: Faker;
  readonly params: unknown;
  readonly style: 'A' | 'B';
  readonly tier: Tier;
  readonly directory: AgentDirectory;
  memory: object | null = null;
  apiKey: string | null = null;
  busy = false;
  setUp = false;
  done = false;
  /** Rules the agent saw broken (context.report), over the run. */
  reports = 0;
  /** The agent's set-up calls to the target's admin doors (tier, deposit), awaited before its next request; null when none is under way. */
  pendingSetup: Promise<void> | null = null;
  private intendedStartMs: number | null = null;
  private currentClient: AfpClient;
  private readonly host: LoadAgentHost;

  constructor(options: {
    definition: AnyAgentDefinition;
    population: Population;
    seed: string;
    runTag: string;
    archetypeIndex: number;
    index: number;
    host: LoadAgentHost;
  }) {
    const { definition, population, host } = options;
    const name = `${definition.name}-${options.archetypeIndex}`;
    this.rng = new Rng(options.seed).fork('agents').fork(name);
    this.agentId = `${name}-${options.runTag}`;
    this.archetype = definition.name;
    this.definition = definition;
    this.index = options.index;
    this.clock = host.clock;
    this.params = population.params;
    this.style = population.style === 'mixed' ? (this.rng.fork('style').chance(1, 2) ? 'A' : 'B') : population.style;
    this.tier = population.tier;
    this.directory = host.directory;
    this.host = host;
    this.faker = englishFaker();
    this.faker.seed(this.rng.fork('faker').int(FAKER_SEED_BOUND));
    this.currentClient = new AfpClient(host.transportFor(this), { ip: simulatedIp(options.index) });
  }

  get client(): AfpClient {
    return this.currentClient;
  }

  setKey(apiKey: string): void {
    // A live target may hand the key out again (a retried registration): the latest one is used.
    this.apiKey = apiKey;
    this.currentClient = this.currentClient.withKey(apiKey);
    this.host.onKey(this, apiKey);
  }

  report(message: string, event: unknown): void {
    this.reports += 1;
    this.host.report(this, message, event);
  }

  /** A live target's outages are not scheduled by the harness: a 5xx is never an expected one. */
  expectedOutage(): boolean {
    return false;
  }

  /** The iteration starting now was meant to start at `intendedStartMs`: its first request is timed from there. */
  beginIteration(intendedStartMs: number): void {
    this.intendedStartMs = intendedStartMs;
  }

  takeIntendedStartMs(): number | null {
    const intended = this.intendedStartMs;
    this.intendedStartMs = null;
    return intended;
  }
}
