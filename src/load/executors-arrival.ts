/**
 * Arrival schedules of the open-model executors: the exact instants (ms from the run's start,
 * ascending, before the plan's end) at which iterations are meant to start. Pure functions of the
 * plan, in closed form both ways: the offset of arrival k from k (never by adding intervals, so no
 * drift accumulates), and how many arrivals fall before an instant from the instant (never by
 * stepping through them, so a generator that waited through a million due arrivals counts them
 * as dropped in a few operations). Nothing is held in memory but the stages.
 *
 * constant-arrival-rate: `rate` iterations per `time_unit`, the first at 0, then every
 * time_unit/rate (k6 constant_arrival_rate).
 * ramping-arrival-rate: the rate moves linearly from each stage's start rate to its target over
 * the stage; iteration i (1-based) starts when the area under the rate curve reaches i — k6's
 * `RampingArrivalRateConfig.cal`, formula for formula, so an afp profile and the k6 script
 * exported from it start the same iterations at the same instants (k6's tests are ours).
 * Counting inverts the area (arrivals before t = ⌈area(t)⌉ − 1), then checks the estimate against
 * the offsets themselves and moves it by at most COUNT_ADJUST_MAX, so a count and the offsets it
 * counts never disagree over float rounding.
 * A shard's schedule (shard.ts) is every n-th arrival of the whole one, at its own instants.
 * Non-goals: waiting for the instants (generator.ts), dropping late iterations (generator.ts).
 */
import { assert } from '../core/assert.ts';
import type { ArrivalPlan, Stage } from './executors.ts';
import type { Shard } from './shard.ts';

export interface ArrivalSchedule {
  /** The offset (ms) of arrival `index` (0-based, in schedule order); null past the schedule's end. */
  offsetMs(index: number): number | null;
  /** How many arrivals have an offset before `atMs` (all of them once `atMs` is past the end). */
  countBefore(atMs: number): number;
}

/** A count estimated from the area is off by float rounding only: a step or two. */
const COUNT_ADJUST_MAX = 8;

export function arrivalSchedule(plan: ArrivalPlan): ArrivalSchedule {
  const whole =
    plan.executor === 'constant-arrival-rate'
      ? constantSchedule(plan.rate, plan.timeUnitMs, plan.durationMs)
      : rampingSchedule(plan.startRate, plan.stages, plan.timeUnitMs, plan.durationMs);
  return plan.shard === undefined ? whole : shardSchedule(whole, plan.shard);
}

/** How many of the plan's arrivals fall in [fromMs, toMs) (offsets from the run's start). */
export function arrivalsBetween(schedule: ArrivalSchedule, fromMs: number, toMs: number): number {
  return toMs <= fromMs ? 0 : schedule.countBefore(toMs) - schedule.countBefore(fromMs);
}

/** The plan's arrivals, lazily, in order; a shard's plan gets every n-th of the whole schedule. */
export function* arrivalOffsets(plan: ArrivalPlan): Generator<number, void, undefined> {
  const schedule = arrivalSchedule(plan);
  for (let index = 0; ; index++) {
    const offsetMs = schedule.offsetMs(index);
    if (offsetMs === null) return;
    yield offsetMs;
  }
}

/** Moves `estimate` to the exact count of offsets before `atMs`, as `offsetMs` computes them. */
function settleCount(offsetMs: (index: number) => number | null, estimate: number, atMs: number): number {
  const before = (index: number): boolean => {
    const offset = offsetMs(index);
    return offset !== null && offset < atMs;
  };
  const start = Math.max(0, estimate);
  let count = start;
  while (count > 0 && !before(count - 1) && start - count < COUNT_ADJUST_MAX) count -= 1;
  while (before(count) && count - start < COUNT_ADJUST_MAX) count += 1;
  assert(
    (count === 0 || before(count - 1)) && !before(count),
    'an arrival count estimated in closed form is off by float rounding only (COUNT_ADJUST_MAX steps at most)',
  );
  return count;
}

function constantSchedule(rate: number, timeUnitMs: number, durationMs: number): ArrivalSchedule {
  assert(
    Number.isSafeInteger(rate) && rate > 0 && timeUnitMs > 0,
    'a constant arrival rate is a positive integer per a positive time unit',
  );
  const offsetMs = (index: number): number | null => {
    // index * timeUnitMs stays an exact integer (bounded by ITERATIONS_MAX × 1h); one rounding, in the division.
    const offset = (index * timeUnitMs) / rate;
    return offset < durationMs ? offset : null;
  };
  return {
    offsetMs,
    countBefore: (atMs) => settleCount(offsetMs, Math.ceil((Math.min(atMs, durationMs) * rate) / timeUnitMs), atMs),
  };
}

/** One stage of a ramp, its rates per ms, and the area (arrivals) done before it and by its end. */
interface RampStage {
  readonly startMs: number;
  readonly stageMs: number;
  readonly from: number;
  readonly to: number;
  readonly doneBefore: number;
  readonly endCount: number;
}

/** A negative square root argument is float noise at a stage's end: k6 reads it as 0. */
const nonNegativeSqrt = (value: number): number => (value < 0 ? 0 : Math.sqrt(value));

function rampStages(startRate: number, stages: readonly Stage[], timeUnitMs: number, durationMs: number): RampStage[] {
  const ramp: RampStage[] = [];
  let startMs = 0;
  let doneBefore = 0;
  let from = startRate / timeUnitMs;
  for (const stage of stages) {
    if (startMs >= durationMs) break;
    const to = stage.target / timeUnitMs;
    // k6 adds the stage's area to a running float total, in this order: the same rounding.
    const endCount =
      from !== to ? doneBefore + stage.durationMs * ((to - from) / 2 + from) : doneBefore + stage.durationMs * to;
    ramp.push({ startMs, stageMs: stage.durationMs, from, to, doneBefore, endCount });
    doneBefore = endCount;
    from = to;
    startMs += stage.durationMs;
  }
  return ramp;
}

/** Where arrival `arrival` (1-based) starts within `stage` (k6's formula). */
function rampOffsetMs(stage: RampStage, arrival: number): number {
  const { startMs, stageMs, from, to, doneBefore } = stage;
  if (from === to) return startMs + (arrival - doneBefore) / to;
  return (
    startMs +
    (from * stageMs - nonNegativeSqrt(stageMs * (from * from * stageMs + 2 * (arrival - doneBefore) * (to - from)))) /
      (from - to)
  );
}

function rampingSchedule(
  startRate: number,
  stages: readonly Stage[],
  timeUnitMs: number,
  durationMs: number,
): ArrivalSchedule {
  const ramp = rampStages(startRate, stages, timeUnitMs, durationMs);
  const offsetMs = (index: number): number | null => {
    const arrival = index + 1;
    const stage = ramp.find((candidate) => arrival <= candidate.endCount);
    if (stage === undefined) return null;
    const offset = rampOffsetMs(stage, arrival);
    return offset < durationMs ? offset : null;
  };
  const areaAt = (atMs: number): number => {
    const stage = ramp.find((candidate) => atMs < candidate.startMs + candidate.stageMs) ?? ramp.at(-1);
    if (stage === undefined) return 0;
    if (stage.stageMs === 0) return stage.endCount;
    const intoMs = Math.min(Math.max(atMs - stage.startMs, 0), stage.stageMs);
    return stage.doneBefore + stage.from * intoMs + ((stage.to - stage.from) * intoMs * intoMs) / (2 * stage.stageMs);
  };
  return {
    offsetMs,
    countBefore: (atMs) => settleCount(offsetMs, Math.ceil(areaAt(Math.min(atMs, durationMs))) - 1, atMs),
  };
}

/** Every n-th arrival of `whole`, starting at the i-th: local index j is whole index (i − 1) + j·n. */
function shardSchedule(whole: ArrivalSchedule, shard: Shard): ArrivalSchedule {
  assert(
    Number.isSafeInteger(shard.count) && shard.count >= 1 && shard.index >= 1 && shard.index <= shard.count,
    'a shard is i/n with 1 ≤ i ≤ n (parseShard)',
  );
  const first = shard.index - 1;
  return {
    offsetMs: (index) => whole.offsetMs(first + index * shard.count),
    countBefore: (atMs) => {
      const all = whole.countBefore(atMs);
      return all > first ? Math.floor((all - first - 1) / shard.count) + 1 : 0;
    },
  };
}
