/**
 * Checkpoints of `afp serve --data FILE`, kept in FILE beside the command log: the platform state
 * after command `seq` (checkpoint-codec.ts bytes), so recovery loads the newest one and replays
 * only the commands after it (src/server/checkpoints.ts).
 *
 * Tables (created when missing; a log written before them simply has none, and older afp builds
 * ignore them — the command log stays complete and replayable on its own):
 *   checkpoints(seq, at_ms, codec, travel, state, seal)
 *                                                   seq = the last command included; codec = the
 *                                                   codec's layout and state classes (checkpointCodec);
 *                                                   travel = JSON of the time-travel bookkeeping
 *                                                   (ids, instants); state = BLOB; seal = checkpointSeal
 *   travel_images(id, codec, state, seal)           the platform of each held snapshot, written once;
 *                                                   seal = imageSeal
 *   checkpoint_parts(seq, part, bytes)              a checkpoint's state in parts of PART_BYTES, when
 *                                                   its row's state is empty (writeInParts: a large
 *                                                   state is written over several turns of the event
 *                                                   loop, the row last, so a checkpoint exists only
 *                                                   once every part is in; parts no row names are
 *                                                   left by a crash and deleted at the next write)
 * Tables of the earlier text layout (state TEXT, which a STRICT table refuses a BLOB into) are
 * dropped when met: their checkpoints are of another codec and would be skipped anyway.
 * Seals tie each checkpoint and image to its place (null in rows written before them: not loaded):
 * a checkpoint's is the SHA-256 of the log's meta hash, its seq, its instant, the chain value of
 * entry seq (log-entries.ts rowChain: the whole history up to it), its codec, its travel record and
 * its state's own SHA-256; an image's of the meta hash, its snapshot id, its instant and its bytes'
 * SHA-256. So a checkpoint or image copied from another file or another row, or a seq edited,
 * does not check (checkpoints.ts checkpointDamage), though its own bytes do. Sealing reads no
 * state byte: the state's SHA-256 is in its header (checkpoint-codec.ts).
 * Invariants: a checkpoint row and the images it names commit in one transaction; at most
 * CHECKPOINTS_KEPT checkpoints are kept (the older one is the fallback if the newest cannot be
 * read); images no checkpoint names are deleted with the checkpoints that named them.
 * Non-goals: compaction of the command log (it is kept whole: a full replay stays possible).
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { stateChecksum } from './checkpoint-codec.ts';
import { startBlock, type BlockTime } from './loop-block.ts';

export const CHECKPOINTS_KEPT = 2;
/** One part of a checkpoint written in parts: about what one turn of the loop writes in a few ms. */
export const PART_BYTES = 1 << 20;
/** A state up to this size is written whole in its row (one turn; a few ms). */
export const INLINE_BYTES_MAX = 4 * PART_BYTES;

/** The time-travel bookkeeping stored with a checkpoint. */
export interface TravelRecord {
  /** The number of the last snapshot id handed out (`snap_<n>`). */
  readonly lastNumber: number;
  /** Held snapshots, oldest first; each image is a row of travel_images. */
  readonly held: ReadonlyArray<{ readonly id: string; readonly atMs: number }>;
  /** Sum of the clock moves logged up to the checkpoint (wall mode resumes with it). */
  readonly clockMovedMs: number;
}

export interface StoredCheckpoint {
  readonly seq: number;
  readonly atMs: number;
  readonly codec: string;
  readonly travel: string;
  readonly state: Uint8Array;
  /** checkpointSeal when written (null: written before seals, never loaded). */
  readonly seal?: string | null;
}

/** What a checkpoint at entry `seq` is sealed with: the log's meta hash and the chain (or, before it, the CRC) of the entry. */
export interface LogBinding {
  readonly metaSha256: string;
  readonly entryMark: string;
}

/** The seal of a checkpoint: binds its fields and state to the log at its entry (see the header). */
export function checkpointSeal(
  binding: LogBinding,
  checkpoint: { seq: number; atMs: number; codec: string; travel: string },
  stateSha256: string,
): string {
  const fields = [
    'afp checkpoint seal 1',
    binding.metaSha256,
    checkpoint.seq,
    checkpoint.atMs,
    binding.entryMark,
    checkpoint.codec,
    checkpoint.travel,
    stateSha256,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The seal of a snapshot image: its log's meta hash, its id, its instant, its bytes' SHA-256. */
export function imageSeal(metaSha256: string, id: string, atMs: number, stateSha256: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['afp image seal 1', metaSha256, id, atMs, stateSha256]))
    .digest('hex');
}

/** A checkpoint without its state bytes (tens of MB on a large platform: read only the one used). */
export type CheckpointHeader = Omit<StoredCheckpoint, 'state'>;

/** What recovery reads of the checkpoints: the store, or the checkpoint worker's copy of one (checkpoint-worker.ts). */
export type CheckpointSource = Pick<
  CheckpointStore,
  'newestFirst' | 'state' | 'image' | 'logBinding' | 'lastCommandSeq'
>;

export class CheckpointStore {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    const columns = this.db.prepare("SELECT type FROM pragma_table_info('checkpoints') WHERE name = 'state'").get() as
      | { type: string }
      | undefined;
    if (columns !== undefined && columns.type !== 'BLOB')
      this.db.exec('DROP TABLE checkpoints; DROP TABLE IF EXISTS travel_images;');
    this.db
      .exec(`CREATE TABLE IF NOT EXISTS checkpoints (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, codec TEXT NOT NULL, travel TEXT NOT NULL, state BLOB NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS travel_images (id TEXT PRIMARY KEY, codec TEXT NOT NULL, state BLOB NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS checkpoint_parts (seq INTEGER NOT NULL, part INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (seq, part)) STRICT;`);
    for (const table of ['checkpoints', 'travel_images']) {
      const sealed = this.db.prepare(`SELECT 1 AS found FROM pragma_table_info('${table}') WHERE name = 'seal'`).get();
      if (sealed === undefined) this.db.exec(`ALTER TABLE ${table} ADD COLUMN seal TEXT`);
    }
  }

  /** What a checkpoint after entry `seq` is sealed with; undefined when the log has no entry `seq`. */
  logBinding(seq: number): LogBinding | undefined {
    const row = this.db
      .prepare(
        `SELECT crc, ${this.hasColumn('commands', 'chain') ? 'chain' : 'NULL AS chain'} FROM commands WHERE seq = ?`,
      )
      .get(seq) as { crc: number | null; chain: number | null } | undefined;
    if (row === undefined) return undefined;
    const meta = this.db.prepare("SELECT value FROM meta WHERE key = 'meta_sha256'").get() as
      | { value: string }
      | undefined;
    const entryMark = row.chain !== null ? `chain ${row.chain}` : `crc ${row.crc ?? 'none'}`;
    return { metaSha256: meta?.value ?? 'none', entryMark };
  }

  private hasColumn(table: string, column: string): boolean {
    return (
      this.db.prepare(`SELECT 1 AS found FROM pragma_table_info('${table}') WHERE name = ?`).get(column) !== undefined
    );
  }

  /** The seq of the last command appended (0 = none). */
  lastCommandSeq(): number {
    const row = this.db.prepare('SELECT max(seq) AS seq FROM commands').get() as
      | { seq: number | bigint | null }
      | undefined;
    return Number(row?.seq ?? 0);
  }

  /** The instant of command `seq`, if it exists. */
  commandAtMs(seq: number): number | undefined {
    const row = this.db.prepare('SELECT at_ms FROM commands WHERE seq = ?').get(seq) as { at_ms: number } | undefined;
    return row === undefined ? undefined : Number(row.at_ms);
  }

  /** Checkpoints' headers, newest first (at most CHECKPOINTS_KEPT). */
  newestFirst(): CheckpointHeader[] {
    const rows = this.db
      .prepare('SELECT seq, at_ms, codec, travel, seal FROM checkpoints ORDER BY seq DESC LIMIT ?')
      .all(CHECKPOINTS_KEPT) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      seq: Number(row['seq']),
      atMs: Number(row['at_ms']),
      codec: String(row['codec']),
      travel: String(row['travel']),
      seal: typeof row['seal'] === 'string' ? row['seal'] : null,
    }));
  }

  /** The state bytes of checkpoint `seq` (its parts joined, when it was written in parts). */
  state(seq: number): Uint8Array | undefined {
    const row = this.db.prepare('SELECT state FROM checkpoints WHERE seq = ?').get(seq) as
      | { state: unknown }
      | undefined;
    const inline = row === undefined ? undefined : bytesOf(row.state);
    if (inline === undefined || inline.byteLength > 0) return inline;
    const parts = (
      this.db.prepare('SELECT bytes FROM checkpoint_parts WHERE seq = ? ORDER BY part').all(seq) as Array<{
        bytes: unknown;
      }>
    ).map((part) => bytesOf(part.bytes) ?? new Uint8Array());
    return Buffer.concat(parts);
  }

  /**
   * Writes checkpoint `checkpoint` (a state above INLINE_BYTES_MAX) with its state in parts, one part per turn of the event loop
   * (each its own transaction: in the WAL before the row's, so a row that survives a crash finds
   * every part), then the row and the images as `write` does, then deletes the parts of the
   * checkpoint it pushed out, a part per turn too. What one turn blocks is one part's write or
   * delete, not the whole state's.
   */
  async writeInParts(
    checkpoint: StoredCheckpoint,
    held: readonly string[],
    imageBytes: (id: string) => Uint8Array,
    turn: { onTurn: (block: BlockTime) => void; dropped: () => boolean },
  ): Promise<boolean> {
    if (checkpoint.state.byteLength <= INLINE_BYTES_MAX) {
      const ended = startBlock();
      this.write(checkpoint, held, imageBytes);
      turn.onTurn(ended());
      return true;
    }
    const insert = this.db.prepare('INSERT OR REPLACE INTO checkpoint_parts (seq, part, bytes) VALUES (?, ?, ?)');
    // Parts no row names (a dropped or crashed write's) and any of this seq go first, one per turn.
    if (!(await this.dropParts(checkpoint.seq, turn))) return false; // the parts left are deleted by the next write
    const state = checkpoint.state;
    for (let part = 0; part * PART_BYTES < state.byteLength; part++) {
      const ended = startBlock();
      insert.run(
        checkpoint.seq,
        part,
        state.subarray(part * PART_BYTES, Math.min(state.byteLength, (part + 1) * PART_BYTES)),
      );
      turn.onTurn(ended());
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (turn.dropped()) return false; // the parts left are deleted by the next write
    }
    const ended = startBlock();
    this.write({ ...checkpoint, state: new Uint8Array() }, held, imageBytes, {
      dropParts: false,
      stateSha256: stateChecksum(state),
    });
    turn.onTurn(ended());
    // The checkpoint is written; the parts of the one it pushed out (CHECKPOINTS_KEPT) go one per turn.
    await this.dropParts(null, { onTurn: turn.onTurn, dropped: () => false });
    return true;
  }

  /**
   * Deletes the parts no checkpoint row names (and those of `seq`), one part per turn of the loop:
   * deleting a whole large state's parts at once blocked the loop in proportion to the state
   * (27 ms of CPU for 60 MB). Returns false when dropped meanwhile.
   */
  private async dropParts(
    seq: number | null,
    turn: { onTurn: (block: BlockTime) => void; dropped: () => boolean },
  ): Promise<boolean> {
    const unnamed = this.db
      .prepare('SELECT rowid AS id FROM checkpoint_parts WHERE seq = ? OR seq NOT IN (SELECT seq FROM checkpoints)')
      .all(seq) as Array<{ id: number | bigint }>;
    const remove = this.db.prepare('DELETE FROM checkpoint_parts WHERE rowid = ?');
    for (const { id } of unnamed) {
      const ended = startBlock();
      remove.run(id);
      turn.onTurn(ended());
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (turn.dropped()) return false;
    }
    return true;
  }

  /** The stored image of a held snapshot, if written (with the codec it was written with, and its seal: null before seals). */
  image(id: string): { codec: string; state: Uint8Array | undefined; seal: string | null } | undefined {
    const row = this.db.prepare('SELECT codec, state, seal FROM travel_images WHERE id = ?').get(id) as
      | { codec: string; state: unknown; seal: string | null }
      | undefined;
    return row === undefined
      ? undefined
      : { codec: String(row.codec), state: bytesOf(row.state), seal: typeof row.seal === 'string' ? row.seal : null };
  }

  /**
   * Deletes the images of `ids` (found unusable) and those without a seal (written by an older afp:
   * no sealed checkpoint can use them); the next checkpoint encodes them again from the platform.
   */
  deleteImages(ids: readonly string[]): void {
    const remove = this.db.prepare('DELETE FROM travel_images WHERE id = ?');
    for (const id of ids) remove.run(id);
    this.db.exec('DELETE FROM travel_images WHERE seal IS NULL');
  }

  /** Ids of the images stored. */
  imageIds(): Set<string> {
    return new Set(
      (this.db.prepare('SELECT id FROM travel_images').all() as Array<{ id: string }>).map((row) => String(row.id)),
    );
  }

  /**
   * Writes a checkpoint with the images it names that are not stored yet (`imageBytes` makes them),
   * drops the checkpoints beyond CHECKPOINTS_KEPT and the images none of the kept ones names, and
   * the parts none names unless `dropParts` is false (writeInParts deletes them a part per turn).
   * Checkpoints past `checkpoint.seq` go too: one is written after the log's last entry, so any
   * beyond it cannot belong to this log. Seals the row and the new images (`stateSha256`: of the
   * state written in parts, when `checkpoint.state` is empty).
   */
  write(
    checkpoint: StoredCheckpoint,
    held: readonly string[],
    imageBytes: (id: string) => Uint8Array,
    options: { dropParts?: boolean; stateSha256?: string } = {},
  ): void {
    const binding = this.logBinding(checkpoint.seq);
    if (binding === undefined) throw new Error(`a checkpoint after entry ${checkpoint.seq}, not in the log (a bug)`);
    const stateSha256 = options.stateSha256 ?? stateChecksum(checkpoint.state);
    const heldAtMs = new Map(
      (JSON.parse(checkpoint.travel) as TravelRecord).held.map((entry) => [entry.id, entry.atMs] as const),
    );
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const stored = this.imageIds();
      const insertImage = this.db.prepare('INSERT INTO travel_images (id, codec, state, seal) VALUES (?, ?, ?, ?)');
      for (const id of held) {
        if (stored.has(id)) continue;
        const bytes = imageBytes(id);
        const seal = imageSeal(binding.metaSha256, id, heldAtMs.get(id) ?? Number.NaN, stateChecksum(bytes));
        insertImage.run(id, checkpoint.codec, bytes, seal);
      }
      this.db
        .prepare(
          'INSERT OR REPLACE INTO checkpoints (seq, at_ms, codec, travel, state, seal) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          checkpoint.seq,
          checkpoint.atMs,
          checkpoint.codec,
          checkpoint.travel,
          checkpoint.state,
          checkpointSeal(binding, checkpoint, stateSha256),
        );
      this.db.prepare('DELETE FROM checkpoints WHERE seq > ?').run(checkpoint.seq);
      this.db
        .prepare('DELETE FROM checkpoints WHERE seq NOT IN (SELECT seq FROM checkpoints ORDER BY seq DESC LIMIT ?)')
        .run(CHECKPOINTS_KEPT);
      if (options.dropParts !== false)
        this.db.prepare('DELETE FROM checkpoint_parts WHERE seq NOT IN (SELECT seq FROM checkpoints)').run();
      const named = new Set<string>();
      for (const kept of this.db.prepare('SELECT travel FROM checkpoints').all() as Array<{ travel: string }>) {
        for (const entry of (JSON.parse(String(kept.travel)) as TravelRecord).held) named.add(entry.id);
      }
      const deleteImage = this.db.prepare('DELETE FROM travel_images WHERE id = ?');
      for (const id of this.imageIds()) if (!named.has(id)) deleteImage.run(id);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** A BLOB column's value (node:sqlite reads BLOBs as Uint8Array); undefined for anything else. */
function bytesOf(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? value : undefined;
}
