// load.json files as `afp load` writes them, for the merge tests: 3 s at 100/s on two endpoints
// (latencies 1–40 ms, one 500 in 25), recorded whole or a shard's arrivals of it.
import { describePlan, type ArrivalPlan } from '../../src/load/executors.ts';
import { LoadRecorder, type LoadSample, type LoadSnapshot } from '../../src/load/load-recorder.ts';
import type { LoadRunFile } from '../../src/load/load-run-file.ts';
import type { Shard } from '../../src/load/shard.ts';

export const plan: Extract<ArrivalPlan, { executor: 'constant-arrival-rate' }> = {
  kind: 'arrivals',
  executor: 'constant-arrival-rate',
  rate: 100,
  timeUnitMs: 1_000,
  durationMs: 3_000,
  maxInFlight: 100,
  gracefulStopMs: 1_000,
};

/** A load.json as `afp load` writes it (with `shard` for a --shard run). */
export const runFile = (
  shard: Shard | null,
  snapshot: LoadSnapshot,
  overrides: Partial<LoadRunFile> = {},
): LoadRunFile => ({
  format: 'afp-load-run/1',
  scenario: 'escrow-rush',
  seed: '7',
  target: { name: 'local', source: 'http://127.0.0.1:8080' },
  ...(shard === null ? {} : { shard }),
  plan: { ...plan, description: describePlan(plan) },
  agents: 10,
  ended: { by: 'schedule', reason: null, interrupted: shard?.index ?? 0, failed_iterations: 1 },
  reports: { count: 1, first: [{ agentId: `a${shard?.index ?? 0}`, message: 'a rule' }] },
  iteration_errors: { count: 0, first: [] },
  setup_trouble: { count: 0, first: [] },
  notes: ['the target is afp serve'],
  snapshot,
  ...overrides,
});

export const samples: LoadSample[] = Array.from({ length: 300 }, (_, k) => ({
  endpoint: k % 3 === 0 ? 'escrow.B.create' : 'casino.A.bet',
  intendedStartMs: 10_000 + k * 10,
  endMs: 10_000 + k * 10 + 1 + ((k * 37) % 40),
  status: k % 25 === 0 ? 500 : 200,
  failed: k % 25 === 0,
}));

export function recorded(sampled: Iterable<LoadSample>): LoadSnapshot {
  const recorder = new LoadRecorder(10_000);
  for (const sample of sampled) {
    recorder.iterationStarted();
    recorder.record(sample);
    recorder.iterationCompleted();
  }
  recorder.finish(13_100);
  return recorder.snapshot();
}
