/**
 * The run of `afp run` once its flags and scenario file are valid (run.ts parses and checks them
 * with light imports, then loads this): the swarm draw, the recorder, the simulation under Ctrl-C,
 * the reports, the summary and the outcome. Why apart from run.ts: this is what imports the
 * simulator, the platform and the report writers, and a typo in a flag should not pay for them.
 * Output and exit codes are run.ts's contract.
 */
import { againTo, hostTurn, onFirstInterrupt, type InterruptSignal } from './process-interrupt.ts';
import type { LoadedScenario } from './scenario-file.ts';
import { basename, dirname, resolve } from 'node:path';
import { reproduceCommand } from '../sweep/reproduce-command.ts';
import { runSimulationWith, type SimulationResult } from '../sim.ts';
import { defaultRunOutDir } from '../report/out-dir.ts';
import { summaryTable } from '../report/summary-table.ts';
import { REPORT_FILES, SUMMARY_FILE, writeReports } from '../report/write-reports.ts';
import {
  scenarioClosures,
  scenarioFaultWindows,
  scenarioPlatformConfig,
  scenarioTrading,
} from '../scenario/scenario-platform.ts';
import type { RecordFields } from './json-output.ts';
import type { Clock } from '../core/clock.ts';
import type { DefectName } from '../services/shared/context.ts';
import { Progress, WALL_PROGRESS_CLOCK } from './progress.ts';
import type { Recorder } from '../replay/recorder.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { checkFailed, crashed, type Ending, invalidInput, PASSED, unsettled } from '../core/command-failure.ts';

/** Progress steps of a run: percent of its virtual time. */
const PERCENT = 100;

export interface RunIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty: boolean;
  /** The progress line's clock (the wall clock by default). */
  readonly clock?: Clock;
  /** Calls `handler` on Ctrl-C (SIGINT) or SIGTERM; returns the function that stops listening. */
  onInterrupt?(handler: (signal: InterruptSignal) => void): () => void;
}

export interface RunFlags {
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

/** Runs a valid scenario with the flags given; returns its ending (run.ts's contract). */
export async function runLoadedScenario(
  flags: RunFlags,
  loaded: LoadedScenario,
  seed: string,
  io: RunIo,
  record: RecordFields,
): Promise<Ending> {
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
    return invalidInput(`afp run: ${clash}`);
  }
  const recorder = flags.record === undefined ? undefined : await startRecorder(scenario, seed);
  const run = await simulate({ flags, loaded, scenario, seed, reproduce, recorder }, io);
  if ('exitCode' in run) return run;
  const { result, interrupted } = run;
  if (flags.record !== undefined) await recorder?.finish(flags.record, { interrupted });
  // The drawn scenario beside the reports, runnable without --swarm (not a report: the digest is the reports').
  const beside = swarm === null ? [] : [{ file: 'swarm.yaml', text: swarm.text }];
  return reportRun({ flags, result, interrupted, out, seed, reproduce, beside, reports: scenario.reports }, io, record);
}

/** The recorder of `--record`: the run's scenario, seed, start and the platform it configures. */
async function startRecorder(scenario: Scenario, seed: string): Promise<Recorder> {
  const config = scenarioPlatformConfig(scenario);
  const platform = {
    disputeOutcome: config.escrow.disputeOutcome,
    faults: scenarioFaultWindows(scenario),
    closures: scenarioClosures(scenario),
    trading: scenarioTrading(scenario),
    domains: { yearMs: config.domains.yearMs, graceMs: config.domains.graceMs },
  };
  return (await import('../replay/recorder.ts')).createRecorder({
    scenario: scenario.name,
    seed,
    startMs: scenario.startMs,
    platform,
  });
}

/**
 * The simulation with its progress line, under Ctrl-C: an interrupt stops the run between two
 * wake-ups and its reports are still written; a crash is said (runCrashed) and ends the run.
 */
async function simulate(
  run: {
    flags: RunFlags;
    loaded: LoadedScenario;
    scenario: Scenario;
    seed: string;
    reproduce: string;
    recorder: Recorder | undefined;
  },
  io: RunIo,
): Promise<{ result: SimulationResult; interrupted: boolean } | Ending> {
  const { flags, seed, reproduce, recorder } = run;
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
    result = await runSimulationWith(run.scenario, {
      agents: run.loaded.agents,
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
    return runCrashed(error, { seed, reproduce, recordFile: flags.record, recorder });
  }
  stopListening();
  progress.finish();
  return { result, interrupted: interrupt.signal.aborted };
}

/** The run's reports written, its summary and outcome printed, its --json fields recorded; returns its ending. */
function reportRun(
  run: {
    flags: RunFlags;
    result: SimulationResult;
    interrupted: boolean;
    out: string;
    seed: string;
    reproduce: string;
    beside: { file: string; text: string }[];
    reports: Scenario['reports'];
  },
  io: RunIo,
  record: RecordFields,
): Ending {
  const { flags, result, out, seed, reproduce } = run;
  const { digest, files } = writeReports(result.record, out, run.reports, run.beside);
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
    interrupted: run.interrupted,
    digest,
    out,
    files,
    ...(flags.record === undefined ? {} : { record: flags.record }),
  });
  if (run.interrupted) io.out(`interrupted: the reports of the run so far are in ${out}\n`);
  io.out(`reports: ${out} (${files.length} files)\n`);
  io.out(`digest: ${digest}\n`);
  return code;
}

/**
 * A run that threw: the crash said, and its record (when asked) written as the prefix it is,
 * `complete: false` with the exchanges it holds, so FILE never keeps an earlier run's record
 * unsaid; a record that cannot be written leaves FILE as it was (core/atomic-file.ts), and says so.
 */
async function runCrashed(
  error: unknown,
  run: { seed: string; reproduce: string; recordFile: string | undefined; recorder: Recorder | undefined },
): Promise<Ending> {
  const said = `afp run: crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nseed: ${run.seed}\nreproduce: ${run.reproduce}`;
  const { recordFile, recorder } = run;
  if (recordFile === undefined || recorder === undefined) return crashed(said);
  try {
    await recorder.finish(recordFile, { interrupted: true });
    return crashed(`${said}\nafp run: the record of the run up to the crash (complete: false) is in ${recordFile}`);
  } catch (recordError) {
    const reason = recordError instanceof Error ? recordError.message : String(recordError);
    return crashed(`${said}\nafp run: the record could not be written (${reason}): ${recordFile} is as it was`);
  }
}

function printOutcome(
  result: SimulationResult,
  run: { seed: string; reproduce: string; timeline: string | null },
  io: RunIo,
): Ending {
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
    return checkFailed();
  }
  if (result.limit !== null) {
    io.out(['', `limit reached: ${result.limit}`, `seed: ${run.seed}`, `reproduce: ${run.reproduce}`, ''].join('\n'));
    return unsettled();
  }
  return PASSED;
}
