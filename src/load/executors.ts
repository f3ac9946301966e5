/**
 * The load plan: a scenario's `load:` section (src/scenario/load-schema.ts, durations already in ms)
 * checked across its fields and completed with defaults, as k6 does for an executor's config:
 * every field the executor needs is present, no field of another executor is given, and every
 * error is reported together. The schedules themselves are pure functions of a plan
 * (executors-arrival.ts: arrival offsets; executors-vus.ts: VU counts over time).
 *
 * Defaults live here, in one place: executor constant-arrival-rate (the open model), time_unit 1s,
 * start_rate and start_vus 0, max_in_flight 1000, graceful_stop 30s, and for the constant
 * executors the scenario's duration when `load.duration` is absent (at most 7d).
 * `--duration` (`durationMs` override) replaces a constant executor's duration and cuts a ramping
 * executor's stages at that instant (the schedule past it is never run).
 * Limit: a plan's arrivals or VU-iterations are bounded (ITERATIONS_MAX arrivals at most).
 */
import { formatDuration } from '../scenario/duration-text.ts';
import { LOAD_LIMITS } from '../scenario/load-limits.ts';
import type { ExecutorName, LoadSection } from '../scenario/load-schema.ts';
import { shardShare, type Shard } from './shard.ts';

export const LOAD_DEFAULTS = {
  executor: 'constant-arrival-rate',
  timeUnitMs: 1_000,
  maxInFlight: 1_000,
  gracefulStopMs: 30_000,
} as const satisfies { executor: ExecutorName; timeUnitMs: number; maxInFlight: number; gracefulStopMs: number };

/** More arrivals than this in one plan is a mistake in the profile, not a load test one machine runs. */
export const ITERATIONS_MAX = 1_000_000_000;

export interface Stage {
  readonly durationMs: number;
  /** Iterations per time unit (arrival-rate executors) or VUs (vus executors) at the stage's end. */
  readonly target: number;
}

interface PlanCommon {
  /** This process's part of a sharded run (`--shard i/n`, `--workers N`: shard.ts); absent for the whole run. */
  readonly shard?: Shard;
  /** When the schedule ends, ms from the start (the `--duration` cut applied). */
  readonly durationMs: number;
  /** How long iterations in flight at the end may still finish. */
  readonly gracefulStopMs: number;
}

/** The open model: iterations start at scheduled instants, whatever the target's latency. */
export type ArrivalPlan = PlanCommon & {
  readonly kind: 'arrivals';
  readonly maxInFlight: number;
  readonly timeUnitMs: number;
} & (
    | { readonly executor: 'constant-arrival-rate'; readonly rate: number }
    | { readonly executor: 'ramping-arrival-rate'; readonly startRate: number; readonly stages: readonly Stage[] }
  );

/** The closed model: each VU runs iterations back to back. */
export type VuPlan = PlanCommon & { readonly kind: 'vus' } & (
    | { readonly executor: 'constant-vus'; readonly vus: number }
    | { readonly executor: 'ramping-vus'; readonly startVus: number; readonly stages: readonly Stage[] }
  );

export type LoadPlan = ArrivalPlan | VuPlan;

export type PlanResult =
  | { readonly ok: true; readonly plan: LoadPlan }
  | { readonly ok: false; readonly errors: readonly string[] };

export interface PlanInput {
  readonly load: LoadSection | null;
  /** The scenario's own duration: the constant executors' default. */
  readonly scenarioDurationMs: number;
  /** `--duration`: replaces a constant executor's duration, cuts a ramping one. */
  readonly durationMs?: number;
}

/** Fields that belong to one executor family only: given to another, they are errors. */
const FIELDS_OF: Readonly<Record<ExecutorName, readonly (keyof LoadSection)[]>> = {
  'constant-arrival-rate': ['rate', 'time_unit', 'duration', 'max_in_flight'],
  'ramping-arrival-rate': ['start_rate', 'time_unit', 'stages', 'max_in_flight'],
  'constant-vus': ['vus', 'duration'],
  'ramping-vus': ['start_vus', 'stages'],
};
const SHARED_FIELDS: readonly (keyof LoadSection)[] = ['executor', 'graceful_stop', 'thresholds'];

export function resolveLoadPlan(input: PlanInput): PlanResult {
  const { load } = input;
  if (load === null)
    return {
      ok: false,
      errors: [
        'the scenario has no load: section; add one, e.g. load: { rate: 10, duration: 30s } (see src/scenario/load-schema.ts)',
      ],
    };
  const executor = load.executor ?? LOAD_DEFAULTS.executor;
  const errors: string[] = [];
  for (const field of Object.keys(load) as (keyof LoadSection)[]) {
    if (!SHARED_FIELDS.includes(field) && !FIELDS_OF[executor].includes(field))
      errors.push(`load.${field} does not apply to ${executor} (its fields: ${FIELDS_OF[executor].join(', ')})`);
  }
  const constant = executor === 'constant-arrival-rate' || executor === 'constant-vus';
  if (executor === 'constant-arrival-rate' && load.rate === undefined)
    errors.push('load.rate is required for constant-arrival-rate (iterations per time_unit)');
  if (executor === 'constant-vus' && load.vus === undefined) errors.push('load.vus is required for constant-vus');
  if (!constant && load.stages === undefined) errors.push(`load.stages is required for ${executor}`);
  const fullMs = constant
    ? (load.duration ?? input.scenarioDurationMs)
    : (load.stages ?? []).reduce((total, stage) => total + stage.duration, 0);
  if (
    constant &&
    load.duration === undefined &&
    input.durationMs === undefined &&
    fullMs > LOAD_LIMITS.durationMs.max
  ) {
    errors.push(
      `the scenario's duration ${formatDuration(fullMs)} is longer than a load run may be (${formatDuration(LOAD_LIMITS.durationMs.max)}): set load.duration or pass --duration`,
    );
  }
  const durationMs =
    input.durationMs === undefined ? fullMs : constant ? input.durationMs : Math.min(fullMs, input.durationMs);
  if (!constant && errors.length === 0 && durationMs <= 0)
    errors.push(`the stages of ${executor} last 0 ms: give a stage a duration`);
  if (errors.length > 0) return { ok: false, errors };
  const common = { durationMs, gracefulStopMs: load.graceful_stop ?? LOAD_DEFAULTS.gracefulStopMs };
  const stages = (load.stages ?? []).map((stage) => ({ durationMs: stage.duration, target: stage.target }));
  const arrivals = {
    kind: 'arrivals' as const,
    maxInFlight: load.max_in_flight ?? LOAD_DEFAULTS.maxInFlight,
    timeUnitMs: load.time_unit ?? LOAD_DEFAULTS.timeUnitMs,
  };
  let plan: LoadPlan;
  switch (executor) {
    case 'constant-arrival-rate':
      plan = { ...common, ...arrivals, executor, rate: load.rate ?? 0 };
      break;
    case 'ramping-arrival-rate':
      plan = { ...common, ...arrivals, executor, startRate: load.start_rate ?? 0, stages };
      break;
    case 'constant-vus':
      plan = { ...common, kind: 'vus', executor, vus: load.vus ?? 0 };
      break;
    case 'ramping-vus':
      plan = { ...common, kind: 'vus', executor, startVus: load.start_vus ?? 0, stages };
      break;
  }
  const iterations = plannedArrivalsBound(plan);
  if (iterations > ITERATIONS_MAX)
    return {
      ok: false,
      errors: [
        `the profile plans about ${iterations.toExponential(2)} iterations, more than ${ITERATIONS_MAX}: lower the rate or the duration`,
      ],
    };
  return { ok: true, plan };
}

/** An upper bound of the arrivals an arrival plan schedules (0 for VU plans: they run as fast as answers come). */
export function plannedArrivalsBound(plan: LoadPlan): number {
  if (plan.kind === 'vus') return 0;
  const peak =
    plan.executor === 'constant-arrival-rate'
      ? plan.rate
      : Math.max(plan.startRate, ...plan.stages.map((stage) => stage.target));
  return Math.ceil((peak * plan.durationMs) / plan.timeUnitMs);
}

/** The most VUs a VU plan ever runs at once. */
export function peakVus(plan: VuPlan): number {
  const peak =
    plan.executor === 'constant-vus' ? plan.vus : Math.max(plan.startVus, ...plan.stages.map((stage) => stage.target));
  return plan.shard === undefined ? peak : shardShare(peak, plan.shard);
}

/** One line describing the plan, for the console and load.json. */
export function describePlan(plan: LoadPlan): string {
  const stop = `graceful_stop ${formatDuration(plan.gracefulStopMs)}`;
  const unit = plan.kind === 'arrivals' ? `/${formatDuration(plan.timeUnitMs)}` : '';
  const stages = (stages: readonly Stage[]): string =>
    stages.map((stage) => `${formatDuration(stage.durationMs)}→${stage.target}${unit}`).join(', ');
  switch (plan.executor) {
    case 'constant-arrival-rate':
      return `constant-arrival-rate ${plan.rate}${unit} for ${formatDuration(plan.durationMs)}, max_in_flight ${plan.maxInFlight}, ${stop}`;
    case 'ramping-arrival-rate':
      return `ramping-arrival-rate from ${plan.startRate}${unit}: ${stages(plan.stages)} (run ${formatDuration(plan.durationMs)}), max_in_flight ${plan.maxInFlight}, ${stop}`;
    case 'constant-vus':
      return `constant-vus ${plan.vus} for ${formatDuration(plan.durationMs)}, ${stop}`;
    case 'ramping-vus':
      return `ramping-vus from ${plan.startVus}: ${stages(plan.stages)} (run ${formatDuration(plan.durationMs)}), ${stop}`;
  }
}

/** `plan` as run by one shard: every n-th arrival from the i-th, its share of the VUs and agents (shard.ts). */
export function shardPlan(plan: LoadPlan, shard: Shard): LoadPlan {
  return shard.count === 1 ? plan : { ...plan, shard };
}

/** The plan as written to load.json: the shard is the file's own field, the plan stays the whole run's. */
export function wholePlan(plan: LoadPlan): LoadPlan {
  if (plan.shard === undefined) return plan;
  const { shard: _shard, ...whole } = plan;
  return whole as LoadPlan;
}
