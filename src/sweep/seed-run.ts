/**
 * One seed of a sweep: the scenario run in-process, reduced to what a sweep keeps of it — the
 * outcome, the first failure, the summary figures and the digest `afp run --seed S` prints for
 * the same run. Why the digest: a sweep row and a later `afp run` of its seed can be compared
 * byte for byte, so a sweep is evidence, not a claim. Why so little else: a sweep keeps
 * thousands of runs. A run's events go to a temporary file as they happen (as `afp run`'s do,
 * issue 19: a seed of a million-event scenario holds no event list), read once for the digest and
 * removed when the seed is done.
 * Invariants: pure given (scenario, seed, defects): the same inputs give the same SeedResult in
 * any worker, in any order; a crash of the run is returned (kind 'crashed'), never thrown, so one
 * bad seed does not end the sweep.
 */
import { isoTime } from '../http/render.ts';
import type { ProbeHits } from '../report/run-record.ts';
import { digestReports } from '../report/write-reports.ts';
import { seedFigures, type SeedFigures } from './seed-figures.ts';
import type { DefectName } from '../services/shared/context.ts';
import { runSimulationWith } from '../sim.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { reproduceCommand } from './reproduce-command.ts';

export type SeedOutcome = 'completed' | 'invariant-failed' | 'limit-reached' | 'crashed';

export interface SeedFailure {
  readonly invariant: string;
  readonly at: string;
  readonly message: string;
  readonly event: string;
}

export interface SeedResult {
  readonly seed: string;
  readonly outcome: SeedOutcome;
  readonly reproduce: string;
  /** The invariant that failed first (outcome 'invariant-failed'). */
  readonly failure: SeedFailure | null;
  /** Which limit stopped the run ('limit-reached'), or the crash's message ('crashed'). */
  readonly stopped: string | null;
  /** Null only when the run crashed. */
  readonly figures: SeedFigures | null;
  /** The reports' digest, as `afp run` prints it; null when the run crashed. */
  readonly digest: string | null;
  /** Hits per coverage probe (src/sim/probes.ts), in the table's order; null when the run crashed. */
  readonly probes: readonly ProbeHits[] | null;
}

export async function runSeed(
  scenario: Scenario,
  file: string,
  seed: string,
  defects: readonly DefectName[],
  agents: Readonly<Record<string, AnyAgentDefinition>>,
  swarm = false,
): Promise<SeedResult> {
  const reproduce = reproduceCommand(file, seed, defects, swarm);
  try {
    const result = await runSimulationWith(scenario, { agents, seed, defects, reproduce, streamEvents: true });
    const { record } = result;
    try {
      const failure =
        result.failure === null
          ? null
          : {
              invariant: result.failure.invariant,
              at: isoTime(result.failure.violation.atMs),
              message: result.failure.violation.message,
              event: result.failure.violation.event,
            };
      return {
        seed,
        outcome: record.outcome,
        reproduce,
        failure,
        stopped: result.limit,
        figures: seedFigures(record),
        digest: digestReports(record, scenario.reports),
        probes: record.probes ?? null,
      };
    } finally {
      record.events.dispose();
    }
  } catch (error) {
    return {
      seed,
      outcome: 'crashed',
      reproduce,
      failure: null,
      stopped: error instanceof Error ? (error.stack ?? error.message) : String(error),
      figures: null,
      digest: null,
      probes: null,
    };
  }
}
