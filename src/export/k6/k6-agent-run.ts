/**
 * The agent runtime inside a k6 VU: afp's own agents (agents/, unchanged), client and route
 * names, driven by the one runtime (src/agent/run-agent.ts, agent-turn.ts) over k6's
 * http.asyncRequest (k6-transport.ts). The exported script (k6-script.ts) bundles this module with
 * esbuild and hands it k6's modules (`K6Api`); nothing here touches a k6 or node module itself.
 *
 * The traffic afp load sends:
 * - The same pool. The scenario's agents (the same ids `<archetype>-<k>-<run tag>`, rng streams,
 *   styles and simulated IPs) are laid out in afp load's ring (src/agent/agent-ring.ts). This
 *   process's execution segment owns its share of each population (k6-segment.ts), in ring order
 *   (its local ring); its VUs share those agents round-robin (VU v of V owns local positions ≡ v-1
 *   mod V). A VU builds only its own agents, registers each in its first iteration and reuses it:
 *   an iteration is one agent's setup or one step, one agent at a time per VU. The ring itself is
 *   never built (src/agent/ring-index.ts: a slot from its position): a VU holds its own positions
 *   (4 bytes each) and the state of the agents it has looked at, and names another VU's agent only
 *   when it lists it (million.yaml, 4 VUs: 315 MB where every VU's whole ring passed 4.4 GB).
 * - The same arrival model: the load profile is k6's own executor (k6-options.ts), with as many
 *   VUs as afp load has agents free to take an arrival (min(max_in_flight, agents)). afp load
 *   hands arrival i to the agent at ring position i mod N (the next free one; N: the whole ring,
 *   every segment's agents); k6 hands it to any idle VU, which cannot run another VU's agent. So
 *   under an arrival-rate executor an agent at ring position p is due for its (r+1)-th iteration at
 *   arrival p + r·N of the test (exec.scenario.iterationInTest, one count across the processes of
 *   a segmented run), where afp load's cursor reaches it, and never at an arrival past afp load's
 *   schedule (config.arrivals: k6 sometimes starts one more at the end). k6 hands arrivals to its
 *   V VUs in turn (the next idle one), so the VU that takes arrival i steps its own earliest-due
 *   agent if that one is due before its next turn (by i + V - 1), and sends nothing otherwise
 *   (afp load's arrival went to an agent another VU owns, stepped on that VU's turn).
 *   An agent thus steps at most V - 1 arrivals before afp load would step it, never a whole ring
 *   earlier: a VU used to cycle through its own few agents and step them ahead of afp load
 *   (tiers-and-faults: the pro abuser's 400-request burst, due at arrival 61 of 60, ran in k6).
 *   Without the look-ahead, a VU whose turns fall just before its agents' arrivals skipped one
 *   and ran every later agent late (property-mix lost a third of its requests). Under a VU
 *   executor (closed model) a VU steps its next own agent every iteration.
 *   Segmented: k6 splits the test's arrivals among the processes by its own striping (10 arrivals
 *   of k6-smoke: 6 to 0:1/2, 4 to 1/2:1) while the agents split by population (2 and 3 of 5), so
 *   a process may own more due steps than it takes arrivals. Each of its VUs takes every step of
 *   its agents due by (V + 1)·(⌈1/share⌉ + 1) arrivals of the test past its own (lookAheadOf:
 *   its next turn, with a turn to spare), one agent's steps one after another, agents side by
 *   side: the processes together step every agent exactly as often as afp load (k6-smoke's
 *   segments sent faucet.B.register×5 and no escrow.B.list when each stepped its agents on its
 *   own ring, against its own arrival count), each step up to that look-ahead early. Counted as
 *   late past it, as unsegmented. Not covered: a VU that gets no turn in the test's last
 *   look-ahead of arrivals (k6 handed them all to its other VUs, as only a generator far behind
 *   does) leaves its agents' last steps out, and no counter shows that.
 *   Not followed: afp load's cursor skipping agents that are done (rare in a load window).
 * - The same counterparties, where k6 can know them: agents name counterparties and referrers by
 *   agent id from their directory, and afp load lists an agent there once its registration has
 *   completed (it learnt its key). A VU sees that only of its own agents, listed then, as in afp
 *   load. Of another VU's or another process's agents it sees only the schedule, so it lists one
 *   once the schedule shows that its setup is over:
 *   - under an arrival-rate executor, the agent at ring position g (the whole ring's, N agents)
 *     once the test's arrival count (exec.scenario.iterationInTest, one count across the processes
 *     of a segmented run) reaches g + N: there afp load steps it a second time, which it does only
 *     once its setup iteration has ended. Its owner ran that setup by arrival g (up to V - 1
 *     arrivals early; later only in a step counted in afp_late_agent_steps), so the setup had a
 *     whole ring of arrivals (N / rate seconds) to end, another process's later start included.
 *     Listing it once the count passed g, when afp load STARTS that setup, let an agent name a
 *     counterparty still registering in another VU or process (404 not a registered agent:
 *     segment 1/2:1 of load-smoke failed 1-2 escrow-buyer checks in 3 runs of 3). The cost: in the
 *     first ring of arrivals an agent finds only its own VU's agents where afp load's finds all
 *     registered so far (referral-tree's first recruiters register under recruiters of their own
 *     VU), and later only those a ring behind; the per-endpoint counts stay within the parity
 *     tests' tolerance.
 *   - under a VU executor (no schedule), none: its iterations come back to back and one with
 *     nothing due ends at once (load-smoke on 30 VUs: 123,696 iterations in 10 s for 2,542
 *     requests), so no iteration count tells how far another VU got, and a ramp starts VUs in an
 *     order k6 does not expose (seen: 1, 3, 4, 5, 6, 7, 2…). A VU's agents name only agents of
 *     their VU: where a VU owns no agent of the archetype they look for (one agent a VU, as
 *     load-smoke on 30 VUs), they find none where afp load's would.
 *   Not covered: an agent whose registration failed is listed by other VUs all the same (a ring
 *   later); its own failed check shows it.
 * - The same set-up: a population's tier and the casino starting deposit through an afp serve's
 *   admin doors (tag endpoint=afp.setup), awaited before the agent's next request.
 * - The same check: `agent rules: <archetype>` per iteration (an agent that saw a broken rule).
 * Time: the agents' clock is the wall clock plus the target's offset (setup() asks an afp serve's
 * /_afp/clock), as in afp load; chance only from the agents' streams, seeded by the scenario seed.
 * Known gap: wallet addresses an agent publishes in another VU are not seen (no shared memory).
 */
import type { MountUrls } from '../../client/transport.ts';
import { adminHeaders } from '../../http/admin-token.ts';
import { assert } from '../../core/assert.ts';
import { formatDecimal } from '../../core/money.ts';
import { LiveTurn } from '../../load/live-turn.ts';
import { rulesCheckName } from '../../load/load-run-pool.ts';
import type { AnyAgentDefinition } from '../../agent/agent.ts';
import { AgentDirectory } from '../../agent/agent-directory.ts';
import { AgentFakers } from '../../agent/agent-fakers.ts';
import type { AgentSlot } from '../../agent/agent-ring.ts';
import { RingIndex } from '../../agent/ring-index.ts';
import { endpointName } from '../../replay/endpoint-name.ts';
import { agentName, RunAgent, type AgentHost } from '../../agent/run-agent.ts';
import type { Population } from '../../scenario/scenario.ts';
import { k6Transport, type K6Http } from './k6-transport.ts';
import { parseSegment, segmentSlice, WHOLE_SEGMENT, type Segment } from './k6-segment.ts';

/** What the script hands the runtime of k6's modules and globals. */
export interface K6Api {
  readonly http: K6Http;
  /** `http.expectedStatuses(...)`: the statuses k6 does not count in http_req_failed. */
  readonly expected: unknown;
  check(passed: boolean, name: string): void;
  /**
   * Counts an agent step that came more than V arrivals after afp load's ring reached the agent
   * (metric afp_late_agent_steps): its VU got too few turns to keep the schedule, as an arrival
   * afp load drops; k6's dropped_iterations does not count it.
   */
  late(): void;
  nowMs(): number;
  /**
   * `__VU` in the init context: this VU's id, or 0 where k6 evaluates the script without running
   * iterations in it (reading the options, the setup() and teardown() VUs, `k6 inspect`).
   */
  initVu(): number;
  /** exec.vu.idInInstance, exec.instance.vusInitialized, exec.scenario.iterationInTest and iterationInInstance. */
  vu(): {
    readonly inInstance: number;
    readonly ofInstance: number;
    readonly iterationInTest: number;
    readonly iterationInInstance: number;
  };
  /** exec.test.options.executionSegment as given (null: the whole test). */
  segment(): string | null;
  /** k6's exec.test.abort(reason): a request to a mount without a URL ends the run (k6 exits 108). */
  abort(message: string): never;
}

/** What setup() found out once, handed to every VU (k6 passes it as JSON). */
export interface K6SetupData {
  readonly urls: MountUrls;
  /** The target's clock minus the wall clock, ms. */
  readonly offsetMs: number;
  readonly runTag: string;
  /** The target is an afp serve: tiers and starting deposits go through its admin doors. */
  readonly admin: boolean;
  /** The serve's admin token (AFP_ADMIN_TOKEN), sent on every admin call; null: none given. */
  readonly adminToken: string | null;
}

/**
 * What the runtime reads of the scenario, as afp's parser read it at export (k6-script.ts): the
 * populations with each archetype's params as `afp run` gives them, the agent limit and the
 * casino's starting deposit. Why not the scenario text, parsed in each VU: its schemas were the
 * largest part of the script a VU evaluated before its first iteration.
 */
export interface K6Scenario {
  readonly populations: readonly Population[];
  readonly maxAgents: number;
  readonly startingDepositMicro: bigint | null;
}

export interface K6RunConfig {
  readonly scenario: K6Scenario;
  readonly seed: string;
  readonly agents: Readonly<Record<string, AnyAgentDefinition>>;
  readonly timeout: string;
  /** An arrival-rate executor (the open model): agents are stepped when afp load's ring reaches them. */
  readonly openModel: boolean;
  /** The VUs an unsegmented run of the script initializes (its scenario's peak). */
  readonly vus: number;
  /**
   * The arrivals afp load's schedule holds (an arrival-rate executor; null under a VU executor):
   * no agent steps at an arrival past them, so k6's own extra arrival at the end, when its clock
   * starts one there, sends nothing.
   */
  readonly arrivals: number | null;
}

/** One of this VU's agents: built when first stepped. */
interface Owned {
  readonly slot: AgentSlot;
  /** Its position in the whole test's ring (afp load's: arrival position + r × ring size steps it). */
  readonly position: number;
  turn: LiveTurn | null;
  /** Iterations it has run. */
  runs: number;
}

interface VuState {
  /**
   * The ring positions of this VU's own agents, ascending (ring order): 4 bytes an agent. Their
   * state (`Owned`, the slot, the agent once built) is made when the VU first looks at one
   * (`ownedAt`), so a VU of million.yaml holds the few thousand it steps, not its 250,000.
   */
  readonly ownPositions: Int32Array;
  readonly looked: Map<number, Owned>;
  readonly byAgent: Map<RunAgent, Owned>;
  readonly build: (slot: AgentSlot) => RunAgent;
  /** The whole test's agents (afp load's ring), every segment's. */
  readonly ringSize: number;
  /**
   * Null in an unsegmented run; in a segmented one, the segment's share of the test's arrivals
   * (to − from): a VU's turns come about V / share arrivals of the test apart.
   */
  readonly share: number | null;
  cursor: number;
  readonly runTag: string;
  listed: number;
}

export class K6AgentRun {
  readonly scenario: K6Scenario;
  private readonly api: K6Api;
  private readonly config: K6RunConfig;
  /** The whole test's ring, every segment's, as positions: no VU builds a slot it neither owns nor lists. */
  private readonly ring: RingIndex;
  private vuState: VuState | null = null;
  private readonly directory: AgentDirectory;
  private readonly fakers = new AgentFakers();

  constructor(api: K6Api, config: K6RunConfig) {
    this.scenario = config.scenario;
    this.api = api;
    this.config = config;
    this.ring = new RingIndex(this.scenario.populations, config.agents);
    this.directory = new AgentDirectory({ maxAgents: this.scenario.maxAgents });
    this.warmUp();
  }

  /**
   * Builds in k6's init context (before the load starts) what a VU would otherwise build in its
   * first iteration, making it seconds slower than afp load's and dropping arrivals: the route
   * table's router (endpoint names), the Faker's locale data and the archetypes' own warm-ups
   * (the wallet key code's precomputed tables), each warm-up once (archetypes share them).
   * Only where iterations run (not in k6's VU 0), and only the warm-ups of the archetypes this VU
   * will own. The VU count and execution segment are not known in the init context, so the owned
   * agents are those of an unsegmented run (`config.vus`); a VU of a segmented run may own others,
   * and then pays their warm-up in its first step (never a different request).
   */
  private warmUp(): void {
    const vu = this.api.initVu();
    if (vu < 1) return;
    endpointName({ mount: 'api', method: 'GET', path: '/' });
    this.fakers.select({ fakerSeed: 1, fakerDraws: 0 }).person.fullName();
    const vus = Math.max(1, this.config.vus);
    const archetypes = new Set(this.scenario.populations.map((population) => population.agent)).size;
    const mine = new Set<AnyAgentDefinition>();
    for (let position = (vu - 1) % vus; position < this.ring.size && mine.size < archetypes; position += vus)
      mine.add(this.ring.slotAt(position).definition);
    for (const warmUp of new Set([...mine].map((definition) => definition.warmUp))) warmUp?.();
  }

  /**
   * One k6 iteration: the own agents due by this VU's next turn, each set up or stepped once, then
   * each one's rules check (nothing when none is due). Unsegmented, at most one agent (the next in
   * ring order); in a segmented run, every one due, together (see the file header).
   */
  async iteration(data: K6SetupData): Promise<void> {
    const state = this.prepare(data);
    const vu = this.api.vu();
    this.listArrived(state, vu.iterationInTest);
    if (!this.config.openModel) {
      const owned = this.next(state, Number.POSITIVE_INFINITY);
      if (owned !== null) await this.step(state, owned);
      return;
    }
    // k6 hands each arrival to the next idle VU: an unsegmented VU takes about one arrival in V,
    // a segmented one about one in V / share of the test's (its segment's arrivals are striped
    // among the test's, not evenly: seen 0, 2, 4, 5, 7, 9 of 10 for 0:1/2), so it looks a turn
    // and a stripe further ahead. Its agents run if afp load's ring reaches them by then.
    const lookAhead = lookAheadOf(vu.ofInstance, state.share);
    const arrival = vu.iterationInTest;
    const reach = Math.min(arrival + lookAhead, (this.config.arrivals ?? Number.POSITIVE_INFINITY) - 1);
    const late = (owned: Owned): void => {
      if (owned.position + owned.runs * state.ringSize < arrival - lookAhead - 1) this.api.late();
    };
    if (state.share === null) {
      const owned = this.next(state, reach);
      if (owned === null) return;
      late(owned);
      await this.step(state, owned);
      return;
    }
    // Segmented: every own agent with steps due by the reach takes them all, one after another
    // (agents side by side), so a VU whose turns fell short of its agents' pace catches up and its
    // last turn leaves no step of the schedule out.
    // An agent is due no earlier than its position: those past the reach are not looked at.
    const looked: Owned[] = [];
    for (let own = 0; own < state.ownPositions.length && (state.ownPositions[own] as number) <= reach; own++)
      looked.push(this.ownedAt(state, own));
    await Promise.all(
      looked.map(async (owned) => {
        while (owned.turn?.done !== true && dueAt(state, owned) <= reach) {
          late(owned);
          await this.step(state, owned);
        }
      }),
    );
  }

  /** One setup or step of `owned` (built on its first), then its rules check. */
  private async step(state: VuState, owned: Owned): Promise<void> {
    if (owned.turn === null) {
      const agent = state.build(owned.slot);
      owned.turn = new LiveTurn(agent);
      state.byAgent.set(agent, owned);
    }
    owned.runs += 1;
    const passed = await owned.turn.iterate();
    this.api.check(passed, rulesCheckName(owned.turn.agent.archetype));
  }

  /**
   * This VU's next agent (its own, in ring order, skipping those done) if afp load's ring
   * reaches it by arrival `reach`: it is due at position + runs × ringSize. Null when none is.
   */
  private next(state: VuState, reach: number): Owned | null {
    const count = state.ownPositions.length;
    for (let tried = 0; tried < count; tried++) {
      const owned = this.ownedAt(state, state.cursor);
      if (owned.turn?.done === true) {
        state.cursor = (state.cursor + 1) % count;
        continue;
      }
      if (owned.position + owned.runs * state.ringSize > reach) return null;
      state.cursor = (state.cursor + 1) % count;
      return owned;
    }
    return null;
  }

  /** The state of this VU's `own`-th agent (in ring order), made on the first look. */
  private ownedAt(state: VuState, own: number): Owned {
    const known = state.looked.get(own);
    if (known !== undefined) return known;
    const position = state.ownPositions[own];
    assert(position !== undefined, `own agent ${own} of ${state.ownPositions.length}`);
    const owned: Owned = { slot: this.ring.slotAt(position), position, turn: null, runs: 0 };
    state.looked.set(own, owned);
    return owned;
  }

  /** This VU's share of its segment's agents (laid out on its first iteration: the VU count is known by then). */
  private prepare(data: K6SetupData): VuState {
    if (this.vuState !== null) return this.vuState;
    const segmentText = this.api.segment();
    const segment = segmentText === null ? WHOLE_SEGMENT : parseSegment(segmentText);
    assert(typeof segment !== 'string', `k6's execution segment reads: ${String(segment)}`);
    const { inInstance, ofInstance } = this.api.vu();
    let ownPositions: Int32Array;
    if (segmentText === null) {
      // The whole ring is local: VU v of V owns the positions ≡ v - 1 mod V, written without a scan
      // straight into their typed array (goja: ~0.5 s a VU through a growing array on million.yaml).
      ownPositions = new Int32Array(Math.max(0, Math.ceil((this.ring.size - inInstance + 1) / ofInstance)));
      for (let own = 0; own < ownPositions.length; own++) ownPositions[own] = inInstance - 1 + own * ofInstance;
    } else {
      const slices = this.scenario.populations.map((population) => segmentSlice(population.count, segment));
      const owned: number[] = [];
      let local = 0;
      for (let position = 0; position < this.ring.size; position++) {
        const { population, member } = this.ring.memberAt(position);
        const slice = slices[population];
        if (slice === undefined || member < slice.start || member >= slice.end) continue;
        if (local++ % ofInstance === inInstance - 1) owned.push(position);
      }
      ownPositions = Int32Array.from(owned);
    }
    const host = this.host(data);
    this.vuState = {
      ownPositions,
      looked: new Map(),
      byAgent: new Map(),
      build: (slot) => new RunAgent({ ...slot, seed: this.config.seed, startSpreadMs: 0, idSuffix: data.runTag, host }),
      ringSize: this.ring.size,
      share: segmentText === null ? null : shareOf(segment),
      cursor: 0,
      runTag: data.runTag,
      listed: 0,
    };
    return this.vuState;
  }

  /**
   * Lists the other agents of the ring whose setup is over by the schedule at arrival
   * `iterationInTest`: those a whole ring behind it (see the file header). None under a VU
   * executor, which has no schedule.
   */
  private listArrived(state: VuState, iterationInTest: number): void {
    if (!this.config.openModel) return;
    const settled = Math.min(listedBy(iterationInTest, state.ringSize), state.ringSize);
    while (state.listed < settled) {
      const position = state.listed++;
      if (isOwn(state.ownPositions, position)) continue;
      const { definition, archetypeIndex } = this.ring.slotAt(position);
      const agentId = `${agentName(definition.name, archetypeIndex)}-${state.runTag}`;
      if (!this.directory.has(agentId)) this.directory.add(definition.name, agentId);
    }
  }

  private host(data: K6SetupData): AgentHost {
    const { api, config } = this;
    const { http, expected, abort } = api;
    const transport = k6Transport({ http, urls: data.urls, timeout: config.timeout, expected, abort });
    const ownedOf = (agent: RunAgent): Owned => {
      const owned = this.vuState?.byAgent.get(agent);
      assert(owned !== undefined, `agent ${agent.agentId} is this VU's`);
      return owned;
    };
    const adminCalls = this.adminCalls(data);
    return {
      clock: { nowMs: () => Math.floor(api.nowMs() + data.offsetMs) },
      directory: this.directory,
      fakers: this.fakers,
      clientFor: (agent) => {
        const turn = ownedOf(agent).turn;
        assert(turn !== null, `agent ${agent.agentId} asks for its client in its own turn`);
        return turn.clientOver(
          () => (request) =>
            turn.pendingSetup === null ? transport(request) : turn.pendingSetup.then(() => transport(request)),
        );
      },
      onKey: (agent) => {
        if (!this.directory.has(agent.agentId)) this.directory.add(agent.archetype, agent.agentId);
        ownedOf(agent).turn?.awaitSetup(adminCalls(agent));
      },
      report: () => undefined,
      outage: () => false,
    };
  }

  /** The admin-door calls afp load makes for an agent that learnt its key (a tier, a starting deposit). */
  private adminCalls(data: K6SetupData): (agent: RunAgent) => Promise<void>[] {
    const depositMicro = this.scenario.startingDepositMicro;
    const api = data.urls.api;
    if (!data.admin || api === undefined) return () => [];
    const post = (path: string, body: Record<string, string>): Promise<void> =>
      this.api.http
        .asyncRequest('POST', api + path, JSON.stringify(body), {
          headers: adminHeaders({ 'content-type': 'application/json', accept: 'application/json' }, data.adminToken),
          tags: { endpoint: 'afp.setup', name: 'afp.setup' },
          timeout: this.config.timeout,
          responseCallback: this.api.expected,
        })
        .then(() => undefined);
    return (agent) => [
      ...(agent.tier === 'free' ? [] : [post('/_afp/tier', { agent_id: agent.agentId, tier: agent.tier })]),
      ...(depositMicro === null
        ? []
        : [
            post('/_afp/casino/deposit', {
              agent_id: agent.agentId,
              chain: 'base',
              amount: formatDecimal(depositMicro),
            }),
          ]),
    ];
  }
}

/**
 * How many agents of a ring of `ringSize`, from its start, have their setup over by the schedule at
 * arrival `iterationInTest`: those at positions g with g + ringSize <= iterationInTest, where afp
 * load steps the agent a second time (it does only once its setup has ended).
 */
export function listedBy(iterationInTest: number, ringSize: number): number {
  assert(Number.isSafeInteger(iterationInTest) && iterationInTest >= 0, `an arrival count: ${iterationInTest}`);
  assert(Number.isSafeInteger(ringSize) && ringSize > 0, `a ring of agents: ${ringSize}`);
  return Math.max(0, iterationInTest - ringSize + 1);
}

/** Whether `position` is among `positions` (ascending): a binary search. */
function isOwn(positions: Int32Array, position: number): boolean {
  let low = 0;
  let high = positions.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = positions[middle] as number;
    if (at === position) return true;
    if (at < position) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The arrival at which afp load's ring reaches `owned` next: position + runs × ring size. */
function dueAt(state: VuState, owned: Owned): number {
  return owned.position + owned.runs * state.ringSize;
}

/**
 * How many arrivals of the test past its own a VU looks for due agents: V − 1 unsegmented (its
 * next turn, k6 handing arrivals to its V VUs in turn); in a segment of `share` of the test,
 * (V + 1) × (⌈1 / share⌉ + 1): its next turn is V of its segment's arrivals later, each at most
 * ⌈1 / share⌉ + 1 of the test's apart, with one turn to spare, so its last turn reaches the
 * test's last arrival and no step of its agents is left out.
 */
export function lookAheadOf(vus: number, share: number | null): number {
  assert(Number.isSafeInteger(vus) && vus > 0, `a VU count: ${vus}`);
  if (share === null) return vus - 1;
  assert(share > 0 && share <= 1, `a segment's share of the test: ${share}`);
  return (vus + 1) * (Math.ceil(1 / share) + 1);
}

function shareOf(segment: Segment): number {
  return segment.to.numerator / segment.to.denominator - segment.from.numerator / segment.from.denominator;
}
