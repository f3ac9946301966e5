/**
 * Group commit for `afp serve --data`: requests are handled in memory in arrival order, their
 * log entries gather in the command log's open batch, one SQLite transaction commits the batch,
 * and only then do that batch's answers leave; the WAL is fsynced off the event loop.
 *
 * When a batch commits: at the end of the event-loop turn that opened it (`setImmediate`: every
 * request whose bytes arrived in that turn is handled first, so the batch grows with the load and
 * a lone request waits for nothing but its own commit), or at once when it reaches
 * `entriesMax` entries or `charsMax` characters — the wait is bounded by one loop turn, the batch
 * by both limits. A commit writes the batch's frames into the WAL (synchronous=NORMAL: in the
 * kernel, safe from a crash or kill -9 of afp), and then a sync (command-log.ts `syncWal`, an
 * fdatasync on libuv's pool) makes them safe from power loss. At most one sync is in flight:
 * batches committed meanwhile wait for the next, which starts as the current one returns.
 * Answers leave at the commit by default (the promise is against the death of the process; a
 * power loss may take the writes of the sync in flight), or after the sync with
 * `answerAfterSync` (`--fsync-answers`: then a closed-loop client also waits for the disk's
 * fsync latency, which bounds its rate — bench/write-phase.ts).
 *
 * Invariants:
 * - No answer leaves before every entry appended before it is committed (and synced, with
 *   `answerAfterSync`) (`hold`): an answer of a request that changed nothing still waits, since it
 *   may show state those entries wrote (a read after a write).
 * - A failed commit rejects its batch's holds (rolled back: the edge answers 503), a failed sync every
 *   hold not yet released (what is on disk is unknown); either closes the gate at once (nothing more
 *   is handled: the state in memory is ahead of the disk) and calls `onFailure` once; afp serve then
 *   stops and exits 1, and the next start replays what is on disk. Batches committed before a failed
 *   commit are in the WAL: their sync goes on (and releases their answers, with `answerAfterSync`).
 * - `flush` (a graceful close) commits and syncs on the calling thread: it returns with everything on disk.
 */
import type { AnswerGate } from '../http/server.ts';
import type { CommandLog } from './command-log.ts';

/** Entries in one batch at most (a turn that handles more commits mid-turn). */
export const BATCH_ENTRIES_MAX = 4_096;
/** Characters of entries and bodies in one batch at most (~16 MB: 256 bodies at the 64 KiB limit). */
export const BATCH_CHARS_MAX = 16 * 1024 * 1024;

export class CommitFailed extends Error {}

export interface GroupCommitOptions {
  readonly log: CommandLog;
  /** Called once, when a commit fails (serve stops and exits 1). */
  readonly onFailure: (error: string) => void;
  /**
   * Called after a batch committed at the end of its turn, when the state in memory is exactly the
   * log's (every command applied is committed): where afp serve takes its checkpoints.
   */
  readonly onCommitted?: () => void;
  readonly entriesMax?: number;
  readonly charsMax?: number;
  /**
   * true: an answer waits for the fsync of its batch (safe from power loss too; `afp serve
   * --fsync-answers`). false (default): it leaves once its batch is committed, in the kernel (safe
   * from a crash or kill -9 of afp); the fsync follows off the loop, one in flight at a time.
   */
  readonly answerAfterSync?: boolean;
}

export class GroupCommit implements AnswerGate {
  private readonly log: CommandLog;
  private readonly onFailure: (error: string) => void;
  private readonly onCommitted: (() => void) | undefined;
  private readonly entriesMax: number;
  private readonly charsMax: number;
  private readonly answerAfterSync: boolean;
  /** The holds of the open batch, created on the first hold. */
  private opened: PromiseWithResolvers<void> | null = null;
  /** Batches committed whose sync has not started yet, and their holds. */
  private committed: PromiseWithResolvers<void> | null = null;
  /** The holds the sync in flight releases; null: no sync in flight. */
  private syncing: PromiseWithResolvers<void> | null = null;
  private scheduled = false;
  private failure: string | null = null;
  /** Batches committed, their entries, and the WAL syncs that made them durable (the bench and the tests read them). */
  batches = 0;
  entries = 0;
  syncs = 0;

  constructor(options: GroupCommitOptions) {
    this.log = options.log;
    this.onFailure = options.onFailure;
    this.onCommitted = options.onCommitted;
    this.entriesMax = options.entriesMax ?? BATCH_ENTRIES_MAX;
    this.charsMax = options.charsMax ?? BATCH_CHARS_MAX;
    this.answerAfterSync = options.answerAfterSync ?? false;
  }

  /** False once a commit or a sync failed: nothing more may be handled. */
  get open(): boolean {
    return this.failure === null;
  }

  /** Called after each append: commits at once past a bound, else at the end of this turn. */
  appended(): void {
    if (this.log.pendingEntries >= this.entriesMax || this.log.pendingChars >= this.charsMax) {
      this.commit();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.commit()) this.onCommitted?.();
    });
  }

  /** null: everything appended is durable, answer now; else answer when it resolves (rejects = 503). */
  hold(): Promise<void> | null {
    if (this.failure !== null) return Promise.reject(new CommitFailed(this.failure));
    if (this.log.pendingEntries > 0) return (this.opened ??= deferred()).promise;
    return this.answerAfterSync ? ((this.committed ?? this.syncing)?.promise ?? null) : null;
  }

  /** Commits the open batch and syncs the WAL on this thread (a graceful close); true when entries were committed. */
  flush(): boolean {
    const committed = this.commit();
    const waiting = [this.committed, this.syncing];
    this.committed = null;
    this.syncing = null;
    const error = this.log.syncWalNow();
    if (error !== null) {
      for (const holds of waiting) holds?.reject(new CommitFailed(error));
      this.fail(error);
      return false;
    }
    for (const holds of waiting) holds?.resolve();
    return committed;
  }

  /** Commits the open batch (its holds released now, or with answerAfterSync by the next sync); true when entries were committed. */
  private commit(): boolean {
    const opened = this.opened;
    this.opened = null;
    const outcome = this.log.commit();
    if (!outcome.ok) {
      // Rolled back: its holds are refused. Batches committed before it are in the WAL; their sync goes on.
      opened?.reject(new CommitFailed(outcome.error));
      this.stop(outcome.error);
      return false;
    }
    if (outcome.entries === 0) {
      opened?.resolve(); // (not reached: a hold on an empty batch waits on the committed ones instead)
      return false;
    }
    this.batches++;
    this.entries += outcome.entries;
    const committed = (this.committed ??= deferred());
    if (this.answerAfterSync) {
      if (opened !== null) committed.promise.then(opened.resolve, opened.reject);
    } else opened?.resolve();
    this.startSync();
    return true;
  }

  /** Starts a sync of the committed batches unless one is in flight (then the next starts when it returns). */
  private startSync(): void {
    if (this.syncing !== null || this.committed === null) return;
    const syncing = this.committed;
    this.committed = null;
    this.syncing = syncing;
    this.log.syncWal((error) => {
      if (this.syncing !== syncing) return; // flush() settled these holds meanwhile
      this.syncing = null;
      if (error !== null) {
        syncing.reject(new CommitFailed(error));
        this.fail(error);
        return;
      }
      this.syncs++;
      syncing.resolve();
      this.startSync();
    });
  }

  /** A failed sync: what is on disk is unknown, so every hold not released is rejected; then `stop`. */
  private fail(error: string): void {
    for (const holds of [this.opened, this.committed, this.syncing]) holds?.reject(new CommitFailed(error));
    this.opened = this.committed = this.syncing = null;
    this.stop(error);
  }

  /** The first failure closes the gate (nothing more is handled) and calls `onFailure` once. */
  private stop(error: string): void {
    if (this.failure !== null) return;
    this.failure = error;
    this.onFailure(error);
  }
}

/** A promise to settle later; a rejection nobody holds is not an unhandled one. */
function deferred(): PromiseWithResolvers<void> {
  const holds = Promise.withResolvers<void>();
  holds.promise.catch(() => undefined);
  return holds;
}
