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
 */
import { inProcessDefects } from './defect-flag.ts';
import { STDERR, STDOUT } from './colour.ts';
import { againTo, hostTurn, onFirstInterrupt, onProcessInterrupt, type InterruptSignal } from './process-interrupt.ts';
import { loadScenarioFile } from './scenario-file.ts';
import { basename, dirname, resolve } from 'node:path';
import { reproduceCommand } from '../sweep/reproduce-command.ts';
import { runSimulation, type SimulationResult } from '../sim/runner.ts';
import type { DefectName } from '../services/shared/context.ts';
import { defaultRunOutDir } from '../report/out-dir.ts';
import { summaryTable } from '../report/summary-table.ts';
import { REPORT_FILES, SUMMARY_FILE, writeReports } from '../report/write-reports.ts';
import {
  scenarioClosures,
  scenarioFaultWindows,
  scenarioPlatformConfig,
  scenarioTrading,
} from '../sim/scenario-platform.ts';
import { parseCommand, stringFlag } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { EXIT } from '../core/exit-codes.ts';
import { seedFlagError } from '../core/seed-text.ts';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { Progress, WALL_PROGRESS_CLOCK } from './progress.ts';
import type { Clock } from '../core/clock.ts';

const DEFINITION = definitionOf('run');
const USAGE = `usage: ${usageLine(DEFINITION)}`;

export interface RunIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty: boolean;
  /** The progress line's clock (the wall clock by default). */
  readonly clock?: Clock;
  /** Calls `handler` on Ctrl-C (SIGINT) or SIGTERM; returns the function that stops listening. */
  onInterrupt?(handler: (signal: InterruptSignal) => void): () => void;
}

const PROCESS_IO: RunIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
};

/** Progress steps of a run: percent of its virtual time. */
const PERCENT = 100;

interface RunFlags {
  readonly file: string;
  readonly seed: string | undefined;
  readonly out: string | undefined;
  readonly record: string | undefined;
  readonly defects: readonly DefectName[];
  /** --swarm: the seed draws the run's mix, tiers, faults and closures (src/sim/swarm.ts). */
  readonly swarm: boolean;
  /** --quiet or --json: no progress lines. */
  readonly quiet: boolean;
}

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

/**
 * Why `--record FILE` would destroy what the run reads or writes, or null: the scenario file itself
 * (it was replaced by the record, exit 0), or a report of this run's --out (the report replaced the
 * record, which was lost).
 */
function recordClash(recordFile: string, scenarioFile: string, out: string): string | null {
  const path = resolve(recordFile);
  if (path === resolve(scenarioFile)) return `--record ${recordFile} is the scenario file: the record would replace it`;
  const reportNames = [...REPORT_FILES.map((report) => report.file), SUMMARY_FILE, 'swarm.yaml'];
  if (dirname(path) === resolve(out) && reportNames.includes(basename(path)))
    return `--record ${recordFile} is a report of this run (in --out ${out}): the report would replace the record; name another file`;
  return null;
}

export async function main(argv: string[], io: RunIo = PROCESS_IO): Promise<number> {
  return withJsonOutput('afp run', argv, io, (human, record) => runCommand(argv, human, record));
}

async function runCommand(argv: readonly string[], io: RunIo, record: RecordFields): Promise<number> {
  const { flags, errors } = parseRunArgs(argv);
  if (errors.length > 0) record({ errors });
  if (flags.seed !== undefined && errors.length === 0) io.out(`seed: ${flags.seed}\n`);
  if (errors.length > 0) {
    io.err(`${errors.map((error) => `afp run: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  const loaded = await loadScenarioFile('afp run', flags.file, io.err);
  if (loaded === null) return EXIT.invalidInput;
  const seed = flags.seed ?? loaded.scenario.seed;
  if (flags.seed === undefined) io.out(`seed: ${seed}\n`);
  // --swarm and --record load their code only when asked (a plain run's start pays for neither).
  const swarm = flags.swarm
    ? (await import('../sim/swarm.ts')).swarmScenario(loaded.text, loaded.scenario, flags.file, seed, loaded.agents)
    : null;
  const scenario = swarm?.scenario ?? loaded.scenario;
  for (const line of swarm?.lines ?? []) io.out(`swarm: ${line}\n`);
  const reproduce = reproduceCommand(flags.file, seed, flags.defects, flags.swarm);
  record({ seed, scenario: scenario.name, reproduce, swarm: swarm?.lines ?? null });
  const out = flags.out ?? defaultRunOutDir(scenario.name, seed);
  const clash = flags.record === undefined ? null : recordClash(flags.record, flags.file, out);
  if (clash !== null) {
    record({ errors: [clash] });
    io.err(`afp run: ${clash}\n`);
    return EXIT.invalidInput;
  }
  const config = scenarioPlatformConfig(scenario);
  const platform = {
    disputeOutcome: config.escrow.disputeOutcome,
    faults: scenarioFaultWindows(scenario),
    closures: scenarioClosures(scenario),
    trading: scenarioTrading(scenario),
    domains: { yearMs: config.domains.yearMs, graceMs: config.domains.graceMs },
  };
  const recorder =
    flags.record === undefined
      ? undefined
      : (await import('../replay/recorder.ts')).createRecorder({
          scenario: scenario.name,
          seed,
          startMs: scenario.startMs,
          platform,
        });
  const progress = new Progress({
    label: 'run',
    unit: 'virtual time',
    percent: true,
    total: PERCENT,
    write: (text) => io.err(text),
    isTty: io.errIsTty,
    quiet: flags.quiet,
    clock: io.clock ?? WALL_PROGRESS_CLOCK,
  });
  let result: SimulationResult;
  // Ctrl-C stops the run between two wake-ups and its reports are still written. The handler then
  // stops listening, so a second Ctrl-C is Node's own: the process ends at once.
  const interrupt = new AbortController();
  const stopListening = onFirstInterrupt(io, (signal) => {
    interrupt.abort();
    io.err(`\nafp run: interrupted: stopping and writing the reports so far (${againTo(signal, 'quit at once')})\n`);
  });
  try {
    result = await runSimulation(scenario, {
      agents: loaded.agents,
      seed,
      defects: flags.defects,
      reproduce,
      streamEvents: true,
      signal: interrupt.signal,
      pause: hostTurn,
      ...(recorder === undefined ? {} : { recorder }),
      onProgress: (fraction) => progress.update(Math.floor(fraction * PERCENT)),
    });
  } catch (error) {
    stopListening();
    progress.finish();
    io.err(`afp run: crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    io.err(`seed: ${seed}\nreproduce: ${reproduce}\n`);
    return EXIT.crash;
  }
  stopListening();
  progress.finish();
  if (recorder !== undefined && flags.record !== undefined) await recorder.finish(flags.record);
  // The drawn scenario beside the reports, runnable without --swarm (not a report: the digest is the reports').
  const beside = swarm === null ? [] : [{ file: 'swarm.yaml', text: swarm.text }];
  const { digest, files } = writeReports(result.record, out, scenario.reports, beside);
  io.out(summaryTable(result.record));
  result.record.events.dispose();
  const code = printOutcome(
    result,
    { seed, reproduce, timeline: files.find((file) => file.endsWith('timeline.html')) ?? null },
    io,
  );
  const failure =
    result.failure === null
      ? null
      : {
          invariant: result.failure.invariant,
          at_ms: result.failure.violation.atMs,
          message: result.failure.violation.message,
          event: result.failure.violation.event,
        };
  record({
    events: result.record.events.count,
    failure,
    limit: result.limit,
    interrupted: interrupt.signal.aborted,
    digest,
    out,
    files,
    ...(flags.record === undefined ? {} : { record: flags.record }),
  });
  if (interrupt.signal.aborted) io.out(`interrupted: the reports of the run so far are in ${out}\n`);
  io.out(`reports: ${out} (${files.length} files)\n`);
  io.out(`digest: ${digest}\n`);
  return code;
}

function printOutcome(
  result: SimulationResult,
  run: { seed: string; reproduce: string; timeline: string | null },
  io: RunIo,
): number {
  if (result.failure !== null) {
    const { invariant, violation } = result.failure;
    io.out(
      [
        '',
        `invariant failed: ${invariant}`,
        `at: ${new Date(violation.atMs).toISOString()} (${violation.atMs})`,
        `message: ${violation.message}`,
        `event: ${violation.event}`,
        `seed: ${run.seed}`,
        `reproduce: ${run.reproduce}`,
        ...(run.timeline === null ? [] : [`time-line: ${run.timeline}`]),
        '',
      ].join('\n'),
    );
    return EXIT.checkFailed;
  }
  if (result.limit !== null) {
    io.out(['', `limit reached: ${result.limit}`, `seed: ${run.seed}`, `reproduce: ${run.reproduce}`, ''].join('\n'));
    return EXIT.liveness;
  }
  return EXIT.ok;
}
