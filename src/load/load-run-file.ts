/**
 * `load.json`: what one `afp load` run leaves behind for the reports and thresholds — a header
 * (scenario, seed, target, plan, how the run ended, what the agents saw) and the run's LoadSnapshot,
 * the one input every report writer and threshold reads (src/load/load-recorder.ts). Plain JSON,
 * keys in a fixed order, two-space indented; a snapshot from several workers or shards
 * (`mergeSnapshots`) fits the same file.
 */
import { describePlan, wholePlan, type LoadPlan } from './executors.ts';
import type { LoadSnapshot } from './load-recorder.ts';
import type { KeptReport } from './load-run-pool.ts';
import type { Shard } from './shard.ts';
import type { Kept, LoadRunResult } from './load-run.ts';

export const LOAD_RUN_FILE_NAME = 'load.json';

export interface LoadRunFile {
  readonly format: 'afp-load-run/1';
  readonly scenario: string;
  readonly seed: string;
  readonly target: { readonly name: string; readonly source: string };
  /** This run's part of a `--shard i/n` run (src/load/shard.ts); absent for a whole run. `afp load merge` puts the shards together. */
  readonly shard?: Shard;
  readonly plan: LoadPlan & { readonly description: string };
  readonly agents: number;
  readonly ended: {
    readonly by: 'schedule' | 'stopped';
    readonly reason: string | null;
    readonly interrupted: number;
    readonly failed_iterations: number;
  };
  readonly reports: Kept<KeptReport>;
  readonly iteration_errors: Kept<string>;
  readonly setup_trouble: Kept<string>;
  readonly notes: readonly string[];
  readonly snapshot: LoadSnapshot;
}

export function loadRunFile(
  header: { scenario: string; seed: string; target: { name: string; source: string }; plan: LoadPlan },
  result: LoadRunResult,
): LoadRunFile {
  return {
    format: 'afp-load-run/1',
    scenario: header.scenario,
    seed: header.seed,
    target: { name: header.target.name, source: header.target.source },
    ...(header.plan.shard === undefined ? {} : { shard: header.plan.shard }),
    plan: { ...wholePlan(header.plan), description: describePlan(wholePlan(header.plan)) },
    agents: result.agents,
    ended: {
      by: result.outcome.endedBy,
      reason: result.outcome.stopReason,
      interrupted: result.outcome.interrupted,
      failed_iterations: result.outcome.failedIterations,
    },
    reports: { count: result.reports.count, first: result.reports.first },
    iteration_errors: { count: result.iterationErrors.count, first: result.iterationErrors.first },
    setup_trouble: { count: result.setupTrouble.count, first: result.setupTrouble.first },
    notes: result.notes,
    snapshot: result.snapshot,
  };
}

export function loadRunFileText(file: LoadRunFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
