/**
 * `afp shrink SCENARIO [--seed N] [--defect NAME[,NAME]] [--out DIR] [--max-runs N] [--json] [--quiet]`:
 * when the scenario's run fails an invariant (or its liveness check), writes the smallest scenario
 * found that still fails the same way (`shrunk.yaml`, its seed written in) and that run's reports
 * (the event trace is `events.jsonl`), and prints how much smaller it is. Why: a failing run of a
 * thousand agents over a week is evidence; one of two agents over ten minutes is a diagnosis.
 * Exit codes, as `afp run` of the file: 3 an invariant failure was shrunk (it still fails, in the
 * smaller file), 4 a liveness failure was shrunk, or the run stopped at another limit (not shrunk),
 * 0 the run holds (nothing to shrink), 2 invalid input. Progress on stderr.
 * The shrinker and its writer (the simulator, the reports) are loaded once the flags and the file
 * are valid: a typo is refused without them.
 */
import { STDERR, STDOUT } from './colour.ts';
import { join } from 'node:path';
import { DEFECT_NAMES, type DefectName } from '../services/shared/context.ts';
import { SHRINK_RUNS_DEFAULT, SHRINK_RUNS_MAX } from '../shrink/shrink-budget.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { seedFlagError } from '../core/seed-text.ts';
import { wantsJson, withJsonOutput, type RecordFields } from './json-output.ts';
import { checkFailed, CommandFailure, type Ending, invalidInput, PASSED, unsettled } from '../core/command-failure.ts';

/** From the definition (commands.ts), so it cannot go stale. */
const USAGE = `usage: ${usageLine(definitionOf('shrink'))}`;

export interface ShrinkIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty: boolean;
}

const PROCESS_IO: ShrinkIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
};

export function main(argv: string[], io: ShrinkIo = PROCESS_IO): Promise<Ending> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${USAGE}\n`);
    return Promise.resolve(PASSED);
  }
  return withJsonOutput('afp shrink', argv, io, (human, record) => shrinkCommand(argv, human, record));
}

async function shrinkCommand(argv: readonly string[], io: ShrinkIo, record: RecordFields): Promise<Ending> {
  const args = parseCommand(argv, definitionOf('shrink'));
  const errors = [...args.errors];
  if (args.positionals.length !== 1) errors.push(`expected one scenario FILE, got ${args.positionals.length}`);
  const seedFlag = stringFlag(args, 'seed');
  const seedError = seedFlag === undefined ? null : seedFlagError(seedFlag);
  if (seedError !== null) errors.push(seedError);
  const maxRunsText = stringFlag(args, 'max-runs');
  const maxRuns = maxRunsText === undefined ? SHRINK_RUNS_DEFAULT : Number(maxRunsText);
  if (!Number.isSafeInteger(maxRuns) || maxRuns < 1 || maxRuns > SHRINK_RUNS_MAX)
    errors.push(`--max-runs must be a whole number 1..${SHRINK_RUNS_MAX}, got '${maxRunsText ?? ''}'`);
  const defects: DefectName[] = [];
  for (const name of (stringFlag(args, 'defect') ?? '').split(',').filter((text) => text !== '')) {
    if ((DEFECT_NAMES as readonly string[]).includes(name)) defects.push(name as DefectName);
    else errors.push(`unknown defect '${name}' (known: ${DEFECT_NAMES.join(', ')})`);
  }
  if (errors.length > 0) {
    return invalidInput(`${errors.map((error) => `afp shrink: ${error}`).join('\n')}\n${USAGE}`);
  }
  const file = args.positionals[0] as string;
  // Parsed here, not only in shrinkRun: the seed printed first is the file's as `afp run` reads it.
  const loaded = await loadScenarioFile('afp shrink', file);
  if (loaded instanceof CommandFailure) return loaded;
  const text = loaded.text;
  const seed = seedFlag ?? loaded.scenario.seed;
  // The per-run lines are progress: --quiet and --json turn them off, as on every other command.
  const quiet = wantsJson(argv) || args.flags['quiet'] === true;
  record({ seed });
  io.out(`seed: ${seed}\n`);
  const [{ shrinkRun }, { shapeText, shrunkJson, shrunkLines, writeShrunk }] = await Promise.all([
    import('../shrink/shrink-run.ts'),
    import('../shrink/shrink-output.ts'),
  ]);
  const result = await shrinkRun({
    text,
    fileName: file,
    seed,
    defects,
    maxRuns,
    onRun: (runs, kept) => {
      if (!quiet) io.err(`afp shrink: run ${runs}: kept ${shapeText(kept)}\n`);
    },
  });
  if (result.kind === 'invalid') {
    return invalidInput(`${result.message}`);
  }
  if (result.kind === 'holds') {
    record({ holds: true, original: result.original });
    io.out(
      `the run holds every invariant (${shapeText(result.original).replace(' to the failure', '')}): nothing to shrink\n`,
    );
    return PASSED;
  }
  if (result.kind === 'limit') {
    record({ holds: false, original: result.original, limit: result.message });
    io.out(
      `limit reached: ${result.message}\nafp shrink cuts down a run that fails an invariant or its liveness check, not one stopped by this limit: nothing shrunk\n`,
    );
    return unsettled();
  }
  const outDir = stringFlag(args, 'out') ?? join('reports', `${result.scenario.name}-shrunk`);
  const written = writeShrunk(result, { file, seed, defects }, outDir);
  record({ holds: false, ...shrunkJson(result, written) });
  io.out(`${shrunkLines(result, written, maxRuns, outDir).join('\n')}\n`);
  return result.failed === 'liveness' ? unsettled() : checkFailed();
}
