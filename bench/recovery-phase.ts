/**
 * The recovery part of `npm run bench`: how long `afp serve --data FILE` takes to come back after
 * a crash, on a history of `commands` logged commands (1,000,000 by default, 100,000 with --small).
 *
 * The history: the traffic mix's requests, cycled (each cycle shifted in time past the previous
 * one, so instants never decrease) through the served path — a LoggedDispatcher over a real
 * SQLite command log in a temp file, a Checkpointer writing a checkpoint every
 * CHECKPOINT_EVERY_COMMANDS commands, exactly as afp serve does (its worker thread replays and
 * encodes; each checkpoint is waited for). Untimed but for the checkpoints' cost to the event loop
 * (the checkpointer's blocking time, and the loop delay seen meanwhile), and committed in groups of BATCH_COMMANDS (one fsync per command would take minutes
 * for a million; what is measured is the recovery, not the appends).
 * The last checkpoint is left at least CHECKPOINT_EVERY_COMMANDS before the end: the tail replayed
 * is the longest a crash can leave (a history ending on a checkpoint would measure the best case).
 * Timed (wall, and CPU: on a shared machine the wall time also counts waiting for a core):
 * `openCommandLog` + `recoverPlatform` (the newest checkpoint, then the tail), `rounds` times; once, the full replay of the same log (checkpoints ignored), for comparison. Checked: the
 * recovered platform's state digest equals the live platform's, and the full replay's.
 * Non-goals: the wall-clock of a real process start (module loading is the same with or without).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFECT_NAMES } from '../src/cli/serve.ts';
import { ALL_ROUTES } from '../src/http/routes/index.ts';
import { Platform } from '../src/platform/platform.ts';
import { platformDigest } from '../src/platform/state-digest.ts';
import { Checkpointer, CHECKPOINT_EVERY_COMMANDS } from '../src/server/checkpoints.ts';
import { openCommandLog, type CommandLog } from '../src/server/command-log.ts';
import { LoggedDispatcher, recoverPlatform, type Recovered } from '../src/server/recovery.ts';
import { TimeTravel } from '../src/server/time-travel.ts';
import { DEFAULT_CONFIG } from '../src/services/shared/config.ts';
import type { TrafficMix } from './traffic-mix.ts';

export const TARGET_RECOVERY_MS_PER_MILLION = 2_000;
const BATCH_COMMANDS = 1_000;
const DEFAULT_IP = '127.0.0.1';

export interface RecoveryResult {
  readonly commands: number;
  readonly checkpointEvery: number;
  /** Building the history (requests, appends, checkpoints). */
  readonly writeMs: number;
  readonly checkpoints: number;
  /** The longest time one checkpoint blocked the event loop (reading its rows, writing its bytes; the worker replays and encodes): the server's longest stall. */
  readonly checkpointBlockingMsMax: number;
  /** The most CPU time of the loop's thread one such block took (the block's own cost on a busy machine). */
  readonly checkpointBlockingCpuMsMax: number;
  /** The longest event-loop delay seen while a checkpoint was in flight (perf_hooks histogram): what a request could have waited. */
  readonly checkpointLoopDelayMsMax: number;
  /** The longest checkpoint from start to written (off the loop but for the blocking part). */
  readonly checkpointMsMax: number;
  readonly fileBytes: number;
  readonly checkpointBytes: number;
  /** Recovery from the newest checkpoint: each round's wall time. */
  readonly recoveryMs: readonly number[];
  /** Each round's CPU time (process-wide, GC threads included). */
  readonly recoveryCpuMs: readonly number[];
  readonly tailCommands: number;
  readonly fullReplayMs: number;
  readonly digestsEqual: boolean;
}

async function opened(file: string): Promise<CommandLog> {
  const log = await openCommandLog(file, { knownDefects: DEFECT_NAMES });
  if ('error' in log) throw new Error(log.error);
  return log;
}

function recovered(log: CommandLog, checkpoints: boolean): Recovered {
  const result = recoverPlatform(log, ALL_ROUTES, { checkpoints });
  if ('error' in result) throw new Error(result.error);
  return result;
}

/** Logs `commands` requests of the mix, cycled, with checkpoints; returns the live digest and costs. */
async function writeHistory(
  log: CommandLog,
  mix: TrafficMix,
  commands: number,
  everyCommands: number,
): Promise<{
  digest: string;
  checkpoints: number;
  checkpointBlockingMsMax: number;
  checkpointBlockingCpuMsMax: number;
  checkpointLoopDelayMsMax: number;
  checkpointMsMax: number;
}> {
  const settings = {
    seed: mix.seed,
    startMs: mix.startMs,
    config: mix.config ?? DEFAULT_CONFIG,
    faults: mix.faults,
    closures: [],
    defects: [],
  };
  log.adopt({ ...settings, clockMode: 'manual', wallOffsetMs: 0 });
  // As afp serve builds it (listeners.ts) and recovery rebuilds it (recovery.ts): funding in spans.
  const platform = new Platform({ ...settings, fundingSpans: true });
  const dispatcher = new LoggedDispatcher(platform, ALL_ROUTES, log);
  const checkpointer = new Checkpointer({
    log,
    platform,
    timeTravel: new TimeTravel(platform, settings),
    clockMovedMs: 0,
    everyCommands,
    workerDutyMax: 1, // each checkpoint is waited for below: placed every `everyCommands`, never paced
  });
  const exchanges = mix.exchanges;
  const cycleMs = Math.max(1, (exchanges.at(-1)?.atMs ?? mix.startMs) - mix.startMs + 1);
  let checkpoints = 0;
  let checkpointLoopDelayMsMax = 0;
  for (let sent = 0; sent < commands;) {
    const batchEnd = Math.min(commands, sent + BATCH_COMMANDS);
    for (; sent < batchEnd; sent++) {
      const exchange = exchanges[sent % exchanges.length];
      if (exchange === undefined) throw new Error('the mix has no requests');
      const atMs = exchange.atMs + Math.floor(sent / exchanges.length) * cycleMs;
      const ip = exchange.request.headers?.['x-forwarded-for'] ?? DEFAULT_IP;
      dispatcher.dispatch(exchange.request, atMs, ip);
    }
    const committed = log.commit(); // one group commit per batch, as afp serve's group commit does
    if (!committed.ok) throw new Error(committed.error);
    // No checkpoint in the last `everyCommands`: the tail recovered is the longest a crash can leave.
    if (sent > commands - everyCommands) continue;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    if (checkpointer.afterRequest()) {
      checkpoints++;
      // Waited for, so the checkpoints fall where a synchronous one would (and the tail is the longest a crash can leave).
      await checkpointer.idle();
      checkpointLoopDelayMsMax = Math.max(checkpointLoopDelayMsMax, delay.max / 1e6);
    }
    delay.disable();
  }
  await checkpointer.stop();
  const costs = checkpointer.costs;
  const checkpointBlockingMsMax = Math.max(0, ...costs.map((cost) => cost.blockingMs));
  const checkpointBlockingCpuMsMax = Math.max(0, ...costs.map((cost) => cost.blockingCpuMs));
  const checkpointMsMax = Math.max(0, ...costs.map((cost) => cost.totalMs));
  return {
    digest: platformDigest(platform),
    checkpoints,
    checkpointBlockingMsMax,
    checkpointBlockingCpuMsMax,
    checkpointLoopDelayMsMax,
    checkpointMsMax,
  };
}

function cpuMsSince(started: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** `checkpointEvery`: default CHECKPOINT_EVERY_COMMANDS, afp serve's own (tests use small ones). */
export async function recoveryPart(options: {
  mix: TrafficMix;
  commands: number;
  rounds: number;
  log: (line: string) => void;
  checkpointEvery?: number;
}): Promise<RecoveryResult> {
  const checkpointEvery = options.checkpointEvery ?? CHECKPOINT_EVERY_COMMANDS;
  const dir = mkdtempSync(join(tmpdir(), 'afp-bench-recovery-'));
  const file = join(dir, 'history.afp');
  try {
    options.log(
      `recovery: logging ${options.commands} commands (mix ${options.mix.name}, cycled), a checkpoint every ${checkpointEvery}`,
    );
    const writer = await opened(file);
    const writeStartedMs = performance.now();
    const live = await writeHistory(writer, options.mix, options.commands, checkpointEvery);
    const writeMs = performance.now() - writeStartedMs;
    // A large checkpoint's row holds no bytes: they are in its parts (checkpoint-store.ts writeInParts).
    const checkpointBytes =
      (
        writer.database
          .prepare(
            'SELECT max(length(state) + coalesce((SELECT sum(length(bytes)) FROM checkpoint_parts p WHERE p.seq = c.seq), 0)) AS bytes FROM checkpoints c',
          )
          .get() as { bytes: number | null }
      ).bytes ?? 0;
    writer.close();
    const recoveryMs: number[] = [];
    const recoveryCpuMs: number[] = [];
    let tailCommands = 0;
    let digestsEqual = true;
    for (let round = 1; round <= options.rounds; round++) {
      const startedMs = performance.now();
      const startedCpu = process.cpuUsage();
      const log = await opened(file);
      const fromCheckpoint = recovered(log, true);
      recoveryMs.push(performance.now() - startedMs);
      recoveryCpuMs.push(cpuMsSince(startedCpu));
      tailCommands = fromCheckpoint.stats.commands;
      if (round === 1) digestsEqual &&= platformDigest(fromCheckpoint.platform) === live.digest;
      log.close();
      options.log(
        `recovery round ${round}/${options.rounds}: ${recoveryMs.at(-1)?.toFixed(0)} ms, cpu ${recoveryCpuMs.at(-1)?.toFixed(0)} ms (${tailCommands} commands after the checkpoint)`,
      );
    }
    const fullStartedMs = performance.now();
    const log = await opened(file);
    const full = recovered(log, false);
    const fullReplayMs = performance.now() - fullStartedMs;
    digestsEqual &&= platformDigest(full.platform) === live.digest;
    log.close();
    options.log(`recovery: full replay ${fullReplayMs.toFixed(0)} ms`);
    return {
      commands: options.commands,
      checkpointEvery,
      writeMs,
      checkpoints: live.checkpoints,
      checkpointBlockingMsMax: live.checkpointBlockingMsMax,
      checkpointBlockingCpuMsMax: live.checkpointBlockingCpuMsMax,
      checkpointLoopDelayMsMax: live.checkpointLoopDelayMsMax,
      checkpointMsMax: live.checkpointMsMax,
      fileBytes: statSync(file).size,
      checkpointBytes: Number(checkpointBytes),
      recoveryMs,
      recoveryCpuMs,
      tailCommands,
      fullReplayMs,
      digestsEqual,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
