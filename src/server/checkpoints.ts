/**
 * Bounded recovery for `afp serve --data FILE`: every CHECKPOINT_EVERY_COMMANDS commands the
 * served platform's whole state is written into FILE (checkpoint-store.ts, checkpoint-codec.ts),
 * and recovery loads the newest checkpoint and replays only the commands after it (recovery.ts).
 *
 * Why a checkpoint is exact: the platform's state after command k is a function of the settings
 * and commands 1..k; the checkpoint is taken right after a batch commits at the end of a turn
 * (group-commit.ts `onCommitted`), when every command applied is on disk and none is pending, and
 * holds the state of the time-travel snapshots too (their images, written once each), so a revert
 * after the restart works as before it. The proof is the digest: a recovery from checkpoint +
 * tail, a full replay and the live server agree (test/server/checkpoints.test.ts, `npm run bench`).
 * A checkpoint written by a build with other state classes or another layout, or whose seal does
 * not tie it to this log at its entry (checkpoint-store.ts; past the log's end, copied from another
 * file or row, an image of another snapshot), is skipped for the one before it; one that cannot be read means the whole log is replayed: checkpoints only ever
 * make recovery faster, never different.
 * This file writes them (`Checkpointer`); the protocol with the worker is checkpoint-job.ts and
 * loading one at a restart checkpoint-load.ts.
 * Off the event loop: the checkpoint worker (checkpoint-worker.ts) keeps a replica, fed the
 * committed rows since its last checkpoint, replays them with recovery's own code and encodes the
 * state after exactly the last of them; the loop only reads those rows and writes the bytes it
 * gets back (`Checkpointer`). The replica is exact for the same reason recovery is. The worker
 * cannot open FILE itself (the log holds it with locking_mode=EXCLUSIVE), hence the rows.
 * Cost (`npm run bench -- --only recovery`, 1,000,000-command quickstart history, a 61 MB
 * checkpoint): the loop blocks for reading the rows (ROWS_PER_TURN per turn) and for writing the
 * blob, instead of the whole encoding (2.3–4.6 s before); the worker spends one replay of those
 * rows plus one encoding. The blob is written in 1 MB parts, one per turn (checkpoint-store.ts
 * writeInParts), where one transaction of the whole 61 MB blocked the loop ≈0.8–1.1 s; the worker
 * also computes the checkpoint's SHA-256 (checkpoint-codec.ts), so the loop never hashes it.
 * Limit: one checkpoint in flight at a time, and the next paced by what the last one's encoding
 * took against the loop's CPU (WORKER_DUTY_MAX), so under a heavy write load the interval
 * stretches (a longer tail after a crash), never a queue of jobs nor a worker that takes the
 * writes' CPU.
 */
import { Worker } from 'node:worker_threads';
import { moduleUrl } from '../core/module-url.ts';
import type { Platform } from '../platform/platform.ts';
import { stateClassRegistry } from '../platform/state-classes.ts';
import type { AdminCommand } from './admin-command.ts';
import { startBlock, threadCpuMs, type BlockTime } from './loop-block.ts';
import { checkpointCodec } from './checkpoint-codec.ts';
import { CheckpointStore, type TravelRecord } from './checkpoint-store.ts';
import type { CommandLog, LogSettings } from './command-log.ts';
import {
  checkpointOf,
  transferable,
  type BaseCheckpoint,
  type CheckpointCost,
  type CheckpointMessage,
  type CheckpointReply,
  type CheckpointWorkerData,
} from './checkpoint-job.ts';
import type { TimeTravel } from './time-travel.ts';

/** Commands between two checkpoints: the most a recovery replays (on the 1M-command bench, about 0.8 s of CPU on a loaded VM). */
export const CHECKPOINT_EVERY_COMMANDS = 20_000;
/**
 * What the checkpoint worker's encodings may cost, against the event loop's own CPU time: after a
 * job whose encoding cost the worker E ms of CPU (its replay excluded, its start-up too), the next
 * job starts only once the loop has spent E × (1/WORKER_DUTY_MAX − 1) ms of CPU since it was
 * written; so the encodings take at most WORKER_DUTY_MAX of the loop's and the worker's CPU
 * together. Why the loop's CPU, not the wall clock (revised: it was C × (1/0.25 − 1) ms of wall
 * time after a job of C ms): on a machine whose cores are shared (2 cores: the loop, the worker,
 * the clients), the loop gets less than a core, and a pause in wall time let the worker take a
 * growing share of what the loop would have had — measured with bench/write-breakdown.ts, the
 * worker used about half as much CPU as the loop. Why the encoding only: the replay is paid once
 * per command whenever it runs (delaying it saves nothing; about a tenth of the loop's cost of a
 * registration), the encoding once per checkpoint and in proportion to the whole state. Only jobs
 * of at least PACED_FROM_CPU_MS are paced: a small state (a test, a scenario) checkpoints every
 * `everyCommands` as before. The cost: under a heavy write load on a large state the tail a recovery
 * replays is longer: the commands the loop served with E × (1/WORKER_DUTY_MAX − 1) ms of CPU,
 * whose replay costs a fraction of that (a replay skips the HTTP edge). Where the thread CPU
 * clock is missing (Node before 23.9) the wall clock stands in for it.
 */
export const WORKER_DUTY_MAX = 0.1;
export const PACED_FROM_CPU_MS = 100;
/** How long a graceful close waits for the checkpoint in flight (it is dropped after: the log is complete without it). */
const CLOSE_WAIT_MS = 30_000;

/** Rows of entries between ROWS_PER_TURN-sized slices: one turn's read, so no turn blocks long. */
const ROWS_PER_TURN = 2_000;

/**
 * Takes a checkpoint when CHECKPOINT_EVERY_COMMANDS commands were appended since the last one,
 * off the event loop: a worker thread (checkpoint-worker.ts) holds a replica of the platform,
 * rebuilt from the newest checkpoint, and each job hands it the committed rows since its last
 * one; it replays them (recovery.ts's own replay), encodes the state after exactly command
 * `seq`, and hands the bytes back; the loop only reads the rows and writes the bytes. One job at
 * a time: a checkpoint due while one is in flight waits for the next commit after it.
 * If the worker fails, the checkpoint is taken on the loop as before (`write`), and a new worker
 * starts from it.
 */
export class Checkpointer {
  private readonly log: CommandLog;
  private readonly store: CheckpointStore;
  private readonly platform: Platform;
  private readonly timeTravel: TimeTravel;
  private readonly everyCommands: number;
  private readonly workerDutyMax: number;
  private readonly pacedFromCpuMs: number;
  private lastSeq = 0;
  private clockMovedMs = 0;
  private worker: Worker | null = null;
  /** The seq the worker's replica stands at. */
  private workerSeq = 0;
  /** Set when the worker failed: the next checkpoint is taken on the loop (right after a commit, when the live state is the log's). */
  private onLoopNext = false;
  private inFlight: {
    seq: number;
    startedMs: number;
    blockingMs: number;
    blockingCpuMs: number;
    done: PromiseWithResolvers<void>;
  } | null = null;
  private readonly onError: (message: string) => void;
  /** The cost of each checkpoint taken (the bench and the tests read it; the last 100). */
  readonly costs: CheckpointCost[] = [];
  /** Checkpoints written by this process, and the longest the loop was blocked at once by any of them (ms). */
  private written = 0;
  private blockingMsMax = 0;
  private blockingCpuMsMax = 0;
  /** CPU time totals since start (ms): the worker's replays and encodings, and the loop's blocks for checkpoints. */
  private workerReplayCpuMs = 0;
  private workerEncodeCpuMs = 0;
  private loopCpuMs = 0;
  private loopWallMs = 0;

  /** No checkpoint starts before the loop's CPU clock reads this (loopCpuMs; WORKER_DUTY_MAX). */
  private pausedUntilLoopCpuMs = 0;

  /** Checkpoints known whole: the one recovery loaded and those written since (the worker starts from the newest of them). */
  private readonly sound = new Set<number>();

  constructor(options: {
    log: CommandLog;
    platform: Platform;
    timeTravel: TimeTravel;
    clockMovedMs: number;
    loadedSeq?: number | undefined;
    everyCommands?: number;
    /** WORKER_DUTY_MAX unless given (1: no pacing, a checkpoint every `everyCommands` whatever it costs). */
    workerDutyMax?: number;
    /** PACED_FROM_CPU_MS unless given: the least CPU a job costs the worker to pause the next one. */
    pacedFromCpuMs?: number;
    onError?: (message: string) => void;
    /** Images recovery found unusable (recovery.ts): deleted, so the next checkpoint encodes them again. */
    unusableImages?: readonly string[];
    /** Recovery passed over stored checkpoints: the next commit (or the close) takes one, so the next start need not. */
    replaceSkipped?: boolean;
  }) {
    if (options.loadedSeq !== undefined) this.sound.add(options.loadedSeq);
    this.log = options.log;
    this.store = new CheckpointStore(options.log.database);
    this.platform = options.platform;
    this.timeTravel = options.timeTravel;
    this.everyCommands = options.everyCommands ?? CHECKPOINT_EVERY_COMMANDS;
    this.workerDutyMax = options.workerDutyMax ?? WORKER_DUTY_MAX;
    this.pacedFromCpuMs = options.pacedFromCpuMs ?? PACED_FROM_CPU_MS;
    this.clockMovedMs = options.clockMovedMs;
    this.store.deleteImages(options.unusableImages ?? []);
    // From the checkpoint recovery loaded: newer ones it passed over (damaged, past the log) do not count.
    this.lastSeq = options.loadedSeq ?? (options.replaceSkipped === true ? Number.NEGATIVE_INFINITY : 0);
    this.onError = options.onError ?? (() => undefined);
  }

  /**
   * GET /_afp/state's `checkpoints`: how often one is taken, the newest written (null: none yet),
   * the log's last entry, whether one is being taken now, and what they cost the event loop: the
   * checkpoints this process wrote, the longest single block of the last one and of all (ms, one
   * decimal: wall, and this thread's CPU, loop-block.ts), and the last one's time from start to written.
   * Totals since start (whole ms; the bench's write phase reads their change over a round): the
   * worker's CPU in replays and in encodings (jobs finished), the loop's CPU and wall in checkpoint
   * blocks, and in the log's commits (wall above CPU: the loop waited on the disk).
   */
  view(): {
    every_commands: number;
    newest_seq: number | null;
    log_seq: number;
    in_flight: boolean;
    written: number;
    blocking_ms_last: number | null;
    blocking_ms_max: number | null;
    blocking_cpu_ms_last: number | null;
    blocking_cpu_ms_max: number | null;
    total_ms_last: number | null;
    worker_replay_cpu_ms: number;
    worker_encode_cpu_ms: number;
    loop_cpu_ms: number;
    loop_wall_ms: number;
    commit_cpu_ms: number;
    commit_wall_ms: number;
  } {
    const last = this.costs.at(-1);
    const tenths = (ms: number | undefined): number | null => (ms === undefined ? null : Math.round(ms * 10) / 10);
    return {
      every_commands: this.everyCommands,
      newest_seq: this.store.newestFirst()[0]?.seq ?? null,
      log_seq: this.store.lastCommandSeq(),
      in_flight: this.inFlight !== null,
      written: this.written,
      blocking_ms_last: tenths(last?.blockingMs),
      blocking_ms_max: tenths(this.written === 0 ? undefined : this.blockingMsMax),
      blocking_cpu_ms_last: tenths(last?.blockingCpuMs),
      blocking_cpu_ms_max: tenths(this.written === 0 ? undefined : this.blockingCpuMsMax),
      total_ms_last: tenths(last?.totalMs),
      worker_replay_cpu_ms: Math.round(this.workerReplayCpuMs),
      worker_encode_cpu_ms: Math.round(this.workerEncodeCpuMs),
      loop_cpu_ms: Math.round(this.loopCpuMs),
      loop_wall_ms: Math.round(this.loopWallMs),
      commit_cpu_ms: Math.round(this.log.commitCpuMs),
      commit_wall_ms: Math.round(this.log.commitWallMs),
    };
  }

  /** Counts the clock moves of an admin command (recorded before it is applied; the loop's own checkpoint needs them). */
  noteAdmin(command: AdminCommand): void {
    if (command.kind === 'clock' || command.kind === 'revert' || command.kind === 'reset')
      this.clockMovedMs += command.toMs - command.fromMs;
  }

  /**
   * After a batch committed at the end of a turn (every command applied is on disk): starts a
   * checkpoint of the state after the last one if the line was crossed and none is in flight.
   * Returns whether one was started.
   */
  afterRequest(): boolean {
    if (this.inFlight !== null) return false;
    const seq = this.log.lastSeq;
    if (!this.isDue(seq)) return false;
    if (this.onLoopNext) {
      const ended = startBlock();
      this.onLoopNext = false;
      this.write(seq);
      const block = ended();
      this.noteCost({ seq, blockingMs: block.wallMs, blockingCpuMs: block.cpuMs, totalMs: block.wallMs });
      return true;
    }
    this.start(seq);
    return true;
  }

  /** Whether a checkpoint after command `seq` is due: the line crossed, and no pause (WORKER_DUTY_MAX) running. */
  private isDue(seq: number): boolean {
    return seq > 0 && seq - this.lastSeq >= this.everyCommands && loopCpuMs() >= this.pausedUntilLoopCpuMs;
  }

  /** Resolves when no checkpoint is in flight. */
  idle(): Promise<void> {
    return this.inFlight?.done.promise ?? Promise.resolve();
  }

  /**
   * A graceful close (every batch committed): the checkpoint in flight is written, and one more is
   * taken if one is due, so the next start replays less; each waited for CLOSE_WAIT_MS at most
   * (then dropped: the log is complete without it). Then the worker stops.
   */
  async close(): Promise<void> {
    await this.settled();
    if (this.inFlight === null && this.afterRequest()) await this.settled();
    await this.stop();
  }

  /** Stops the worker; a checkpoint in flight is dropped (the bench keeps its tail so). */
  async stop(): Promise<void> {
    this.inFlight = null;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private async settled(): Promise<void> {
    const inFlight = this.inFlight;
    if (inFlight === null) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      inFlight.done.promise,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  /** Writes the checkpoint of the state after command `seq` on the loop, from the live platform (when the worker failed). */
  write(seq: number): void {
    const atMs = this.store.commandAtMs(seq) ?? this.platform.nowMs;
    const taken = checkpointOf({
      platform: this.platform,
      timeTravel: this.timeTravel,
      clockMovedMs: this.clockMovedMs,
      seq,
      atMs,
      stored: this.store.imageIds(),
    });
    this.store.write(taken.checkpoint, taken.held, imageBytesOf(taken.images));
    this.sound.add(seq);
    this.lastSeq = seq;
  }

  private start(seq: number): void {
    const startedMs = performance.now();
    const ended = startBlock();
    this.lastSeq = seq;
    const worker = this.worker ?? this.startWorker();
    const started = ended();
    this.loopCpuMs += started.cpuMs;
    this.loopWallMs += started.wallMs;
    const inFlight = {
      seq,
      startedMs,
      blockingMs: started.wallMs,
      blockingCpuMs: started.cpuMs,
      done: Promise.withResolvers<void>(),
    };
    this.inFlight = inFlight;
    const note = (block: BlockTime): void => {
      this.loopCpuMs += block.cpuMs;
      this.loopWallMs += block.wallMs;
      inFlight.blockingMs = Math.max(inFlight.blockingMs, block.wallMs);
      inFlight.blockingCpuMs = Math.max(inFlight.blockingCpuMs, block.cpuMs);
    };

    // Rows up to `seq` are committed and never change: reading them over several turns is exact.
    const feed = (afterSeq: number): void => {
      if (this.inFlight !== inFlight) return; // stopped meanwhile
      const sliceEnded = startBlock();
      const uptoSeq = Math.min(seq, afterSeq + ROWS_PER_TURN);
      worker.postMessage({ kind: 'rows', rows: this.log.rows(afterSeq, uptoSeq) } satisfies CheckpointMessage);
      if (uptoSeq === seq)
        worker.postMessage({
          kind: 'encode',
          seq,
          storedImageIds: [...this.store.imageIds()],
        } satisfies CheckpointMessage);
      else setImmediate(() => feed(uptoSeq));
      note(sliceEnded());
    };
    feed(this.workerSeq);
    this.workerSeq = seq;
  }

  private noteCost(cost: CheckpointCost): void {
    this.written++;
    this.blockingMsMax = Math.max(this.blockingMsMax, cost.blockingMs);
    this.blockingCpuMsMax = Math.max(this.blockingCpuMsMax, cost.blockingCpuMs);
    this.costs.push(cost);
    if (this.costs.length > 100) this.costs.shift();
  }

  private startWorker(): Worker {
    const base = this.baseCheckpoint();
    this.workerSeq = base?.seq ?? 0;
    const data: CheckpointWorkerData = { file: this.log.file, settings: this.log.settings as LogSettings, base };
    const worker = new Worker(moduleUrl('./checkpoint-worker', import.meta.url), {
      workerData: data,
      transferList: base === null ? [] : transferable([base.state, ...base.images.map((image) => image.state)]),
    });
    worker.unref();
    worker.on('message', (reply: CheckpointReply) => this.finish(reply));
    worker.on('error', (error) => this.finish({ kind: 'failed', message: error.message }));
    this.worker = worker;
    return worker;
  }

  /** The newest stored checkpoint of this build's codec, with its images; null: the worker replays from the start. */
  private baseCheckpoint(): BaseCheckpoint | null {
    const codec = checkpointCodec(stateClassRegistry());
    // The one recovery loaded, or a newer one this process wrote: a damaged newest (passed over by recovery) is not used.
    const header = this.store
      .newestFirst()
      .find((candidate) => candidate.codec === codec && this.sound.has(candidate.seq));
    const state = header === undefined ? undefined : this.store.state(header.seq);
    const binding = header === undefined ? undefined : this.store.logBinding(header.seq);
    if (header === undefined || state === undefined || binding === undefined) return null;
    const images: Array<BaseCheckpoint['images'][number]> = [];
    for (const entry of (JSON.parse(header.travel) as TravelRecord).held) {
      const image = this.store.image(entry.id);
      if (image?.state === undefined) return null;
      images.push({ id: entry.id, codec: image.codec, state: image.state, seal: image.seal });
    }
    return { ...header, seal: header.seal ?? null, binding, state, images };
  }

  /** The worker's bytes written in parts over several turns (checkpoint-store.ts writeInParts); the checkpoint stays in flight until the row is in. */
  private async writeParts(
    inFlight: NonNullable<Checkpointer['inFlight']>,
    reply: Extract<CheckpointReply, { kind: 'encoded' }>,
  ): Promise<void> {
    try {
      const written = await this.store.writeInParts(reply.checkpoint, reply.held, imageBytesOf(reply.images), {
        onTurn: (block) => {
          this.loopCpuMs += block.cpuMs;
          this.loopWallMs += block.wallMs;
          inFlight.blockingMs = Math.max(inFlight.blockingMs, block.wallMs);
          inFlight.blockingCpuMs = Math.max(inFlight.blockingCpuMs, block.cpuMs);
        },
        dropped: () => this.inFlight !== inFlight,
      });
      if (!written || this.inFlight !== inFlight) return; // stopped meanwhile
      this.sound.add(reply.checkpoint.seq);
      if (reply.cpuMs >= this.pacedFromCpuMs)
        this.pausedUntilLoopCpuMs = loopCpuMs() + (reply.cpuMs - reply.replayCpuMs) * (1 / this.workerDutyMax - 1);
      this.noteCost({
        seq: inFlight.seq,
        blockingMs: inFlight.blockingMs,
        blockingCpuMs: inFlight.blockingCpuMs,
        totalMs: performance.now() - inFlight.startedMs,
      });
    } catch (error) {
      this.onError(error instanceof Error ? error.message : String(error));
    } finally {
      if (this.inFlight === inFlight) this.inFlight = null;
      inFlight.done.resolve();
      // Commands committed while this one was in flight may be past the line already: the next
      // starts now, not at the next write (an idle server would keep the whole tail to replay).
      if (this.inFlight === null && this.worker !== null) setImmediate(() => this.startIfDue());
    }
  }

  /** After a job: the next one on the worker, if due (committed rows only, so any turn will do). */
  private startIfDue(): void {
    if (this.inFlight !== null || this.worker === null || this.onLoopNext) return;
    const seq = this.log.lastSeq;
    if (!this.isDue(seq)) return;
    try {
      this.start(seq);
    } catch (error) {
      this.onError(error instanceof Error ? error.message : String(error));
    }
  }

  private finish(reply: CheckpointReply): void {
    const inFlight = this.inFlight;
    if (inFlight === null) return; // closed meanwhile
    if (reply.kind === 'encoded') {
      this.workerReplayCpuMs += reply.replayCpuMs;
      this.workerEncodeCpuMs += reply.cpuMs - reply.replayCpuMs;
      void this.writeParts(inFlight, reply);
      return;
    }
    this.inFlight = null;
    try {
      // The replica is lost. Not now (a batch may be open: the live state is ahead of the log):
      // the next checkpoint is taken on the loop after a commit, and the worker after it starts from it.
      this.onError(`the checkpoint worker failed (${reply.message}); the next checkpoint is taken on the event loop`);
      void this.worker?.terminate();
      this.worker = null;
      this.onLoopNext = true;
      this.lastSeq = this.store.newestFirst()[0]?.seq ?? 0;
    } finally {
      inFlight.done.resolve();
    }
  }
}

/** The event loop thread's CPU clock (ms), or the wall clock where Node has none. */
function loopCpuMs(): number {
  return threadCpuMs() ?? performance.now();
}

function imageBytesOf(images: ReadonlyArray<{ id: string; state: Uint8Array }>): (id: string) => Uint8Array {
  return (id) => {
    const image = images.find((entry) => entry.id === id);
    if (image === undefined) throw new Error(`no image of ${id} was encoded (a bug)`);
    return image.state;
  };
}
