/**
 * Files written whole or not at all: every file afp writes for a user (records, reports,
 * summary.json, exports, salvaged data, resume files) goes to a temporary name in the same folder,
 * is fsynced, and is renamed over its path; the folder is fsynced after. Why: a kill -9 or a
 * second Ctrl-C while `afp run --record FILE` wrote left a FILE that said `complete: true,
 * exchanges: 72559` and held 9,810 lines, and destroyed the previous FILE; a kill during report
 * writing left an old summary.json beside a truncated escrows.csv. A rename within one folder is
 * atomic on POSIX file systems: a reader sees the old file or the new one, never a mix.
 * The temporary name is `.<name>.afp-<pid>.tmp` (hidden, one per process): a crashed writer leaves
 * at most that file behind, which no reader takes for a report or a record.
 * Errors are thrown as they come (callers wrap them: output-write-error.ts); the temporary file is
 * removed on any failure before the rename.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Where `path` is written before it is renamed into place. */
export function temporaryPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.afp-${process.pid}.tmp`);
}

/** Makes a rename inside `folder` durable; a folder that cannot be opened (some platforms) is left as is. */
function syncFolder(folder: string): void {
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

  /** Flushes, closes and renames the file into place. */
  commit(): void {
    try {
      fsyncSync(this.descriptor);
      closeSync(this.descriptor);
      this.descriptor = -1;
      renameSync(this.temporary, this.path);
    } catch (error) {
      this.abort();
      throw error;
    }
    syncFolder(dirname(this.path));
  }

  /** Drops what was written: the path keeps what it held. */
  abort(): void {
    if (this.descriptor >= 0) closeSync(this.descriptor);
    this.descriptor = -1;
    rmSync(this.temporary, { force: true });
  }
}

/** Writes `data` to `path` atomically (see the header). */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const file = new AtomicFile(path, mode);
  file.write(data);
  file.commit();
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
}
