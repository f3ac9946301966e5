/**
 * `afp sweep SCENARIO --seeds 1..N [--workers K] [--shard i/n] [--out DIR] [--defect NAME] [--json]`
 * runs one scenario under many seeds on every core and reports failures with the command that
 * reproduces each, the distribution of the summary figures across seeds, and a JUnit file.
 * With `--shrink`, the first seed (in seed order) that fails an invariant (else the first that fails
 * its liveness check) is shrunk as `afp shrink` does, into `<out>/shrunk-seed-<seed>/`: the sweep finds the rare failure, the shrink explains it.
 * `afp sweep merge FILE... --out DIR` joins the `sweep.json` of shards run on several machines.
 * Why a command of its own: one seed tests one history; a seed ensemble (FoundationDB's way) is
 * how a simulator finds the rare one that breaks an invariant, and CI wants it as one verdict.
 * Exit codes: 0 every seed held, 3 an invariant failed, 4 a run hit a limit (and none failed an
 * invariant), 1 a run crashed (afp's own bug; its seed and reproduce line are printed), 2 bad
 * input (flags, scenario, seeds, merge files that do not make a whole sweep).
 * Output: stdout is byte-stable (no wall time): the summary, the distributions and the failures
 * in seed order; wall time, rate and progress go to stderr.
 * This file parses and checks the input with light imports; the work (sweep-run.ts: workers,
 * shrinker, reports) is loaded once the input is valid.
 */
import { inProcessDefects } from './defect-flag.ts';
import { STDERR, STDOUT } from './colour.ts';
import { availableParallelism } from 'node:os';
import { parseShard, WHOLE } from '../load/options.ts';
import { SHRINK_RUNS_DEFAULT, SHRINK_RUNS_MAX } from '../shrink/shrink-budget.ts';
import { parseSeeds } from '../sweep/seeds.ts';
import { SWEEP_WORKERS_MAX } from '../sweep/sweep-pool.ts';
import { onProcessInterrupt } from './process-interrupt.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import type { SweepIo } from './sweep-run.ts';
import { CommandFailure, type Ending, invalidInput, PASSED } from '../core/command-failure.ts';

export type { SweepIo };

/** Both forms' usage, from their definitions (commands.ts), so it cannot go stale. */
const SWEEP_USAGE = `usage: ${usageLine(definitionOf('sweep'))}`;
const MERGE_USAGE = `usage: ${usageLine(definitionOf('sweep', 'merge'))}`;
const USAGE = `${SWEEP_USAGE}\n${MERGE_USAGE}`;

const PROCESS_IO: SweepIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
};

async function runMerge(argv: readonly string[], io: SweepIo, record: RecordFields): Promise<Ending> {
  const args = parseCommand(argv, definitionOf('sweep', 'merge'));
  const errors = [...args.errors];
  if (args.positionals.length === 0) errors.push('expected one or more sweep.json FILEs');
  if (errors.length > 0) {
    return invalidInput(`${errors.map((error) => `afp sweep merge: ${error}`).join('\n')}\n${MERGE_USAGE}`);
  }
  const { mergeSweep } = await import('./sweep-run.ts');
  return mergeSweep(args, io, record);
}

export function main(argv: string[], io: SweepIo = PROCESS_IO): Promise<Ending> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${USAGE}\n`);
    return Promise.resolve(PASSED);
  }
  if (argv[0] === 'merge')
    return withJsonOutput('afp sweep merge', argv, io, (human, record) => runMerge(argv.slice(1), human, record));
  return withJsonOutput('afp sweep', argv, io, (human, record) => runSweep(argv, human, record));
}

async function runSweep(argv: readonly string[], io: SweepIo, record: RecordFields): Promise<Ending> {
  const args = parseCommand(argv, definitionOf('sweep'));
  const errors = [...args.errors];
  if (args.positionals.length !== 1) errors.push(`expected one scenario FILE, got ${args.positionals.length}`);
  const seedsText = stringFlag(args, 'seeds');
  const seeds =
    seedsText === undefined ? 'required: --seeds 1..N (a range, a list, or both: 1..100,4242)' : parseSeeds(seedsText);
  if (typeof seeds === 'string') errors.push(seeds);
  const workersText = stringFlag(args, 'workers');
  const workers = workersText === undefined ? availableParallelism() : Number(workersText);
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > SWEEP_WORKERS_MAX)
    errors.push(`--workers must be a whole number 1..${SWEEP_WORKERS_MAX}, got '${workersText ?? ''}'`);
  const shardText = stringFlag(args, 'shard');
  const shard = shardText === undefined ? WHOLE : parseShard(shardText);
  if (typeof shard === 'string') errors.push(shard);
  const defects = inProcessDefects(stringFlag(args, 'defect'), 'a sweep', errors);
  const shrink = args.flags['shrink'] === true;
  const swarm = args.flags['swarm'] === true;
  const maxRunsText = stringFlag(args, 'max-runs');
  const maxRuns = maxRunsText === undefined ? SHRINK_RUNS_DEFAULT : Number(maxRunsText);
  if (maxRunsText !== undefined && !shrink) errors.push("--max-runs is the shrink's budget: give it with --shrink");
  if (!Number.isSafeInteger(maxRuns) || maxRuns < 1 || maxRuns > SHRINK_RUNS_MAX)
    errors.push(`--max-runs must be a whole number 1..${SHRINK_RUNS_MAX}, got '${maxRunsText ?? ''}'`);
  if (errors.length > 0 || typeof seeds === 'string' || typeof shard === 'string') {
    return invalidInput(`${errors.map((error) => `afp sweep: ${error}`).join('\n')}\n${SWEEP_USAGE}`);
  }
  const file = args.positionals[0] as string;
  const loaded = await loadScenarioFile('afp sweep', file);
  if (loaded instanceof CommandFailure) return loaded;
  const { sweepSeeds } = await import('./sweep-run.ts');
  return sweepSeeds(
    { argv, args, file, seeds, seedsText, workers, shard, defects, shrink, swarm, maxRuns, loaded },
    io,
    record,
  );
}
