/**
 * The checkpoint worker of `afp serve --data` (src/server/checkpoints.ts): a replica of the served
 * platform, off the event loop. It starts from the newest stored checkpoint (or the log's start),
 * and each job hands it the committed rows after its position up to `seq` (in slices, then 'encode'); it replays them with
 * recovery's own code (recovery.ts `recoverPlatform`, then `replayCommands`), encodes the state
 * after exactly command `seq`, and answers the bytes (moved, not copied).
 * Why the replica equals the served platform: the platform is a deterministic function of its
 * settings and its commands (the same argument as recovery); the tests compare the digests of the
 * recovery from its checkpoints, a full replay and the live server.
 * It only replays: an append would be a bug (it throws, and the job fails).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { decodeCommandRow, type StoredRow, type LoggedCommand } from './command-log.ts';
import {
  checkpointOf,
  transferable,
  type CheckpointJob,
  type CheckpointMessage,
  type CheckpointReply,
  type CheckpointWorkerData,
} from './checkpoint-job.ts';
import type { CheckpointSource } from './checkpoint-store.ts';
import { startBlock } from './loop-block.ts';
import { recoverPlatform, replayCommands, type ReplayPosition, type ReplaySource } from './recovery.ts';

/** The worker's start: the base checkpoint as a checkpoint store, and the first job's rows as the log. */
function sourceOf(data: CheckpointWorkerData, rows: readonly StoredRow[]): ReplaySource {
  const base = data.base;
  const checkpoints: CheckpointSource = {
    newestFirst: () =>
      base === null
        ? []
        : [{ seq: base.seq, atMs: base.atMs, codec: base.codec, travel: base.travel, seal: base.seal }],
    state: (seq) => (base !== null && seq === base.seq ? base.state : undefined),
    image: (id) => base?.images.find((image) => image.id === id),
    logBinding: (seq) => (base !== null && seq === base.seq ? base.binding : undefined),
    lastCommandSeq: () => rows.at(-1)?.seq ?? base?.seq ?? 0,
  };
  return {
    file: data.file,
    settings: data.settings,
    *commands(afterSeq = 0): Generator<LoggedCommand> {
      for (const row of rows) if (row.seq > afterSeq) yield decodeCommandRow(row as unknown as Record<string, unknown>);
    },
    appendRequest: () => {
      throw new Error('the checkpoint worker replays only (an append is a bug)');
    },
    checkpointSource: () => checkpoints,
  };
}

function decoded(rows: readonly StoredRow[]): Generator<LoggedCommand> {
  return (function* () {
    for (const row of rows) yield decodeCommandRow(row as unknown as Record<string, unknown>);
  })();
}

/** Replays the job's rows onto the replica (built on the first job) and encodes the checkpoint. */
function run(
  data: CheckpointWorkerData,
  job: CheckpointJob,
  replica: ReplayPosition | null,
): { reply: CheckpointReply; replica: ReplayPosition | null } {
  const replayEnded = startBlock();
  let position = replica;
  if (position === null) {
    const recovered = recoverPlatform(sourceOf(data, job.rows), ALL_ROUTES);
    if ('error' in recovered) return { reply: { kind: 'failed', message: recovered.error }, replica: null };
    if (data.base !== null && recovered.stats.checkpointSeq !== data.base.seq)
      return {
        reply: {
          kind: 'failed',
          message: `the base checkpoint after entry ${data.base.seq} could not be loaded: ${(recovered.stats.skippedCheckpoints ?? []).join('; ')}`,
        },
        replica: null,
      };
    const stats = recovered.stats;
    position = {
      ...recovered,
      lastAtMs: stats.lastAtMs ?? data.settings.startMs,
      clockMovedMs: stats.clockMovedMs,
      seq: Number(job.rows.at(-1)?.seq ?? data.base?.seq ?? 0),
      commands: stats.commands,
      internalErrors: stats.internalErrors,
    };
  } else {
    const replayed = replayCommands(position, decoded(job.rows), { file: data.file, seed: data.settings.seed });
    if (replayed !== null) return { reply: { kind: 'failed', message: replayed.error }, replica: null };
  }
  const replayCpuMs = replayEnded().cpuMs;
  const atMs = job.rows.at(-1)?.at_ms ?? data.base?.atMs ?? data.settings.startMs;
  const taken = checkpointOf({
    platform: position.platform,
    timeTravel: position.timeTravel,
    clockMovedMs: position.clockMovedMs,
    seq: job.seq,
    atMs: Number(atMs),
    stored: new Set(job.storedImageIds),
  });
  return { reply: { kind: 'encoded', cpuMs: 0, replayCpuMs, ...taken }, replica: position };
}

function start(data: CheckpointWorkerData): void {
  const port = parentPort;
  if (port === null) return;
  let replica: ReplayPosition | null = null;
  let rows: StoredRow[] = [];
  port.on('message', (message: CheckpointMessage) => {
    if (message.kind === 'rows') {
      rows.push(...message.rows);
      return;
    }
    const job: CheckpointJob = { seq: message.seq, rows, storedImageIds: message.storedImageIds };
    rows = [];
    let reply: CheckpointReply;
    try {
      const ended = startBlock();
      const outcome = run(data, job, replica);
      replica = outcome.replica;
      reply = outcome.reply.kind === 'encoded' ? { ...outcome.reply, cpuMs: ended().cpuMs } : outcome.reply;
    } catch (error) {
      replica = null;
      reply = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    const views = reply.kind === 'encoded' ? [reply.checkpoint.state, ...reply.images.map((image) => image.state)] : [];
    port.postMessage(reply, transferable(views));
  });
}

start(workerData as CheckpointWorkerData);
