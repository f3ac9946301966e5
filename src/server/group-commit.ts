/**
 * Group commit for `afp serve --data`: requests are handled in memory in arrival order, their
 * log entries gather in the command log's open batch, one SQLite transaction commits the batch,
 * and only then do that batch's answers leave. One fsync is paid per batch instead of per request.
 *
 * When a batch commits: at the end of the event-loop turn that opened it (`setImmediate`: every
 * request whose bytes arrived in that turn is handled first, so the batch grows with the load and
 * a lone request waits for nothing but its own commit), or at once when it reaches
 * `entriesMax` entries or `charsMax` characters — the wait is bounded by one loop turn, the batch
 * by both limits. node:sqlite is synchronous: a commit blocks the loop for its fsync, and no
 * commit is ever in flight across turns, so "nothing pending" means "everything is on disk".
 *
 * Invariants:
 * - No answer leaves before every entry appended before it is durable (`hold`): an answer of a
 *   request that changed nothing still waits for the open batch, since it may show state that
 *   batch wrote (a read after a write in the same turn).
 * - A failed commit rejects the whole batch's holds (the edge answers 503), closes the gate at
 *   once (nothing more is handled: the state in memory is ahead of the disk) and calls
 *   `onFailure` once; afp serve then stops and exits 1, and the next start replays what is on disk.
 * Non-goals: committing on a worker thread (overlapping the fsync with handling) — measured
 * enough without it (docs: "Durability").
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
}

export class GroupCommit implements AnswerGate {
  private readonly log: CommandLog;
  private readonly onFailure: (error: string) => void;
  private readonly onCommitted: (() => void) | undefined;
  private readonly entriesMax: number;
  private readonly charsMax: number;
  /** The holds of the open batch, created on the first hold. */
  private waiting: PromiseWithResolvers<void> | null = null;
  private scheduled = false;
  private failure: string | null = null;
  /** Batches committed, and their entries (the bench and the tests read them). */
  batches = 0;
  entries = 0;

  constructor(options: GroupCommitOptions) {
    this.log = options.log;
    this.onFailure = options.onFailure;
    this.onCommitted = options.onCommitted;
    this.entriesMax = options.entriesMax ?? BATCH_ENTRIES_MAX;
    this.charsMax = options.charsMax ?? BATCH_CHARS_MAX;
  }

  /** False once a commit failed: nothing more may be handled. */
  get open(): boolean {
    return this.failure === null;
  }

  /** Called after each append: commits at once past a bound, else at the end of this turn. */
  appended(): void {
    if (this.log.pendingEntries >= this.entriesMax || this.log.pendingChars >= this.charsMax) {
      this.flush();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.flush()) this.onCommitted?.();
    });
  }

  /** null: everything appended is durable, answer now; else answer when it resolves (rejects = 503). */
  hold(): Promise<void> | null {
    if (this.failure !== null) return Promise.reject(new CommitFailed(this.failure));
    if (this.log.pendingEntries === 0) return null;
    this.waiting ??= Promise.withResolvers<void>();
    return this.waiting.promise;
  }

  /** Commits the open batch now and settles its holds (shutdown calls it too); true when entries were committed. */
  flush(): boolean {
    const waiting = this.waiting;
    this.waiting = null;
    const outcome = this.log.commit();
    if (outcome.ok) {
      if (outcome.entries > 0) {
        this.batches++;
        this.entries += outcome.entries;
      }
      waiting?.resolve();
      return outcome.entries > 0;
    }
    waiting?.reject(new CommitFailed(outcome.error));
    if (this.failure !== null) return false;
    this.failure = outcome.error;
    this.onFailure(outcome.error);
    return false;
  }
}
