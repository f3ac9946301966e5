/**
 * `afp load SCENARIO --target URL|FILE …` with the afp engine, once load.ts has checked its flags
 * (load-scenario-flags.ts) and read its scenario: its load plan and thresholds, the target, the
 * run (in this thread, or in --workers threads), load.json and the reports. Why a module of its
 * own: it brings the agents' run, the platform model and target files, which `afp load URL`
 * (load-url.ts), `--engine autocannon` and a typo in a flag do not need, so load.ts loads it only
 * for a scenario run that can start. The output contract and exit codes are load.ts's.
 */
import { writeFileAtomic } from '../core/atomic-file.ts';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkAgentCount, loadMounts, runLoad, type LoadRunResult } from '../load/load-run.ts';
import { runLoadInWorkers, workerShard } from '../load/load-workers.ts';
import { LOAD_RUN_FILE_NAME, loadRunFile, loadRunFileText } from '../load/load-run-file.ts';
import {
  describePlan,
  resolveLoadPlan,
  shardPlan,
  type LoadPlan,
  type MetricsOutputs,
  runMetricsOutputs,
  parseThresholds,
  type Threshold,
} from '../load.ts';
import { profileSourceNote, type Shard, shardLabel, shardShare } from '../load/options.ts';
import { resolveTarget } from '../live/options.ts';
import type { Target } from '../live.ts';
import type { MountUrls } from '../client/transport.ts';
import type { Scenario } from '../scenario/scenario.ts';
import type { LoadSection } from '../scenario/load-schema.ts';
import type { LoadedScenario } from './scenario-file.ts';
import type { LoadFlags } from './load-scenario-flags.ts';
import { profileOfScenario } from './scenario-profile-flags.ts';
import type { RecordFields } from './json-output.ts';
import { concludeRun, runWithView, type LoadIo } from './load-view.ts';
import { againTo } from './process-interrupt.ts';
import { CommandFailure, type Ending, invalidInput, unresolvedTarget, unsettled } from '../core/command-failure.ts';

/** `afp load SCENARIO --target …` once its flags and file are valid (load.ts): the scenario's agents on its load profile. */
export async function scenarioLoad(
  flags: LoadFlags,
  loaded: LoadedScenario,
  seed: string,
  io: LoadIo,
  record: RecordFields,
): Promise<Ending> {
  const { scenario, agents } = loaded;
  record({ seed, scenario: scenario.name });
  const profile = profileOfScenario(scenario, agents, flags.profile);
  const checked = checkedPlan(flags, scenario, profile.load);
  if (checked instanceof CommandFailure) return checked;
  const { plan, thresholds, agentCount, agentCheck } = checked;
  const resolved = await resolveTarget(flags.target);
  if (!resolved.ok) {
    return unresolvedTarget(resolved.kind, `afp load: ${resolved.message}`);
  }
  const target = resolved.value;
  const mounts = loadMounts(target);
  if (!mounts.ok) {
    return mounts.byTarget ? unsettled(`afp load: ${mounts.message}`) : invalidInput(`afp load: ${mounts.message}`);
  }
  printPlan(io, {
    header: `scenario: ${scenario.name} (${agentCount} agents)\ntarget: ${target.name}\nplan: ${describePlan(plan)}`,
    notes: [profileSourceNote(profile), ...(resolved.notes ?? []), agentCheck.note],
    shard: flags.shard,
  });
  const outputs = await metricsOutputs(flags, io, scenario.name);
  if (outputs instanceof CommandFailure) return outputs;
  const runTag = Math.floor(io.clock.nowMs()).toString(36);
  const result =
    flags.workers > 1
      ? await runInWorkers({ scenarioFile: flags.file, plan, target, urls: mounts.urls, seed, flags, io })
      : await runWithView({
          plan,
          io,
          quiet: flags.quiet,
          thresholds,
          outputs,
          run: (hooks) =>
            runLoad({ scenario, agents, plan, target, urls: mounts.urls, seed, runTag, clock: io.clock, ...hooks }),
        });
  return finish({
    scenario,
    plan,
    target,
    seed,
    flags,
    io,
    result,
    thresholds,
    outputs,
    record,
  });
}

/** The plan of the run and its checks (thresholds, shard, idle workers, agents against the plan), or the failure that says why. */
function checkedPlan(flags: LoadFlags, scenario: Scenario, load: LoadSection) {
  const planned = resolveLoadPlan({
    load,
    scenarioDurationMs: scenario.durationMs,
    ...(flags.durationMs === undefined ? {} : { durationMs: flags.durationMs }),
  });
  if (!planned.ok) {
    return invalidInput(`${planned.errors.map((error) => `${flags.file}: ${error}`).join('\n')}`);
  }
  const thresholds = parseThresholds(load.thresholds);
  if (!thresholds.ok) {
    return invalidInput(`${thresholds.errors.map((error) => `${flags.file}: ${error}`).join('\n')}`);
  }
  const plan = shardPlan(planned.plan, flags.shard);
  const agentCount = scenario.populations.reduce(
    (total, population) => total + shardShare(population.count, flags.shard),
    0,
  );
  const idle = idleSplit(scenario.populations, flags.shard, flags.workers);
  if (idle !== null) {
    return invalidInput(`afp load: ${idle}`);
  }
  const agentCheck = checkAgentCount(plan, agentCount);
  if (agentCheck.error !== null) {
    return invalidInput(`${flags.file}: ${agentCheck.error}`);
  }
  return { plan, thresholds: thresholds.thresholds, agentCount, agentCheck };
}

/** The plan's lines: the header, each note, and the shard when there is more than one. */
function printPlan(io: LoadIo, plan: { header: string; notes: readonly (string | null)[]; shard: Shard }): void {
  io.out(`${plan.header}\n`);
  for (const note of plan.notes) if (note !== null) io.out(`note: ${note}\n`);
  if (plan.shard.count > 1)
    io.out(
      `shard: ${shardLabel(plan.shard)} — 1 in ${plan.shard.count} of the arrivals and agents; \`afp load merge\` puts the shards' load.json files together\n`,
    );
}

/** The --out prometheus=URL / json=FILE outputs, ready (their files emptied); null for none; invalid input saying why. */
async function metricsOutputs(
  flags: LoadFlags,
  io: LoadIo,
  scenario: string,
): Promise<MetricsOutputs | null | CommandFailure> {
  const outputs = runMetricsOutputs(flags.outputs, io.clock, { scenario, tags: flags.tags });
  if (outputs === null) return null;
  const problem = await outputs.prepare();
  return problem === null ? outputs : invalidInput(`afp load: ${problem}`);
}

/** Writes load.json and the reports, prints the summary and the thresholds; the exit code. */
async function finish(run: {
  scenario: Scenario;
  plan: LoadPlan;
  target: Target;
  seed: string;
  flags: LoadFlags;
  io: LoadIo;
  result: LoadRunResult;
  thresholds: readonly Threshold[];
  outputs: MetricsOutputs | null;
  record: RecordFields;
}): Promise<Ending> {
  const { scenario, target, seed, io, result } = run;
  for (const note of result.notes) io.out(`note: ${note}\n`);
  const out = run.flags.out ?? join('reports', `${scenario.name}-load`);
  await mkdir(out, { recursive: true });
  const file = join(out, LOAD_RUN_FILE_NAME);
  writeFileAtomic(
    file,
    loadRunFileText(loadRunFile({ scenario: scenario.name, seed, target, plan: run.plan }, result)),
  );
  const stopReason = result.outcome.stopReason;
  return concludeRun({
    io,
    result,
    out,
    written: [file],
    thresholds: run.thresholds,
    outputs: run.outputs,
    record: run.record,
    report: {
      scenario: scenario.name,
      target: { name: target.name, source: target.source },
      seed,
      engine: 'afp',
      ...(stopReason === null ? {} : { stopReason }),
    },
  });
}

/**
 * Why a split leaves a part of the run with no agent, or null: each population's agents are dealt
 * out over the shards (and a shard's over its workers) one by one (shard.ts), so the last part,
 * shard i + n·(N−1) of n·N, has an agent only when the largest population has that many. Such a
 * part would drop every arrival it owns, which the unsplit run does not do: refused (exit 2), with
 * the most it can be split into.
 */
function idleSplit(populations: readonly { readonly count: number }[], shard: Shard, workers: number): string | null {
  const largest = Math.max(0, ...populations.map((population) => population.count));
  if (largest >= workerShard(shard, workers, workers).index) return null;
  const agents = `the largest population has ${largest} agent${largest === 1 ? '' : 's'}`;
  if (largest < shard.index)
    return `--shard ${shardLabel(shard)}: ${agents}, and each shard runs 1 in ${shard.count} of every population's agents, so this shard would run none; split the run into at most ${largest} shards`;
  const most = Math.floor((largest - shard.index) / shard.count) + 1;
  const within = shard.count > 1 ? ` (within --shard ${shardLabel(shard)})` : '';
  return `--workers ${workers}${within}: ${agents}, and each worker runs 1 in ${shard.count * workers} of every population's agents, so worker ${most + 1} would run none; use --workers ${most} at most`;
}

/** `--workers N`: the run in N worker threads, merged; Ctrl-C reaches every worker. */
async function runInWorkers(options: {
  scenarioFile: string;
  plan: LoadPlan;
  target: Target;
  urls: MountUrls;
  seed: string;
  flags: LoadFlags;
  io: LoadIo;
}): Promise<LoadRunResult> {
  const { io, flags } = options;
  io.out(
    `workers: ${flags.workers} threads, each 1 in ${flags.workers} of this run's arrivals and agents; the live view and abortOnFail wait for the merged result\n`,
  );
  let stopAll: (() => void) | null = null;
  const stopListening = io.onInterrupt((signal) => {
    io.err(`\nafp load: stopping the workers (${againTo(signal, 'cut what is in flight')})\n`);
    stopAll?.();
  });
  try {
    return await runLoadInWorkers({
      scenarioFile: options.scenarioFile,
      plan: options.plan,
      target: options.target,
      urls: options.urls,
      seed: options.seed,
      workers: flags.workers,
      runTag: Math.floor(io.clock.nowMs()).toString(36),
      onStart: (stop) => (stopAll = stop),
    });
  } finally {
    stopListening();
  }
}
