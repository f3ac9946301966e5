/**
 * A checkpoint as the worker and the loop hand it over: the base a worker starts from, a job's rows,
 * the messages and replies between them, what a checkpoint cost the loop, and the encoding of a
 * platform and its time travel after one command (`checkpointOf`, the same on the worker and on the
 * loop's fallback). Why a file of its own: this is the protocol between two threads
 * (checkpoints.ts's Checkpointer and checkpoint-worker.ts), each side reading it, neither owning it.
 */
import type { Platform } from '../platform/platform.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from '../platform/state-classes.ts';
import { checkpointCodec, encodeCheckpoint } from './checkpoint-codec.ts';
import type { LogBinding, StoredCheckpoint, TravelRecord } from './checkpoint-store.ts';
import type { LogSettings, StoredRow } from './command-log.ts';
import type { TimeTravel } from './time-travel.ts';

/** The checkpoint the worker starts from (the newest stored one of this build's codec), and the images it names. */
export interface BaseCheckpoint {
  readonly seq: number;
  readonly atMs: number;
  readonly codec: string;
  readonly travel: string;
  readonly state: Uint8Array;
  readonly seal: string | null;
  /** What the checkpoint is sealed with (the worker cannot read the log's file: the loop hands it over). */
  readonly binding: LogBinding;
  readonly images: ReadonlyArray<{
    readonly id: string;
    readonly codec: string;
    readonly state: Uint8Array;
    readonly seal: string | null;
  }>;
}

export interface CheckpointWorkerData {
  readonly file: string;
  readonly settings: LogSettings;
  readonly base: BaseCheckpoint | null;
}

/** One job: replay `rows` (the entries after the worker's position, up to `seq`), then encode. */
export interface CheckpointJob {
  readonly seq: number;
  readonly rows: readonly StoredRow[];
  /** Images already in FILE: not encoded again. */
  readonly storedImageIds: readonly string[];
}

/** What the loop sends the worker: the rows of a job in slices (one per turn), then the order to encode. */
export type CheckpointMessage =
  | { readonly kind: 'rows'; readonly rows: readonly StoredRow[] }
  | { readonly kind: 'encode'; readonly seq: number; readonly storedImageIds: readonly string[] };

export type CheckpointReply =
  | {
      readonly kind: 'encoded';
      /** The worker thread's CPU time for this job: the replay of its rows and the encoding. */
      readonly cpuMs: number;
      /** The part of `cpuMs` spent replaying the rows (the rest encoded the state). */
      readonly replayCpuMs: number;
      readonly checkpoint: StoredCheckpoint;
      readonly held: readonly string[];
      readonly images: ReadonlyArray<{ readonly id: string; readonly state: Uint8Array }>;
    }
  | { readonly kind: 'failed'; readonly message: string };

/** What one checkpoint cost the event loop: reading its rows and handing them over (in slices), then writing the bytes. */
export interface CheckpointCost {
  readonly seq: number;
  /** The longest the loop was blocked at once (a slice of rows, or the write): a request's longest wait. */
  readonly blockingMs: number;
  /** The most CPU time of this thread one block took (loop-block.ts): the block's own cost, whatever else the machine runs. */
  readonly blockingCpuMs: number;
  /** From the job's start to its row being written (the worker's replay and encoding, off the loop). */
  readonly totalMs: number;
}

/** The checkpoint of a platform and its time travel after command `seq`: the row, and the images `stored` lacks. */
export function checkpointOf(options: {
  platform: Platform;
  timeTravel: TimeTravel;
  clockMovedMs: number;
  seq: number;
  atMs: number;
  stored: ReadonlySet<string>;
}): { checkpoint: StoredCheckpoint; held: string[]; images: Array<{ id: string; state: Uint8Array }> } {
  const registry = stateClassRegistry();
  const held = options.timeTravel.list();
  const travel: TravelRecord = {
    lastNumber: options.timeTravel.lastSnapshotNumber,
    held: held.map((entry) => ({ id: entry.id, atMs: entry.atMs })),
    clockMovedMs: options.clockMovedMs,
  };
  const state = encodeCheckpoint(options.platform, registry, PLATFORM_TRANSIENT);
  const images = held
    .filter((entry) => !options.stored.has(entry.id))
    .map((entry) => ({ id: entry.id, state: encodeCheckpoint(entry.image.copy, registry, PLATFORM_TRANSIENT) }));
  return {
    checkpoint: {
      seq: options.seq,
      atMs: options.atMs,
      codec: checkpointCodec(registry),
      travel: JSON.stringify(travel),
      state,
    },
    held: held.map((entry) => entry.id),
    images,
  };
}

/** The buffers of `views` that can be moved instead of copied (each view spans its whole buffer). */
export function transferable(views: readonly Uint8Array[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const view of views)
    if (view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength)
      buffers.add(view.buffer);
  return [...buffers];
}
