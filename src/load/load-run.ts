/**
 * runLoad: one `afp load` run — the scenario's agents (agents/, unchanged) driving a live target
 * on the plan's schedule, every request measured in one LoadRecorder. Composition only: the
 * schedule is executors-*.ts, the pacing generator.ts, the agents the one runtime of
 * src/agent/run-agent.ts stepped by load-run-pool.ts, the wire load-run-transport.ts; printing and files are the CLI's.
 *
 * The target: the agents speak the documents' dialect (styles A and B through AfpClient), so every
 * service must be in a documents dialect (A, B, short); a service in the deployed dialect is
 * refused (`loadMounts`), as mapping the agents' calls onto it is a dialect table not written yet.
 * Style-A calls go to each service's own URL, style-B calls to the `api` mount: an afp serve's api
 * URL, else the URL of the target file's B-dialect service.
 * Set-up as in the simulator: each agent registers and funds itself (the faucet) in its first
 * iteration. What the simulator's harness does out of band is done through an afp serve's admin
 * doors when the target is one: a population's tier (POST /_afp/tier) and the scenario's casino
 * starting deposit (POST /_afp/casino/deposit, with admin-deposit funding). These set-up calls are
 * not samples (they are not the load), and a failed one is counted, never thrown.
 * Time: the agents' clock is the target's — an afp serve's GET /_afp/clock gives the offset from
 * the wall clock (a serve started with --start runs ahead); other targets are taken to keep wall
 * time. A manual (frozen) serve clock is noted: agents' timed moves then see time pass that the
 * target does not.
 */
import type { MountUrls } from '../client/transport.ts';
import { assert } from '../core/assert.ts';
import type { Clock, WaitClock } from '../core/clock.ts';
import { formatDecimal } from '../core/money.ts';
import { type Target, deployedDialectRefusal } from '../live.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import { AgentDirectory } from '../agent/agent-directory.ts';
import { AgentFakers } from '../agent/agent-fakers.ts';
import { agentSlots, interleave, type AgentSlot } from '../agent/agent-ring.ts';
import { RunAgent, type AgentHost } from '../agent/run-agent.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { peakVus, type LoadPlan } from './executors.ts';
import { runGenerator, type GeneratorOutcome, type LoadStop } from './generator.ts';
import { LoadRecorder, type LoadSample, type LoadSnapshot } from './load-recorder.ts';
import { AgentPool, MAX_KEPT, TurnRing, type KeptReport } from './load-run-pool.ts';
import { LiveTurn } from './live-turn.ts';
import { shardIndexes } from './shard.ts';
import { AdminClient, type AdminAnswer } from '../client/admin-client.ts';
import { loadSender, type LoadSender } from './load-run-transport.ts';
import { recordingTransport } from './recording-transport.ts';

export type MountsResult =
  | { readonly ok: true; readonly urls: MountUrls }
  | {
      readonly ok: false;
      readonly message: string;
      /**
       * The live target said it (an afp serve announcing the deployed dialect): it would not set up
       * the run, exit 4 as the usage says; otherwise the target file is the input at fault, exit 2.
       */
      readonly byTarget: boolean;
    };

/** The agents' mounts on `target`, or why the agents cannot speak to it. */
export function loadMounts(target: Target): MountsResult {
  const urls: MountUrls = {};
  const refused: string[] = [];
  for (const [service, entry] of Object.entries(target.services)) {
    if (entry === undefined) continue;
    if (entry.dialect === 'deployed') refused.push(service);
    else if (entry.dialect === 'A') urls[service as keyof MountUrls] = entry.url;
    else if (urls.api === undefined) urls.api = entry.url;
    else if (urls.api !== entry.url && !target.afpServe)
      return {
        ok: false,
        message: `services ${service} and another speak style B at different URLs (${urls.api}, ${entry.url}): the agents' style-B calls share one api URL`,
        byTarget: false,
      };
  }
  if (refused.length > 0) {
    return { ok: false, message: deployedDialectRefusal(target.name, refused), byTarget: target.afpServe };
  }
  if (target.afpServe && target.adminUrl !== null) urls.api = target.adminUrl;
  if (Object.keys(urls).length === 0)
    return { ok: false, message: `${target.name}: no service the agents can address`, byTarget: false };
  return { ok: true, urls };
}

/** An error when the plan cannot run with this many agents (the agents are the VUs); a note when they cap it. */
export function checkAgentCount(
  plan: LoadPlan,
  agentCount: number,
): { readonly error: string | null; readonly note: string | null } {
  if (plan.kind === 'vus') {
    const peak = peakVus(plan);
    return {
      error:
        peak > agentCount
          ? `${plan.executor} runs up to ${peak} VUs but the scenario has ${agentCount} agents: each VU steps one agent at a time; add agents or lower the VUs`
          : null,
      note: null,
    };
  }
  return {
    error: null,
    note:
      plan.maxInFlight > agentCount
        ? `at most ${agentCount} iterations in flight (one per agent; max_in_flight is ${plan.maxInFlight}): an arrival that finds every agent busy is dropped`
        : null,
  };
}

export interface LoadRunOptions {
  readonly scenario: Scenario;
  readonly plan: LoadPlan;
  readonly target: Target;
  readonly urls: MountUrls;
  readonly seed: string;
  /** Makes the agents' ids unique on a target that keeps state between runs (the CLI: its start instant). */
  readonly runTag: string;
  readonly clock: WaitClock;
  readonly stop: LoadStop;
  readonly agents?: Readonly<Record<string, AnyAgentDefinition>>;
  readonly requestTimeoutMs?: number;
  /** Every sample, once the recorder has it (the CLI's live view). */
  readonly onSample?: (sample: LoadSample) => void;
  /** The run's origin is fixed: the recorder, for the live view and thresholds evaluated while the run goes. */
  readonly onStart?: (recorder: LoadRecorder) => void;
}

export interface Kept<T> {
  readonly count: number;
  readonly first: readonly T[];
}

export interface LoadRunResult {
  readonly snapshot: LoadSnapshot;
  readonly outcome: GeneratorOutcome;
  readonly agents: number;
  /** Broken rules the agents saw (each also a failed `agent rules:` check). */
  readonly reports: Kept<KeptReport>;
  /** Iterations that threw: no answer from the target, or an agent that could not read one. */
  readonly iterationErrors: Kept<string>;
  /** Set-up calls (tier, deposit) the target refused or did not answer. */
  readonly setupTrouble: Kept<string>;
  readonly notes: readonly string[];
}

class KeptList<T> {
  count = 0;
  readonly first: T[] = [];

  add(item: T): void {
    this.count += 1;
    if (this.first.length < MAX_KEPT) this.first.push(item);
  }
}

export async function runLoad(options: LoadRunOptions): Promise<LoadRunResult> {
  const { scenario, plan, target, clock } = options;
  const notes: string[] = [];
  const inFlightMax = plan.kind === 'arrivals' ? plan.maxInFlight : peakVus(plan);
  const sender = loadSender({
    urls: options.urls,
    maxSockets: Math.max(1, inFlightMax),
    ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
  });
  try {
    const offsetMs = await targetClockOffset(target, sender, clock, notes);
    const agentClock: Clock = { nowMs: () => Math.floor(clock.nowMs() + offsetMs) };
    const sink: { recorder: LoadRecorder | null; pool: AgentPool | null } = { recorder: null, pool: null };
    const setupTrouble = new KeptList<string>();
    const turns = new Map<RunAgent, LiveTurn>();
    const host = loadHost({ options, sender, agentClock, sink, setupTrouble, notes, turns });
    const shard = plan.shard;
    // A shard runs agent k of each population when it owns index k (shard.ts): every agent keeps its identity, run by exactly one shard.
    // Without a table of the caller's, the whole one, loaded only then (`afp load` passes its scenario's archetypes).
    const table = options.agents ?? (await import('../../agents/index.ts')).AGENTS;
    const groups = agentSlots(scenario.populations, table).map((group) =>
      shard === undefined ? group : shardIndexes(group.length, shard).map((index) => group[index] as AgentSlot),
    );
    const slots = interleave(groups);
    const ring = new TurnRing(slots.length, (position) => {
      const slot = slots[position] as AgentSlot;
      const agent = new RunAgent({ ...slot, seed: options.seed, startSpreadMs: 0, idSuffix: options.runTag, host });
      const turn = new LiveTurn(agent);
      turns.set(agent, turn);
      return turn;
    });
    // Before the clock starts: what the archetypes build once (the wallet key code's tables).
    for (const definition of new Set(slots.map((slot) => slot.definition))) definition.warmUp?.();
    const recorder = new LoadRecorder(Math.floor(clock.nowMs()));
    const pool = new AgentPool(ring, recorder);
    sink.recorder = recorder;
    sink.pool = pool;
    options.onStart?.(recorder);
    const iterationErrors = new KeptList<string>();
    const outcome = await runGenerator({
      plan,
      clock,
      recorder,
      source: pool,
      stop: options.stop,
      interrupt: () => sender.interrupt(),
      onIterationError: (error) => iterationErrors.add(error instanceof Error ? error.message : String(error)),
    });
    return {
      snapshot: recorder.snapshot(),
      outcome,
      agents: pool.turns.length,
      reports: { count: pool.reportCount, first: pool.kept },
      iterationErrors,
      setupTrouble,
      notes,
    };
  } finally {
    sender.close();
  }
}

function loadHost(context: {
  options: LoadRunOptions;
  sender: LoadSender;
  agentClock: Clock;
  sink: { recorder: LoadRecorder | null; pool: AgentPool | null };
  setupTrouble: KeptList<string>;
  notes: string[];
  turns: ReadonlyMap<RunAgent, LiveTurn>;
}): AgentHost {
  const { options, sender, sink, turns } = context;
  const directory = new AgentDirectory({ maxAgents: options.scenario.limits.maxAgents });
  const admin = adminSetup(context);
  const turnOf = (agent: RunAgent): LiveTurn => {
    const turn = turns.get(agent);
    assert(turn !== undefined, `agent ${agent.agentId} has its turn in the pool`);
    return turn;
  };
  return {
    clock: context.agentClock,
    directory,
    fakers: new AgentFakers(),
    clientFor: (agent) => {
      const turn = turnOf(agent);
      return turn.clientOver(() =>
        recordingTransport({
          sender,
          clock: options.clock,
          onSample: (sample) => {
            assert(sink.recorder !== null, 'no request goes out before the run starts');
            sink.recorder.record(sample);
            options.onSample?.(sample);
          },
          takeIntendedStartMs: () => turn.takeIntendedStartMs(),
          before: () => turn.pendingSetup,
        }),
      );
    },
    onKey: (agent) => {
      if (!directory.has(agent.agentId)) directory.add(agent.archetype, agent.agentId);
      turnOf(agent).awaitSetup(admin(agent));
    },
    report: (agent, message) => sink.pool?.keep(agent.agentId, message),
    outage: () => false,
  };
}

/** The set-up calls an afp serve's admin doors take for an agent that learnt its key (tier, starting deposit). */
function adminSetup(context: {
  options: LoadRunOptions;
  sender: LoadSender;
  setupTrouble: KeptList<string>;
  notes: string[];
}): (agent: RunAgent) => Promise<void>[] {
  const { options, sender, setupTrouble } = context;
  const { target, scenario } = options;
  const admin = target.afpServe && target.adminUrl !== null;
  const depositMicro = scenario.casino.startingDepositMicro;
  const depositByAdmin = depositMicro !== null && admin && target.funding.method === 'admin-deposit';
  if (depositMicro !== null && !depositByAdmin)
    context.notes.push(
      `the scenario's casino starting_deposit is not credited: ${target.name} is not funded by admin-deposit on an afp serve`,
    );
  const doors = new AdminClient((request) => sender.send(request));
  const adminCall = (door: string, agentId: string, answer: Promise<AdminAnswer<unknown>>): Promise<void> =>
    answer.then((outcome) => {
      if (outcome.ok) return;
      setupTrouble.add(
        outcome.kind === 'unreachable'
          ? `POST ${door} for ${agentId}: ${outcome.detail}`
          : `POST ${door} for ${agentId} answered ${outcome.status}`,
      );
    });
  return (agent) => {
    const calls: Promise<void>[] = [];
    if (admin && agent.tier !== 'free')
      calls.push(adminCall('/_afp/tier', agent.agentId, doors.setTier(agent.agentId, agent.tier)));
    if (depositByAdmin)
      calls.push(
        adminCall(
          '/_afp/casino/deposit',
          agent.agentId,
          doors.casinoDeposit({ agentId: agent.agentId, chain: 'base', amount: formatDecimal(depositMicro) }),
        ),
      );
    return calls;
  };
}

/** The target's time minus the wall clock's (0 when the target does not say). */
async function targetClockOffset(
  target: Target,
  sender: LoadSender,
  clock: WaitClock,
  notes: string[],
): Promise<number> {
  if (!target.afpServe || target.adminUrl === null) return 0;
  const askedMs = clock.nowMs();
  const answer = await new AdminClient((request) => sender.send(request)).clock();
  if (!answer.ok) return 0;
  if (answer.value.mode === 'manual')
    notes.push(
      `${target.name} runs a manual clock (it stands still): the agents' timed moves (claims when due, escrow settlements) see time pass that the target does not; serve it with --clock wall for a load run`,
    );
  return answer.value.nowMs - (askedMs + clock.nowMs()) / 2;
}
