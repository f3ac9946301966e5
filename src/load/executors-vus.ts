/**
 * VU schedules of the closed-model executors: how many virtual users run at which instant (ms from
 * the run's start), as steps `{ atMs, vus }` — the first at 0, then one at every change, before the
 * plan's end. Each VU runs iterations back to back (generator.ts).
 *
 * constant-vus: `vus` from 0 to the end.
 * ramping-vus: from start_vus, each stage moves linearly to its target: on a ramp of n VUs over d
 * ms the k-th change comes at stage start + d·k/n (k6 ramping_vus `getRawExecutionSteps`, whose
 * plan example is our test); a stage of 0 ms jumps at its start; a stage that keeps the count
 * adds no step. A VU taken away finishes its iteration first (k6's graceful ramp-down).
 * Lazily generated: a long ramp of many VUs is never held in memory.
 */
import type { Stage, VuPlan } from './executors.ts';
import { shardShare, type Shard } from './shard.ts';

export interface VuStep {
  readonly atMs: number;
  readonly vus: number;
}

/** The plan's VU steps; a shard's plan runs its share of the VUs at every step (shard.ts). */
export function vuSteps(plan: VuPlan): Generator<VuStep, void, undefined> {
  const all =
    plan.executor === 'constant-vus' ? constantVus(plan.vus) : rampingVus(plan.startVus, plan.stages, plan.durationMs);
  return plan.shard === undefined ? all : shareVus(all, plan.shard);
}

function* shareVus(steps: Iterable<VuStep>, shard: Shard): Generator<VuStep, void, undefined> {
  for (const step of steps) yield { atMs: step.atMs, vus: shardShare(step.vus, shard) };
}

function* constantVus(vus: number): Generator<VuStep, void, undefined> {
  yield { atMs: 0, vus };
}

function* rampingVus(
  startVus: number,
  stages: readonly Stage[],
  durationMs: number,
): Generator<VuStep, void, undefined> {
  yield { atMs: 0, vus: startVus };
  let current = startVus;
  let stageStartMs = 0;
  for (const stage of stages) {
    const changes = Math.abs(stage.target - current);
    const direction = Math.sign(stage.target - current);
    for (let change = 1; change <= changes; change++) {
      const atMs = stage.durationMs === 0 ? stageStartMs : stageStartMs + (stage.durationMs * change) / changes;
      if (atMs >= durationMs) return;
      // A 0 ms stage is one jump, not one step per VU.
      if (stage.durationMs === 0 && change < changes) continue;
      yield { atMs, vus: current + direction * change };
    }
    current = stage.target;
    stageStartMs += stage.durationMs;
  }
}
