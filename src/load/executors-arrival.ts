/**
 * Arrival schedules of the open-model executors: the exact instants (ms from the run's start,
 * ascending, before the plan's end) at which iterations are meant to start. Pure functions of the
 * plan, computed in closed form per arrival (never by adding intervals, so no drift accumulates),
 * lazily (a long run never holds its schedule in memory).
 *
 * constant-arrival-rate: `rate` iterations per `time_unit`, the first at 0, then every
 * time_unit/rate (k6 constant_arrival_rate).
 * ramping-arrival-rate: the rate moves linearly from each stage's start rate to its target over
 * the stage; iteration i (1-based) starts when the area under the rate curve reaches i — k6's
 * `RampingArrivalRateConfig.cal`, formula for formula, so an afp profile and the k6 script
 * exported from it start the same iterations at the same instants (k6's tests are ours).
 * Non-goals: waiting for the instants (generator.ts), dropping late iterations (generator.ts).
 */
import { assert } from '../core/assert.ts';
import type { ArrivalPlan, Stage } from './executors.ts';
import { shardArrivals } from './shard.ts';

/** The plan's arrivals; a shard's plan gets every n-th of the whole schedule, at the schedule's own instants. */
export function arrivalOffsets(plan: ArrivalPlan): Generator<number, void, undefined> {
  const all = plan.executor === 'constant-arrival-rate' ? constantArrivals(plan.rate, plan.timeUnitMs, plan.durationMs) : rampingArrivals(plan.startRate, plan.stages, plan.timeUnitMs, plan.durationMs);
  return plan.shard === undefined ? all : shardArrivals(all, plan.shard);
}

function* constantArrivals(rate: number, timeUnitMs: number, durationMs: number): Generator<number, void, undefined> {
  assert(Number.isSafeInteger(rate) && rate > 0 && timeUnitMs > 0, 'a constant arrival rate is a positive integer per a positive time unit');
  for (let index = 0; ; index++) {
    // index * timeUnitMs stays an exact integer (bounded by ITERATIONS_MAX × 1h); one rounding, in the division.
    const offsetMs = (index * timeUnitMs) / rate;
    if (offsetMs >= durationMs) return;
    yield offsetMs;
  }
}

/** A negative square root argument is float noise at a stage's end: k6 reads it as 0. */
const nonNegativeSqrt = (value: number): number => (value < 0 ? 0 : Math.sqrt(value));

function* rampingArrivals(startRate: number, stages: readonly Stage[], timeUnitMs: number, durationMs: number): Generator<number, void, undefined> {
  let stageStartMs = 0;
  let doneSoFar = 0;
  let endCount = 0;
  let from = startRate / timeUnitMs;
  let arrival = 1;
  for (const stage of stages) {
    const to = stage.target / timeUnitMs;
    const stageMs = stage.durationMs;
    if (from !== to) {
      endCount += stageMs * ((to - from) / 2 + from);
      for (; arrival <= endCount; arrival++) {
        const offsetMs = stageStartMs + (from * stageMs - nonNegativeSqrt(stageMs * (from * from * stageMs + 2 * (arrival - doneSoFar) * (to - from)))) / (from - to);
        if (offsetMs >= durationMs) return;
        yield offsetMs;
      }
    } else {
      endCount += stageMs * to;
      for (; arrival <= endCount; arrival++) {
        const offsetMs = stageStartMs + (arrival - doneSoFar) / to;
        if (offsetMs >= durationMs) return;
        yield offsetMs;
      }
    }
    doneSoFar = endCount;
    from = to;
    stageStartMs += stageMs;
    if (stageStartMs >= durationMs) return;
  }
}
