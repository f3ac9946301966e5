/**
 * The command log of `afp serve --data FILE`: a write-ahead log in SQLite (node:sqlite). The
 * platform is a deterministic state machine, so its state is a function of its settings (seed,
 * start, config, faults, defects) and of the commands it accepted with their instants; this file
 * keeps exactly that, and src/server/recovery.ts replays it. This file is the log's transactions
 * (open, adopt, append, commit, sync, read in order); the pieces it frames with are each one concept
 * of their own: an entry's row (log-entries.ts) and its reading back (log-entry-decode.ts), the
 * settings at rest (log-meta.ts), and what FILE must be before it is opened (log-file-open.ts).
 *
 * Layout (schema COMMAND_LOG_SCHEMA_VERSION, in `PRAGMA user_version`; `PRAGMA application_id`
 * marks the file as afp's, so a foreign SQLite file is refused rather than written to):
 *   meta(key, value)                     seed, start_ms, clock_mode, wall_offset_ms, config, faults,
 *                                        closures, trading (absent in older logs: none), defects
 *   commands(seq, at_ms, kind, entry, body)  kind 'request' | 'charge' | 'clock' | 'tier' | 'deposit' | 'wallet-mint' |
 *                                            'snapshot' | 'revert' | 'reset' (time travel: a revert's or
 *                                            reset's at_ms is the instant it returns to); entry = JSON;
 *                                            body = a request body's JSON text as received;
 *                                            crc = CRC-32 of at_ms, kind, entry and body (rowCrc:
 *                                            a damaged row is read as 'corrupt', never as another
 *                                            command; rows of logs written before it have none);
 *                                            chain = the running CRC-32 of the entries so far
 *                                            (rowChain over the previous row's chain, this seq and
 *                                            crc; schema 3): a checkpoint names the chain of its
 *                                            entry, so it fits only this log's history up to there,
 *                                            and a replay sees a missing or foreign row
 * A 'request' entry is a whole request (route, query, IP, credential, body): its row ran. A
 * 'charge' entry (schema 2) is a request the dispatcher refused before any row ran (429, fault,
 * 404/405, body failure, 401): only the limiter changed, so only what the limiter reads is kept —
 * mount, method, path (→ service and route limits), IP and credential (→ identity and tier) — no
 * query, no body. recovery.ts decides which shape a request gets (LoggedDispatcher).
 *
 * Group commit: `appendRequest`/`appendAdmin` add an entry to the open batch, in memory; `commit`
 * writes the whole batch in ONE SQLite transaction (journal_mode=WAL, synchronous=NORMAL: the
 * frames are in the kernel when it returns, so a kill -9 loses nothing committed), and `syncWal`
 * fsyncs the WAL off the event loop (wal-sync.ts: against power loss, as synchronous=FULL did
 * inside the commit; a failed sync poisons the log as a failed commit does). Nothing appended is
 * durable before `commit` returns ok (against a crash of afp), or before a `syncWal` started after
 * it has returned (against power loss); the caller (src/server/group-commit.ts) holds every answer
 * until the first, or with `--fsync-answers` the second. Bounds: the caller commits before
 * `pendingEntries`/`pendingChars` pass its limits. A failed commit poisons the log: the batch is
 * rolled back (what SQLite made durable, if anything, is replayed on the next start), every later
 * append or commit fails, and the server must stop (docs: "Durability").
 * Invariants:
 * - Entries are committed in the order they were appended, which is the order the platform
 *   applied them; a batch is all or nothing (one transaction).
 * - No key at rest: a request's Authorization header is stored as its Credential (the SHA-256 of a
 *   live key, 'invalid' or 'none'), never as text. Registration answers are not stored at all: a
 *   replay regenerates their keys (same seed, same order).
 * - One writer: the file is opened with `locking_mode=EXCLUSIVE`, so a second afp serve on the same
 *   FILE is refused (SQLITE_BUSY) instead of interleaving a second history.
 * - Entries are read back in `seq` order, streaming (a log of 10M entries is not loaded whole).
 * - Schema 1 logs (before 'charge') are read as they are and marked schema 3 on adopt, since the
 *   next commit may hold a 'charge' entry an older afp could not read; schema 2 logs (before the
 *   chain) too: their rows keep a NULL chain, and the chain starts at the first row written after.
 * - meta's `meta_sha256` is the SHA-256 of its other rows (metaSha256): an edited seed or config is
 *   refused at open ("corrupt meta"), never served; a log without it gets it on adopt.
 * Non-goals: snapshots (docs/decisions/serve.md "Durability"), compaction, concurrent readers.
 */
import { statSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Credential } from '../platform/platform.ts';
import type { AdminCommand } from './admin-command.ts';
import { CheckpointStore } from './checkpoint-store.ts';
import {
  adminRow,
  requestRow,
  rowChain,
  rowCrc,
  type StoredRow,
  type LoggedCommand,
  type PendingRow,
  type RequestShape,
  type RequestToLog,
} from './log-entries.ts';
import { decodeCommandRow } from './log-entry-decode.ts';
import {
  COMMAND_LOG_APPLICATION_ID,
  COMMAND_LOG_SCHEMA_VERSION,
  LogRefused,
  describeOpenError,
  loadSqlite,
  readHeader,
  refuseForeignBytes,
} from './log-file-open.ts';
import {
  encodeSettings,
  META_SHA256,
  metaSha256,
  readMeta,
  readSettings,
  settingsDifferences,
  type LogSettings,
} from './log-meta.ts';
import { LOG_TAIL_TABLE, LOG_TAIL_WRITE, type StartLoss } from './log-tail.ts';
import { logSchemaCurrent } from './log-schema.ts';
import { startBlock } from './loop-block.ts';
import { WalSync } from './wal-sync.ts';

// The names importers have always taken from here; each is defined once, in the file named.
export { COMMAND_LOG_APPLICATION_ID, COMMAND_LOG_SCHEMA_VERSION, loadSqlite } from './log-file-open.ts';
export { metaSha256, settingsDifferences, type LogSettings } from './log-meta.ts';
export {
  rowChain,
  rowCrc,
  type StoredRow,
  type LoggedCharge,
  type LoggedCommand,
  type LoggedRequest,
  type RequestShape,
  type RequestToLog,
} from './log-entries.ts';
export { decodeCommandRow } from './log-entry-decode.ts';

export type CommitOutcome =
  | { readonly ok: true; readonly entries: number }
  | { readonly ok: false; readonly error: string };

export interface OpenOptions {
  /** Valid defect names (the stored list is checked against them). */
  readonly knownDefects: readonly string[];
}

/** Opens FILE (creating it when missing); an error names FILE and what is wrong with it. */
export async function openCommandLog(file: string, options: OpenOptions): Promise<CommandLog | { error: string }> {
  const refused = refuseForeignBytes(file);
  if (refused !== null) return { error: refused };
  const emptyFile = statSync(file, { throwIfNoEntry: false })?.size === 0;
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    db.exec('PRAGMA locking_mode=EXCLUSIVE');
    const mode = db.prepare('PRAGMA journal_mode=WAL').get() as { journal_mode?: unknown } | undefined;
    if (mode?.journal_mode !== 'wal')
      throw new Error(`cannot use write-ahead logging (journal_mode ${String(mode?.journal_mode)})`);
    db.exec('PRAGMA synchronous=NORMAL'); // the WAL's fsync is paid off the loop (wal-sync.ts)
    db.exec('BEGIN IMMEDIATE; COMMIT'); // takes the exclusive lock now, not at the first append
    const header = readHeader(db);
    const settings = header.kind === 'afp' ? readSettings(db, options.knownDefects) : null;
    if (header.kind === 'refused') throw new LogRefused(header.reason);
    if (typeof settings === 'string') throw new LogRefused(`corrupt meta: ${settings}`);
    const opened = new CommandLog(file, db, settings);
    opened.wasEmptyFile = emptyFile;
    return opened;
  } catch (error) {
    db?.close();
    return { error: `--data ${file}: ${describeOpenError(error)}` };
  }
}

export class CommandLog {
  readonly file: string;
  /** True when FILE already held a log (recovery replays it); false for a new one. */
  readonly existed: boolean;
  /** True when FILE was there with 0 bytes (a new log is made in it: a copy without its -wal file reads so). */
  wasEmptyFile = false;
  private currentSettings: LogSettings | null;
  private readonly db: DatabaseSync;
  private insertStatement: StatementSync | null = null;
  private tailStatement: StatementSync | undefined;
  /** The open batch: appended, not yet committed. */
  private pending: PendingRow[] = [];
  private pendingCharCount = 0;
  /** Set by a failed commit: the log takes nothing more. */
  private failure: string | null = null;
  private hasCrc: boolean | undefined = undefined;
  private hasChain: boolean | undefined = undefined;
  /** The chain value of the last entry committed, once read (then kept by `commit`). */
  private committedChain: number | null = null;
  private readonly walSync: WalSync;
  /** The seq of the last entry committed, once read (then kept by `commit`: no query per batch). */
  private committedSeq: number | null = null;
  /** This thread's CPU and wall time spent in `commit` since the log was opened (ms; the bench reads them through /_afp/state): wall above CPU is the loop waiting on the disk (SQLite's own WAL checkpoints fsync in a commit). */
  commitCpuMs = 0;
  commitWallMs = 0;
  /** What the start found lost from FILE (start-loss.ts; GET /_afp/state shows it); null before it looked. */
  startLoss: StartLoss | null = null;

  constructor(file: string, db: DatabaseSync, settings: LogSettings | null) {
    this.file = file;
    this.db = db;
    this.currentSettings = settings;
    this.existed = settings !== null;
    this.walSync = new WalSync(file);
  }

  /** The settings in force: the stored ones, or those adopted into a new log; null before adopt(). */
  get settings(): LogSettings | null {
    return this.currentSettings;
  }

  /**
   * Binds the log to the settings about to be served: a new log stores them (one transaction,
   * with the schema); an existing one must hold the same. Returns the differences (empty = ok).
   */
  adopt(wanted: LogSettings): string[] {
    if (this.currentSettings !== null) {
      const differences = settingsDifferences(this.currentSettings, wanted);
      if (differences.length === 0) this.upgrade();
      return differences;
    }
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        CREATE TABLE commands (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, kind TEXT NOT NULL, entry TEXT NOT NULL, body TEXT, crc INTEGER, chain INTEGER) STRICT;
        ${LOG_TAIL_TABLE}
        PRAGMA application_id = ${COMMAND_LOG_APPLICATION_ID};
        PRAGMA user_version = ${COMMAND_LOG_SCHEMA_VERSION};`);
      const insert = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      const meta = new Map(Object.entries(encodeSettings(wanted)));
      for (const [key, value] of meta) insert.run(key, value);
      insert.run(META_SHA256, metaSha256(meta));
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    this.currentSettings = wanted;
    return [];
  }

  /** An existing log brought to this schema: the crc and chain columns, the tail's table and the meta's SHA-256 (one transaction, none where it is at it: log-schema.ts). */
  private upgrade(): void {
    const hasColumn = (name: string): boolean =>
      this.db.prepare("SELECT 1 AS found FROM pragma_table_info('commands') WHERE name = ?").get(name) !== undefined;
    if (!logSchemaCurrent(this.db, COMMAND_LOG_SCHEMA_VERSION, META_SHA256)) {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        this.db.exec(`PRAGMA user_version = ${COMMAND_LOG_SCHEMA_VERSION}`);
        if (!hasColumn('crc')) this.db.exec('ALTER TABLE commands ADD COLUMN crc INTEGER');
        if (!hasColumn('chain')) this.db.exec('ALTER TABLE commands ADD COLUMN chain INTEGER');
        this.db.exec(LOG_TAIL_TABLE);
        const meta = readMeta(this.db);
        if (!meta.has(META_SHA256))
          this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(META_SHA256, metaSha256(meta));
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    }
    this.hasCrc = true;
    this.hasChain = true;
  }

  /**
   * Adds a request the dispatcher handled at `atMs` to the open batch (durable once `commit`
   * returns ok): whole, or as a charge (what the limiter reads: no query, no body).
   */
  appendRequest(request: RequestToLog, credential: Credential, atMs: number, shape: RequestShape = 'whole'): void {
    this.stage(requestRow(request, credential, atMs, shape));
  }

  /** Adds a state-changing admin action (clock move, tier set, casino deposit) to the open batch. */
  appendAdmin(command: AdminCommand): void {
    this.stage(adminRow(command));
  }

  /** Entries in the open batch. */
  get pendingEntries(): number {
    return this.pending.length;
  }

  /** Characters of entry and body text in the open batch (~bytes: UTF-8 takes 1 to 3 per character). */
  get pendingChars(): number {
    return this.pendingCharCount;
  }

  /** The seq of the last entry committed (0: none). */
  get lastSeq(): number {
    if (this.committedSeq === null) {
      const row = this.db.prepare('SELECT max(seq) AS seq FROM commands').get() as
        | { seq: number | bigint | null }
        | undefined;
      this.committedSeq = Number(row?.seq ?? 0);
    }
    return this.committedSeq;
  }

  /** The chain value of the last entry committed (0: none, or written before the chain). */
  private lastChain(): number {
    if (this.committedChain === null) {
      const row = this.db.prepare(`SELECT ${this.chainColumn()} FROM commands ORDER BY seq DESC LIMIT 1`).get() as
        | { chain: number | null }
        | undefined;
      this.committedChain = row?.chain ?? 0;
    }
    return this.committedChain;
  }

  /** Why the log takes nothing more (a failed commit), or null. */
  get failed(): string | null {
    return this.failure;
  }

  /**
   * Writes the open batch in one transaction (fsynced on return). An empty batch commits nothing.
   * A failure is returned, rolls the batch back and poisons the log (every later call fails).
   */
  commit(): CommitOutcome {
    if (this.failure !== null) return { ok: false, error: this.failure };
    const rows = this.pending;
    if (rows.length === 0) return { ok: true, entries: 0 };
    this.pending = [];
    this.pendingCharCount = 0;
    const ended = startBlock();
    try {
      const insert = this.insert();
      const before = this.lastSeq;
      let chain = this.lastChain();
      this.db.exec('BEGIN IMMEDIATE');
      let seq = before;
      for (const row of rows) {
        const crc = rowCrc(row.atMs, row.kind, row.entry, row.body);
        seq++;
        chain = rowChain(chain, seq, crc);
        insert.run(seq, row.atMs, row.kind, row.entry, row.body, crc, chain);
      }
      (this.tailStatement ??= this.db.prepare(LOG_TAIL_WRITE)).run(seq);
      this.db.exec('COMMIT');
      this.committedSeq = seq;
      this.committedChain = chain;
      const block = ended();
      this.commitCpuMs += block.cpuMs;
      this.commitWallMs += block.wallMs;
      return { ok: true, entries: rows.length };
    } catch (error) {
      this.failure = `--data ${this.file}: cannot commit ${rows.length} entries: ${error instanceof Error ? error.message : String(error)}`;
      try {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The rollback failed too: the log is poisoned either way; recovery reads what is on disk.
      }
      return { ok: false, error: this.failure };
    }
  }

  /**
   * Makes every batch committed before this call durable against power loss too (fdatasync of the
   * WAL on libuv's pool, wal-sync.ts); `done(null)` then, or `done(error)`: a failed sync poisons the
   * log like a failed commit. One at a time (group-commit.ts starts the next when one returns).
   */
  syncWal(done: (error: string | null) => void): void {
    // After a failed commit too: the batches committed before it are in the WAL, and their answers wait for this.
    this.walSync.sync((error) => done(error === null ? null : this.poison(error)));
  }

  /** `syncWal` on this thread (a graceful close); null when synced. */
  syncWalNow(): string | null {
    const error = this.walSync.syncNow();
    return error === null ? null : this.poison(error);
  }

  /**
   * Every entry after `afterSeq` (default: all) in log order, streamed; an undecodable one comes
   * back as kind 'corrupt', and so does a missing one (a gap in seq: the replay needs every entry)
   * or one whose chain does not follow the entry before it (a row of another log).
   */
  *commands(afterSeq = 0): Generator<LoggedCommand> {
    if (this.currentSettings === null) return;
    const chainColumn = this.chainColumn();
    const before =
      afterSeq === 0
        ? undefined
        : (this.db.prepare(`SELECT ${chainColumn} FROM commands WHERE seq = ?`).get(afterSeq) as
            | { chain: number | null }
            | undefined);
    let chain = before?.chain ?? 0;
    let expected = afterSeq + 1;
    const rows = this.db
      .prepare(
        `SELECT seq, at_ms, kind, entry, body, ${this.crcColumn()}, ${chainColumn} FROM commands WHERE seq > ? ORDER BY seq`,
      )
      .iterate(afterSeq);
    for (const raw of rows) {
      const row = raw as Record<string, unknown>;
      const seq = Number(row['seq']);
      if (seq !== expected) {
        yield { seq: expected, kind: 'corrupt', reason: `missing: the log goes on at entry ${seq}` };
        return;
      }
      const command = decodeCommandRow(row);
      const stored = row['chain'];
      if (command.kind !== 'corrupt' && typeof stored === 'number' && typeof row['crc'] === 'number') {
        if (stored !== rowChain(chain, seq, row['crc'])) {
          yield {
            seq,
            kind: 'corrupt',
            reason: 'its chain value does not follow the entry before it (an entry was removed or replaced)',
          };
          return;
        }
      }
      chain = typeof stored === 'number' ? stored : 0;
      expected++;
      yield command;
    }
  }

  /** The rows of entries `afterSeq` < seq ≤ `uptoSeq`, undecoded (the checkpoint worker decodes them with decodeCommandRow). */
  rows(afterSeq: number, uptoSeq: number): StoredRow[] {
    return this.db
      .prepare(
        `SELECT seq, at_ms, kind, entry, body, ${this.crcColumn()}, ${this.chainColumn()} FROM commands WHERE seq > ? AND seq <= ? ORDER BY seq`,
      )
      .all(afterSeq, uptoSeq) as unknown as StoredRow[];
  }

  /** `chain`, or NULL for a log not yet adopted by this build (as crcColumn). */
  private chainColumn(): string {
    this.hasChain ??=
      this.db.prepare("SELECT 1 AS found FROM pragma_table_info('commands') WHERE name = 'chain'").get() !== undefined;
    return this.hasChain ? 'chain' : 'NULL AS chain';
  }

  /** `crc`, or NULL for a log not yet adopted by this build (opened, its rows read before adopt adds the column). */
  private crcColumn(): string {
    this.hasCrc ??=
      this.db.prepare("SELECT 1 AS found FROM pragma_table_info('commands') WHERE name = 'crc'").get() !== undefined;
    return this.hasCrc ? 'crc' : 'NULL AS crc';
  }

  /** The rows after `afterSeq`, undecoded, streamed (a salvage stops at the last intact one, before any damaged page). */
  *rowStream(afterSeq = 0): Generator<StoredRow> {
    const rows = this.db
      .prepare(`SELECT seq, at_ms, kind, entry, body, ${this.crcColumn()} FROM commands WHERE seq > ? ORDER BY seq`)
      .iterate(afterSeq);
    for (const row of rows) yield row as unknown as StoredRow;
  }

  /** Salvage only (log-salvage.ts): rows of another log, with their seqs, in one transaction. */
  insertRows(rows: readonly StoredRow[]): void {
    const insert = this.db.prepare(
      'INSERT INTO commands (seq, at_ms, kind, entry, body, crc, chain) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    let chain = this.lastChain();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const row of rows) {
        const crc = rowCrc(row.at_ms, row.kind, row.entry, row.body);
        chain = rowChain(chain, row.seq, crc);
        insert.run(row.seq, row.at_ms, row.kind, row.entry, row.body, crc, chain);
      }
      this.db.exec('COMMIT');
      this.committedSeq = null;
      this.committedChain = null;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** The checkpoints kept in FILE beside the commands. */
  checkpointSource(): CheckpointStore {
    return new CheckpointStore(this.db);
  }

  /** The open database, for the checkpoints kept beside the commands (src/server/checkpoint-store.ts). */
  get database(): DatabaseSync {
    return this.db;
  }

  close(): void {
    this.walSync.close();
    if (this.db.isOpen) this.db.close();
  }

  private poison(error: string): string {
    this.failure ??= `--data ${this.file}: ${error}`;
    return this.failure;
  }

  private stage(row: PendingRow): void {
    if (this.failure !== null)
      throw new Error(`${this.failure}; append after a failed commit (a bug: the server must have stopped)`);
    if (this.currentSettings === null) throw new Error(`--data ${this.file}: append before adopt() (a bug)`);
    this.pending.push(row);
    this.pendingCharCount += row.entry.length + (row.body === null ? 0 : row.body.length);
  }

  private insert(): StatementSync {
    if (this.currentSettings === null) throw new Error(`--data ${this.file}: append before adopt() (a bug)`);
    this.insertStatement ??= this.db.prepare(
      'INSERT INTO commands (seq, at_ms, kind, entry, body, crc, chain) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    return this.insertStatement;
  }
}
