/**
 * `afp run FILE [--seed N] [--out DIR] [--record FILE] [--defect NAME]`: runs a scenario in-process
 * under a virtual clock, writes its reports and prints the summary.
 *
 * Output contract: `seed: <seed>` is the first line (before anything else, even before the
 * scenario's errors when --seed names it), the summary table follows, `digest: <hex>` is the
 * last line. Progress (progress.ts) goes to stderr: redrawn on a terminal, a plain line every 10 s
 * elsewhere, none with --quiet or --json. With --json those lines go to stderr and stdout gets one
 * JSON object (json-output.ts): seed, verdict, exit code, the failure or limit, digest, files.
 * Exit codes: 0 all invariants held · 1 crash (a bug: seed and reproduce command printed) ·
 * 2 invalid flags or scenario (every error, with path and line) · 3 an invariant failed (the
 * invariant, the first violating event, the seed and the exact reproduce command; reports are
 * written anyway) · 4 a scenario limit stopped the run.
 * `--defect` is test-only: it switches on a deliberate platform defect to prove a checker fires.
 * `--record` stores the scenario's platform settings and the agents' non-free tiers in the record's
 * header, so `afp replay` can set the target up the same way (src/replay/record-format.ts).
 * This file parses the flags and reads the scenario with light imports; the run itself
 * (run-scenario.ts: the simulator, the reports) is loaded only once both are valid.
 */
import { inProcessDefects } from './defect-flag.ts';
import { STDERR, STDOUT } from './colour.ts';
import { onProcessInterrupt } from './process-interrupt.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { seedFlagError } from '../core/seed-text.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import type { RunFlags, RunIo } from './run-scenario.ts';
import { CommandFailure, type Ending, invalidInput } from '../core/command-failure.ts';

export type { RunFlags, RunIo };

const DEFINITION = definitionOf('run');
const USAGE = `usage: ${usageLine(DEFINITION)}`;

const PROCESS_IO: RunIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
};

function parseRunArgs(argv: readonly string[]): { flags: RunFlags; errors: string[] } {
  const args = parseCommand(argv, DEFINITION);
  const errors = [...args.errors];
  if (args.positionals.length !== 1) errors.push(`expected one scenario FILE, got ${args.positionals.length}`);
  const seed = stringFlag(args, 'seed');
  const seedError = seed === undefined ? null : seedFlagError(seed);
  if (seedError !== null) errors.push(seedError);
  const defects = inProcessDefects(stringFlag(args, 'defect'), 'a run', errors);
  const quiet = args.flags['quiet'] === true || args.flags['json'] === true;
  const flags = {
    file: args.positionals[0] ?? '',
    seed,
    out: stringFlag(args, 'out'),
    record: stringFlag(args, 'record'),
    defects,
    swarm: args.flags['swarm'] === true,
    quiet,
  };
  return { flags, errors };
}

export async function main(argv: string[], io: RunIo = PROCESS_IO): Promise<Ending> {
  return withJsonOutput('afp run', argv, io, (human, record) => runCommand(argv, human, record));
}

async function runCommand(argv: readonly string[], io: RunIo, record: RecordFields): Promise<Ending> {
  const { flags, errors } = parseRunArgs(argv);
  if (errors.length > 0) record({ errors });
  if (errors.length > 0) {
    return invalidInput(`${errors.map((error) => `afp run: ${error}`).join('\n')}\n${USAGE}`);
  }
  // The run's code is loaded before the seed line, as when it was imported with this file: a
  // signal sent once the seed is printed finds the run about to start, not still loading. Without
  // --seed the file is read first, so a missing one is refused without loading the run.
  let runScenario = flags.seed === undefined ? null : (await import('./run-scenario.ts')).runLoadedScenario;
  if (flags.seed !== undefined) io.out(`seed: ${flags.seed}\n`);
  const loaded = await loadScenarioFile('afp run', flags.file);
  if (loaded instanceof CommandFailure) return loaded;
  runScenario ??= (await import('./run-scenario.ts')).runLoadedScenario;
  const seed = flags.seed ?? loaded.scenario.seed;
  if (flags.seed === undefined) io.out(`seed: ${seed}\n`);
  return runScenario(flags, loaded, seed, io, record);
}
