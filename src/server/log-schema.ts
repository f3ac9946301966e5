/**
 * Whether an existing command log is already at this schema, read without writing (issue 69 part
 * 6: a start that refuses FILE changes nothing). Why: every start ran the log's upgrade transaction
 * (`PRAGMA user_version = …`, `CREATE TABLE IF NOT EXISTS …`) before the replay; writing page 1
 * made SQLite bump the file change counter in it, so a start that then refused FILE for a damaged
 * entry had changed two bytes of it (offsets 24 and 92). A log at the schema is now only read.
 * What "at the schema" means: its user_version is `version`, `commands` has the crc and chain
 * columns, `log_tail` exists (log-tail.ts), and the meta holds its SHA-256 under `metaKey`.
 */
import type { DatabaseSync } from 'node:sqlite';

/** True where `db` needs no upgrade transaction. */
export function logSchemaCurrent(db: DatabaseSync, version: number, metaKey: string): boolean {
  const found = (sql: string, ...values: string[]): boolean => db.prepare(sql).get(...values) !== undefined;
  const userVersion = db.prepare('PRAGMA user_version').get() as { user_version?: number | bigint } | undefined;
  return (
    Number(userVersion?.user_version) === version &&
    found("SELECT 1 AS found FROM pragma_table_info('commands') WHERE name = 'crc'") &&
    found("SELECT 1 AS found FROM pragma_table_info('commands') WHERE name = 'chain'") &&
    found("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'log_tail'") &&
    found('SELECT 1 AS found FROM meta WHERE key = ?', metaKey)
  );
}
