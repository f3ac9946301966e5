/**
 * What `--data FILE` must be before a command log is opened in it, and what a refusal says: a
 * directory, a foreign file or another application's SQLite database is refused, never written
 * to; a log of a newer schema is refused with the way out; a busy file names the likely other afp.
 * Why a file of its own: telling an afp log from anything else is one concept, settled before the
 * log (command-log.ts) takes the file, and node:sqlite is loaded here once, without its warning.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync } from 'node:sqlite';

export const COMMAND_LOG_SCHEMA_VERSION = 3;
/** 'AFP1' in ASCII: the SQLite header field that says "this file is an afp command log". */
export const COMMAND_LOG_APPLICATION_ID = 0x41465031;
const SQLITE_HEADER = 'SQLite format 3\0';
const SQLITE_BUSY = 5;
const SQLITE_NOTADB = 26;

export class LogRefused extends Error {}

/** Reads the first bytes of an existing FILE: a directory, or a non-empty non-SQLite file, is refused. */
export function refuseForeignBytes(file: string): string | null {
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

export type Header = { kind: 'new' } | { kind: 'afp' } | { kind: 'refused'; reason: string };

export function readHeader(db: DatabaseSync): Header {
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

export function describeOpenError(error: unknown): string {
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
