/**
 * The platform lock of `afp serve`: long admin work on the whole platform (POST /_afp/snapshot,
 * POST /_afp/revert: a copy of every record; POST /_afp/reset, GET /_afp/digest, the ledger audit of
 * GET /_afp/state) runs as a sliced job that holds it, so the event loop
 * stays free — GET /health answers between two slices — while nothing else touches the platform
 * until the job is done.
 *
 * Who waits, and how:
 * - A job runs in slices of about JOB_SLICE_MS of work (`SlicedJob.step` pieces of STEP_UNITS
 *   values), the loop getting a turn (setImmediate) between two slices; its `finish` runs right
 *   after its last step, in that turn, so its answer is computed before anyone else sees the platform.
 * - Synchronous platform work (a request's dispatch, an admin row, a clock move's slice, the
 *   timer pump) runs now when the lock is free, else waits for its turn (`later`). Turns run in
 *   arrival order, each one whole, as soon as the job ends; a job started inside a turn (a queued
 *   snapshot row) starts there and then, ahead of the turns behind it.
 * - Asynchronous platform work that spans turns (an MCP request's tool calls) holds the lock
 *   `shared`: others' turns interleave with it as they always did, but no job starts until it ends,
 *   and while a job waits no new shared holder starts (a job is not starved).
 * Limits: at most `queueMax` requests wait (`later`/`shared`, bounded); one more is refused with
 * LockBusy (503 + Retry-After at the edge, as the load shedder answers). Internal waiters (the timer
 * pump, a clock move's next slice) are bounded by their own nature (one each) and never refused.
 * A step is small whatever the state: a buffer (a casino journal's) is copied a piece per step, and
 * the copy's memo never rehashes more than a shard (src/platform/identity-memo.ts).
 * GET /_afp/state shows the lock (`lock`): held, waiting, refused, jobs, slices and the longest
 * slice in wall and CPU ms (loop-block.ts: on a loaded machine the wall time counts waits for a core),
 * since start and for the last job started (`last_job_*`).
 * Non-goals: priorities, fairness between clients, cancelling a job.
 */
import { startBlock, type BlockTime } from './loop-block.ts';

/**
 * Wall ms of work per slice of a job. A /health probe waits at most a slice plus whatever collection
 * falls into it: copying a platform (snapshot, revert) keeps most of what it makes, so each
 * scavenge of the 32 MiB young generation moves up to ~15 MB (~30 ms here) and a mark-compact's
 * pause comes on top; 10 ms of work leaves that room under the 100 ms bound (issue 43), for one
 * more loop turn per 10 ms (a few µs).
 */
export const JOB_SLICE_MS = 10;
/** Values copied per step of a job between two looks at the wall clock. */
const STEP_UNITS = 2_048;
/** Requests that may wait for the lock at once (each is also in flight for the load shedder). */
export const LOCK_QUEUE_MAX = 1_024;

/** A refusal: the queue is full. */
export interface LockBusy {
  readonly busy: true;
  readonly retryAfterSeconds: number;
  readonly message: string;
}

export function isLockBusy(value: unknown): value is LockBusy {
  return typeof value === 'object' && value !== null && (value as { busy?: unknown }).busy === true;
}

/** Work done in bounded steps while the lock is held. */
export interface SlicedJob<T> {
  /** About `units` values of work; true when nothing is left. */
  step(units: number): boolean;
  /** Runs right after the last step, in the same turn: the job's result. */
  finish(): T;
}

type Waiter =
  | { readonly kind: 'turn'; readonly run: () => void; readonly bounded: boolean }
  | { readonly kind: 'shared'; readonly run: () => void; readonly bounded: boolean }
  | { readonly kind: 'job'; readonly run: () => void; readonly bounded: false };

export class PlatformLock {
  private readonly queueMax: number;
  private readonly sliceMs: number;
  /** Oldest first. */
  private readonly waiting: Waiter[] = [];
  private boundedWaiting = 0;
  private jobRunning = false;
  private sharedHolders = 0;
  /** True while a waiter's work runs from `drain` (a job it starts starts at once). */
  private inTurn = false;
  /** Counts since start (GET /_afp/state `lock`). */
  private jobs = 0;
  private slices = 0;
  private longestSliceMs = 0;
  private longestSliceCpuMs = 0;
  private refused = 0;
  private waitingMax = 0;
  /** The same figures for the last job started (the bench's travel part reads them per admin call). */
  private lastJobSlices = 0;
  private lastJobLongestSliceMs = 0;
  private lastJobLongestSliceCpuMs = 0;

  constructor(options: { queueMax?: number; sliceMs?: number } = {}) {
    this.queueMax = options.queueMax ?? LOCK_QUEUE_MAX;
    this.sliceMs = options.sliceMs ?? JOB_SLICE_MS;
  }

  /** No job holds the lock and nobody waits: platform work may run now. */
  get free(): boolean {
    return !this.jobRunning && this.waiting.length === 0;
  }

  /** Runs `work` now when free, else in its turn; its value (or LockBusy when `bounded` and the queue is full). */
  later<T>(work: () => T, options: { bounded: boolean } = { bounded: true }): Promise<T> | LockBusy {
    const settled = Promise.withResolvers<T>();
    if (this.free) settleWith(settled, work);
    else {
      const refused = this.refusal(options.bounded);
      if (refused !== null) return refused;
      this.enqueue({ kind: 'turn', bounded: options.bounded, run: () => settleWith(settled, work) });
    }
    return settled.promise;
  }

  /** Runs asynchronous platform work; no job starts until it settles. */
  shared<T>(work: () => Promise<T>): Promise<T> | LockBusy {
    const settled = Promise.withResolvers<T>();
    const run = (): void => {
      this.sharedHolders++;
      const release = (): void => {
        this.sharedHolders--;
        this.drain();
      };
      work()
        .then(settled.resolve, settled.reject)
        .finally(release)
        .catch(() => undefined);
    };
    if (this.free) run();
    else {
      const refused = this.refusal(true);
      if (refused !== null) return refused;
      this.enqueue({ kind: 'shared', bounded: true, run });
    }
    return settled.promise;
  }

  /** Runs a sliced job holding the lock: `make` when it starts (at once when free or inside a turn), then its slices. */
  job<T>(make: () => SlicedJob<T>): Promise<T> {
    const settled = Promise.withResolvers<T>();
    const start = (): void => this.startJob(make, settled);
    const waiter: Waiter = { kind: 'job', bounded: false, run: start };
    if (!this.jobRunning && this.sharedHolders === 0 && (this.inTurn || this.waiting.length === 0)) start();
    else if (this.inTurn) this.waiting.unshift(waiter);
    else this.enqueue(waiter);
    return settled.promise;
  }

  /** A sliced job holds the platform now (waiters aside). */
  get held(): boolean {
    return this.jobRunning;
  }

  /** GET /_afp/state's `lock`. */
  view(): Record<string, number | boolean> {
    return {
      held: this.jobRunning,
      waiting: this.waiting.length,
      waiting_max: this.waitingMax,
      queue_max: this.queueMax,
      refused: this.refused,
      jobs: this.jobs,
      slices: this.slices,
      longest_slice_ms: Math.round(this.longestSliceMs * 10) / 10,
      longest_slice_cpu_ms: Math.round(this.longestSliceCpuMs * 10) / 10,
      last_job_slices: this.lastJobSlices,
      last_job_longest_slice_ms: Math.round(this.lastJobLongestSliceMs * 10) / 10,
      last_job_longest_slice_cpu_ms: Math.round(this.lastJobLongestSliceCpuMs * 10) / 10,
    };
  }

  private refusal(bounded: boolean): LockBusy | null {
    if (!bounded || this.boundedWaiting < this.queueMax) return null;
    this.refused++;
    return {
      busy: true,
      retryAfterSeconds: 1,
      message: `server busy: an admin job (snapshot or revert) holds the platform and ${this.boundedWaiting} requests wait for it (limit ${this.queueMax}); retry later`,
    };
  }

  private enqueue(waiter: Waiter): void {
    this.waiting.push(waiter);
    if (waiter.bounded) this.boundedWaiting++;
    this.waitingMax = Math.max(this.waitingMax, this.waiting.length);
  }

  private startJob<T>(make: () => SlicedJob<T>, settled: PromiseWithResolvers<T>): void {
    this.jobRunning = true;
    this.jobs++;
    this.lastJobSlices = 0;
    this.lastJobLongestSliceMs = 0;
    this.lastJobLongestSliceCpuMs = 0;
    let job: SlicedJob<T>;
    try {
      job = make();
    } catch (error) {
      this.endJob();
      settled.reject(error);
      return;
    }
    this.slice(job, settled);
  }

  /** One slice of `job`: steps for about sliceMs; then its end, or the next slice after the loop's turn. */
  private slice<T>(job: SlicedJob<T>, settled: PromiseWithResolvers<T>): void {
    const startedMs = performance.now();
    const block = startBlock();
    try {
      let done: boolean;
      do done = job.step(STEP_UNITS);
      while (!done && performance.now() - startedMs < this.sliceMs);
      const value = done ? { result: job.finish() } : null;
      this.noteSlice(block());
      if (value === null) {
        setImmediate(() => this.slice(job, settled));
        return;
      }
      this.endJob();
      settled.resolve(value.result);
    } catch (error) {
      this.endJob();
      settled.reject(error);
    }
  }

  private noteSlice(time: BlockTime): void {
    this.slices++;
    this.longestSliceMs = Math.max(this.longestSliceMs, time.wallMs);
    this.longestSliceCpuMs = Math.max(this.longestSliceCpuMs, time.cpuMs);
    this.lastJobSlices++;
    this.lastJobLongestSliceMs = Math.max(this.lastJobLongestSliceMs, time.wallMs);
    this.lastJobLongestSliceCpuMs = Math.max(this.lastJobLongestSliceCpuMs, time.cpuMs);
  }

  private endJob(): void {
    this.jobRunning = false;
    this.drain();
  }

  /** Runs the waiters in order until a job takes the lock (or one must wait for shared holders). */
  private drain(): void {
    if (this.inTurn) return;
    this.inTurn = true;
    try {
      for (let next = this.waiting[0]; next !== undefined && !this.jobRunning; next = this.waiting[0]) {
        if (next.kind === 'job' && this.sharedHolders > 0) break;
        this.waiting.shift();
        if (next.bounded) this.boundedWaiting--;
        next.run();
      }
    } finally {
      this.inTurn = false;
    }
  }
}

function settleWith<T>(settled: PromiseWithResolvers<T>, work: () => T): void {
  try {
    settled.resolve(work());
  } catch (error) {
    settled.reject(error);
  }
}

/** Runs a job's steps and its finish in one go (replay and recovery, and a server without a lock). */
export function runWhole<T>(job: SlicedJob<T>): T {
  while (!job.step(Number.MAX_SAFE_INTEGER));
  return job.finish();
}

/** `job` whose finish also maps its value (an admin row's answer, computed in the job's last turn). */
export function mapJob<T, U>(job: SlicedJob<T>, map: (value: T) => U): SlicedJob<U> {
  return { step: (units) => job.step(units), finish: () => map(job.finish()) };
}
