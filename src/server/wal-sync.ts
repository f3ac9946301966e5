/**
 * The fsync of `afp serve --data FILE`'s write-ahead log, off the event loop. The command log runs
 * SQLite with journal_mode=WAL and synchronous=NORMAL: a commit writes its frames to FILE-wal (the
 * kernel has them: a kill -9 of afp loses nothing committed) but does not fsync. This file pays the
 * fsync that synchronous=FULL would have paid inside the commit, as `fdatasync(FILE-wal)` on libuv's
 * thread pool, so the loop goes on handling the next batch while the disk flushes the last one.
 * group-commit.ts answers at the commit (safe from a crash of afp; a power loss may take the writes
 * of the sync in flight), or with `--fsync-answers` only once a sync that started after the
 * commit has returned: "answered" then means "on disk" against power loss too, as with FULL.
 * Why fdatasync of FILE-wal is enough: in WAL mode a transaction is durable once its frames (with the
 * commit frame) are on disk in the WAL; SQLite itself syncs the WAL before copying it into FILE
 * and FILE after (its own checkpoints, synchronous=NORMAL), and the WAL header when it reuses the
 * file. The WAL file keeps its inode while the connection is open (locking_mode=EXCLUSIVE: only
 * this connection, and SQLite truncates or rewinds it, never replaces it), so one descriptor,
 * opened at the first sync, stays the right file.
 * Invariants: at most one sync in flight (the caller's rule: a batch committed meanwhile waits
 * for the next); a failed fdatasync is final (the kernel may have dropped the dirty pages: what
 * is on disk is unknown), reported once, and every later sync fails with it.
 */
import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';

export class WalSync {
  private readonly walFile: string;
  private fd: number | null = null;
  private failure: string | null = null;

  constructor(databaseFile: string) {
    this.walFile = `${databaseFile}-wal`;
  }

  /** Syncs every frame written to the WAL before this call; `done(null)` once on disk, else `done(error)`. */
  sync(done: (error: string | null) => void): void {
    const fd = this.descriptor();
    if (fd === null) {
      done(this.failure);
      return;
    }
    fdatasync(fd, (error) => {
      if (error !== null) this.fail(error);
      done(this.failure);
    });
  }

  /** The same, on the calling thread (a graceful close, when the loop has nothing else to do). */
  syncNow(): string | null {
    const fd = this.descriptor();
    if (fd === null) return this.failure;
    try {
      fdatasyncSync(fd);
    } catch (error) {
      this.fail(error);
    }
    return this.failure;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private descriptor(): number | null {
    if (this.failure !== null) return null;
    try {
      this.fd ??= openSync(this.walFile, 'r');
      return this.fd;
    } catch (error) {
      this.fail(error);
      return null;
    }
  }

  private fail(error: unknown): void {
    this.failure ??= `cannot sync ${this.walFile}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
