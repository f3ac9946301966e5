/**
 * The load profile as k6's flags give it, read once for every command that takes them — `afp load
 * SCENARIO`, `afp load URL`, `afp export k6` (both forms) — into the `load:` section a scenario file
 * would hold (durations in ms), so a flag means the same on afp's engine and in the k6 script:
 *
 *   --rate N/s        the open model: N iterations per time unit → constant-arrival-rate
 *   -u, --vus N       a closed loop of N VUs → constant-vus
 *   --max-vus N       with --rate: max_in_flight (k6 maxVUs)
 *   -d, --duration D  how long (a URL run: 30s by default; a scenario: its profile's)
 *   -i, --iterations N  exactly N arrivals of the open model, at --rate (or the given default
 *                     rate, no faster than N a second), then the run ends: rate N per the span
 *                     they take, so both engines start exactly N (executors-arrival.ts)
 *   --stage D:T       repeatable, k6's syntax: the stages of ramping-vus (T VUs at the stage's end,
 *                     from --vus, default 1), or with --rate of ramping-arrival-rate (T per --rate's
 *                     time unit, from --rate)
 * Refused together (each said): --rate with --vus; -i with --vus or --stage (afp has no
 * shared-iterations executor: -i counts arrivals); -d with --stage (the stages say how long).
 * Light to import (no zod): commands read their flags before their run loads.
 */
import type { LoadSection } from '../scenario/load-schema.ts';
import { LOAD_LIMITS } from '../scenario/load-limits.ts';
import { formatDuration, parseDuration, UNIT_MS } from '../scenario/duration-text.ts';
import { stringFlag, type ParsedArgs } from './args.ts';

/** The flags' profile: only what was given. */
export interface ProfileFlags {
  readonly rate?: { readonly rate: number; readonly timeUnitMs: number };
  readonly vus?: number;
  readonly maxVus?: number;
  readonly iterations?: number;
  readonly stages?: readonly { readonly duration: number; readonly target: number }[];
  readonly durationMs?: number;
}

/** The profile a command's flags leave open: its rate and length when none is given. */
export interface ProfileDefaults {
  readonly rate: { readonly rate: number; readonly timeUnitMs: number };
  readonly durationMs: number;
  readonly maxInFlight?: number;
}

/** Up to 16 digits each (bounded; a number past the limits gets the range message, not "is not N/s"). */
const RATE = /^(\d{1,16})(?:\/(\d{0,16})(ms|s|m|h))?$/;
const STAGE = /^([^:]{1,40}):(\d{1,9})$/;
/** More than this many arrivals for -i is a mistake, not a run. */
export const ITERATIONS_FLAG_MAX = LOAD_LIMITS.rate;

/** `300/s` → rate 300 per 1000 ms; `50/100ms`; a bare `N` is per second. */
export function parseRate(text: string): { rate: number; timeUnitMs: number } | string {
  const match = RATE.exec(text.trim());
  if (match === null) return `--rate '${text.slice(0, 40)}' is not N/s, N/m, N/100ms or N (per second)`;
  const rate = Number(match[1]);
  const unitMs =
    match[3] === undefined
      ? UNIT_MS.s
      : (match[2] === '' || match[2] === undefined ? 1 : Number(match[2])) * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  if (rate < 1 || rate > LOAD_LIMITS.rate)
    return `--rate must be from 1 to ${LOAD_LIMITS.rate} per time unit, got ${rate}`;
  if (unitMs < LOAD_LIMITS.timeUnitMs.min || unitMs > LOAD_LIMITS.timeUnitMs.max)
    return `--rate's time unit must be from ${formatDuration(LOAD_LIMITS.timeUnitMs.min)} to ${formatDuration(LOAD_LIMITS.timeUnitMs.max)}`;
  return { rate, timeUnitMs: unitMs };
}

export function countFlag(args: ParsedArgs, name: string, max: number, errors: string[]): number | undefined {
  const text = stringFlag(args, name);
  if (text === undefined) return undefined;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= max)) {
    errors.push(`--${name} must be a whole number from 1 to ${max}, got '${text.slice(0, 20)}'`);
    return undefined;
  }
  return value;
}

/** `--NAME D` as a duration within `bounds` (URL and scenario runs alike); undefined when absent or wrong (its error pushed). */
export function durationFlag(
  args: ParsedArgs,
  name: string,
  bounds: { min: number; max: number },
  errors: string[],
): number | undefined {
  const text = stringFlag(args, name);
  if (text === undefined) return undefined;
  const parsed = parseDuration(text);
  if (typeof parsed === 'string') errors.push(`--${name}: ${parsed}`);
  else if (parsed < bounds.min || parsed > bounds.max)
    errors.push(`--${name} must be from ${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`);
  else return parsed;
  return undefined;
}

/** `--stage 30s:10`, repeatable, in order. */
function stagesOf(values: readonly string[], errors: string[]): { duration: number; target: number }[] | undefined {
  if (values.length === 0) return undefined;
  if (values.length > LOAD_LIMITS.stages)
    errors.push(`at most ${LOAD_LIMITS.stages} --stage flags, got ${values.length}`);
  const stages: { duration: number; target: number }[] = [];
  for (const value of values.slice(0, LOAD_LIMITS.stages)) {
    const match = STAGE.exec(value.trim());
    const duration = match === null ? 'no' : parseDuration(match[1] ?? '');
    const target = Number(match?.[2]);
    if (match === null || typeof duration === 'string' || duration > LOAD_LIMITS.durationMs.max)
      errors.push(`--stage '${value.slice(0, 60)}' is not DURATION:TARGET (k6's syntax, e.g. 30s:10)`);
    else if (target > LOAD_LIMITS.rate) errors.push(`--stage ${value}: the target must be at most ${LOAD_LIMITS.rate}`);
    else stages.push({ duration, target });
  }
  return stages;
}

/** The profile flags of `args`, every problem pushed onto `errors`. */
export function readProfileFlags(args: ParsedArgs, errors: string[]): ProfileFlags {
  const rateText = stringFlag(args, 'rate');
  const rate = rateText === undefined ? undefined : parseRate(rateText);
  if (typeof rate === 'string') errors.push(rate);
  const vus = countFlag(args, 'vus', LOAD_LIMITS.vus, errors);
  const maxVus = countFlag(args, 'max-vus', LOAD_LIMITS.maxInFlight, errors);
  const iterations = countFlag(args, 'iterations', ITERATIONS_FLAG_MAX, errors);
  const stages = stagesOf(args.lists['stage'] ?? [], errors);
  const durationMs = durationFlag(args, 'duration', LOAD_LIMITS.durationMs, errors);
  const given = (name: string): boolean => stringFlag(args, name) !== undefined;
  if (given('rate') && given('vus'))
    errors.push('give --rate N/s (the open model: arrivals whatever the latency) or --vus N (a closed loop), not both');
  if (given('max-vus') && !given('rate'))
    errors.push('--max-vus goes with --rate (a closed loop of --vus N has N in flight)');
  if (given('iterations') && (given('vus') || stages !== undefined))
    errors.push(
      '-i/--iterations counts arrivals of the open model (with --rate, or alone): not with --vus or --stage; give -d with those',
    );
  if (given('duration') && stages !== undefined) errors.push('give -d/--duration or --stage: the stages say how long');
  if (given('duration') && given('iterations'))
    errors.push('give -d/--duration or -i/--iterations: the iterations at the rate say how long');
  return {
    ...(typeof rate === 'object' ? { rate } : {}),
    ...(vus === undefined ? {} : { vus }),
    ...(maxVus === undefined ? {} : { maxVus }),
    ...(iterations === undefined ? {} : { iterations }),
    ...(stages === undefined ? {} : { stages }),
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}

/** Whether the flags give a profile of their own (a lone -d only sets the length of another's). */
export function givesProfile(flags: ProfileFlags): boolean {
  return (
    flags.rate !== undefined || flags.vus !== undefined || flags.iterations !== undefined || flags.stages !== undefined
  );
}

/**
 * The `load:` section (no thresholds, no graceful_stop) the flags describe, the defaults filling
 * what they leave open. Call it on flags read without errors.
 */
export function sectionOfFlags(flags: ProfileFlags, defaults: ProfileDefaults): Omit<LoadSection, 'thresholds'> {
  const maxInFlight = flags.maxVus ?? defaults.maxInFlight;
  const inFlight = maxInFlight === undefined ? {} : { max_in_flight: maxInFlight };
  if (flags.stages !== undefined)
    return flags.rate === undefined
      ? { executor: 'ramping-vus', start_vus: flags.vus ?? 1, stages: [...flags.stages] }
      : {
          executor: 'ramping-arrival-rate',
          start_rate: flags.rate.rate,
          time_unit: flags.rate.timeUnitMs,
          stages: [...flags.stages],
          ...inFlight,
        };
  if (flags.vus !== undefined)
    return { executor: 'constant-vus', vus: flags.vus, duration: flags.durationMs ?? defaults.durationMs };
  if (flags.iterations !== undefined) {
    // N arrivals over the span they take at the rate (at most N a second, so at least 1 s): rate N per
    // that span, duration that span: arrival k at k·span/N, exactly N before its end on either engine.
    const rate = flags.rate ?? {
      rate: Math.min(flags.iterations, defaults.rate.rate),
      timeUnitMs: defaults.rate.timeUnitMs,
    };
    const spanMs = Math.max(LOAD_LIMITS.durationMs.min, Math.ceil((flags.iterations * rate.timeUnitMs) / rate.rate));
    return {
      executor: 'constant-arrival-rate',
      rate: flags.iterations,
      time_unit: spanMs,
      duration: spanMs,
      ...inFlight,
    };
  }
  const rate = flags.rate ?? defaults.rate;
  return {
    executor: 'constant-arrival-rate',
    rate: rate.rate,
    time_unit: rate.timeUnitMs,
    duration: flags.durationMs ?? defaults.durationMs,
    ...inFlight,
  };
}
