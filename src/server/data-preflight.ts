/**
 * The check an `afp serve --data FILE` start makes before it opens FILE for writing (issue 69 part
 * 6): a damaged FILE is refused without one byte of it changed. Why: opening a damaged SQLite file
 * read-write (journal mode, an exclusive lock, the checkpoint at close) wrote into it: a file cut by
 * 0.1% was refused at start (correct) but padded by the refused start, so the next `--salvage` found
 * nothing to salvage and kept no FILE.damaged.
 * Checked, on FILE's bytes and on a copy of FILE and its write-ahead file in a temporary folder
 * (never on FILE itself):
 *   - the header's page count × page size against FILE's length (a cut file is shorter);
 *   - SQLite's own `PRAGMA quick_check` of the copy.
 * A problem is returned as text naming it ("malformed: …", the words serve.ts reads as damage); the
 * start then goes to the survey (log-salvage.ts), which works on a copy too.
 * A start refused later, by the replay, closes FILE with its bytes kept too (closeData).
 * Limits: HEADER_BYTES read from FILE; the copy is FILE's size (a start reads all of FILE anyway).
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadSqlite, openCommandLog, type CommandLog } from './command-log.ts';
import { findStartLoss, tornWalLine } from './start-loss.ts';
import { scanWal } from './wal-scan.ts';

const HEADER_BYTES = 100;
/** The logs whose FILE had a write-ahead file beside it when the start opened it (closeData keeps it; one the open made is not kept). */
const openedWithWal = new WeakSet<CommandLog>();
const SQLITE_MAGIC = 'SQLite format 3\0';

/** FILE's header: its page size and the page count it declares (null where the count is not current). */
function declaredSize(file: string): { readonly pageSize: number; readonly pages: number | null } | null {
  const header = Buffer.alloc(HEADER_BYTES);
  const descriptor = openSync(file, 'r');
  let read = 0;
  try {
    read = readSync(descriptor, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(descriptor);
  }
  if (read < HEADER_BYTES || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) return null;
  const rawSize = header.readUInt16BE(16);
  const pageSize = rawSize === 1 ? 65_536 : rawSize;
  // The in-header page count is current only where the change counter matches "version valid for".
  const current = header.readUInt32BE(24) === header.readUInt32BE(92);
  return { pageSize, pages: current ? header.readUInt32BE(28) : null };
}

/** SQLite's quick_check of a copy of FILE and its write-ahead file; null where it says ok. */
async function quickCheckOfCopy(file: string): Promise<string | null> {
  const folder = mkdtempSync(join(tmpdir(), 'afp-preflight-'));
  const copy = join(folder, 'data.afp');
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const { DatabaseSync } = await loadSqlite();
    const db = new DatabaseSync(copy);
    try {
      const rows = db.prepare('PRAGMA quick_check(8)').all() as Array<Record<string, unknown>>;
      const said = rows.map((row) => String(Object.values(row)[0])).filter((text) => text !== 'ok');
      return said.length === 0 ? null : `malformed: SQLite's quick_check: ${said.join('; ').slice(0, 300)}`;
    } finally {
      db.close();
    }
  } catch (error) {
    return `malformed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** What is wrong with an existing FILE before it is opened for writing; null where nothing is (or FILE is new, empty or not SQLite: the open says). */
export async function preflightData(file: string): Promise<string | null> {
  const stat = statSync(file, { throwIfNoEntry: false });
  // A new FILE, a folder, a device: the open says what is wrong with it.
  if (stat === undefined || !stat.isFile() || stat.size === 0) return null;
  const size = stat.size;
  const declared = declaredSize(file);
  if (declared === null) return null;
  if (declared.pages !== null && size < declared.pages * declared.pageSize)
    return `malformed: the file is ${size} bytes where its header declares ${declared.pages} pages of ${declared.pageSize} (${declared.pages * declared.pageSize} bytes): cut short`;
  return quickCheckOfCopy(file);
}

/** Errors of opening or replaying --data that mean its bytes are damaged (not in use, not foreign, not other settings). */
export function isDamage(message: string): boolean {
  return /malformed|corrupt|damaged|disk I\/O error|not a database/i.test(message);
}

/**
 * FILE opened for serving: refused as damage before it is opened for writing where the preflight
 * finds it damaged (the refusal changes none of its bytes); opened, with a line on stderr for each
 * loss the start finds (start-loss.ts: a log that ends before the entries it committed, a torn
 * WAL's dropped frames), kept on the log for GET /_afp/state.
 */
export async function openData(
  file: string,
  knownDefects: readonly string[],
): Promise<CommandLog | { readonly error: string } | { readonly damage: string }> {
  const damaged = await preflightData(file);
  if (damaged !== null) return { damage: `--data ${file}: ${damaged}` };
  // Read before the open, which drops a torn WAL's last frames without a word.
  const wal = scanWal(`${file}-wal`);
  const walBefore = existsSync(`${file}-wal`);
  const opened = await openCommandLog(file, { knownDefects });
  if ('error' in opened) {
    if (wal !== null && wal.lost > 0) process.stderr.write(`afp serve: ${tornWalLine(file, wal)}\n`);
    return opened;
  }
  const found = findStartLoss(file, opened, wal);
  for (const line of found.lines) process.stderr.write(`afp serve: ${line}\n`);
  opened.startLoss = found.loss;
  if (walBefore) openedWithWal.add(opened);
  return opened;
}

/**
 * Closes the log when the start ends: as it is after serving; when the start refused FILE (damaged,
 * found by the replay past the preflight; written with other settings: `refused`, nothing served),
 * with FILE and FILE-wal kept as they were. Why: the close's checkpoint copies the WAL into FILE
 * and deletes it, so a killed serve's FILE with a damaged entry came out of a refused start merged,
 * its WAL gone. The open writes nothing (log-schema.ts): both are copied aside, beside FILE, before
 * the close and renamed back after it (FILE-wal only where it was there before the open: one the
 * open made is left to the close). The copies are taken after any write, so nothing is lost.
 */
export function closeData(log: CommandLog | undefined, refused: boolean): void {
  if (log === undefined) return;
  if (!refused) {
    log.close();
    return;
  }
  const kept = [log.file, ...(openedWithWal.has(log) ? [`${log.file}-wal`] : [])]
    .filter((path) => existsSync(path))
    .map((path) => ({ path, copy: join(dirname(path), `.${basename(path)}.afp-${process.pid}.kept`) }));
  for (const { path, copy } of kept) copyFileSync(path, copy);
  log.close();
  for (const { path, copy } of kept) renameSync(copy, path);
}
