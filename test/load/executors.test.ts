// The executors as pure schedules, checked by exact offsets as k6 checks its own
// (lib/executor/ramping_arrival_rate_test.go TestRampingArrivalRateCal, ramping_vus_test.go
// TestRampingVUsConfigExecutionPlanExample): the same profile gives the same instants in afp and
// in the k6 script exported from it. Plus the plan's checks across fields, all errors at once.
import * as z from 'zod';
import { describe, expect, test } from 'vitest';
import { arrivalOffsets, arrivalSchedule, arrivalsBetween } from '../../src/load/executors-arrival.ts';
import { vuSteps } from '../../src/load/executors-vus.ts';
import {
  describePlan,
  resolveLoadPlan,
  type ArrivalPlan,
  type LoadPlan,
  type VuPlan,
} from '../../src/load/executors.ts';
import { parseScenario } from '../../src/scenario/scenario.ts';

function planOf(load: string, durationMs?: number): LoadPlan {
  const parsed = parseScenario(
    ['name: exec', 'duration: 1m', 'populations:', '  - agent: walker', '    count: 2', load].join('\n'),
    { fileName: 's.yaml', agentParams: () => z.strictObject({}) },
  );
  if (!parsed.ok) throw new Error(parsed.errors.map((error) => error.message).join('\n'));
  const plan = resolveLoadPlan({
    load: parsed.scenario.load,
    scenarioDurationMs: parsed.scenario.durationMs,
    ...(durationMs === undefined ? {} : { durationMs }),
  });
  if (!plan.ok) throw new Error(plan.errors.join('\n'));
  return plan.plan;
}

const arrivals = (plan: LoadPlan): number[] => [...arrivalOffsets(plan as ArrivalPlan)];

describe('constant-arrival-rate', () => {
  test('rate per time unit, the first at 0, each offset computed from its index', () => {
    expect(arrivals(planOf('load: { rate: 4, duration: 2s }'))).toEqual([0, 250, 500, 750, 1000, 1250, 1500, 1750]);
    const thirds = arrivals(planOf('load: { rate: 3, time_unit: 1s, duration: 1s }'));
    expect(thirds).toEqual([0, 1000 / 3, 2000 / 3]);
    const perMinute = arrivals(planOf('load: { rate: 2, time_unit: 1m, duration: 2m }'));
    expect(perMinute).toEqual([0, 30_000, 60_000, 90_000]);
  });

  test('no drift over many arrivals: the 100000th is exactly where its index says', () => {
    const offsets = arrivals(planOf('load: { rate: 7, time_unit: 1s, duration: 5h }'));
    expect(offsets.length).toBe(7 * 5 * 3600);
    expect(offsets[100_000]).toBe((100_000 * 1000) / 7);
    expect(offsets.at(-1)).toBeLessThan(5 * 3_600_000);
  });

  test('defaults to the scenario duration; --duration replaces it', () => {
    expect(arrivals(planOf('load: { rate: 1 }')).length).toBe(60);
    expect(arrivals(planOf('load: { rate: 1 }', 5_000))).toEqual([0, 1000, 2000, 3000, 4000]);
  });
});

describe('ramping-arrival-rate (k6 TestRampingArrivalRateCal)', () => {
  const stages = 'stages: [{ duration: 5s, target: 1 }, { duration: 1s, target: 1 }, { duration: 5s, target: 0 }]';
  // k6's expected instants, ms; its last (11 s) is the run's end instant, which starts nothing.
  test('0 → 1/s over 5 s, 1/s for 1 s, → 0 over 5 s', () => {
    const offsets = arrivals(planOf(`load: { executor: ramping-arrival-rate, start_rate: 0, ${stages} }`));
    expect(offsets.map(Math.floor)).toEqual([3162, 4472, 5500, 6527, 7837]);
  });

  test('three times the rate (k6: time_unit a third of a second) starts three times as many', () => {
    const offsets = arrivals(
      planOf(
        'load: { executor: ramping-arrival-rate, stages: [{ duration: 5s, target: 3 }, { duration: 1s, target: 3 }, { duration: 5s, target: 0 }] }',
      ),
    );
    // k6's list within its own tolerance (InEpsilon 0.001); its last, 10999 ms, is the end instant
    // here (k6's unit of 333333333 ns runs a hair fast and starts it just before the end).
    const k6 = [1825, 2581, 3162, 3651, 4082, 4472, 4830, 5166, 5499, 5833, 6169, 6527, 6917, 7348, 7837, 8418, 9174];
    expect(offsets.length).toBe(k6.length);
    offsets.forEach((offset, index) => expect(Math.abs(offset - (k6[index] as number)) / offset).toBeLessThan(0.001));
  });

  test('a flat stage is a constant rate after the area already done; --duration cuts the schedule', () => {
    const flat = arrivals(
      planOf('load: { executor: ramping-arrival-rate, start_rate: 2, stages: [{ duration: 2s, target: 2 }] }'),
    );
    expect(flat).toEqual([500, 1000, 1500]);
    const cut = arrivals(planOf(`load: { executor: ramping-arrival-rate, ${stages} }`, 5_000));
    expect(cut.map(Math.floor)).toEqual([3162, 4472]);
  });
});

describe('VU executors (k6 TestRampingVUsConfigExecutionPlanExample)', () => {
  test('ramping-vus: one step per VU change at stage start + d·k/n, a 0 ms stage jumps', () => {
    const plan = planOf(`load:
  executor: ramping-vus
  start_vus: 4
  stages:
    - { target: 6, duration: 2s }
    - { target: 1, duration: 5s }
    - { target: 5, duration: 4s }
    - { target: 1, duration: 4s }
    - { target: 4, duration: 3s }
    - { target: 4, duration: 2s }
    - { target: 1, duration: 0s }
    - { target: 1, duration: 3s }`);
    const expected = [
      [0, 4],
      [1, 5],
      [2, 6],
      [3, 5],
      [4, 4],
      [5, 3],
      [6, 2],
      [7, 1],
      [8, 2],
      [9, 3],
      [10, 4],
      [11, 5],
      [12, 4],
      [13, 3],
      [14, 2],
      [15, 1],
      [16, 2],
      [17, 3],
      [18, 4],
      [20, 1],
    ];
    expect([...vuSteps(plan as VuPlan)]).toEqual(
      expected.map(([seconds, vus]) => ({ atMs: (seconds as number) * 1000, vus })),
    );
    expect(plan.durationMs).toBe(23_000);
  });

  test('constant-vus: one step; a cut ramp stops at the cut', () => {
    expect([...vuSteps(planOf('load: { executor: constant-vus, vus: 3, duration: 10s }') as VuPlan)]).toEqual([
      { atMs: 0, vus: 3 },
    ]);
    const cut = planOf('load: { executor: ramping-vus, stages: [{ duration: 4s, target: 4 }] }', 2_500) as VuPlan;
    expect([...vuSteps(cut)]).toEqual([
      { atMs: 0, vus: 0 },
      { atMs: 1000, vus: 1 },
      { atMs: 2000, vus: 2 },
    ]);
  });
});

describe('the plan', () => {
  test('defaults: the open model at 1/s units, max_in_flight 1000, graceful_stop 30s', () => {
    const plan = planOf('load: { rate: 5 }');
    expect(plan).toEqual({
      kind: 'arrivals',
      executor: 'constant-arrival-rate',
      rate: 5,
      timeUnitMs: 1000,
      durationMs: 60_000,
      maxInFlight: 1000,
      gracefulStopMs: 30_000,
    });
    expect(describePlan(plan)).toBe('constant-arrival-rate 5/1s for 1m, max_in_flight 1000, graceful_stop 30s');
  });

  test('every error at once: a missing field, fields of another executor, no load section', () => {
    const parsed = parseScenario(
      [
        'name: exec',
        'duration: 1m',
        'populations:',
        '  - agent: walker',
        '    count: 1',
        'load: { executor: constant-vus, rate: 5, stages: [{ duration: 1s, target: 2 }] }',
      ].join('\n'),
      { fileName: 's.yaml', agentParams: () => z.strictObject({}) },
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const result = resolveLoadPlan({ load: parsed.scenario.load, scenarioDurationMs: 60_000 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      'load.rate does not apply to constant-vus (its fields: vus, duration)',
      'load.stages does not apply to constant-vus (its fields: vus, duration)',
      'load.vus is required for constant-vus',
    ]);
    const none = resolveLoadPlan({ load: null, scenarioDurationMs: 60_000 });
    expect(none.ok === false && none.errors[0]).toContain('no load: section');
    const long = resolveLoadPlan({ load: { rate: 1 }, scenarioDurationMs: 30 * 86_400_000 });
    expect(long.ok === false && long.errors[0]).toContain('set load.duration or pass --duration');
  });
});

describe('arrival counts in closed form (the generator drops what came due while it waited)', () => {
  /** Every count the schedule gives agrees with stepping through its offsets, at and around every arrival. */
  function expectCountsMatchOffsets(plan: ArrivalPlan): void {
    const offsets = [...arrivalOffsets(plan)];
    const schedule = arrivalSchedule(plan);
    const stepped = (atMs: number): number => offsets.filter((offset) => offset < atMs).length;
    const instants = [
      -1,
      0,
      plan.durationMs,
      plan.durationMs + 1,
      1e12,
      ...offsets.flatMap((offset) => [offset, offset + 1e-9, offset - 1e-9, offset + 0.5]),
    ];
    for (const atMs of instants) expect(schedule.countBefore(atMs), `countBefore(${atMs})`).toBe(stepped(atMs));
    expect(arrivalsBetween(schedule, 0, plan.durationMs)).toBe(offsets.length);
  }

  test('constant-arrival-rate, thirds of a second and whole ones', () => {
    expectCountsMatchOffsets(planOf('load: { rate: 3, time_unit: 1s, duration: 2s }') as ArrivalPlan);
    expectCountsMatchOffsets(planOf('load: { rate: 7, time_unit: 1s, duration: 3s }') as ArrivalPlan);
    const fast = arrivalSchedule(planOf('load: { rate: 1000000, duration: 10s }') as ArrivalPlan);
    expect(arrivalsBetween(fast, 1_000, 1_250)).toBe(250_000);
    expect(fast.countBefore(20_000)).toBe(10_000_000);
  });

  test('ramping-arrival-rate: k6 profiles, a flat start, a cut', () => {
    const stages = 'stages: [{ duration: 5s, target: 1 }, { duration: 1s, target: 1 }, { duration: 5s, target: 0 }]';
    expectCountsMatchOffsets(
      planOf(`load: { executor: ramping-arrival-rate, start_rate: 0, ${stages} }`) as ArrivalPlan,
    );
    expectCountsMatchOffsets(
      planOf(
        'load: { executor: ramping-arrival-rate, stages: [{ duration: 5s, target: 300 }, { duration: 0s, target: 50 }, { duration: 1s, target: 50 }, { duration: 5s, target: 0 }] }',
      ) as ArrivalPlan,
    );
    expectCountsMatchOffsets(
      planOf(
        'load: { executor: ramping-arrival-rate, start_rate: 2, stages: [{ duration: 2s, target: 2 }] }',
      ) as ArrivalPlan,
    );
    expectCountsMatchOffsets(planOf(`load: { executor: ramping-arrival-rate, ${stages} }`, 5_000) as ArrivalPlan);
  });

  test("a shard's counts are its every n-th of the whole schedule's", () => {
    const whole = planOf(
      'load: { executor: ramping-arrival-rate, stages: [{ duration: 3s, target: 40 }, { duration: 2s, target: 10 }] }',
    ) as ArrivalPlan;
    for (const index of [1, 2, 3]) expectCountsMatchOffsets({ ...whole, shard: { index, count: 3 } });
  });
});
