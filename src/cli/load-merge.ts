/**
 * `afp load merge FILE… --out DIR [--scenario FILE] [--json]`: the load.json files of one run's
 * `--shard i/n` machines (or one whole run's) merged into one load.json and one set of load
 * reports in DIR (src/load/merge-files.ts reads and merges; src/load/report/ writes).
 * Thresholds live in the scenario, not in load.json: with `--scenario` they are judged on the
 * merged snapshot (exit 5 when one fails), without it the reports carry none and the output says so.
 * Exit codes, first that applies: 2 bad flags, a file that does not read as a load.json, files
 * that are not one run's shards each once, a scenario or thresholds that do not parse · 5 a
 * threshold failed · 0 otherwise. Every problem is reported together.
 */
import { writeFileAtomic } from '../core/atomic-file.ts';
import { STDERR, STDOUT } from './colour.ts';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LOAD_RUN_FILE_NAME, loadRunFileText } from '../load/load-run-file.ts';
import { mergeLoadFiles } from '../load/merge-files.ts';
import { writeLoadReports, evaluateThresholds, failedThresholds, parseThresholds, type Threshold } from '../load.ts';
import { parseCommand, stringFlag } from './args.ts';
import { readScenarioFile } from './scenario-file.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { type Ending, invalidInput, PASSED, thresholdFailed } from '../core/command-failure.ts';

const DEFINITION = definitionOf('load', 'merge');
export const MERGE_USAGE = `usage: ${usageLine(DEFINITION)}`;

export interface MergeIo {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_IO: MergeIo = { out: STDOUT, err: STDERR };

/** The scenario's thresholds, or every problem reading them. */
async function scenarioThresholds(
  file: string,
): Promise<{ name: string | null; thresholds: readonly Threshold[] } | { errors: readonly string[] }> {
  const parsed = await readScenarioFile(file);
  if (!parsed.ok) return { errors: [parsed.message] };
  const thresholds = parseThresholds(parsed.scenario.load?.thresholds);
  return thresholds.ok
    ? { name: parsed.scenario.name, thresholds: thresholds.thresholds }
    : { errors: thresholds.errors.map((error) => `${file}: ${error}`) };
}

export async function main(argv: string[], io: MergeIo = PROCESS_IO): Promise<Ending> {
  return withJsonOutput('afp load merge', argv, io, (human, record) => mergeCommand(argv, human, record));
}

async function mergeCommand(argv: readonly string[], io: MergeIo, record: RecordFields): Promise<Ending> {
  const args = parseCommand(argv, DEFINITION);
  const errors = [...args.errors];
  const out = stringFlag(args, 'out');
  if (out === undefined) errors.push('--out DIR is required (where the merged load.json and reports go)');
  if (args.positionals.length === 0) errors.push('expected the load.json FILEs of the shards to merge');
  const scenarioFile = stringFlag(args, 'scenario');
  const thresholds =
    scenarioFile === undefined ? { name: null, thresholds: [] } : await scenarioThresholds(scenarioFile);
  if ('errors' in thresholds) errors.push(...thresholds.errors);
  const merged = args.positionals.length === 0 ? null : await mergeLoadFiles(args.positionals);
  if (merged !== null && !merged.ok) errors.push(...merged.errors);
  // Another scenario's thresholds would be judged on this run's metrics, and pass or fail it wrongly.
  if (
    merged?.ok === true &&
    'name' in thresholds &&
    thresholds.name !== null &&
    thresholds.name !== merged.file.scenario
  )
    errors.push(
      `--scenario ${scenarioFile ?? ''} is the scenario '${thresholds.name}', but the files are a run of '${merged.file.scenario}': give the scenario the shards ran`,
    );
  if (errors.length > 0 || out === undefined || merged === null || !merged.ok || 'errors' in thresholds) {
    record({ errors });
    return invalidInput(`${errors.map((error) => `afp load merge: ${error}`).join('\n')}\n${MERGE_USAGE}`);
  }
  const { file } = merged;
  await mkdir(out, { recursive: true });
  const path = join(out, LOAD_RUN_FILE_NAME);
  writeFileAtomic(path, loadRunFileText(file));
  const judged = evaluateThresholds(thresholds.thresholds, file.snapshot);
  const reports = await writeLoadReports(out, {
    scenario: file.scenario,
    target: file.target,
    seed: file.seed,
    engine: 'afp',
    snapshot: file.snapshot,
    thresholds: judged,
    ...(file.ended.reason === null ? {} : { stopReason: file.ended.reason }),
  });
  const requests = file.snapshot.endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0);
  io.out(
    `merged: ${args.positionals.length} file(s) of ${file.scenario} (seed ${file.seed}) against ${file.target.name}: ${requests} requests, ${file.snapshot.iterations.dropped} dropped iterations\n`,
  );
  if (scenarioFile === undefined)
    io.out('thresholds: none judged (give --scenario FILE to judge its thresholds on the merged run)\n');
  else if (judged.length === 0) io.out(`thresholds: none: ${scenarioFile} names none (its load: section)\n`);
  for (const result of judged) io.out(`  ${result.ok ? 'pass' : 'FAIL'} ${result.metric}: ${result.expression}\n`);
  io.out(`files: ${[path, ...reports].join(', ')}\n`);
  record({
    seed: file.seed,
    scenario: file.scenario,
    target: file.target.name,
    shards: args.positionals.length,
    requests,
    dropped_iterations: file.snapshot.iterations.dropped,
    thresholds: judged.map((result) => ({ metric: result.metric, expression: result.expression, ok: result.ok })),
    files: [path, ...reports],
  });
  const failed = failedThresholds(judged);
  if (failed.length > 0) {
    io.out(`FAILED: ${failed.length} of ${judged.length} thresholds\n`);
    return thresholdFailed();
  }
  return PASSED;
}
