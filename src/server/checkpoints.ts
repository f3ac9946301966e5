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
 * A checkpoint written by a build with other state classes or another layout is skipped for the
 * one before it; one that cannot be read means the whole log is replayed: checkpoints only ever
 * make recovery faster, never different.
 * Cost: one pass over the state, which blocks the server for that time, and the file grows by the
 * state's size (CHECKPOINTS_KEPT kept). Measured by `npm run bench -- --only recovery` on a
 * 1,000,000-command quickstart history, on a 2-core VM shared with four other jobs: a 61 MB
 * checkpoint (110 MB in the earlier JSON layout), 3.6–4.1 s of CPU to write. Taking it off the
 * event loop is the next step; a worker cannot open FILE itself (the log holds it with
 * locking_mode=EXCLUSIVE), so it would keep a replica fed with each committed batch, replay it,
 * and hand back the bytes.
 */
import { PlatformImage } from '../platform/platform-snapshot.ts';
import type { Platform } from '../platform/platform.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from '../platform/state-classes.ts';
import type { AdminCommand } from './admin.ts';
import { checkpointCodec, decodeCheckpoint, encodeCheckpoint } from './checkpoint-codec.ts';
import { CheckpointStore, type TravelRecord } from './checkpoint-store.ts';
import type { CommandLog } from './command-log.ts';
import type { SnapshotEntry, TimeTravel } from './time-travel.ts';

/** Commands between two checkpoints: the most a recovery replays (on the 1M-command bench, about 1.4 s of CPU on a loaded VM). */
export const CHECKPOINT_EVERY_COMMANDS = 20_000;

/** Writes a checkpoint when CHECKPOINT_EVERY_COMMANDS commands were appended since the last one. */
export class Checkpointer {
  private readonly store: CheckpointStore;
  private readonly platform: Platform;
  private readonly timeTravel: TimeTravel;
  private readonly everyCommands: number;
  private lastSeq = 0;
  private clockMovedMs = 0;

  constructor(options: { log: CommandLog; platform: Platform; timeTravel: TimeTravel; clockMovedMs: number; everyCommands?: number }) {
    this.store = new CheckpointStore(options.log.database);
    this.platform = options.platform;
    this.timeTravel = options.timeTravel;
    this.everyCommands = options.everyCommands ?? CHECKPOINT_EVERY_COMMANDS;
    this.clockMovedMs = options.clockMovedMs;
    this.lastSeq = this.store.newestFirst()[0]?.seq ?? 0;
  }

  /** Counts the clock moves of an admin command (recorded before it is applied). */
  noteAdmin(command: AdminCommand): void {
    if (command.kind === 'clock' || command.kind === 'revert' || command.kind === 'reset') this.clockMovedMs += command.toMs - command.fromMs;
  }

  /** After a request was answered: a checkpoint if the line was crossed. Returns whether one was written. */
  afterRequest(): boolean {
    const seq = this.store.lastCommandSeq();
    if (seq - this.lastSeq < this.everyCommands) return false;
    this.write(seq);
    return true;
  }

  /** Writes the checkpoint of the state after command `seq` (the platform's current state). */
  write(seq: number): void {
    const registry = stateClassRegistry();
    const held = this.timeTravel.list();
    const travel: TravelRecord = { lastNumber: this.timeTravel.lastSnapshotNumber, held: held.map((entry) => ({ id: entry.id, atMs: entry.atMs })), clockMovedMs: this.clockMovedMs };
    const state = encodeCheckpoint(this.platform, registry, PLATFORM_TRANSIENT);
    const atMs = this.store.commandAtMs(seq) ?? this.platform.nowMs;
    const imageBytes = (id: string): Uint8Array => encodeCheckpoint((held.find((entry) => entry.id === id) as SnapshotEntry).image.copy, registry, PLATFORM_TRANSIENT);
    this.store.write({ seq, atMs, codec: checkpointCodec(registry), travel: JSON.stringify(travel), state }, held.map((entry) => entry.id), imageBytes);
    this.lastSeq = seq;
  }
}

export interface LoadedCheckpoint {
  readonly seq: number;
  readonly atMs: number;
  readonly clockMovedMs: number;
}

/**
 * Loads the newest usable checkpoint of `log` into `platform` (a fresh one of the log's settings)
 * and `timeTravel`; null when there is none (replay everything). `skipped` lists why newer ones
 * were not used; `dirty`: a decoding failed half-way, so `platform` must be built again.
 */
export function loadCheckpoint(log: CommandLog, platform: Platform, timeTravel: TimeTravel): { loaded: LoadedCheckpoint | null; skipped: string[]; dirty: boolean } {
  const store = new CheckpointStore(log.database);
  const registry = stateClassRegistry();
  const codec = checkpointCodec(registry);
  const skipped: string[] = [];
  for (const checkpoint of store.newestFirst()) {
    if (checkpoint.codec !== codec) {
      skipped.push(`checkpoint after entry ${checkpoint.seq}: written by an afp with other state classes or another layout`);
      continue;
    }
    try {
      const travel = JSON.parse(checkpoint.travel) as TravelRecord;
      const held = travel.held.map((entry): SnapshotEntry => {
        const image = store.image(entry.id);
        if (image?.codec !== codec || image.state === undefined) throw new Error(`the image of ${entry.id} is missing or of another codec`);
        return { id: entry.id, atMs: entry.atMs, image: new PlatformImage(decodeCheckpoint(image.state, registry) as Platform) };
      });
      const state = store.state(checkpoint.seq);
      if (state === undefined) throw new Error('its state is gone');
      decodeCheckpoint(state, registry, platform);
      timeTravel.restoreHeld(travel.lastNumber, held);
      return { loaded: { seq: checkpoint.seq, atMs: checkpoint.atMs, clockMovedMs: travel.clockMovedMs }, skipped, dirty: false };
    } catch (error) {
      // A half-decoded platform is not reused: the caller builds a fresh one for the full replay.
      skipped.push(`checkpoint after entry ${checkpoint.seq}: ${error instanceof Error ? error.message : String(error)}`);
      return { loaded: null, skipped, dirty: true };
    }
  }
  return { loaded: null, skipped, dirty: false };
}
