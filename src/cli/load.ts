/**
 * `afp load SCENARIO --target URL|FILE [--out DIR] [--seed N] [--duration D] [--quiet]`: the
 * scenario's agents drive a live target on the scenario's `load:` profile (k6 executors; the open
 * model by default), every request's latency measured from its intended start (src/load/).
 * `afp load URL …` (a positional http(s) URL, or --url) loads any HTTP endpoint with the same
 * engine and no scenario (load-url.ts); `--engine autocannon` is load-autocannon.ts; a scenario
 * run is load-scenario.ts (each loaded only for its own kind of run, and a scenario run's only
 * once its flags and file are valid). The live view,
 * Ctrl-C, abortOnFail, the reports and the exit code of a finished run are load-view.ts's, shared.
 * `--out` is repeatable: one DIR for the files, and `prometheus=URL` / `json=FILE` metrics outputs
 * (src/load/metrics/) fed live and given the final figures.
 *
 * Output contract: `seed: <seed>` is the first line; then the scenario, the target, the plan and
 * any notes; the summary (requests, latency percentiles, iterations started/completed/dropped,
 * checks, endpoints), the Little's-law check of the figures and `files:` at the end. While the
 * run goes, a live view on stderr: on a
 * terminal one status line rewritten in place (elapsed, ETA, current rate, p99, error rate), else a
 * plain line every LOAD_PLAIN_EVERY_MS; none with --quiet. Ctrl-C stops gracefully (graceful_stop) and
 * the reports are still written; a second Ctrl-C cuts what is in flight at once.
 * Thresholds (the scenario's `load.thresholds`, k6 syntax: src/load/thresholds.ts) are judged at
 * the end; those with abortOnFail also every ABORT_CHECK_MS while the run goes, and stop it (as
 * Ctrl-C does) once past their delayAbortEval.
 * Files in --out (default reports/<scenario>-load): `load.json` (the run's LoadSnapshot with its
 * header, src/load/load-run-file.ts) and the load reports (summary.json, latency.csv,
 * timeseries.csv, load.junit.xml, load.html: src/load/report/).
 * Exit codes, first that applies: 2 invalid flags, scenario, load profile, thresholds or target
 * (file, or a dialect the agents do not speak) · 4 the target does not answer (at resolution, or no
 * request of the run got an answer) · 5 a threshold failed, or, with no threshold, more than half
 * of the answers were 429 or 5xx (the summary says so first: src/load/refused-answers.ts) · 0 otherwise. With --json stdout is one
 * JSON object (json-output.ts: seed, verdict, requests, latency, iterations, thresholds, files) and
 * the human lines go to stderr; the live view is off. An agent's report of a
 * broken rule is a failed check (`agent rules: <archetype>`), for thresholds to judge, not an exit code.
 * `afp load merge FILE… --out DIR` (the --shard machines' load.json files) is src/cli/load-merge.ts.
 */
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { isUrlRun } from './url-flags.ts';
import { LOAD_PROCESS_IO, type LoadIo } from './load-io.ts';
import { parseLoadArgs } from './load-scenario-flags.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { CommandFailure, type Ending, invalidInput } from '../core/command-failure.ts';

const USAGE = `usage: ${usageLine(definitionOf('load'))}`;
export { ABORT_CHECK_MS, LOAD_PLAIN_EVERY_MS, type LoadIo } from './load-io.ts';

/** `--engine afp` (the default) or `--engine autocannon` (load-autocannon.ts); the rest of argv. */
function engineOf(argv: readonly string[]): { engine: string; rest: string[] } {
  const at = argv.indexOf('--engine');
  if (at === -1) return { engine: 'afp', rest: [...argv] };
  return { engine: argv[at + 1] ?? '', rest: [...argv.slice(0, at), ...argv.slice(at + 2)] };
}

export async function main(argv: string[], io: LoadIo = LOAD_PROCESS_IO): Promise<Ending> {
  if (argv[0] === 'merge') return (await import('./load-merge.ts')).main(argv.slice(1), io);
  return withJsonOutput('afp load', argv, io, (human, record) => loadCommand(argv, human, record));
}

async function loadCommand(argv: readonly string[], io: LoadIo, record: RecordFields): Promise<Ending> {
  const engine = engineOf(argv);
  // Imported only here: autocannon (and the semver it brings, ~70 modules) is not needed by the afp engine.
  if (engine.engine === 'autocannon') return (await import('./load-autocannon.ts')).autocannonMain(argv, io, record);
  if (engine.engine !== 'afp') {
    return invalidInput(`afp load: --engine must be afp or autocannon, got '${engine.engine}'\n${USAGE}`);
  }
  // Each way of loading brings its own code: a URL run does not load the scenario's agents, platform model or target files.
  if (isUrlRun(engine.rest)) return (await import('./load-url.ts')).urlMain(engine.rest, io, record);
  return scenarioCommand(engine.rest, io, record);
}

/**
 * A scenario run: its flags and its file are checked with light imports, and the run
 * (load-scenario.ts: the agents, the platform model, the target files) is loaded once both are
 * valid. With --seed it is loaded before the seed line, as when it was imported with this file: a
 * signal sent once the seed is printed finds the run about to start, not still loading.
 */
async function scenarioCommand(argv: readonly string[], io: LoadIo, record: RecordFields): Promise<Ending> {
  const { flags, errors } = parseLoadArgs(argv);
  if (errors.length > 0) {
    record({ errors });
    return invalidInput(`${errors.map((error) => `afp load: ${error}`).join('\n')}\n${USAGE}`);
  }
  let scenarioLoad = flags.seed === undefined ? null : (await import('./load-scenario.ts')).scenarioLoad;
  if (flags.seed !== undefined) io.out(`seed: ${flags.seed}\n`);
  const loaded = await loadScenarioFile('afp load', flags.file);
  if (loaded instanceof CommandFailure) return loaded;
  scenarioLoad ??= (await import('./load-scenario.ts')).scenarioLoad;
  const seed = flags.seed ?? loaded.scenario.seed;
  if (flags.seed === undefined) io.out(`seed: ${seed}\n`);
  return scenarioLoad(flags, loaded, seed, io, record);
}
