/**
 * The last entry a command log committed, kept in the log itself (table `log_tail`, one row,
 * written in the same transaction as the entries: command-log.ts commit), so that a log which
 * ends before it says at start how many entries are missing (issue 69 part 6). Why: when the rows
 * after the newest checkpoint were lost (1,989 entries: agents 10,000 → 8,311), the server started
 * with no line at all; recovery replays what is there, and nothing said what was not.
 * A log written before the table has no row: it promises nothing, and nothing is said.
 * Non-goals: which entries were lost (their rows are gone), or refusing to start (the intact prefix
 * is a consistent history; the line says what it lacks).
 */
import type { DatabaseSync } from 'node:sqlite';

export const LOG_TAIL_TABLE =
  'CREATE TABLE IF NOT EXISTS log_tail (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL) STRICT;';

export const LOG_TAIL_WRITE =
  'INSERT INTO log_tail (id, seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq';

export interface MissingTail {
  /** The last entry the log holds. */
  readonly last: number;
  /** The last entry it committed. */
  readonly promised: number;
}

/** What an `afp serve --data` start found lost from FILE (start-loss.ts finds it; the command log keeps it for GET /_afp/state). */
export interface StartLoss {
  /** The last entry the log holds at start. */
  readonly logEndsAt: number;
  /** The highest entry FILE said it committed (its tail row, or the one in the WAL's dropped frames); null: none said. */
  readonly promisedUpTo: number | null;
  /** Entries promised past the log's end (0: none). */
  readonly entriesMissing: number;
  /** Frames of FILE-wal the open dropped, and their bytes. */
  readonly walFramesLost: number;
  readonly walBytesLost: number;
}

/** The entries `db` committed past `last`, the last it holds; null where none is missing or it keeps no tail. */
export function missingTail(db: DatabaseSync, last: number): MissingTail | null {
  const table = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'log_tail'").get();
  if (table === undefined) return null;
  const row = db.prepare('SELECT seq FROM log_tail WHERE id = 1').get() as { seq: number | bigint } | undefined;
  const promised = row === undefined ? null : Number(row.seq);
  return promised === null || promised <= last ? null : { last, promised };
}

/** The start's line for a log that ends before its tail. */
export function missingTailLine(file: string, tail: MissingTail): string {
  const missing = tail.promised - tail.last;
  return `--data ${file}: the log ends at entry ${tail.last}, but it committed entries up to ${tail.promised}: ${missing} entr${missing === 1 ? 'y is' : 'ies are'} missing (lost after the write: the state served is the history up to entry ${tail.last})`;
}
