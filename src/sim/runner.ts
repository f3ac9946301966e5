/**
 * runScenarioWith: one deterministic simulation run of a scenario, in-process, under a virtual clock.
 *
 * Loop: agent wake-ups (setup, then steps) wait in a Scheduler ordered by (time, sequence).
 * Before each one, platform timers and hourly audits due at or before its instant run at their
 * own instants (an escrow expires exactly at expires_at, before any request then); after each,
 * the tick checkers run. The run stops at start + duration (then the platform is advanced to the
 * end and the final checks run), at the first invariant violation ('invariant-failed'), or when
 * a limit is hit ('limit-reached'). Agents run one at a time, so the same seed gives the same
 * order of everything, hence byte-identical reports.
 * Non-goals: wall-clock pacing (that is live load, src/load), writing reports (src/report).
 */
import { assert } from '../core/assert.ts';
import { commandLine } from '../core/shell-words.ts';
import { Scheduler } from '../core/scheduler.ts';
import type { RateLimiterOptions } from '../platform/rate-limiter.ts';
import type { RunRecord } from '../report/run-record.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { AnyAgentDefinition, StepResult } from '../agent/agent.ts';
import type { FirstFailure } from './invariants/monitor.ts';
import { formatDuration } from '../scenario/duration.ts';
import { stuckItems, stuckMessage } from './liveness.ts';
import { buildRunRecord } from './run-record-builder.ts';
import { RunStopped, SimulationCrash } from './run-stopped.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { Simulation, type ExchangeRecorder } from './simulation.ts';
import type { RunAgent } from '../agent/run-agent.ts';

export interface SimRunOptions {
  readonly seed: string | number;
  readonly defects?: readonly DefectName[];
  readonly recorder?: ExchangeRecorder;
  /** Called about every 1% of virtual time with the fraction done (presentation only). */
  readonly onProgress?: (fraction: number) => void;
  /** The command that reproduces the run, stored in the record (the CLI passes the exact one). */
  readonly reproduce?: string;
  /** The archetype table (agents/index.ts's AGENTS, or a test's own): the caller's, as sim sits below agents/. */
  readonly agents: Readonly<Record<string, AnyAgentDefinition>>;
  /** The platform's rate-limiter memory bounds; defaults in rate-limiter.ts (tests pass small ones). */
  readonly limiter?: RateLimiterOptions;
  /** Write the events to disk as they happen (src/sim/streamed-events.ts) instead of keeping them. */
  readonly streamEvents?: boolean;
  /**
   * Stops the run between two wake-ups once aborted (Ctrl-C in `afp run`): a limit stop, so what ran
   * is reported as a run cut short (outcome limit-reached, the message says interrupted).
   */
  readonly signal?: AbortSignal;
  /**
   * Awaited every PAUSE_EVERY_WAKES wake-ups: the CLI hands the host's event loop a turn there, so
   * a signal handler can run; an in-process run otherwise never leaves the microtask queue.
   * Presentation only: it must not touch the simulation.
   */
  readonly pause?: () => Promise<void>;
}

export interface SimulationResult {
  readonly record: RunRecord;
  /** The first invariant violation, when the run stopped on one. */
  readonly failure: FirstFailure | null;
  /** Which limit stopped the run, when one did. */
  readonly limit: string | null;
}

interface Wake {
  readonly agent: RunAgent;
  readonly phase: 'setup' | 'step';
}

/** Agent wake-ups over a run: a runaway beyond this is a liveness failure, not a hang. */
export const WAKES_MAX = 200_000_000;
const PROGRESS_STEPS = 100;
/** How often `pause` is awaited: rare enough to cost nothing, often enough that Ctrl-C stops a run at once. */
export const PAUSE_EVERY_WAKES = 4_096;

export async function runScenarioWith(scenario: Scenario, options: SimRunOptions): Promise<RunRecord> {
  return (await runSimulationWith(scenario, options)).record;
}

export async function runSimulationWith(scenario: Scenario, options: SimRunOptions): Promise<SimulationResult> {
  const seed = String(options.seed);
  const sim = new Simulation(scenario, {
    seed,
    agents: options.agents,
    ...(options.defects === undefined ? {} : { defects: options.defects }),
    ...(options.recorder === undefined ? {} : { recorder: options.recorder }),
    ...(options.limiter === undefined ? {} : { limiter: options.limiter }),
    streamEvents: options.streamEvents === true,
  });
  const wakes = new Scheduler<Wake>({ maxPending: sim.agents.length + 1 });
  for (const agent of sim.agents) wakes.schedule(scenario.startMs + agent.startOffsetMs, { agent, phase: 'setup' });
  const progress = progressReporter(scenario.startMs, sim.endMs, options.onProgress);
  let wakeCount = 0;
  while (sim.stop === null) {
    const next = wakes.peek();
    if (next === undefined || next.atMs >= sim.endMs) break;
    sim.advanceTo(next.atMs);
    if (sim.stop !== null) break;
    if (++wakeCount > WAKES_MAX) {
      sim.stop = { kind: 'limit', message: `more than ${WAKES_MAX} agent wake-ups` };
      break;
    }
    if (wakeCount % PAUSE_EVERY_WAKES === 0 && options.pause !== undefined) await options.pause();
    if (options.signal?.aborted === true) {
      sim.stop = {
        kind: 'limit',
        message: `interrupted at ${new Date(next.atMs).toISOString()}, ${Math.floor(((next.atMs - scenario.startMs) * 100) / Math.max(1, sim.endMs - scenario.startMs))}% of the virtual time`,
      };
      break;
    }
    wakes.pop();
    sim.clock.set(next.atMs);
    const result = await runWake(sim, next.payload);
    if (result !== null && result !== 'done')
      wakes.schedule(next.atMs + result.wakeInMs, { agent: next.payload.agent, phase: 'step' });
    sim.afterEvent(next.atMs);
    progress(next.atMs);
  }
  if (sim.stop === null) finish(sim);
  if (sim.stop === null && scenario.livenessMs !== null) livenessPhase(sim, scenario.livenessMs);
  progress(sim.clock.nowMs());
  const outcome: RunRecord['outcome'] =
    sim.stop === null ? 'completed' : sim.stop.kind === 'invariant' ? 'invariant-failed' : 'limit-reached';
  const reproduce = options.reproduce ?? defaultReproduce(scenario.name, seed, options.defects ?? []);
  const record = buildRunRecord(sim, { endMs: sim.clock.nowMs(), outcome, reproduce });
  return { record, failure: sim.monitor.failure, limit: sim.stop?.kind === 'limit' ? sim.stop.message : null };
}

/** Runs one setup or step; null when the run stopped under it. A setup's first step is due at once. */
async function runWake(sim: Simulation, wake: Wake): Promise<StepResult | null> {
  const { agent } = wake;
  sim.requestsThisStep = 0;
  sim.monitor.agentWakeJudged();
  try {
    if (wake.phase === 'setup') {
      await agent.definition.setup(agent);
      return { wakeInMs: 0 };
    }
    const result = await agent.definition.step(agent);
    if (result !== 'done')
      assert(
        Number.isSafeInteger(result.wakeInMs) && result.wakeInMs >= 1,
        `agent ${agent.agentId} wakes at least 1 ms later (got ${result.wakeInMs})`,
      );
    return result;
  } catch (error) {
    if (error instanceof RunStopped && sim.stop !== null) return null;
    throw new SimulationCrash({ atMs: sim.clock.nowMs(), agentId: agent.agentId, cause: error });
  }
}

/** End of the run: the platform reaches the end instant (timers due then run), final checks. */
function finish(sim: Simulation): void {
  try {
    sim.advanceTo(sim.endMs);
    if (sim.stop !== null) return;
    sim.clock.set(sim.endMs);
    sim.afterEvent(sim.endMs);
    if (sim.stop !== null) return;
    sim.monitor.atEnd(sim.endMs);
    if (sim.monitor.failure !== null) sim.stop = { kind: 'invariant' };
  } catch (error) {
    throw new SimulationCrash({ atMs: sim.clock.nowMs(), agentId: null, cause: error });
  }
}

/**
 * After the end: no agent acts, the clock runs `livenessMs` further (timers fire, invariants are
 * checked as before), then every settling hold must be empty (liveness.ts); a stuck one stops the
 * run as a limit, exit 4, naming the items.
 */
function livenessPhase(sim: Simulation, livenessMs: number): void {
  const untilMs = sim.endMs + livenessMs;
  try {
    sim.advanceTo(untilMs);
    if (sim.stop !== null) return;
    sim.clock.set(untilMs);
    sim.afterEvent(untilMs);
    if (sim.stop !== null) return;
  } catch (error) {
    throw new SimulationCrash({ atMs: sim.clock.nowMs(), agentId: null, cause: error });
  }
  const stuck = stuckItems(sim.platform.ledger.accounts());
  if (stuck.length > 0) sim.stop = { kind: 'limit', message: stuckMessage(stuck, formatDuration(livenessMs)) };
}

function progressReporter(
  startMs: number,
  endMs: number,
  onProgress: ((fraction: number) => void) | undefined,
): (nowMs: number) => void {
  if (onProgress === undefined) return () => undefined;
  const stepMs = Math.max(1, Math.floor((endMs - startMs) / PROGRESS_STEPS));
  let nextMs = startMs + stepMs;
  return (nowMs) => {
    if (nowMs < nextMs && nowMs < endMs) return;
    nextMs = nowMs + stepMs - ((nowMs - startMs) % stepMs);
    onProgress(Math.min(1, (nowMs - startMs) / (endMs - startMs)));
  };
}

/**
 * A guess for callers that pass no `reproduce` (the library API, benchmarks): the file is assumed to
 * be the shipped one of the scenario's name. Every CLI command passes the exact line instead.
 */
export function defaultReproduce(scenarioName: string, seed: string, defects: readonly DefectName[]): string {
  const words = ['npx', 'afp', 'run', `scenarios/${scenarioName}.yaml`, '--seed', seed];
  if (defects.length > 0) words.push('--defect', defects.join(','));
  return commandLine(words);
}
