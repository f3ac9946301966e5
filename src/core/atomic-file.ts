/**
 * Files written whole or not at all: every file afp writes for a user (records, reports,
 * summary.json, exports, salvaged data, resume files) goes to a temporary name in the same folder,
 * is fsynced, and is renamed over its path; the folder is fsynced after. Why: a kill -9 or a
 * second Ctrl-C while `afp run --record FILE` wrote left a FILE that said `complete: true,
 * exchanges: 72559` and held 9,810 lines, and destroyed the previous FILE; a kill during report
 * writing left an old summary.json beside a truncated escrows.csv. A rename within one folder is
 * atomic on POSIX file systems: a reader sees the old file or the new one, never a mix.
 * The temporary name is `.<name>.afp-<pid>-<n>.tmp` (hidden; n counts this process's writes, so
 * two writes of one path never share it): a crashed writer leaves at most that file behind, which
 * no reader takes for a report or a record, and the next commit of the same path removes it once
 * its process is gone (`removeStaleTemporaries`, at most STALE_SCAN_MAX names of the folder read).
 * `commit({ replace: false })` never replaces a file (a hard link, which fails when the path
 * exists): the refuse-to-overwrite write (`wx`) made whole too.
 * Errors are thrown as they come (callers wrap them: output-write-error.ts); the temporary file is
 * removed on any failure before the rename.
 */
import { closeSync, fsyncSync, linkSync, opendirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Folder entries read when looking for a crashed writer's temporary files. */
const STALE_SCAN_MAX = 10_000;
let writes = 0;

/** A fresh name `path` is written under before it is renamed into place. */
export function temporaryPathOf(path: string): string {
  writes++;
  return join(dirname(path), `.${basename(path)}.afp-${process.pid}-${writes}.tmp`);
}

/** The writer's process id when `name` is a temporary name of `path`'s file, else null. */
function temporaryOwner(name: string, path: string): number | null {
  const prefix = `.${basename(path)}.afp-`;
  if (!name.startsWith(prefix) || !name.endsWith('.tmp')) return null;
  const match = /^(\d{1,10})-\d{1,16}$/.exec(name.slice(prefix.length, -'.tmp'.length));
  return match === null ? null : Number(match[1]);
}

/** Whether process `pid` is gone (signal 0 checks, sends nothing; EPERM: alive, another user's). */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes the temporary files of `path` left by writers that died (a kill -9 mid-write). */
export function removeStaleTemporaries(path: string): void {
  let folder;
  try {
    folder = opendirSync(dirname(path));
  } catch {
    return;
  }
  try {
    for (let read = 0; read < STALE_SCAN_MAX; read++) {
      const entry = folder.readSync();
      if (entry === null) break;
      const owner = temporaryOwner(entry.name, path);
      if (owner !== null && owner !== process.pid && processGone(owner))
        rmSync(join(dirname(path), entry.name), { force: true });
    }
  } finally {
    folder.closeSync();
  }
}

/** Flushes the file at `path` to the disk (one built by another writer: a salvaged SQLite log). */
export function syncFile(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Makes a rename inside `folder` durable; a folder that cannot be opened (some platforms) is left as is. */
export function syncFolder(folder: string): void {
  let descriptor = -1;
  try {
    descriptor = openSync(folder, 'r');
    fsyncSync(descriptor);
  } catch {
    // Not every platform opens a folder for fsync; the rename itself is still atomic.
  } finally {
    if (descriptor >= 0) closeSync(descriptor);
  }
}

function writeAllSync(descriptor: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(descriptor, bytes, offset, bytes.length - offset);
}

/** A file written in parts, committed whole: `write` each part, then `commit` (or `abort`). */
export class AtomicFile {
  readonly path: string;
  readonly temporary: string;
  private descriptor: number;

  constructor(path: string, mode = 0o644) {
    this.path = path;
    this.temporary = temporaryPathOf(path);
    this.descriptor = openSync(this.temporary, 'w', mode);
  }

  write(data: string | Uint8Array): void {
    try {
      writeAllSync(this.descriptor, data);
    } catch (error) {
      this.abort();
      throw error;
    }
  }

  /**
   * Flushes, closes and renames the file into place; `replace: false`: only where no file is (else
   * EEXIST is thrown and the path keeps what it held).
   */
  commit(options: { readonly replace?: boolean } = {}): void {
    try {
      fsyncSync(this.descriptor);
      closeSync(this.descriptor);
      this.descriptor = -1;
      if (options.replace === false) {
        linkSync(this.temporary, this.path);
        rmSync(this.temporary, { force: true });
      } else renameSync(this.temporary, this.path);
    } catch (error) {
      this.abort();
      throw error;
    }
    syncFolder(dirname(this.path));
    removeStaleTemporaries(this.path);
  }

  /** Drops what was written: the path keeps what it held. */
  abort(): void {
    if (this.descriptor >= 0) closeSync(this.descriptor);
    this.descriptor = -1;
    rmSync(this.temporary, { force: true });
  }
}

/** Writes `data` to `path` atomically (see the header); `replace: false`: only where no file is (EEXIST). */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = 0o644,
  options: { readonly replace?: boolean } = {},
): void {
  const file = new AtomicFile(path, mode);
  file.write(data);
  file.commit(options);
}

/** Writes the parts `chunks` yields to `path` atomically, asynchronously (a record of 256 MiB). */
export async function writeChunksAtomic(path: string, chunks: Iterable<string>): Promise<void> {
  const temporary = temporaryPathOf(path);
  const handle = await open(temporary, 'w');
  try {
    for (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    rmSync(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
  removeStaleTemporaries(path);
}
