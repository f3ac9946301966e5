/**
 * The work of `afp sweep` and `afp sweep merge` once their flags and scenario are valid (sweep.ts
 * parses and checks them with light imports, then loads this): the seeds run on worker threads,
 * the merge of shards' sweep.json, the summary, the report files and the shrink of the first
 * failure. Why apart from sweep.ts: this imports the worker pool, the shrinker (the simulator) and
 * the report writers, and a typo in a flag should not pay for them. Output and exit codes are
 * sweep.ts's contract.
 */
import { writeTextFiles } from '../core/output-write-error.ts';
import { join } from 'node:path';
import { assert } from '../core/assert.ts';
import { SystemClock } from '../core/clock.ts';
import { shardArrivals, shardLabel, type Shard } from '../load/options.ts';
import type { DefectName } from '../services/shared/context.ts';
import { isLivenessLimit, swarmScenario, PROBES } from '../sim.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { shapeText, shrunkJson, shrunkLines, writeShrunk } from '../shrink/shrink-output.ts';
import { shrinkRun } from '../shrink/shrink-run.ts';
import { parseSeeds } from '../sweep/seeds.ts';
import { mergeSweepFiles } from '../sweep/sweep-merge.ts';
import { runSeedsInWorkers } from '../sweep/sweep-pool.ts';
import type { SeedResult } from '../sweep/seed-run.ts';
import { againTo, onFirstInterrupt, type InterruptSignal } from './process-interrupt.ts';
import {
  distributions,
  failures,
  money6,
  neverHit,
  PERCENTILES,
  renderSweepFiles,
  tally,
  tallyJson,
  type SweepReport,
} from '../sweep/sweep-report.ts';
import { stringFlag, type ParsedArgs } from './args.ts';
import type { LoadedScenario } from './scenario-file.ts';

import { wantsJson, type RecordFields } from './json-output.ts';
import { Progress } from './progress.ts';
import { checkFailed, crashed, type Ending, invalidInput, PASSED, passed, unsettled } from '../core/command-failure.ts';

export interface SweepIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty: boolean;
  /** Calls `handler` on Ctrl-C (SIGINT); returns the function that stops listening. Absent: Node's own Ctrl-C. */
  onInterrupt?(handler: (signal: InterruptSignal) => void): () => void;
}

/** A sweep's valid input, as sweep.ts parsed it. */
export interface SweepInput {
  readonly argv: readonly string[];
  readonly args: ParsedArgs;
  readonly file: string;
  readonly seeds: readonly string[];
  readonly seedsText: string | undefined;
  readonly workers: number;
  readonly shard: Shard;
  readonly defects: readonly DefectName[];
  readonly shrink: boolean;
  readonly swarm: boolean;
  readonly maxRuns: number;
  readonly loaded: LoadedScenario;
}

/** The verdict of a sweep's rows, worst first: a crash is afp's bug, then invariants, then limits. */
export function sweepExit(report: SweepReport): Ending {
  const counts = tally(report);
  if (counts.crashed > 0) return crashed();
  if (counts.invariantFailed > 0) return checkFailed();
  if (counts.limitReached > 0) return unsettled();
  return PASSED;
}

function pad(text: string, width: number): string {
  return text.padStart(width);
}

/** The human summary on stdout: byte-stable (no wall time). */
export function sweepSummary(report: SweepReport, files: readonly string[]): string {
  const counts = tally(report);
  const lines = [
    `completed ${counts.completed} · invariant failed ${counts.invariantFailed} · limit reached ${counts.limitReached} · crashed ${counts.crashed}  (of ${counts.seeds} seeds)`,
  ];
  const rows = distributions(report);
  if (rows.length > 0) {
    const header = ['figure', 'runs', 'min', ...PERCENTILES.map((percent) => `p${percent}`), 'max'];
    const text = (value: bigint, money: boolean): string => (money ? money6(value) : value.toString());
    const table = rows.map((row) => [
      row.figure,
      String(row.runs),
      text(row.min, row.money),
      ...row.percentiles.map((value) => text(value, row.money)),
      text(row.max, row.money),
    ]);
    const widths = header.map((title, column) =>
      Math.max(title.length, ...table.map((cells) => (cells[column] as string).length)),
    );
    lines.push(
      '',
      [header, ...table]
        .map((cells) =>
          cells
            .map((cell, column) =>
              column === 0 ? cell.padEnd(widths[0] as number) : pad(cell, widths[column] as number),
            )
            .join('  '),
        )
        .join('\n'),
    );
  }
  const missed = neverHit(report);
  if (missed.length > 0)
    lines.push(
      '',
      `probes never hit (${missed.length} of ${PROBES.length}; coverage.csv): ${missed.map((row) => row.probe).join(', ')}`,
    );
  else if (report.results.some((result) => result.probes !== null))
    lines.push('', `every probe hit (${PROBES.length}; coverage.csv)`);
  const failed = failures(report);
  if (failed.length > 0) {
    lines.push('', 'failures:');
    for (const row of failed) {
      const why =
        row.failure !== null
          ? `invariant ${row.failure.invariant} at ${row.failure.at}: ${row.failure.message}`
          : row.outcome === 'crashed'
            ? `crash: ${(row.stopped ?? '').split('\n')[0] ?? ''}`
            : `limit reached: ${row.stopped ?? ''}`;
      lines.push(`  seed ${row.seed}: ${why}`, `    reproduce: ${row.reproduce}`);
    }
  }
  lines.push('', `files: ${files.join(', ')}`, '');
  return lines.join('\n');
}

function writeSweep(report: SweepReport, outDir: string): string[] {
  return writeTextFiles(
    outDir,
    renderSweepFiles(report).map(({ name, text }) => ({ file: name, text })),
  );
}

/** The fields of the --json object (json-output.ts adds command, seed, verdict and exit_code). */
function jsonFields(report: SweepReport, files: readonly string[]): Record<string, unknown> {
  const counts = tally(report);
  return {
    scenario: report.scenario,
    shard: report.shard,
    tally: tallyJson(counts),
    failures: failures(report).map((row) => ({
      seed: row.seed,
      outcome: row.outcome,
      invariant: row.failure?.invariant ?? null,
      reproduce: row.reproduce,
    })),
    probes_never_hit: neverHit(report).map((row) => row.probe),
    files,
  };
}

/** `afp sweep merge`, its flags valid: joins the files and reports the whole sweep. */
export async function mergeSweep(args: ParsedArgs, io: SweepIo, record: RecordFields): Promise<Ending> {
  const merged = await mergeSweepFiles(args.positionals);
  if (!merged.ok) {
    return invalidInput(`afp sweep merge: ${merged.message}`);
  }
  if (merged.missing > 0) {
    // The seeds themselves, where the files say what --seeds was (older files: their indexes).
    const given = merged.report.seedsGiven === null ? null : parseSeeds(merged.report.seedsGiven);
    const names = merged.missingIndexes.map((index) =>
      given === null || typeof given === 'string' ? `#${index + 1}` : (given[index] ?? `#${index + 1}`),
    );
    const more = merged.missing > names.length ? `, and ${merged.missing - names.length} more` : '';
    return invalidInput(
      `afp sweep merge: ${merged.missing} of the sweep's ${merged.report.seedsTotal} seeds are in none of the files (a shard's sweep.json left out?): ${names.join(', ')}${more}`,
    );
  }
  const files = writeSweep(
    merged.report,
    stringFlag(args, 'out') ?? join('reports', `${merged.report.scenario}-sweep`),
  );
  const exit = sweepExit(merged.report);
  record(jsonFields(merged.report, files));
  io.out(
    `sweep: ${merged.report.scenario}, ${args.positionals.length} files merged\n${sweepSummary(merged.report, files)}`,
  );
  return exit;
}

/** `afp sweep`, its flags and scenario valid: runs the seeds, reports, and shrinks if asked. */
export async function sweepSeeds(input: SweepInput, io: SweepIo, record: RecordFields): Promise<Ending> {
  const { args, file, seeds, seedsText, workers, shard, defects, swarm, loaded } = input;
  const { scenario } = loaded;
  const json = wantsJson(input.argv);
  const indexed = [
    ...shardArrivals(
      seeds.map((seed, index) => ({ seed, index })),
      shard,
    ),
  ];
  const shardName = shard.count === 1 ? null : shardLabel(shard);
  io.out(
    `sweep: ${scenario.name}, ${indexed.length} seed${indexed.length === 1 ? '' : 's'}${shardName === null ? '' : ` (shard ${shardName} of ${seeds.length})`} from --seeds ${seedsText ?? ''}${defects.length > 0 ? `, defects ${defects.join(',')}` : ''}${swarm ? ', each its own swarm draw' : ''}\n`,
  );
  const quiet = json || args.flags['quiet'] === true;
  const { ran, interrupted, seconds } = await runSweepSeeds(
    input,
    indexed.map((item) => item.seed),
    io,
    quiet,
  );
  const results = indexed.flatMap((item, position) => {
    const result = ran[position];
    return result === undefined ? [] : [{ ...result, index: item.index }];
  });
  io.err(
    `sweep took ${seconds.toFixed(1)} s (${seconds > 0 ? (results.length / seconds).toFixed(1) : '?'} seeds/s) on ${Math.min(workers, Math.max(1, indexed.length))} workers\n`,
  );
  const report: SweepReport = {
    scenario: scenario.name,
    file,
    defects,
    shard: shardName,
    seedsTotal: seeds.length,
    seedsGiven: seedsText ?? null,
    swarm,
    results,
    ...(interrupted
      ? { notRun: indexed.filter((_, position) => ran[position] === undefined).map((item) => item.seed) }
      : {}),
  };
  return concludeSweep(input, { report, seedsRun: indexed.length, interrupted, quiet }, io, record);
}

/**
 * The seeds run in the worker pool with a progress line, under Ctrl-C: no seed starts after it,
 * the seeds in flight finish and the reports cover the seeds that ran; a second Ctrl-C is Node's
 * own (the listener is gone) and quits at once. `ran` is by position in `seeds` (undefined: not run).
 */
async function runSweepSeeds(
  input: SweepInput,
  seeds: readonly string[],
  io: SweepIo,
  quiet: boolean,
): Promise<{ ran: (SeedResult | undefined)[]; interrupted: boolean; seconds: number }> {
  const clock = new SystemClock();
  const startMs = clock.nowMs();
  const progress = new Progress({
    label: 'sweep',
    unit: 'seeds',
    total: seeds.length,
    write: (text) => io.err(text),
    isTty: io.errIsTty,
    quiet,
    clock,
  });
  const interrupt = new AbortController();
  const stopListening = onFirstInterrupt(io, (signal) => {
    interrupt.abort();
    io.err(
      `\nafp sweep: stopping: the seeds in flight finish, no new one starts (${againTo(signal, 'quit at once')})\n`,
    );
  });
  let ran: (SeedResult | undefined)[];
  try {
    ran = await runSeedsInWorkers({
      scenarioText: input.loaded.text,
      file: input.file,
      defects: input.defects,
      swarm: input.swarm,
      seeds,
      workers: input.workers,
      onResult: (_result, done) => progress.update(done),
      stop: interrupt.signal,
    });
  } finally {
    stopListening();
  }
  progress.finish();
  return { ran, interrupted: interrupt.signal.aborted, seconds: (clock.nowMs() - startMs) / 1_000 };
}

/** The sweep's reports written and summed up; with --shrink (and not interrupted), its first failure shrunk. */
async function concludeSweep(
  input: SweepInput,
  sweep: { report: SweepReport; seedsRun: number; interrupted: boolean; quiet: boolean },
  io: SweepIo,
  record: RecordFields,
): Promise<Ending> {
  const { report, interrupted } = sweep;
  const { scenario, text: scenarioText } = input.loaded;
  const outDir = stringFlag(input.args, 'out') ?? join('reports', `${scenario.name}-sweep`);
  const files = writeSweep(report, outDir);
  const verdict = sweepExit(report);
  io.out(sweepSummary(report, files));
  // A sweep cut short is a limit (4, as `afp run` and `afp load` say), unless a seed that ran failed:
  // then the interruption is only a note beside that verdict.
  const cut = `afp sweep: interrupted: ${report.results.length} of ${sweep.seedsRun} seeds ran; the reports cover those${passed(verdict) ? ', so the sweep is not a pass (exit 4)' : ''}`;
  const exit = interrupted && passed(verdict) ? unsettled(cut) : verdict;
  if (interrupted && !passed(verdict)) io.err(`${cut}\n`);
  if (!input.shrink || interrupted) {
    record({ ...jsonFields(report, files), interrupted });
    return exit;
  }
  const shrunk = await shrinkFirstFailure({
    report,
    scenarioText,
    scenario: input.swarm ? scenario : null,
    file: input.file,
    defects: input.defects,
    maxRuns: input.maxRuns,
    outDir,
    io,
    quiet: sweep.quiet,
  });
  record({ ...jsonFields(report, files), shrunk });
  return exit;
}

interface ShrinkFirst {
  readonly report: SweepReport;
  readonly scenarioText: string;
  /** With --swarm: the parsed scenario, so the failing seed's own draw is what gets shrunk. */
  readonly scenario: Scenario | null;
  readonly file: string;
  readonly defects: readonly DefectName[];
  readonly maxRuns: number;
  readonly outDir: string;
  readonly io: SweepIo;
  readonly quiet: boolean;
}

/** A seed as a folder name: seeds are printable text, folder names are not so forgiving. */
const seedFolder = (seed: string): string => `shrunk-seed-${seed.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

/** Shrinks the sweep's first invariant failure (seed order); the --json field, null when none failed. */
async function shrinkFirstFailure(options: ShrinkFirst): Promise<Record<string, unknown> | null> {
  const { io } = options;
  const rows = failures(options.report);
  // An invariant failure is the worse verdict (exit 3), so it is the one explained first.
  const failed =
    rows.find((row) => row.outcome === 'invariant-failed') ??
    rows.find((row) => row.outcome === 'limit-reached' && isLivenessLimit(row.stopped));
  if (failed === undefined) {
    io.out('shrink: no seed failed an invariant or its liveness check; nothing to shrink\n');
    return null;
  }
  const what = failed.outcome === 'invariant-failed' ? 'an invariant' : 'its liveness check';
  io.out(`\nshrinking seed ${failed.seed} (the first that failed ${what})\n`);
  const text =
    options.scenario === null
      ? options.scenarioText
      : swarmScenario(
          options.scenarioText,
          options.scenario,
          options.file,
          failed.seed,
          // A swarm draws from every archetype: the whole table, loaded only here (a plain sweep never needs it).
          (await import('../../agents/index.ts')).AGENTS,
        ).text;
  const result = await shrinkRun({
    text,
    fileName: options.file,
    seed: failed.seed,
    defects: options.defects,
    maxRuns: options.maxRuns,
    onRun: (runs, kept) => {
      if (!options.quiet) io.err(`afp sweep --shrink: run ${runs}: kept ${shapeText(kept)}\n`);
    },
  });
  // The sweep ran this seed and saw it fail: a shrink that disagrees is afp's own bug.
  assert(
    result.kind === 'shrunk',
    `seed ${failed.seed} failed in the sweep but ${result.kind === 'shrunk' ? '' : result.kind === 'holds' ? 'held' : result.message} when shrunk`,
  );
  const outDir = join(options.outDir, seedFolder(failed.seed));
  const written = writeShrunk(result, { file: options.file, seed: failed.seed, defects: options.defects }, outDir);
  io.out(`${shrunkLines(result, written, options.maxRuns, outDir).join('\n')}\n`);
  return { seed: failed.seed, ...shrunkJson(result, written) };
}
