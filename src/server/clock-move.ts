/**
 * A clock move of `afp serve` (POST /_afp/clock) in slices, so that no move blocks the event loop
 * (GET /health, other requests) for more than about SLICE_MS: the platform advances in steps (at
 * least to the next timer; a virtual span that grows while steps are cheap and shrinks while they
 * are not, so funding instants are applied many at once, funding-spans.ts), and after SLICE_MS of
 * work the slice ends at the last instant reached, the served clock stands there, and the loop
 * gets a turn before the next slice. The answer leaves when the last slice reached the target.
 * The state at an instant does not depend on the steps that reached it.
 * Rules:
 * - Each slice is one 'clock' command of the log (afp serve --data) from where the clock stood to
 *   where the slice ended, appended right after it was applied, in the same turn: nothing else
 *   runs between the two, so the log and the state agree at the end of every turn (where group
 *   commit and checkpoints look), and recovery replays the slices one by one as it replays any
 *   move. (A move recorded before it is applied, as the other admin rows are, would have to know
 *   where its slice ends before doing the work.)
 * - Requests that arrive between two slices run at the instant the clock stands at (part of the
 *   way): a move is a sequence of smaller moves, which the log shows.
 * - Moves run one at a time, in arrival order; a move whose target the clock has already passed
 *   (another move, or the wall clock) does nothing and answers the clock.
 * - While the platform lock is held (a snapshot or revert in slices, platform-lock.ts) the next
 *   slice waits for its turn.
 * Limits: a slice handles at least one instant (a single instant with very much due is not split).
 */
import type { Platform } from '../platform/platform.ts';
import type { AdminCommand } from './admin-command.ts';
import type { PlatformLock } from './platform-lock.ts';
import type { ServeClock } from './serve-clock.ts';

/** The work of one slice, in ms of wall time: well under the 100 ms a health probe may wait. */
const SLICE_MS = 20;
/** The bounds of one advance's virtual span (adaptStep): one ms to a year. */
const STEP_MIN_MS = 1;
const STEP_MAX_MS = 365 * 86_400_000;

export interface ClockMoverOptions {
  readonly platform: Platform;
  readonly clock: ServeClock;
  readonly record?: ((command: AdminCommand) => void) | undefined;
  readonly onClockMoved: () => void;
  readonly sliceMs?: number;
  readonly lock?: PlatformLock;
}

export class ClockMover {
  private readonly options: ClockMoverOptions;
  private readonly sliceMs: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** Slices run so far, and the longest one (ms): GET /_afp/state shows them. */
  private slices = 0;
  private longestSliceMs = 0;
  /** The virtual span one advance covers (adaptStep): short while instants are busy, long while they are not. */
  private stepMs = STEP_MIN_MS;

  constructor(options: ClockMoverOptions) {
    this.options = options;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
  }

  /** Moves the clock (and the platform) to `targetMs`, in slices; resolves when it is there. */
  move(targetMs: number): Promise<void> {
    const run = this.queue.then(() => this.run(targetMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  view(): { slices: number; longest_slice_ms: number } {
    return { slices: this.slices, longest_slice_ms: Math.round(this.longestSliceMs * 10) / 10 };
  }

  private async run(targetMs: number): Promise<void> {
    const lock = this.options.lock;
    for (;;) {
      const done =
        lock === undefined || lock.free
          ? this.slice(targetMs)
          : await (lock.later(() => this.slice(targetMs), { bounded: false }) as Promise<boolean>);
      this.options.onClockMoved();
      if (done) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Doubles the virtual step after an advance that took under an eighth of a slice, halves it after
   * one over half: a quiet century is crossed in a few hundred advances, each of which applies the
   * funding instants it spans at once (funding-spans.ts), not one advance per daily timer.
   */
  private adaptStep(tookMs: number): void {
    if (tookMs < this.sliceMs / 8) this.stepMs = Math.min(STEP_MAX_MS, this.stepMs * 2);
    else if (tookMs > this.sliceMs / 2) this.stepMs = Math.max(STEP_MIN_MS, Math.floor(this.stepMs / 2));
  }

  /** One slice: the instants due up to `targetMs` for at most sliceMs, then the clock there and the command logged. True when the target is reached. */
  private slice(targetMs: number): boolean {
    const { platform, clock } = this.options;
    const fromMs = clock.nowMs();
    const startedMs = performance.now();
    let reachedMs = Math.max(fromMs, platform.nowMs);
    do {
      const nextMs = platform.nextTimerMs();
      const stepStartedMs = performance.now();
      const stepEndMs = Math.max(reachedMs, nextMs ?? targetMs, reachedMs + this.stepMs);
      reachedMs = Math.min(targetMs, stepEndMs);
      // Funding is applied where the slice ends (the last advance below), not at every step.
      platform.advanceTo(reachedMs, false);
      this.adaptStep(performance.now() - stepStartedMs);
    } while (reachedMs < targetMs && performance.now() - startedMs < this.sliceMs);
    clock.moveTo(reachedMs);
    // A wall clock may have run past the instant reached: the platform follows it (as replay will).
    const toMs = Math.max(clock.nowMs(), reachedMs);
    platform.advanceTo(toMs);
    this.options.record?.({ kind: 'clock', fromMs, toMs });
    this.slices++;
    this.longestSliceMs = Math.max(this.longestSliceMs, performance.now() - startedMs);
    return toMs >= targetMs;
  }
}
