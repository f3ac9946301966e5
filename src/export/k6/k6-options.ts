/**
 * The scenario's `load:` section as k6's `options`: one k6 scenario with the executor the section
 * names (its rate, time unit, duration, stages, VUs, graceful stop) and the thresholds copied as
 * written (they are already k6's syntax; the object form keeps `abortOnFail`, its
 * `delayAbortEval` becomes a k6 duration again).
 *
 * Populations are weighted inside this one k6 scenario (k6-mix.ts), not split into one k6
 * scenario each: a k6 rate is a whole number per time unit, so splitting 10/s between populations
 * of 1 and 2 agents could not keep their ratio, while one arrival process with a fixed cycle of
 * populations keeps both the profile and the ratio exact.
 *
 * `max_in_flight` is k6's `maxVUs`; `preAllocatedVUs` is the peak arrivals of one second (an
 * iteration assumed to last about a second), at least 1 and at most maxVUs. A scenario's agents
 * are the VUs' work (each VU steps its own agents, one at a time, as afp load steps a free agent
 * per arrival): with `agentCount`, maxVUs is min(max_in_flight, agents), all allocated before
 * the start (a VU's agents are fixed when it starts), and a VU executor may not run more VUs
 * than there are agents (afp load refuses it too). Per-endpoint request
 * counts: k6 reports a tagged sub-metric only when a threshold names it, so every endpoint the
 * script may call gets `http_reqs{endpoint:ID}: ['count>=0']` (always true) unless the scenario
 * already has a threshold on that key. Guards: dropped_iterations and afp_late_agent_steps stay at
 * `count==0` unless the section names the metric (GUARDED_METRICS): a run that could not keep its
 * schedule fails its thresholds (k6 exits 99) instead of passing on less traffic than asked.
 *
 * `maxRedirects: 0`: afp load sends one request per iteration and takes a 3xx as its answer; k6
 * follows redirects by default, which would send more requests than afp load does.
 * A constant-arrival-rate of 1s goes as a one-stage ramping-arrival-rate at the same rate (k6
 * refuses a constant one under 1s, and the export sends it 1 ms short; see executorOptions), with
 * afp load's iteration count.
 *
 * Strict like k6's own config: a field the executor has no use for, or a required one missing, is
 * an error; all errors are reported together. Pure: the same section gives the same object, keys
 * in a fixed order.
 */
import type { LoadSection, ExecutorName } from '../../scenario/load-schema.ts';
import { LOAD_LIMITS } from '../../scenario/load-schema.ts';
import { LOAD_DEFAULTS } from '../../load.ts';

/** k6's shortest constant-arrival-rate duration (1.3.0 refuses less). */
const K6_CONSTANT_DURATION_MS_MIN = 1_000;

/** The fields of `load:` each executor uses; the first list is required. */
const EXECUTOR_FIELDS: Readonly<
  Record<ExecutorName, { required: readonly (keyof LoadSection)[]; optional: readonly (keyof LoadSection)[] }>
> = {
  'constant-arrival-rate': {
    required: ['rate'],
    optional: ['time_unit', 'duration', 'max_in_flight', 'graceful_stop'],
  },
  'ramping-arrival-rate': {
    required: ['stages'],
    optional: ['start_rate', 'time_unit', 'max_in_flight', 'graceful_stop'],
  },
  'constant-vus': { required: ['vus'], optional: ['duration', 'graceful_stop'] },
  'ramping-vus': { required: ['stages'], optional: ['start_vus', 'graceful_stop'] },
};

export type K6Threshold =
  | string
  | { readonly threshold: string; readonly abortOnFail?: boolean; readonly delayAbortEval?: string };

export interface K6Options {
  /** Always 0: afp load follows no redirect (a 3xx is the answer), and k6 follows up to 10 by default. */
  readonly maxRedirects: 0;
  readonly scenarios: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly thresholds: Readonly<Record<string, readonly K6Threshold[]>>;
}

export type K6OptionsResult =
  | { readonly ok: true; readonly options: K6Options }
  | { readonly ok: false; readonly errors: readonly string[] };

/** A k6 duration: whole seconds as `Ns`, anything finer as `Nms` (k6 has no `d`). */
export function k6Duration(durationMs: number): string {
  return durationMs % 1_000 === 0 ? `${durationMs / 1_000}s` : `${durationMs}ms`;
}

/** k6 scenario names are `[0-9A-Za-z_-]+`. */
export function k6ScenarioName(name: string): string {
  const cleaned = name.replace(/[^0-9A-Za-z_-]/g, '_');
  return cleaned === '' ? 'load' : cleaned;
}

export interface K6OptionsInput {
  readonly name: string;
  readonly load: LoadSection | null;
  /** The scenario's duration: the constant executors' default, at most LOAD_LIMITS.durationMs.max. */
  readonly scenarioDurationMs: number;
  /** Every endpoint tag the script may send (each gets a count threshold). */
  readonly endpoints: readonly string[];
  /** The scenario's agents (absent for a URL run). */
  readonly agentCount?: number;
  /** The metrics the export holds at `count==0` unless load.thresholds names them (GUARDED_METRICS); absent: none. */
  readonly guarded?: readonly string[];
}

/**
 * The counters whose any count means the run did not send the schedule it was asked to: k6's
 * dropped_iterations (an arrival no VU was free for) and the script's afp_late_agent_steps (an
 * agent stepped later than afp load's ring would have). A scenario script guards both, a URL run
 * (no agents) the first; a threshold of the scenario's own on either replaces its guard.
 */
export const GUARDED_METRICS = ['dropped_iterations', 'afp_late_agent_steps'] as const;

export function k6Options(input: K6OptionsInput): K6OptionsResult {
  const { load } = input;
  if (load === null)
    return {
      ok: false,
      errors: ['the scenario has no load: section (executor, rate or vus, duration...): k6 needs a load profile'],
    };
  const executor = load.executor ?? 'constant-arrival-rate';
  const errors = fieldErrors(load, executor);
  const agentCount = input.agentCount;
  if (agentCount !== undefined && (executor === 'constant-vus' || executor === 'ramping-vus')) {
    const peak = Math.max(load.vus ?? 0, load.start_vus ?? 0, ...(load.stages ?? []).map((stage) => stage.target));
    if (peak > agentCount)
      errors.push(
        `${executor} runs up to ${peak} VUs but the scenario has ${agentCount} agents: each VU steps its own agents; add agents or lower the VUs`,
      );
  }
  if (errors.length > 0) return { ok: false, errors };
  const scenario = executorOptions(
    load,
    executor,
    Math.min(input.scenarioDurationMs, LOAD_LIMITS.durationMs.max),
    agentCount,
  );
  return {
    ok: true,
    options: {
      maxRedirects: 0,
      scenarios: { [k6ScenarioName(input.name)]: scenario },
      thresholds: thresholdsOf(load, input.endpoints, input.guarded ?? []),
    },
  };
}

function fieldErrors(load: LoadSection, executor: ExecutorName): string[] {
  const { required, optional } = EXECUTOR_FIELDS[executor];
  const errors: string[] = [];
  for (const field of required)
    if (load[field] === undefined) errors.push(`load.${field} is required by the ${executor} executor`);
  for (const field of Object.keys(load) as (keyof LoadSection)[]) {
    if (field === 'executor' || field === 'thresholds' || required.includes(field) || optional.includes(field))
      continue;
    errors.push(
      `load.${field} has no meaning for the ${executor} executor (it uses ${[...required, ...optional].join(', ')})`,
    );
  }
  return errors;
}

function executorOptions(
  load: LoadSection,
  executor: ExecutorName,
  defaultDurationMs: number,
  agentCount: number | undefined,
): Record<string, unknown> {
  const gracefulStop = k6Duration(load.graceful_stop ?? LOAD_DEFAULTS.gracefulStopMs);
  const timeUnitMs = load.time_unit ?? LOAD_DEFAULTS.timeUnitMs;
  const inFlight = load.max_in_flight ?? LOAD_DEFAULTS.maxInFlight;
  const maxVUs = agentCount === undefined ? inFlight : Math.max(1, Math.min(inFlight, agentCount));
  const preAllocated = (peakRate: number): number =>
    agentCount === undefined ? preAllocatedOf(peakRate, timeUnitMs, maxVUs) : maxVUs;
  const stages = (load.stages ?? []).map((stage) => ({ duration: k6Duration(stage.duration), target: stage.target }));
  switch (executor) {
    case 'constant-arrival-rate': {
      const rate = load.rate ?? 0;
      const durationMs = load.duration ?? defaultDurationMs;
      // afp starts the arrivals before the end (t < duration), k6 also one at the end itself
      // (100/s for 3s on k6 1.3.0: 301 iterations in 6 runs of 6; for 2999ms: 300 in 5 of 6, 301
      // once, its clock's doing). One ms less gives k6 afp's arrivals wherever they are at least
      // 1 ms apart.
      const k6DurationMs = timeUnitMs / rate >= 1 && durationMs > 1 ? durationMs - 1 : durationMs;
      // k6 refuses a constant-arrival-rate under 1s ("the duration must be at least 1s"), so a
      // run of 1s cannot go one ms short. It goes as the same rate held by one ramping-arrival-rate
      // stage: k6 starts those at area 1, 2, … (every spacing from one spacing in, not from 0), so
      // the stage ends half a spacing after afp's count of them — no arrival near the end to race
      // k6's stop (a stage of exactly 1s at 10/s started 9 or 10 on k6 1.3.0), the same count as
      // afp load, each a spacing later than afp's.
      if (k6DurationMs < K6_CONSTANT_DURATION_MS_MIN)
        return {
          executor: 'ramping-arrival-rate',
          startRate: rate,
          timeUnit: k6Duration(timeUnitMs),
          stages: [{ duration: k6Duration(heldStageMs(rate, timeUnitMs, durationMs)), target: rate }],
          preAllocatedVUs: preAllocated(rate),
          maxVUs,
          gracefulStop,
        };
      return {
        executor,
        rate,
        timeUnit: k6Duration(timeUnitMs),
        duration: k6Duration(k6DurationMs),
        preAllocatedVUs: preAllocated(rate),
        maxVUs,
        gracefulStop,
      };
    }
    case 'ramping-arrival-rate': {
      const startRate = load.start_rate ?? 0;
      const peak = Math.max(startRate, ...stages.map((stage) => stage.target));
      return {
        executor,
        startRate,
        timeUnit: k6Duration(timeUnitMs),
        stages,
        preAllocatedVUs: preAllocated(peak),
        maxVUs,
        gracefulStop,
      };
    }
    case 'constant-vus':
      return { executor, vus: load.vus ?? 1, duration: k6Duration(load.duration ?? defaultDurationMs), gracefulStop };
    case 'ramping-vus':
      return { executor, startVUs: load.start_vus ?? 0, stages, gracefulStop };
  }
}

/**
 * The ramping stage that holds `rate` and starts as many arrivals as afp load's constant-arrival-rate
 * over `durationMs` (offsets 0, s, 2s, … before the end: ⌈duration/s⌉ of them, s = time unit / rate):
 * k6 starts them at s, 2s, …, so the stage lasts that count plus half a spacing, in whole ms. Where
 * the spacing is under 2 ms the half spacing is lost to the rounding, and the stage is the duration.
 */
function heldStageMs(rate: number, timeUnitMs: number, durationMs: number): number {
  const spacingMs = timeUnitMs / rate;
  if (spacingMs < 2) return durationMs;
  const count = Math.ceil(durationMs / spacingMs);
  return Math.round((count + 0.5) * spacingMs);
}

/** The arrivals of one second at the peak rate (iterations assumed to last about 1 s), in [1, maxVUs]. */
function preAllocatedOf(peakRate: number, timeUnitMs: number, maxVUs: number): number {
  return Math.min(maxVUs, Math.max(1, Math.ceil((peakRate * 1_000) / timeUnitMs)));
}

function thresholdsOf(
  load: LoadSection,
  endpoints: readonly string[],
  guarded: readonly string[],
): Record<string, K6Threshold[]> {
  const thresholds: Record<string, K6Threshold[]> = {};
  for (const [key, list] of Object.entries(load.thresholds ?? {})) {
    thresholds[key] = list.map((item) => {
      if (typeof item === 'string') return item;
      return {
        threshold: item.threshold,
        ...(item.abortOnFail === undefined ? {} : { abortOnFail: item.abortOnFail }),
        ...(item.delayAbortEval === undefined ? {} : { delayAbortEval: k6Duration(item.delayAbortEval) }),
      };
    });
  }
  const named = new Set(Object.keys(thresholds).map((key) => key.replace(/\{.*$/, '').trim()));
  for (const metric of guarded) if (!named.has(metric)) thresholds[metric] = ['count==0'];
  for (const endpoint of [...endpoints].sort()) {
    const key = `http_reqs{endpoint:${endpoint}}`;
    if (thresholds[key] === undefined) thresholds[key] = ['count>=0'];
  }
  return thresholds;
}
