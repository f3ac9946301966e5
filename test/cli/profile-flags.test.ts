// k6's profile flags (src/cli/profile-flags.ts) read into the load: section both engines run:
// --rate, -u/--vus, -d, -i (exactly N arrivals: rate N per the span they take), --stage (k6's
// D:T, ramping-vus or with --rate ramping-arrival-rate), and the combinations refused together.
import { describe, expect, test } from 'vitest';
import { parseCommand } from '../../src/cli/args.ts';
import { definitionOf } from '../../src/cli/commands.ts';
import { readProfileFlags, sectionOfFlags } from '../../src/cli/profile-flags.ts';
import { arrivalOffsets } from '../../src/load/executors-arrival.ts';
import { resolveLoadPlan } from '../../src/load/executors.ts';

const DEFAULTS = { rate: { rate: 10, timeUnitMs: 1_000 }, durationMs: 30_000, maxInFlight: 20 };

function read(argv: readonly string[]): { section: ReturnType<typeof sectionOfFlags>; errors: string[] } {
  const errors: string[] = [];
  const flags = readProfileFlags(parseCommand(['x.yaml', ...argv], definitionOf('load')), errors);
  return { section: sectionOfFlags(flags, DEFAULTS), errors };
}

describe("k6's profile flags", () => {
  test('--rate, -u, -d and the defaults', () => {
    expect(read(['--rate', '50/s', '-d', '2s'])).toStrictEqual({
      section: { executor: 'constant-arrival-rate', rate: 50, time_unit: 1_000, duration: 2_000, max_in_flight: 20 },
      errors: [],
    });
    expect(read(['-u', '3'])).toStrictEqual({
      section: { executor: 'constant-vus', vus: 3, duration: 30_000 },
      errors: [],
    });
    expect(read([]).section).toStrictEqual({
      executor: 'constant-arrival-rate',
      rate: 10,
      time_unit: 1_000,
      duration: 30_000,
      max_in_flight: 20,
    });
  });

  test('-i N is exactly N arrivals on the schedule, at the rate, 1 s at least', () => {
    for (const [argv, spanMs] of [
      [['-i', '25'], 2_500],
      [['-i', '3'], 1_000],
      [['-i', '7', '--rate', '2/s'], 3_500],
      [['-i', '1000', '--rate', '300/s'], 3_334],
    ] as const) {
      const { section, errors } = read(argv);
      expect(errors).toStrictEqual([]);
      const count = Number(argv[1]);
      expect(section).toMatchObject({
        executor: 'constant-arrival-rate',
        rate: count,
        time_unit: spanMs,
        duration: spanMs,
      });
      const planned = resolveLoadPlan({ load: section, scenarioDurationMs: 60_000 });
      expect(planned.ok && planned.plan.kind === 'arrivals' ? [...arrivalOffsets(planned.plan)].length : -1).toBe(
        count,
      );
    }
  });

  test('--stage: ramping-vus from -u (default 1); with --rate ramping-arrival-rate from it', () => {
    expect(read(['--stage', '30s:10', '--stage', '1m:0']).section).toStrictEqual({
      executor: 'ramping-vus',
      start_vus: 1,
      stages: [
        { duration: 30_000, target: 10 },
        { duration: 60_000, target: 0 },
      ],
    });
    expect(read(['--rate', '5/s', '--stage', '10s:50']).section).toStrictEqual({
      executor: 'ramping-arrival-rate',
      start_rate: 5,
      time_unit: 1_000,
      stages: [{ duration: 10_000, target: 50 }],
      max_in_flight: 20,
    });
  });

  test('contradictions: every one said', () => {
    expect(read(['--rate', '5', '-u', '2', '-i', '4', '--stage', 'x', '-d', '1s']).errors).toStrictEqual([
      "--stage 'x' is not DURATION:TARGET (k6's syntax, e.g. 30s:10)",
      'give --rate N/s (the open model: arrivals whatever the latency) or --vus N (a closed loop), not both',
      '-i/--iterations counts arrivals of the open model (with --rate, or alone): not with --vus or --stage; give -d with those',
      'give -d/--duration or --stage: the stages say how long',
      'give -d/--duration or -i/--iterations: the iterations at the rate say how long',
    ]);
    expect(read(['--max-vus', '3', '-i', '0']).errors).toStrictEqual([
      "--iterations must be a whole number from 1 to 1000000, got '0'",
      '--max-vus goes with --rate (a closed loop of --vus N has N in flight)',
    ]);
  });
});
