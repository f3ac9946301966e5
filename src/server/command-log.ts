/**
 * The command log of `afp serve --data FILE`: a write-ahead log in SQLite (node:sqlite). The
 * platform is a deterministic state machine, so its state is a function of its settings (seed,
 * start, config, faults, defects) and of the commands it accepted with their instants; this file
 * keeps exactly that, and src/server/recovery.ts replays it.
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
import { LOG_TAIL_TABLE, LOG_TAIL_WRITE, type StartLoss } from './log-tail.ts';
import { logSchemaCurrent } from './log-schema.ts';
import {
  closuresText,
  configDifferences,
  faultsText,
  isBigintTag,
  isFaultWindow,
  isGameClosure,
  isTradingSchedule,
  marketClosuresText,
  shocksText,
} from './stored-settings.ts';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ERROR_STATUS, Failure, type ErrorCode, type JsonObject } from '../core/errors.ts';
import type { ApiRequest } from '../http/dispatcher.ts';
import { isMount, type Mount } from '../http/route.ts';
import type { Credential, FaultWindow } from '../platform/platform.ts';
import { CLOSURES_MAX, type GameClosure } from '../services/casino/closure-schedule.ts';
import type { Tier } from '../services/shared/agents.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { TradingSchedule } from '../services/trading/trading-record.ts';
import type { AdminCommand } from './admin-command.ts';
import { CheckpointStore } from './checkpoint-store.ts';
import { WalSync } from './wal-sync.ts';
import { startBlock } from './loop-block.ts';
import type { ClockMode } from './serve-clock.ts';

export const COMMAND_LOG_SCHEMA_VERSION = 3;
/** 'AFP1' in ASCII: the SQLite header field that says "this file is an afp command log". */
export const COMMAND_LOG_APPLICATION_ID = 0x41465031;
const SQLITE_HEADER = 'SQLite format 3\0';
const SQLITE_BUSY = 5;
const SQLITE_NOTADB = 26;
const TIERS: readonly Tier[] = ['free', 'pro', 'enterprise'];
const NO_TRADING: TradingSchedule = { shocks: [], closures: [] };

/** What the platform was built from; a restart must build the same (serve compares them). */
export interface LogSettings {
  readonly seed: string;
  readonly startMs: number;
  readonly clockMode: ClockMode;
  /** Wall mode: how far the served clock ran ahead of the wall clock when the log was created. */
  readonly wallOffsetMs: number;
  readonly config: PlatformConfig;
  readonly faults: readonly FaultWindow[];
  /** Casino game closures; logs written before they existed have none. */
  readonly closures: readonly GameClosure[];
  /** Trading price shocks and market closures; absent (and in logs written before they existed): none. */
  readonly trading?: TradingSchedule;
  readonly defects: readonly DefectName[];
}

/** A request as logged: the dispatcher's ApiRequest without its headers (only the credential counts). */
export interface LoggedRequest {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly ip: string;
  readonly credential: Credential;
  /** The body's JSON text (parsed again on replay: the exact value the edge parsed); null = no body. */
  readonly bodyText: string | null;
  readonly bodyFailure: Failure | undefined;
  /** `mcp` for a tool call of a /mcp endpoint; absent for HTTP. */
  readonly door?: 'mcp';
}

/** A request as a 'charge' entry keeps it: what the limiter reads, nothing else. */
export interface LoggedCharge {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly ip: string;
  readonly credential: Credential;
}

/** What of a request the log keeps: all of it ('whole'), or what the limiter reads ('charge'). */
export type RequestShape = 'whole' | 'charge';

/** One entry, in log order; `atMs` is the instant the command took effect (never decreasing). */
export type LoggedCommand =
  | { readonly seq: number; readonly kind: 'request'; readonly atMs: number; readonly request: LoggedRequest }
  | { readonly seq: number; readonly kind: 'charge'; readonly atMs: number; readonly request: LoggedCharge }
  | { readonly seq: number; readonly kind: 'clock'; readonly atMs: number; readonly fromMs: number }
  | {
      readonly seq: number;
      readonly kind: 'tier';
      readonly atMs: number;
      readonly agentId: string;
      readonly tier: Tier;
    }
  | {
      readonly seq: number;
      readonly kind: 'deposit';
      readonly atMs: number;
      readonly agentId: string;
      readonly chain: string;
      readonly amountMicro: bigint;
      readonly confirmed?: true;
    }
  | {
      readonly seq: number;
      readonly kind: 'wallet-mint';
      readonly atMs: number;
      readonly chain: string;
      readonly address: string;
      readonly amount: string;
      readonly token: string | null;
    }
  | { readonly seq: number; readonly kind: 'snapshot'; readonly atMs: number; readonly id: string }
  | {
      readonly seq: number;
      readonly kind: 'revert';
      readonly atMs: number;
      readonly fromMs: number;
      readonly id: string;
    }
  | { readonly seq: number; readonly kind: 'reset'; readonly atMs: number; readonly fromMs: number }
  | { readonly seq: number; readonly kind: 'corrupt'; readonly reason: string };

/** A request handed to the log; `bodyText` when the HTTP edge still has the text it parsed. */
export type RequestToLog = ApiRequest & { readonly bodyText?: string };

/** An entry as stored: the commands table's columns (what the checkpoint worker is handed). */
export interface CommandRow {
  readonly seq: number;
  readonly at_ms: number;
  readonly kind: string;
  readonly entry: string;
  readonly body: string | null;
  readonly crc: number | null;
  /** rowChain's value; null in rows written before it (and where a read leaves it out). */
  readonly chain?: number | null;
}

/** The meta key of the SHA-256 over the other meta rows. */
const META_SHA256 = 'meta_sha256';

/** The SHA-256 (hex) of a log's meta rows but `meta_sha256` itself: what the seed, start, config, faults … hash to. */
export function metaSha256(meta: ReadonlyMap<string, string>): string {
  const rows = [...meta].filter(([key]) => key !== META_SHA256).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/**
 * The chain value of entry `seq` whose CRC-32 is `crc`, after the entry before it whose chain is
 * `previous` (0 for the first entry, or when that entry has none: written before the chain).
 */
export function rowChain(previous: number, seq: number, crc: number): number {
  return crc32(`${seq}:${crc}`, previous);
}

/** The CRC-32 a row carries: of its instant, kind, entry and body (seq is the row's key: a gap shows a lost one). */
export function rowCrc(atMs: number | bigint, kind: string, entry: string, body: string | null): number {
  return crc32(`${atMs}\u0000${kind}\u0000${entry}\u0000${body ?? '\u0001'}`);
}

export type CommitOutcome =
  | { readonly ok: true; readonly entries: number }
  | { readonly ok: false; readonly error: string };

/** One entry waiting in the open batch: the row's columns. */
interface PendingRow {
  readonly atMs: number;
  readonly kind: 'request' | 'charge' | 'clock' | 'tier' | 'deposit' | 'wallet-mint' | 'snapshot' | 'revert' | 'reset';
  readonly entry: string;
  readonly body: string | null;
}

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
    const settings = header.kind === 'afp' ? readSettings(db, options) : null;
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
    if (shape === 'charge') {
      const charge = {
        mount: request.mount,
        method: request.method,
        path: request.path,
        ip: request.ip,
        auth: encodeCredential(credential),
      };
      this.stage({ atMs, kind: 'charge', entry: JSON.stringify(charge), body: null });
      return;
    }
    const entry: Record<string, unknown> = {
      mount: request.mount,
      method: request.method,
      path: request.path,
      query: request.query,
      ip: request.ip,
      auth: encodeCredential(credential),
    };
    if (request.bodyFailure !== undefined) entry['body_failure'] = request.bodyFailure;
    if (request.door !== undefined) entry['door'] = request.door;
    const bodyText = request.bodyText ?? (request.body === undefined ? null : JSON.stringify(request.body));
    this.stage({ atMs, kind: 'request', entry: JSON.stringify(entry), body: bodyText });
  }

  /** Adds a state-changing admin action (clock move, tier set, casino deposit) to the open batch. */
  appendAdmin(command: AdminCommand): void {
    switch (command.kind) {
      case 'clock':
        this.stage({
          atMs: command.toMs,
          kind: 'clock',
          entry: JSON.stringify({ from_ms: command.fromMs }),
          body: null,
        });
        return;
      case 'tier':
        this.stage({
          atMs: command.atMs,
          kind: 'tier',
          entry: JSON.stringify({ agent_id: command.agentId, tier: command.tier }),
          body: null,
        });
        return;
      case 'deposit':
        this.stage({
          atMs: command.atMs,
          kind: 'deposit',
          entry: JSON.stringify({
            agent_id: command.agentId,
            chain: command.chain,
            amount_micro: String(command.amountMicro),
            ...(command.confirmed === true ? { confirmed: true } : {}),
          }),
          body: null,
        });
        return;
      case 'wallet-mint':
        this.stage({
          atMs: command.atMs,
          kind: 'wallet-mint',
          entry: JSON.stringify({
            chain: command.chain,
            address: command.address,
            amount: command.amount,
            token: command.token,
          }),
          body: null,
        });
        return;
      case 'snapshot':
        this.stage({ atMs: command.atMs, kind: 'snapshot', entry: JSON.stringify({ id: command.id }), body: null });
        return;
      case 'revert':
        this.stage({
          atMs: command.toMs,
          kind: 'revert',
          entry: JSON.stringify({ id: command.id, from_ms: command.fromMs }),
          body: null,
        });
        return;
      case 'reset':
        this.stage({
          atMs: command.toMs,
          kind: 'reset',
          entry: JSON.stringify({ from_ms: command.fromMs }),
          body: null,
        });
        return;
    }
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
  rows(afterSeq: number, uptoSeq: number): CommandRow[] {
    return this.db
      .prepare(
        `SELECT seq, at_ms, kind, entry, body, ${this.crcColumn()}, ${this.chainColumn()} FROM commands WHERE seq > ? AND seq <= ? ORDER BY seq`,
      )
      .all(afterSeq, uptoSeq) as unknown as CommandRow[];
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
  *rowStream(afterSeq = 0): Generator<CommandRow> {
    const rows = this.db
      .prepare(`SELECT seq, at_ms, kind, entry, body, ${this.crcColumn()} FROM commands WHERE seq > ? ORDER BY seq`)
      .iterate(afterSeq);
    for (const row of rows) yield row as unknown as CommandRow;
  }

  /** Salvage only (log-salvage.ts): rows of another log, with their seqs, in one transaction. */
  insertRows(rows: readonly CommandRow[]): void {
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

/** Human-readable differences between the stored settings and the wanted ones. */
export function settingsDifferences(stored: LogSettings, wanted: LogSettings): string[] {
  const differences: string[] = [];
  const differ = (name: string, storedText: string, wantedText: string): void => {
    if (storedText !== wantedText) differences.push(`${name}: the log has ${storedText}, the flags give ${wantedText}`);
  };
  differ('seed', stored.seed, wanted.seed);
  differ('start', new Date(stored.startMs).toISOString(), new Date(wanted.startMs).toISOString());
  differ('clock', stored.clockMode, wanted.clockMode);
  differ('defects', [...stored.defects].sort().join(', ') || 'none', [...wanted.defects].sort().join(', ') || 'none');
  for (const path of configDifferences(stored.config, wanted.config, 'config'))
    differences.push(`${path} differs (--scenario's platform settings)`);
  differ('fault windows', faultsText(stored.faults), faultsText(wanted.faults));
  differ('casino game closures', closuresText(stored.closures), closuresText(wanted.closures));
  differ('trading price shocks', shocksText(stored.trading?.shocks ?? []), shocksText(wanted.trading?.shocks ?? []));
  differ(
    'market closures',
    marketClosuresText(stored.trading?.closures ?? []),
    marketClosuresText(wanted.trading?.closures ?? []),
  );
  return differences;
}

class LogRefused extends Error {}

/** Reads the first bytes of an existing FILE: a directory, or a non-empty non-SQLite file, is refused. */
function refuseForeignBytes(file: string): string | null {
  let stats;
  try {
    stats = statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    return `--data ${file}: cannot read it: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (stats === undefined || (stats.isFile() && stats.size === 0)) return null;
  if (!stats.isFile()) return `--data ${file}: not a regular file`;
  const bytes = Buffer.alloc(SQLITE_HEADER.length);
  try {
    const fd = openSync(file, 'r');
    try {
      readSync(fd, bytes, 0, bytes.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return `--data ${file}: cannot read it: ${error instanceof Error ? error.message : String(error)}`;
  }
  return bytes.toString('latin1') === SQLITE_HEADER
    ? null
    : `--data ${file}: not an afp command log (not a SQLite database)`;
}

type Header = { kind: 'new' } | { kind: 'afp' } | { kind: 'refused'; reason: string };

function readHeader(db: DatabaseSync): Header {
  const applicationId = Number(
    (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id,
  );
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  const tables = Number((db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n);
  if (applicationId === 0 && version === 0 && tables === 0) return { kind: 'new' };
  if (applicationId !== COMMAND_LOG_APPLICATION_ID)
    return { kind: 'refused', reason: 'not an afp command log (a SQLite database of another application)' };
  if (version > COMMAND_LOG_SCHEMA_VERSION) {
    return {
      kind: 'refused',
      reason: `written by a newer afp (command log schema ${version}; this afp reads schema ${COMMAND_LOG_SCHEMA_VERSION}): use a newer afp or another --data file`,
    };
  }
  if (version < 1) return { kind: 'refused', reason: `corrupt afp command log (schema version ${version})` };
  return { kind: 'afp' };
}

function describeOpenError(error: unknown): string {
  if (error instanceof LogRefused) return error.message;
  const code = (error as { errcode?: unknown }).errcode;
  if (code === SQLITE_BUSY) return 'in use by another process (another afp serve on the same file?)';
  if (code === SQLITE_NOTADB) return 'not an afp command log (not a SQLite database)';
  return `cannot open it: ${error instanceof Error ? error.message : String(error)}`;
}

/** node:sqlite, loaded on first use, without its "experimental feature" warning on every start. */
export async function loadSqlite(): Promise<typeof Sqlite> {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).startsWith('SQLite is an experimental feature')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}

// ---- settings at rest ---------------------------------------------------------------------

function encodeSettings(settings: LogSettings): Record<string, string> {
  return {
    seed: settings.seed,
    start_ms: String(settings.startMs),
    clock_mode: settings.clockMode,
    wall_offset_ms: String(settings.wallOffsetMs),
    config: JSON.stringify(settings.config, (_key, value: unknown) =>
      typeof value === 'bigint' ? { $bigint: value.toString() } : value,
    ),
    faults: JSON.stringify(settings.faults),
    closures: JSON.stringify(settings.closures),
    trading: JSON.stringify(settings.trading ?? NO_TRADING),
    defects: JSON.stringify(settings.defects),
  };
}

/** The meta rows. */
function readMeta(db: DatabaseSync): Map<string, string> {
  const meta = new Map<string, string>();
  for (const row of db.prepare('SELECT key, value FROM meta').all()) meta.set(String(row['key']), String(row['value']));
  return meta;
}

/** The stored settings, or what is wrong with them. */
function readSettings(db: DatabaseSync, options: OpenOptions): LogSettings | string {
  let meta = new Map<string, string>();
  const text = (key: string): string => {
    const value = meta.get(key);
    if (value === undefined) throw new Error(`no ${key}`);
    return value;
  };
  try {
    meta = readMeta(db);
    const sealed = meta.get(META_SHA256);
    if (sealed !== undefined && sealed !== metaSha256(meta))
      return 'its SHA-256 does not match its rows (the seed, start, config or another setting was changed in the file after it was written)';
    const seed = text('seed');
    const startMs = Number(text('start_ms'));
    const wallOffsetMs = Number(text('wall_offset_ms'));
    const clockMode = text('clock_mode');
    const config = JSON.parse(text('config'), (_key, value: unknown) =>
      isBigintTag(value) ? BigInt(value.$bigint) : value,
    ) as unknown;
    const faults = JSON.parse(text('faults')) as unknown;
    const closures = JSON.parse(meta.get('closures') ?? '[]') as unknown;
    const trading = JSON.parse(meta.get('trading') ?? '{"shocks":[],"closures":[]}') as unknown;
    const defects = JSON.parse(text('defects')) as unknown;
    if (!/^(?:0|[1-9]\d{0,15})$/.test(seed)) return `seed '${seed}'`;
    if (!Number.isSafeInteger(startMs) || !Number.isSafeInteger(wallOffsetMs))
      return 'start_ms or wall_offset_ms is not a whole number';
    if (clockMode !== 'wall' && clockMode !== 'manual') return `clock_mode '${clockMode}'`;
    if (configDifferences(DEFAULT_CONFIG, config, 'config', { shapeOnly: true }).length > 0)
      return 'config has another layout (written by another afp version)';
    if (!Array.isArray(faults) || !faults.every(isFaultWindow)) return 'faults';
    if (!Array.isArray(closures) || closures.length > CLOSURES_MAX || !closures.every(isGameClosure)) return 'closures';
    if (!isTradingSchedule(trading)) return 'trading';
    if (
      !Array.isArray(defects) ||
      !defects.every((name) => typeof name === 'string' && options.knownDefects.includes(name))
    )
      return `defects ${JSON.stringify(defects)}`;
    return {
      seed,
      startMs,
      clockMode,
      wallOffsetMs,
      config: config as PlatformConfig,
      faults,
      closures,
      trading,
      defects: defects as DefectName[],
    };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// ---- entries at rest ----------------------------------------------------------------------

function encodeCredential(credential: Credential): string | null {
  if (credential === 'none') return null;
  return credential === 'invalid' ? 'invalid' : credential.keyHash;
}

function decodeCredential(value: unknown): Credential | undefined {
  if (value === null) return 'none';
  if (value === 'invalid') return 'invalid';
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? { keyHash: value } : undefined;
}

/** One stored row as the entry it holds (kind 'corrupt' when it cannot be read). */
export function decodeCommandRow(row: Record<string, unknown>): LoggedCommand {
  const seq = Number(row['seq']);
  const atMs = Number(row['at_ms']);
  const corrupt = (reason: string): LoggedCommand => ({ seq, kind: 'corrupt', reason });
  const crc = row['crc'];
  if (
    crc !== null &&
    crc !== undefined &&
    Number(crc) !==
      rowCrc(
        row['at_ms'] as number,
        String(row['kind']),
        String(row['entry']),
        row['body'] === null ? null : String(row['body']),
      )
  )
    return corrupt('its CRC-32 does not match its bytes (damaged)');
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(String(row['entry'])) as Record<string, unknown>;
  } catch {
    return corrupt('entry is not JSON');
  }
  if (!Number.isSafeInteger(atMs) || typeof entry !== 'object' || entry === null) return corrupt('at_ms or entry');
  switch (row['kind']) {
    case 'request':
      return decodeRequest(seq, atMs, entry, row['body']);
    case 'charge':
      return decodeCharge(seq, atMs, entry);
    case 'clock':
      return Number.isSafeInteger(entry['from_ms'])
        ? { seq, kind: 'clock', atMs, fromMs: entry['from_ms'] as number }
        : corrupt('clock entry without from_ms');
    case 'tier': {
      const { agent_id: agentId, tier } = entry;
      return typeof agentId === 'string' && TIERS.includes(tier as Tier)
        ? { seq, kind: 'tier', atMs, agentId, tier: tier as Tier }
        : corrupt('tier entry');
    }
    case 'deposit': {
      const { agent_id: agentId, chain, amount_micro: amount, confirmed } = entry;
      const valid =
        typeof agentId === 'string' &&
        typeof chain === 'string' &&
        typeof amount === 'string' &&
        /^\d{1,20}$/.test(amount) &&
        (confirmed === undefined || confirmed === true);
      return valid
        ? {
            seq,
            kind: 'deposit',
            atMs,
            agentId,
            chain,
            amountMicro: BigInt(amount),
            ...(confirmed === true ? { confirmed: true as const } : {}),
          }
        : corrupt('deposit entry');
    }
    case 'wallet-mint': {
      const { chain, address, amount, token } = entry;
      const valid =
        typeof chain === 'string' &&
        typeof address === 'string' &&
        typeof amount === 'string' &&
        (token === null || typeof token === 'string');
      return valid ? { seq, kind: 'wallet-mint', atMs, chain, address, amount, token } : corrupt('wallet-mint entry');
    }
    case 'snapshot':
      return typeof entry['id'] === 'string'
        ? { seq, kind: 'snapshot', atMs, id: entry['id'] }
        : corrupt('snapshot entry without id');
    case 'revert':
      return typeof entry['id'] === 'string' && Number.isSafeInteger(entry['from_ms'])
        ? { seq, kind: 'revert', atMs, id: entry['id'], fromMs: entry['from_ms'] as number }
        : corrupt('revert entry');
    case 'reset':
      return Number.isSafeInteger(entry['from_ms'])
        ? { seq, kind: 'reset', atMs, fromMs: entry['from_ms'] as number }
        : corrupt('reset entry');
    default:
      return corrupt(`unknown kind '${String(row['kind'])}'`);
  }
}

/** A logged `body_failure` (a Failure as JSON): undefined when absent, null when malformed. */
function decodeFailure(value: unknown): Failure | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { ok, status, code, message, extra } = value as Record<string, unknown>;
  const knownCode = typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);
  const extraOk = extra === undefined || (typeof extra === 'object' && extra !== null && !Array.isArray(extra));
  if (ok !== false || typeof status !== 'number' || !knownCode || typeof message !== 'string' || !extraOk) return null;
  return new Failure(status, code as ErrorCode, message, extra as JsonObject | undefined);
}

function decodeRequest(seq: number, atMs: number, entry: Record<string, unknown>, body: unknown): LoggedCommand {
  const { mount, method, path, query, ip } = entry;
  const credential = decodeCredential(entry['auth']);
  const bodyFailure = decodeFailure(entry['body_failure']);
  const knownMount = isMount(mount);
  const fieldsOk =
    typeof method === 'string' &&
    typeof path === 'string' &&
    typeof ip === 'string' &&
    typeof query === 'object' &&
    query !== null;
  if (!knownMount || !fieldsOk || credential === undefined || !(body === null || typeof body === 'string'))
    return { seq, kind: 'corrupt', reason: 'request entry' };
  if (bodyFailure === null) return { seq, kind: 'corrupt', reason: 'body_failure' };
  const door = entry['door'];
  if (door !== undefined && door !== 'mcp') return { seq, kind: 'corrupt', reason: 'door' };
  const request: LoggedRequest = {
    mount: mount as Mount,
    method,
    path,
    query: query as Record<string, string>,
    ip,
    credential,
    bodyText: body,
    bodyFailure,
    ...(door === undefined ? {} : { door }),
  };
  return { seq, kind: 'request', atMs, request };
}

function decodeCharge(seq: number, atMs: number, entry: Record<string, unknown>): LoggedCommand {
  const { mount, method, path, ip } = entry;
  const credential = decodeCredential(entry['auth']);
  if (
    !isMount(mount) ||
    typeof method !== 'string' ||
    typeof path !== 'string' ||
    typeof ip !== 'string' ||
    credential === undefined
  )
    return { seq, kind: 'corrupt', reason: 'charge entry' };
  return { seq, kind: 'charge', atMs, request: { mount, method, path, ip, credential } };
}
